// A view waiting for its first answer says so, in the place the answer will fill: one row of a
// table (across every column) or one item of a list reading "불러오는 중…". Whatever fills the
// list replaces it; `loaded` takes it away where a view fills the list another way.

export function loading(list, words) {
  if (!list || list.querySelector(":scope > .loading-row")) return;
  let row;
  if (list.tagName === "TBODY") {
    row = document.createElement("tr");
    const cell = document.createElement("td");
    const table = list.closest("table");
    cell.colSpan = table ? Math.max(1, table.querySelectorAll("thead th").length) : 1;
    cell.textContent = words;
    row.append(cell);
  } else {
    row = document.createElement(list.tagName === "DL" ? "div" : "li");
    row.textContent = words;
  }
  row.className = "loading-row";
  row.setAttribute("role", "status");
  list.prepend(row);
}

export function loaded(list) {
  if (list) for (const row of list.querySelectorAll(":scope > .loading-row")) row.remove();
}
