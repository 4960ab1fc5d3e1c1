// The coin page's 실행 가능 김프: what an amount of won makes each way between this exchange and a
// global venue, walked through both live books after the withdrawal fee — or which wallet is
// shut. The server words every line; refreshed every ten seconds while the page shows it.
import { get } from "./http.js";
import { marketOf } from "./coin-parts.js";

const $ = (selector, root = document) => root.querySelector(selector);

export function createExecutablePremium({ t, state }) {
  let shown = null;
  let timer = null;

  async function load() {
    const section = $("#executable-premium");
    const id = shown;
    const market = id && marketOf(id);
    if (!market || !market.code.startsWith("KRW-") || market.code === "KRW-USDT") { section.hidden = true; return; }
    // The amount as typed (`1,000,000` too): the server reads it and refuses what it cannot; an
    // empty field asks for the default ₩1,000,000 it shows.
    const typed = $("#executable-amount").value.trim();
    const query = new URLSearchParams({ exchange: market.exchange, symbol: market.code.slice(4), venue: $("#executable-venue").value,
      amount: typed || "1000000", lang: state.lang });
    try {
      const body = await get(`/api/premium/executable?${query}`);
      if (shown !== id) return;
      $("#executable-error").hidden = true;
      $("#executable-amount").removeAttribute("aria-invalid");
      for (const way of body.ways) {
        const line = $(`#executable-premium [data-way="${way.direction}"]`);
        if (!line) continue;
        line.dataset.state = way.state;
        $(".figure", line).textContent = way.text;
        $(".figure", line).className = `figure ${way.tone}`;
      }
      const notes = $("#executable-notes");
      notes.textContent = "";
      for (const note of body.notes) {
        const item = document.createElement("li");
        item.textContent = note;
        notes.append(item);
      }
      section.hidden = false;
    } catch (error) {
      if (shown !== id) return;
      // A refused amount is said under the field, and no figure stays that is not for the amount
      // typed (nor its notes); anything else hides the section.
      if (error.fromServer) {
        $("#executable-error").textContent = error.message;
        $("#executable-error").hidden = false;
        $("#executable-amount").setAttribute("aria-invalid", "true");
        for (const line of document.querySelectorAll("#executable-premium [data-way]")) {
          line.dataset.state = "refused";
          $(".figure", line).textContent = "-";
          $(".figure", line).className = "figure";
        }
        $("#executable-notes").textContent = "";
      } else section.hidden = true;
    }
  }

  $("#executable-amount").addEventListener("change", load);
  $("#executable-venue").addEventListener("change", load);

  return {
    show(id) {
      shown = id;
      load();
      clearInterval(timer);
      timer = setInterval(load, 10000);
    },
    hide() {
      shown = null;
      clearInterval(timer);
      $("#executable-premium").hidden = true;
    },
    applyLanguage() {
      $("#executable-title").textContent = t("executableHeading");
      $("#executable-amount-label").textContent = t("amountKRW");
      $("#executable-venue-label").textContent = t("globalVenue");
      $("#executable-premium [data-way=toKorea] .label").textContent = t("executableToKorea");
      $("#executable-premium [data-way=abroad] .label").textContent = t("executableAbroad");
      if (shown) load();
    },
  };
}
