// The board's rows, in the order the server decided, made once per market and refilled in place:
// focus, scroll and what assistive technology holds survive ticks and new snapshots. Every
// user-visible string goes in as text: coin names can hold anything.
import { exchangeOf, exchangeName, rowName, favoriteKey } from "./exchanges.js";
import { loaded } from "./loading.js";
import { setText, show } from "./dom-text.js";
import { showStar } from "./stars.js";

const $ = (selector, root = document) => root.querySelector(selector);
// Reduced motion: a changed price keeps its outline, without the fade (app.css).
const CALM = window.matchMedia("(prefers-reduced-motion: reduce)");
const FADE = [{ opacity: 1 }, { opacity: 0 }];
// A caution's grade as the chip words it (Bithumb's steps; none: 주의).
const LEVEL_WORDS = { caution: "caution", warning: "cautionStepWarning", danger: "cautionStepDanger" };

// `page` is read, never written: { t, lang(), tab(), exchange(), query(), isFavorite(key), walletMark(exchange, symbol) }.
export function createBoardRows(page) {
  const body = $("#rows");
  let rows = new Map();   // market → row element
  const data = new Map(); // market → last row data
  let order = [];         // market codes in the order the server decided
  let window = null;      // the ranks the server sends full rows for

  function buildRow(row) {
    const tr = document.createElement("tr");
    tr.dataset.market = row.market;
    // The whole row opens the coin: reachable with Tab and the arrow keys, opened with Enter.
    tr.tabIndex = 0;
    tr.className = "target";
    const star = element("button", "star");
    star.type = "button";
    star.dataset.action = "favorite";
    star.textContent = "★";
    const starCell = document.createElement("td");
    starCell.append(star);
    // The cells' parts are made once; ticks change only their text.
    const nameCell = document.createElement("td");
    const symbol = element("span", "symbol");
    symbol.append(element("span", "mark"), element("span", "code"), element("span", "venue"), element("span", "wallet"));
    nameCell.append(element("span", "name"), symbol);
    const rate = element("td", "num rate");
    rate.append(document.createTextNode(""), element("span", "amount"));
    // The trade value in full, and short (억/조) for a phone's narrow column: the style shows one.
    const value = element("td", "num value");
    value.append(element("span", "long"), element("span", "short"));
    tr.append(starCell, nameCell, element("td", "num price"), rate, element("td", "num premium"), value);
    fillRow(tr, row, null);
    return tr;
  }

  function fillRow(tr, row, previous) {
    const t = page.t;
    tr.dataset.change = row.change;
    tr.dataset.exchange = exchangeOf(row);
    const star = $("[data-action=favorite]", tr);
    showStar(star, page.isFavorite(favoriteKey(row.market, tr.dataset.exchange)));
    star.setAttribute("aria-label", `${t("star")} ${row.market}`);
    const [name, symbol] = tr.children[1].children;
    const [mark, code, venue, wallet] = symbol.children;
    setText(name, rowName(row, page.lang()));
    // Warning marks ride on the symbol line so narrow phones keep the whole name.
    show(mark, Boolean(row.warning || row.caution));
    mark.classList.toggle("warning", Boolean(row.warning));
    mark.classList.toggle("caution", !row.warning && Boolean(row.caution));
    setText(mark, row.warning ? t("warning") : row.caution ? t(LEVEL_WORDS[row.cautionLevel] || "caution") : "");
    // Which caution, in words: the chip's label (a phone has room for the one word only).
    const reasons = (row.cautionReasons || []).join(", ");
    if (reasons) {
      mark.title = reasons;
      mark.setAttribute("aria-label", `${mark.textContent}: ${reasons}`);
    } else {
      mark.removeAttribute("title");
      mark.removeAttribute("aria-label");
    }
    setText(code, row.market.includes("-") ? `${row.symbol}/${row.market.split("-")[0]}` : row.symbol);
    // In the favorites tab each row says where it trades.
    const where = page.tab() === "favorites" ? ` · ${exchangeName(tr.dataset.exchange)}` : "";
    show(venue, Boolean(where));
    setText(venue, where);
    fillWallet(tr, wallet, row.symbol);
    const price = tr.children[2];
    setText(price, row.display.price);
    const rate = tr.children[3];
    rate.firstChild.nodeValue = row.display.changeRate;
    setText(rate.lastChild, row.display.changePrice);
    const premium = tr.children[4];
    setText(premium, row.display.premium || "-");
    premium.classList.toggle("rise", row.display.premiumTone === "rise");
    premium.classList.toggle("fall", row.display.premiumTone === "fall");
    const [long, short] = tr.children[5].children;
    setText(long, row.display.tradeValue);
    setText(short, row.display.tradeValueShort || row.display.tradeValue);
    if (previous && previous.price !== row.price) {
      const up = row.price > previous.price;
      price.classList.toggle("flash-up", up);
      price.classList.toggle("flash-down", !up);
      // The glow fades on the compositor (its layer's opacity; no forced layout, no repaint a
      // frame) — not for a person who asked for reduced motion, who keeps the outline alone.
      if (!CALM.matches) price.animate(FADE, { duration: 600, easing: "ease-out", pseudoElement: "::after" });
    }
  }

  // A coin whose wallet is shut on this row's exchange says so beside its symbol.
  function fillWallet(tr, wallet, symbol) {
    const mark = page.walletMark(tr.dataset.exchange, symbol);
    show(wallet, Boolean(mark));
    setText(wallet, mark ? mark.short : "");
    if (mark) {
      wallet.title = mark.words;
      wallet.setAttribute("aria-label", mark.words);
      tr.dataset.wallet = "shut";
    } else {
      wallet.removeAttribute("title");
      wallet.removeAttribute("aria-label");
      delete tr.dataset.wallet;
    }
  }

  // A rank outside the page's window: its place is kept (so scrolling works) until its row comes.
  function placeholder(market) {
    const symbol = market.split("-")[1] || market;
    const tr = buildRow({ market, exchange: page.exchange(), koreanName: symbol, englishName: symbol, symbol,
      change: "EVEN", price: 0, display: { price: "…", changeRate: "", changePrice: "", premium: "", tradeValue: "" } });
    tr.dataset.pending = "true";
    return tr;
  }

  // Moving an element in the DOM takes the focus from it: the keyboard's place is given back after.
  function reorder(next) {
    loaded(body);
    const active = document.activeElement;
    const focused = active && body.contains(active) ? active : null;
    const keep = new Set(next);
    for (const [market, tr] of rows) {
      if (!keep.has(market)) { tr.remove(); rows.delete(market); data.delete(market); }
    }
    let cursor = body.firstElementChild;
    for (const [index, market] of next.entries()) {
      let tr = rows.get(market);
      if (!tr) {
        tr = placeholder(market);
        rows.set(market, tr);
      }
      // Outside the window the server sends no more changes: the row waits, marked, until it returns.
      if (window && (index < window.from || index >= window.to)) tr.dataset.pending = "true";
      if (tr !== cursor) body.insertBefore(tr, cursor); else cursor = cursor.nextElementSibling;
    }
    order = next;
    if (focused && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
    const favorites = page.tab() === "favorites";
    const empty = $("#empty");
    empty.hidden = next.length > 0;
    $("#clear-favorites").hidden = !favorites || next.length === 0;
    empty.textContent = favorites && !page.query() ? page.t("emptyFavorites") : page.t("empty");
  }

  return {
    get size() { return rows.size; },
    get order() { return order; },
    // The last figures of a market on the board (the coin page shows them before its own come).
    row: (market) => data.get(market),
    rows: () => order.map((market) => data.get(market)).filter(Boolean),
    setWindow(next) { window = next; },

    // A fresh snapshot refills the rows it shares with the page (same market on the same exchange)
    // in place. A row the order still lists but the snapshot leaves out (outside the window) stays
    // where the keyboard may be, marked pending until its figures come; the rest are made anew and
    // `reorder` drops those it no longer lists.
    snapshot(fresh, next) {
      const previous = rows;
      rows = new Map();
      data.clear();
      for (const row of fresh) {
        let tr = previous.get(row.market);
        if (tr && tr.dataset.exchange === exchangeOf(row)) {
          previous.delete(row.market);
          delete tr.dataset.pending;
          fillRow(tr, row, null);
        } else {
          tr = buildRow(row);
        }
        rows.set(row.market, tr);
        data.set(row.market, row);
      }
      const listed = new Set(next);
      for (const [market, tr] of previous) {
        if (listed.has(market) && page.tab() === "exchange" && tr.dataset.exchange === page.exchange()) {
          tr.dataset.pending = "true";
          rows.set(market, tr);
        } else {
          tr.remove();
        }
      }
      order = [];
      reorder(next);
    },

    update(row) {
      const tr = rows.get(row.market);
      if (tr && tr.dataset.pending) {
        delete tr.dataset.pending;
        fillRow(tr, row, null);
      } else if (!tr) {
        rows.set(row.market, buildRow(row));
      } else {
        fillRow(tr, row, data.get(row.market));
      }
      data.set(row.market, row);
    },

    reorder,

    // The rows gone at once (another tab's set): the loading note stands until the answer.
    clear() {
      for (const tr of rows.values()) tr.remove();
      rows = new Map();
      data.clear();
      order = [];
      $("#empty").hidden = true;
    },

    // After a language switch no row keeps the last language's words: names and labels are
    // redone at once; the server's worded figures (거래대금's 백만) wait, marked pending, for
    // their words in the new language (sent as rows come into the window).
    reword() {
      for (const [market, tr] of rows) {
        const row = data.get(market);
        if (!row) continue;
        const display = { ...row.display, tradeValue: "…", tradeValueShort: "…" };
        fillRow(tr, { ...row, display }, null);
        data.set(market, { ...row, display });
        tr.dataset.pending = "true";
      }
    },

    // New wallet marks: every row's redrawn.
    refreshWallets() {
      for (const [market, tr] of rows) {
        const row = data.get(market);
        if (row) fillWallet(tr, tr.children[1].children[1].children[3], row.symbol);
      }
    },

    refreshStars() {
      for (const [market, tr] of rows) {
        showStar($("[data-action=favorite]", tr), page.isFavorite(favoriteKey(market, tr.dataset.exchange)));
      }
    },

    // The figures on screen are not live (the connection or the exchange is gone), or are again.
    markStale(stale) {
      for (const tr of rows.values()) tr.classList.toggle("stale", stale);
    },
  };
}

function element(tag, className) {
  const made = document.createElement(tag);
  made.className = className;
  return made;
}
