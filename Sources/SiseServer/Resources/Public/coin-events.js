// A coin's timeline: every change the server recorded on any exchange (listed, delisted, flagged,
// cleared, a wallet suspended or reopened), newest first, with the price then and an hour, a day
// and a week later — each change as the server words it, its tone as the server decides.
import { get } from "./http.js";

function cell(tag, text, className) {
  const made = document.createElement(tag);
  made.textContent = text;
  if (className) made.className = className;
  return made;
}

// Fills `list` with the coin's events (every coin's when `symbol` is null: each item then says
// which coin, `data-symbol`); the section stays hidden when the server keeps none.
export async function showEvents(section, list, symbol, t, lang, { limit = 20, named = false } = {}) {
  const coin = symbol ? `symbol=${encodeURIComponent(symbol)}&` : "";
  const body = await get(`/api/events?${coin}limit=${limit}&lang=${lang}`);
  list.textContent = "";
  for (const event of body.events) {
    const item = document.createElement("li");
    item.dataset.event = String(event.id);
    item.dataset.kind = event.kind;
    if (named) { item.dataset.symbol = event.symbol; item.dataset.exchange = event.exchange; }
    item.append(cell("span", event.time.slice(5, 16), "note"), cell("span", event.name, "venue"), cell("strong", event.text));
    if (event.priceText) item.append(cell("span", `${t("eventAtPrice")} ${event.priceText}`, "note"));
    for (const later of event.later) {
      const point = cell("span", `${later.label} ${later.text}`, `later ${later.tone}`);
      point.dataset.after = later.after;
      point.dataset.state = later.state;
      item.append(point);
    }
    list.append(item);
  }
  if (list.children.length === 0) list.append(cell("li", t("eventsNone"), "empty"));
  section.hidden = false;
}
