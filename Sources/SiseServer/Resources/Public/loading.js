// A view waiting for its first answer says so where the answer will be: under a table's
// headings (a note right after the table, so it never sizes the columns) or as one item of a
// list, reading "불러오는 중…". A list's item goes when the list is filled; `loaded` takes
// either away. A first answer that could not come says so in the same place (`failed`).

export function loading(list, words) {
  if (!list || noteOf(list)) return;
  const table = list.tagName === "TBODY" ? list.closest("table") : null;
  const note = document.createElement(table ? "p" : list.tagName === "DL" ? "div" : "li");
  note.className = "loading-row";
  if (note.tagName !== "LI") note.setAttribute("role", "status");  // a list item keeps its own role
  note.dataset.loadingFor = list.id;
  note.textContent = words;
  if (table) table.after(note); else list.prepend(note);
}

export function loaded(list) {
  const note = list && noteOf(list);
  if (note) note.remove();
}

function noteOf(list) {
  return document.querySelector(`.loading-row[data-loading-for="${CSS.escape(list.id)}"]`);
}

// The first answer could not come: the note says why — the server's own words when it answered
// (a refusal, "still loading"), `unreachable` when nothing came — and is read out until the next try.
export function failed(list, error, unreachable) {
  if (!list) return;
  const words = error && error.fromServer ? error.message : unreachable;
  loading(list, words);
  const note = noteOf(list);
  note.textContent = words;
  note.classList.add("failed");
  if (note.tagName !== "LI") note.setAttribute("role", "alert");
}
