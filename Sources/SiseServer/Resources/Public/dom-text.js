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
