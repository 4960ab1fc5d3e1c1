// 변동 알림 on the 알림 tab: three switches — a starred or held coin's wallet suspended or
// reopened, a starred or held coin flagged, cleared or delisted, any new listing — each saved at
// once (`PUT /api/alerts/changes`). What they tell arrives as every alert does.
const $$ = (selector) => [...document.querySelectorAll(selector)];

export function setupChangeAlerts({ call, toast }) {
  const boxes = () => $$("#change-alerts input[data-topic]");

  async function load() {
    try {
      const body = await call("GET", "/api/alerts/changes");
      for (const box of boxes()) box.checked = Boolean(body[box.dataset.topic]);
    } catch (_) { /* the switches keep what they show */ }
  }

  for (const box of boxes()) {
    box.addEventListener("change", async () => {
      box.disabled = true;
      try {
        const body = await call("PUT", "/api/alerts/changes", JSON.stringify({ [box.dataset.topic]: box.checked }));
        for (const other of boxes()) other.checked = Boolean(body[other.dataset.topic]);
      } catch (error) {
        box.checked = !box.checked;
        toast(error.message);
      } finally {
        box.disabled = false;
      }
    });
  }
  return { load };
}
