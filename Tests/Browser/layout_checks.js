// The screenshot suite's layout rules, run in the page: returns what breaks them, as sentences.
// arguments[0]: true at phone widths (tap targets are checked there).
const phone = arguments[0];
const problems = [];
const width = document.documentElement.clientWidth;

const shows = (element) => {
  if (element.closest("[hidden], .sr-only")) return false;
  if (element.closest("svg") && element.tagName.toLowerCase() !== "svg") return false;
  const style = getComputedStyle(element);
  if (style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0) return false;
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
};
const describe = (element) => {
  let name = element.tagName.toLowerCase();
  if (element.id) name += `#${element.id}`;
  else if (element.classList.length) name += `.${[...element.classList].join(".")}`;
  for (const [key, value] of Object.entries(element.dataset)) { name += `[data-${key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}=${value}]`; break; }
  const text = (element.innerText || element.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ").slice(0, 24);
  return text ? `${name} "${text}"` : name;
};
// Inside an ancestor below <body> that clips or scrolls sideways (a table that scrolls itself, a
// cell that ellipsizes) and itself stays on screen.
const clipped = (element) => {
  for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
    if (getComputedStyle(parent).overflowX === "visible") continue;
    const area = parent.getBoundingClientRect();
    if (area.right <= width + 1 && area.left >= -1) return true;
  }
  return false;
};

// 1. The page itself never scrolls sideways.
const scrolled = document.documentElement.scrollWidth;
if (scrolled > width + 1) problems.push(`the page scrolls sideways (${scrolled} px wide on a ${width} px screen)`);
for (const root of [document.documentElement, document.body]) {
  if (getComputedStyle(root).overflowX === "hidden") problems.push(`${root.tagName.toLowerCase()} hides what runs off the side`);
}

// 2. Nothing visible runs past the right edge, unless inside an element that scrolls or clips
//    itself (and that element is on screen).
const all = [...document.body.querySelectorAll("*")].filter(shows);
const reported = new Set();
for (const element of all) {
  const box = element.getBoundingClientRect();
  if (box.right <= width + 1 && box.left >= -1) continue;
  if (getComputedStyle(element).position === "fixed" && box.width <= 1) continue;
  if (clipped(element)) continue;
  if ([...reported].some((outer) => outer.contains(element))) continue;
  reported.add(element);
  if (reported.size <= 8) problems.push(`${describe(element)} runs off the screen (${Math.round(box.left)}…${Math.round(box.right)} of ${width} px)`);
}

// 3. No heading, button or tab label wraps inside a word: a line ends between two letters.
const breakable = new Set([" ", "\u00a0", "/", "-", "·", ",", "\n"]);
const labels = all.filter((element) => element.matches("h1, h2, h3, h4, button, [role=tab], th, label > span, .chip, a.button"));
for (const element of labels) {
  const whole = document.createRange();
  whole.selectNodeContents(element);
  const lines = new Set([...whole.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
  if (lines.size <= 1) continue;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let previous = null;   // { char, top, height }
  let broken = null;
  let parent = null;
  for (let node = walker.nextNode(); node && !broken; node = walker.nextNode()) {
    if (!node.parentElement || !shows(node.parentElement)) continue;
    // Text in a block of its own (an icon over its label) starts a line by design.
    if (node.parentElement !== parent && getComputedStyle(node.parentElement).display !== "inline") previous = null;
    parent = node.parentElement;
    const text = node.nodeValue;
    for (let index = 0; index < text.length; index++) {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      const rect = range.getClientRects()[0];
      if (!rect || rect.width === 0) { previous = null; continue; }
      const char = text[index];
      if (previous && rect.top > previous.top + previous.height / 2 && !breakable.has(previous.char) && !breakable.has(char)) {
        broken = `${previous.char}/${char}`;
        break;
      }
      previous = { char, top: rect.top, height: rect.height };
    }
  }
  if (broken) problems.push(`${describe(element)} wraps inside a word (${broken})`);
}

// 4. No text touches the screen's side edges (4 px), outside what scrolls itself.
const edge = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let touching = 0;
for (let node = edge.nextNode(); node; node = edge.nextNode()) {
  const parent = node.parentElement;
  if (!node.nodeValue.trim() || !parent || !shows(parent) || clipped(parent)) continue;
  // Text cut short by its own box (an ellipsis) ends where the box does.
  const own = parent.getBoundingClientRect();
  const style = getComputedStyle(parent);
  const left = own.left + parseFloat(style.paddingLeft), right = own.right - parseFloat(style.paddingRight);
  if (style.overflowX !== "visible" && left >= 4 && right <= width - 4) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  for (const box of range.getClientRects()) {
    if (box.width === 0 || (box.left >= 4 && box.right <= width - 4)) continue;
    if (++touching <= 4) problems.push(`${describe(parent)} touches the screen's edge (${Math.round(box.left)}…${Math.round(box.right)} of ${width} px)`);
    break;
  }
}

// 5. A figure is never cut: a number in a numeric column shows whole (no ellipsis, nothing clipped).
let cut = 0;
for (const element of all.filter((element) => element.matches("td.num, td.num > *, dd"))) {
  if (element.scrollWidth <= element.clientWidth + 1) continue;
  if (++cut <= 6) problems.push(`${describe(element)} is cut (${element.scrollWidth} px of figures in ${element.clientWidth} px)`);
}
if (cut > 6) problems.push(`…and ${cut - 6} more cut figures`);

// 7. A figure is never partly under a column kept in place: wherever a swipe of a table that
//    scrolls itself comes to rest (set here as a swipe would leave it; a scroller that snaps
//    snaps), each cell of a row is wholly beside the row's kept cell, or wholly behind it.
let covered = 0;
for (const scroller of all.filter((element) => element.matches(".scroller") && element.scrollWidth > element.clientWidth + 1)) {
  const start = scroller.scrollLeft;
  const end = scroller.scrollWidth - scroller.clientWidth;
  const stops = [0, end];
  for (let at = 23; at < end; at += 41) stops.push(at);
  const rows = [...scroller.querySelectorAll("tr")].filter(shows).slice(0, 4);
  for (const at of stops) {
    scroller.scrollLeft = at;
    for (const tr of rows) {
      const kept = tr.firstElementChild;
      if (!kept || getComputedStyle(kept).position !== "sticky") continue;
      const edge = kept.getBoundingClientRect().right;
      const half = [...tr.children].slice(1).find((cell) => {
        const box = cell.getBoundingClientRect();
        // (Two pixels either side: a sub-pixel seam at the edge is no figure cut in two.)
        return cell.textContent.trim() && box.left < edge - 2 && box.right > edge + 2;
      });
      if (half && ++covered <= 4) problems.push(`${describe(half)} rests half under the kept column (a swipe to ${Math.round(scroller.scrollLeft)} px)`);
    }
  }
  scroller.scrollLeft = start;
}

// 8. Every chart drawn large enough to read a trend from has labelled axes: values and times
//    (a sparkline, under 160 px, is a mark beside a figure, not a chart).
for (const chart of [...document.querySelectorAll("svg[role=img]")].filter((svg) => !svg.closest("[hidden]") && svg.getBoundingClientRect().width >= 160)) {
  const labels = [...chart.querySelectorAll("text")].map((label) => label.textContent.trim()).filter(Boolean);
  const times = labels.filter((label) => /\d[:/.-]\d|\d{4}/.test(label));
  if (labels.length < 4 || times.length < 2) problems.push(`${describe(chart.parentElement || chart)} draws a chart without labelled axes (${labels.length} labels, ${times.length} times)`);
}

// 9. A coin's code is never cut by the cell it stands in (a 주의 chip beside it once left "DOGE/KR").
let codes = 0;
for (const code of all.filter((element) => element.matches("td .symbol .code") && element.textContent.trim())) {
  const cell = code.closest("td").getBoundingClientRect();
  const box = code.getBoundingClientRect();
  if (box.right <= cell.right + 1 && box.left >= cell.left - 1) continue;
  if (++codes <= 4) problems.push(`${describe(code)} is cut by its cell (${Math.round(box.right - cell.right)} px past it)`);
}

// 6. On a phone every tap target is at least 44×44 px (a check box: its label).
if (phone) {
  const targets = all.filter((element) => element.matches("button, a[href], input:not([type=hidden]), select, textarea, [role=tab], [role=option], summary"));
  let small = 0;
  for (const element of targets) {
    const target = element.matches("input[type=checkbox], input[type=radio], input[type=file]") && element.closest("label") ? element.closest("label") : element;
    if (target.closest(".sr-only")) continue;
    const box = target.getBoundingClientRect();
    if (box.width >= 43.5 && box.height >= 43.5) continue;
    if (++small <= 8) problems.push(`${describe(target)} is a ${Math.round(box.width)}×${Math.round(box.height)} px tap target`);
  }
  if (small > 8) problems.push(`…and ${small - 8} more small tap targets`);
}
return problems;
