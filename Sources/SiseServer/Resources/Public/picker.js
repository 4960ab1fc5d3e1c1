// The coin picker: a market field of a form that searches the board's markets as the board's own
// search does — names, symbols and 초성 (`ㅂㅌ`), the server's one search (`/api/markets?q=`) — and
// fills in the market code chosen. A code typed in full is taken as it is.
import { get } from "./http.js";

const SHOWN = 8;

export function setupPicker(input, exchange, { t, state }) {
  const label = input.closest("label");
  const box = document.createElement("div");
  box.className = "picker";
  label.replaceWith(box);
  const list = document.createElement("ul");
  list.className = "picker-options";
  list.id = `${input.id}-options`;
  list.setAttribute("role", "listbox");
  list.hidden = true;
  const picked = document.createElement("span");
  picked.className = "picked";
  picked.id = `${input.id}-picked`;
  label.append(picked);
  box.append(label, list);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-describedby", picked.id);

  let rows = [];
  let active = -1;
  let timer = null;
  let inFlight = null;

  const nameOf = (row) => (state.lang === "en" ? row.englishName || row.koreanName : row.koreanName || row.englishName) || row.symbol;

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function mark(index) {
    active = index;
    for (const [at, option] of Array.from(list.children).entries()) option.setAttribute("aria-selected", String(at === index));
    const option = list.children[index];
    if (option) {
      input.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView({ block: "nearest" });
    }
  }

  function show(found) {
    rows = found.slice(0, SHOWN);
    list.replaceChildren(...rows.map((row, index) => {
      const option = document.createElement("li");
      option.id = `${list.id}-${index}`;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.dataset.market = row.market;
      const name = document.createElement("span");
      name.className = "picker-name";
      name.textContent = nameOf(row);     // coin names can hold anything: text only
      const code = document.createElement("span");
      code.className = "picker-code";
      code.textContent = row.market;
      option.append(name, code);
      return option;
    }));
    list.hidden = rows.length === 0;
    input.setAttribute("aria-expanded", String(rows.length > 0));
    active = -1;
  }

  async function search() {
    if (inFlight) inFlight.abort();
    inFlight = new AbortController();
    const query = new URLSearchParams({ exchange: exchange.value, quote: "KRW", q: input.value.trim().slice(0, 64), lang: state.lang });
    try {
      show(await get(`/api/markets?${query}`, { signal: inFlight.signal }));
    } catch (error) {
      if (error.name !== "AbortError") close();
    }
  }

  function choose(index) {
    const row = rows[index];
    if (!row) return;
    input.value = row.market;
    picked.textContent = nameOf(row);
    close();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  input.addEventListener("input", () => {
    picked.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(search, 120);
  });
  input.addEventListener("focus", search);
  input.addEventListener("blur", () => setTimeout(close, 150));
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (list.hidden) { search(); return; }
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      mark((active + step + rows.length) % rows.length);
    } else if (event.key === "Enter" && !list.hidden && active >= 0) {
      event.preventDefault();
      choose(active);
    } else if (event.key === "Escape" && !list.hidden) {
      event.preventDefault();
      close();
    }
  });
  // A press on an option must not blur the field first (the list would close under the finger).
  list.addEventListener("mousedown", (event) => event.preventDefault());
  list.addEventListener("click", (event) => {
    const option = event.target.closest("[role=option]");
    if (option) choose(Array.from(list.children).indexOf(option));
  });
  exchange.addEventListener("change", () => { picked.textContent = ""; });

  function applyLanguage() {
    input.placeholder = t("pickerHint");
  }
  // Set from elsewhere (the coin page's bell): the market and its name.
  function set(market, name) {
    input.value = market;
    picked.textContent = name || "";
  }
  return { applyLanguage, set, close };
}
