// The 김프 tab's executable premium: with its switch on, a tapped row opens a line under it —
// for each exchange column, what ₩1,000,000 makes each way against the chosen venue, walked
// through both books after the withdrawal fee (`GET /api/premium/executable`), or which wallet
// is shut, and the caveats that go with those figures. The server words every figure and note
// and decides its tone; a tap again closes the line.
import { get } from "./http.js";

const AMOUNT = "1000000";

function span(text, className) {
  const made = document.createElement("span");
  made.textContent = text;
  if (className) made.className = className;
  return made;
}

export function createMatrixExecutable({ t, state, exchanges }) {
  const open = new Map(); // symbol → its line

  // The figures never travel without their caveats (fees not taken off, a venue's unpublished
  // withdrawal fee): every note the answers gave, once, in a line of their own under the figures.
  function note(caveats, notes) {
    const list = caveats.querySelector("ul");
    const known = new Set(Array.from(list.children, (item) => item.textContent));
    for (const text of notes || []) {
      if (known.has(text)) continue;
      known.add(text);
      const item = document.createElement("li");
      item.textContent = text;
      list.append(item);
    }
  }

  async function fill(line, caveats, symbol, venue, listed) {
    for (const td of line.querySelectorAll("td[data-exchange]")) {
      const exchange = td.dataset.exchange;
      if (!listed.includes(exchange)) { td.replaceChildren(span("-")); continue; }
      const query = new URLSearchParams({ exchange, symbol, venue, amount: AMOUNT, lang: state.lang });
      get(`/api/premium/executable?${query}`).then((body) => {
        note(caveats, body.notes);
        td.replaceChildren();
        for (const way of body.ways) {
          const figure = span(way.short, `way ${way.tone}`);
          figure.dataset.way = way.direction;
          figure.dataset.state = way.state;
          figure.title = way.text;
          figure.setAttribute("aria-label", way.text);
          td.append(figure);
        }
      }).catch((error) => { td.replaceChildren(span("-")); td.title = error.message; });
    }
  }

  // Opens the line under `tr` (or closes it): `listed` are the exchanges where the coin trades.
  function toggle(tr, venue, listed) {
    const symbol = tr.dataset.matrix;
    const shown = open.get(symbol);
    if (shown) { remove(shown); open.delete(symbol); return; }
    const line = document.createElement("tr");
    line.className = "executable-line";
    line.dataset.executable = symbol;
    const head = document.createElement("td");
    head.append(span(t("executableToKoreaShort")), span(t("executableAbroadShort")));
    line.append(head);
    for (const exchange of exchanges) {
      const td = document.createElement("td");
      td.className = "num";
      td.dataset.exchange = exchange;
      td.append(span("…"));
      line.append(td);
    }
    const caveats = document.createElement("tr");
    caveats.className = "executable-notes";
    caveats.dataset.executableNotes = symbol;
    const cell = document.createElement("td");
    cell.colSpan = exchanges.length + 1;
    const list = document.createElement("ul");
    list.className = "note";
    cell.append(list);
    caveats.append(cell);
    tr.after(line, caveats);
    open.set(symbol, { line, caveats });
    fill(line, caveats, symbol, venue, listed);
  }

  function remove({ line, caveats }) {
    line.remove();
    caveats.remove();
  }

  // After the rows moved (a new order), each open line goes back under its row; a line whose
  // row left goes too.
  function place(rows) {
    for (const [symbol, shown] of open) {
      const tr = rows.get(symbol);
      if (tr && tr.isConnected) tr.after(shown.line, shown.caveats); else { remove(shown); open.delete(symbol); }
    }
  }

  function closeAll() {
    for (const shown of open.values()) remove(shown);
    open.clear();
  }

  return { toggle, place, closeAll };
}
