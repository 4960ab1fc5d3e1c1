// What the board showed, kept on the device (at most every 5 s) so the app opens offline with it
// — marked stale with its age until live data replaces it.
const $ = (selector, root = document) => root.querySelector(selector);

// `page`: { t, view, rows } (read; the rows are refilled on a restore).
export function createSavedBoard(page) {
  let savedAt = 0;
  let showing = null;

  function showAge() {
    if (showing == null) return;
    const minutes = Math.max(0, Math.round((Date.now() - showing) / 60000));
    const age = minutes < 60 ? page.t("ageMinutes", { n: minutes }) : page.t("ageHours", { n: Math.round(minutes / 60) });
    const note = $("#last-board");
    note.textContent = page.t("lastBoard", { age });
    note.hidden = false;
  }
  setInterval(showAge, 30000);

  return {
    save() {
      if (Date.now() - savedAt < 5000 || page.view.tab !== "exchange") return;
      savedAt = Date.now();
      const { exchange, quote } = page.view;
      const board = { at: savedAt, exchange, quote, rows: page.rows.rows(), order: page.rows.order };
      try { localStorage.setItem("sise.lastBoard", JSON.stringify(board)); } catch (_) { /* storage full or refused: nothing to restore */ }
    },
    restore() {
      let saved = null;
      try { saved = JSON.parse(localStorage.getItem("sise.lastBoard") || "null"); } catch (_) { return; }
      const { exchange, quote } = page.view;
      if (!saved || !Array.isArray(saved.rows) || saved.exchange !== exchange || saved.quote !== quote || page.rows.size > 0) return;
      page.rows.snapshot(saved.rows, Array.isArray(saved.order) ? saved.order : saved.rows.map((row) => row.market));
      page.rows.markStale(true);
      showing = saved.at;
      showAge();
    },
    // Live data came: the saved board is gone from the screen.
    replaced() {
      showing = null;
      $("#last-board").hidden = true;
    },
  };
}
