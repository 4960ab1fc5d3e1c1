// Writing to the page only what changed. The live tables are filled again many times a second,
// mostly with what they already show: an unchanged element is left alone (no style or layout
// work, no frame drawn for nothing), and a changed text keeps its text node (its layout object is
// updated in place, not removed and made anew).

export function setText(element, text) {
  const node = element.firstChild;
  if (node && node === element.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.nodeValue !== text) node.nodeValue = text;
  } else if (element.textContent !== text) {
    element.textContent = text;
  }
}

// `hidden` set only when it changes: setting it again restyles the element every time.
export function show(element, shown) {
  if (element.hidden === shown) element.hidden = !shown;
}

// A figure that does not fit its cell at the page's face is set a step smaller (`tight`, then
// `tighter`) rather than cut: a change of +1,000.00 % or a price of 100 million on the narrowest
// phone. One layout read a step for the whole list, once it is drawn; a cell or a line inside it
// (`.amount`) counts as cut when its text is wider than its box.
export function fitFigures(cells) {
  const cut = (element) => element.scrollWidth > element.clientWidth + 1;
  for (const step of ["tight", "tighter"]) {
    const over = cells.filter((cell) => cut(cell) || Array.from(cell.querySelectorAll(".amount")).some(cut));
    if (over.length === 0) return;
    for (const cell of over) cell.classList.add(step);
  }
}

// A `<dt>label</dt><dd>value</dd>` pair at the end of `list`: `data` the dd's data attributes,
// `className` its classes (a figure's tone).
export function appendPair(list, label, value, { data = {}, className = "" } = {}) {
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  for (const [key, text] of Object.entries(data)) dd.dataset[key] = text;
  if (className) dd.className = className;
  dd.textContent = value;
  list.append(dt, dd);
}
