// The exchanges' notices as a list: when (KST), where, what kind, the title as text and a link to
// the exchange's own page (the server lets only https addresses through). The home of 코인정보
// shows the latest; a coin page those naming the coin.
import { get } from "./http.js";

function cell(tag, text, className) {
  const made = document.createElement(tag);
  made.textContent = text;
  if (className) made.className = className;
  return made;
}

// Fills `list` with `/api/notices?…` (`query`); the exchanges that cannot say why go in `note`.
export async function showNotices(list, note, query, t) {
  const body = await get(`/api/notices?${query}`);
  list.textContent = "";
  for (const notice of body.notices) {
    const item = document.createElement("li");
    item.dataset.notice = `${notice.exchange}:${notice.id}`;
    item.dataset.kind = notice.kind;
    item.dataset.symbols = (notice.symbols || []).join(",");
    const names = new Map(body.exchanges.map((source) => [source.exchange, source.name]));
    item.append(cell("span", notice.time.slice(5, 16), "note"), cell("span", names.get(notice.exchange) || notice.exchange, "venue"),
      cell("span", notice.kindText, "chip"));
    const title = notice.url ? document.createElement("a") : document.createElement("span");
    title.textContent = notice.title;
    if (notice.url) { title.href = notice.url; title.target = "_blank"; title.rel = "noopener noreferrer"; }
    item.append(title);
    list.append(item);
  }
  if (list.children.length === 0) list.append(cell("li", t("noticesNone"), "empty"));
  note.textContent = body.exchanges.map((source) => source.message).filter(Boolean).join(" · ");
  note.hidden = !note.textContent;
}
