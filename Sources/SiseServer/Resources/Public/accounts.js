// The portfolio's 거래소 계정 tab: the logged-in account's read-only exchange keys
// (`/api/exchange-keys`: connect, list by their last four characters, disconnect) and what the
// accounts hold now (`GET /api/portfolio/accounts`), a card a holding so no figure is ever cut on
// a phone. The server values and words everything; the page lays out `display` texts. A key
// typed here is sent once and the fields are cleared: the page never shows or keeps it.
import { showFormError, clearFieldErrors, onSubmit } from "./forms.js";
import { appendPair } from "./dom-text.js";

const $ = (selector, root = document) => root.querySelector(selector);

export function setupExchangeAccounts({ t, toast, state, call }) {
  const form = $("#account-key-form");
  let shown = false;
  let asked = 0;

  function line(text, className) {
    const item = document.createElement("li");
    if (className) item.className = className;
    item.textContent = text;
    return item;
  }

  function pair(list, label, value, field, tone) {
    appendPair(list, label, value, { data: { field }, className: tone ? `num ${tone}` : "num" });
  }

  // One holding: the coin (or 원화) and its exchange, its value on the right; quantity, average,
  // price and P&L below, each on its own line.
  function card(row) {
    const d = row.display;
    const item = document.createElement("li");
    item.dataset.exchange = row.exchange;
    item.dataset.currency = row.currency;
    const head = document.createElement("div");
    head.className = "tax-coin-head";
    const name = document.createElement("strong");
    name.textContent = `${d.name} · ${exchangeName(row.exchange)}`;
    const value = document.createElement("span");
    value.className = "num";
    value.dataset.field = "value";
    value.textContent = d.value === "-" ? d.price : t("tax.won", { value: d.value });
    head.append(name, value);
    const list = document.createElement("dl");
    list.className = "stats";
    pair(list, t("accounts.columnQuantity"), d.locked ? `${d.quantity} (${d.locked})` : d.quantity, "quantity");
    if (row.currency !== "KRW") {
      pair(list, t("accounts.columnAverage"), d.average, "average");
      pair(list, t("accounts.columnPrice"), d.price, "price");
      pair(list, t("accounts.columnProfit"), d.profit, "profit", d.tone);
    }
    item.append(head, list);
    return item;
  }

  function exchangeName(id) {
    const option = $(`#account-key-exchange option[value="${CSS.escape(id)}"]`);
    return option ? option.textContent : id;
  }

  function renderHoldings(answer) {
    $("#accounts-total").textContent = answer.holdings.length || answer.sources.length ? answer.display.total : "";
    $("#accounts-sources").replaceChildren(...answer.display.sources.map((text, index) => {
      const source = answer.sources[index] || {};
      const item = line(text, source.state === "live" ? "" : "down");
      item.dataset.exchange = source.exchange || "";
      item.dataset.state = source.state || "";
      return item;
    }));
    const live = answer.sources.some((s) => s.state === "live");
    $("#accounts-holdings").replaceChildren(...answer.holdings.map(card));
    if (live && !answer.holdings.length) $("#accounts-holdings").append(line(t("accounts.holdingsNone"), "empty"));
    $("#accounts-notes").textContent = answer.display.notes.join(" ");
  }

  function renderKeys(keys) {
    const list = $("#account-keys");
    if (!keys.length) return list.replaceChildren(line(t("accounts.keyNone"), "empty"));
    list.replaceChildren(...keys.map((key) => {
      const item = document.createElement("li");
      item.dataset.exchange = key.exchange;
      const label = document.createElement("span");
      label.textContent = `${exchangeName(key.exchange)} ${t("accounts.keyHint", { hint: key.hint })}`;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.dataset.removeKey = key.exchange;
      remove.textContent = t("accounts.keyRemove");
      remove.addEventListener("click", () => disconnect(key.exchange));
      item.append(label, remove);
      return item;
    }));
  }

  async function refresh() {
    if (!shown) return;
    const ask = ++asked;
    let keys;
    try {
      keys = (await call("GET", "/api/exchange-keys")).keys;
    } catch (error) {
      if (ask !== asked) return;
      const anonymous = error.status === 401;
      $("#accounts-login").hidden = !anonymous;
      $("#accounts-body").hidden = anonymous;
      if (!anonymous) $("#accounts-total").textContent = error.message;
      return;
    }
    if (ask !== asked) return;
    $("#accounts-login").hidden = true;
    $("#accounts-body").hidden = false;
    renderKeys(keys);
    if (keys.length) followSync();
    else $("#account-sync-box").hidden = true;
    if (!keys.length) {
      $("#accounts-reconcile-title").hidden = true;
      $("#accounts-reconcile").replaceChildren();
      $("#accounts-total").textContent = "";
      $("#accounts-sources").replaceChildren();
      $("#accounts-holdings").replaceChildren();
      $("#accounts-notes").textContent = "";
      return;
    }
    if (!$("#accounts-holdings").children.length) $("#accounts-total").textContent = t("accounts.holdingsLoading");
    try {
      const answer = await call("GET", `/api/portfolio/accounts?lang=${state.lang}`);
      if (ask === asked) renderHoldings(answer);
    } catch (error) {
      if (ask === asked) $("#accounts-total").textContent = error.message;
    }
    reconcile(ask);
  }

  // Held against recorded, coin by coin: what does not agree, and why it may not.
  async function reconcile(ask) {
    let answer;
    try { answer = await call("GET", `/api/portfolio/reconciliation?lang=${state.lang}`); } catch { return; }
    if (ask !== asked) return;
    $("#accounts-reconcile-title").hidden = !answer.rows.length;
    $("#accounts-reconcile").replaceChildren(...answer.rows.map((row) => {
      const item = line(`${exchangeName(row.exchange)} ${row.currency} · ${row.explanation}`, row.verdict === "match" ? "" : "down");
      item.dataset.exchange = row.exchange;
      item.dataset.currency = row.currency;
      item.dataset.verdict = row.verdict;
      return item;
    }));
  }

  // The history's import: started here, followed while it runs (a second a look).
  let following = null;
  function showSync(status) {
    // Shown where a kept key lets Sise read the history (the server says which).
    $("#account-sync-box").hidden = !(status.exchanges && status.exchanges.length);
    const line = $("#account-sync-progress");
    line.textContent = status.message || "";
    line.dataset.state = status.state;
    $("#account-sync").disabled = status.state === "running";
    clearTimeout(following);
    if (status.state === "running" && shown) following = setTimeout(followSync, 1000);
  }

  async function followSync() {
    try { showSync(await call("GET", "/api/portfolio/sync")); } catch (error) { $("#account-sync-progress").textContent = error.message; }
  }

  $("#account-sync").addEventListener("click", async () => {
    try { showSync(await call("POST", `/api/portfolio/sync?lang=${state.lang}`)); } catch (error) { toast(error.message); }
  });

  async function disconnect(exchange) {
    try {
      await call("DELETE", `/api/exchange-keys/${encodeURIComponent(exchange)}`);
      toast(t("accounts.keyRemoved", { exchange: exchangeName(exchange) }));
    } catch (error) { toast(error.message); }
    refresh();
  }

  onSubmit(form, async () => {
    clearFieldErrors(form);
    const note = $("#account-key-error");
    note.hidden = false;
    note.textContent = t("accounts.keyChecking");
    const exchange = $("#account-key-exchange").value;
    const body = { access: $("#account-key-access").value, secret: $("#account-key-secret").value };
    try {
      const answer = await call("PUT", `/api/exchange-keys/${encodeURIComponent(exchange)}?lang=${state.lang}`, JSON.stringify(body));
      // Sent once: the fields are emptied whatever the exchange said after.
      form.reset();
      note.hidden = !answer.warning;
      note.textContent = answer.warning || "";
      toast(t("accounts.keySaved", { exchange: exchangeName(exchange), hint: answer.key.hint }));
      refresh();
    } catch (error) {
      note.hidden = true;
      $("#account-key-secret").value = "";
      showFormError(form, error, note);
    }
  });

  return {
    show(visible) { shown = visible; if (visible) refresh(); },
    refresh,
  };
}
