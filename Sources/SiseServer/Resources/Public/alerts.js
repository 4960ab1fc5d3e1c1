// The 알림 tab: rules, their history, this device's push alerts (push.js) and webhooks and chats;
// and every fired alert as a toast and a
// system notification (permission asked when the first alert is created). The server evaluates
// the rules on every tick and words each firing (`message.ko`/`message.en`).
import { exchangeName } from "./exchanges.js";
import { setupPicker } from "./picker.js";
import { showFormError, clearFieldErrors, onSubmit } from "./forms.js";
import { setupPush } from "./push.js";
import { setupChangeAlerts } from "./change-alerts.js";
import { loading, loaded, failed } from "./loading.js";
import { createAlertEdit } from "./alert-edit.js";
import { createWebhookEdit } from "./webhook-edit.js";

const $ = (selector, root = document) => root.querySelector(selector);

export function setupAlerts({ t, toast, state, call }) {
  const picker = setupPicker($("#alert-market"), $("#alert-exchange"), { t, state });
  const push = setupPush({ t, state, call, toast });
  const changeAlerts = setupChangeAlerts({ call, toast });
  function item(text, attributes = {}) {
    const li = document.createElement("li");
    for (const [key, value] of Object.entries(attributes)) li.dataset[key] = value;
    const span = document.createElement("span");
    span.textContent = text;
    li.append(span);
    return li;
  }

  function button(label, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = action;
    b.textContent = label;
    return b;
  }

  async function loadRules() {
    if (!$("#alert-list").children.length) loading($("#alert-list"), t("loading"));
    try {
      const body = await call("GET", `/api/alerts?lang=${state.lang}`);
      const list = $("#alert-list");
      list.replaceChildren();
      for (const rule of body.alerts) {
        // A rule on a whole list says so in its description ("관심 코인 전체 · …"); every rule names
        // its exchange, Upbit too (the same market trades on four).
        const where = rule.target ? `${exchangeName(rule.exchange)} — ` : `${rule.market} · ${exchangeName(rule.exchange)} — `;
        const li = item(`${where}${rule.description}${rule.recurring ? " ↻" : ""}`,
          { alertId: rule.id, enabled: String(rule.enabled) });
        // An indicator rule waiting for its candles says so; a list over the owner's bound says
        // how many of its markets it leaves out.
        const notes = [rule.preparing ? t("alertPreparing") : "", rule.unwatched > 0 ? t("alertUnwatched", { count: String(rule.unwatched) }) : ""]
          .filter(Boolean);
        if (notes.length) {
          const note = document.createElement("small");
          note.className = "alert-note";
          note.dataset.ruleNote = rule.preparing ? "preparing" : "unwatched";
          note.textContent = ` · ${notes.join(" · ")}`;
          li.querySelector("span").append(note);
        }
        const toggle = document.createElement("input");
        toggle.type = "checkbox";
        toggle.checked = rule.enabled;
        toggle.dataset.action = "toggle-alert";
        toggle.setAttribute("aria-label", t("alertEnabled"));
        // The label is the target a thumb hits (44 px), the box inside it.
        const target = document.createElement("label");
        target.className = "check";
        target.append(toggle);
        li.prepend(target);
        const edit = button(t("edit"), "edit-alert");
        edit.addEventListener("click", () => editor.start(rule));
        li.append(edit, button(t("delete"), "delete-alert"));
        list.append(li);
      }
      $("#alert-empty").hidden = body.alerts.length > 0;
    } catch (error) {
      // The list keeps what it had; a list that never had anything says why it stays empty.
      if ($("#alert-list").querySelector(".loading-row")) failed($("#alert-list"), error, t("loadFailed"));
    }
  }

  async function loadHistory() {
    if (!$("#alert-history").children.length) loading($("#alert-history"), t("loading"));
    try {
      const body = await call("GET", "/api/alerts/history");
      const list = $("#alert-history");
      list.replaceChildren();
      for (const firing of body.history) list.append(item(line(firing), { firingId: firing.id }));
      if (body.history.length === 0) list.append(item(t("alertHistoryEmpty")));
    } catch (_) { loaded($("#alert-history")); /* keeps what it had */ }
  }

  async function loadWebhooks() {
    try {
      const body = await call("GET", "/api/webhooks");
      const list = $("#webhook-list");
      list.replaceChildren();
      const kinds = { generic: "webhookGeneric", telegram: "webhookTelegram", discord: "webhookDiscord", slack: "webhookSlack" };
      for (const hook of body.webhooks) {
        const kind = hook.kind || "generic";
        const where = kind === "telegram" ? hook.chatId : hook.url;
        // Its quiet hours and daily cap, when it has them.
        const held = [hook.quietStart && hook.quietEnd ? t("alertWindowWords", { start: hook.quietStart, end: hook.quietEnd, zone: hook.timeZone }) : "",
          hook.dailyCap ? t("alertCapWords", { cap: String(hook.dailyCap) }) : ""].filter(Boolean);
        const li = item(`${t(kinds[kind] || "webhookGeneric")} · ${where}` + (held.length ? ` · ${held.join(" · ")}` : "")
          + (hook.disabled ? ` — ${t("webhookDisabled")}` : ""),
          { webhookId: hook.id, kind });
        const edit = button(t("edit"), "edit-webhook");
        edit.addEventListener("click", () => hookEditor.start(hook));
        li.append(edit, button(t("delete"), "delete-webhook"));
        list.append(li);
      }
    } catch (_) { /* keeps what it had */ }
  }

  function line(firing) {
    return `${firing.clock} ${(firing.message && firing.message[state.lang]) || firing.market}`;
  }

  // Asked once, when the person creates an alert (a click: browsers want a gesture).
  function askPermission() {
    if (!("Notification" in window) || Notification.permission !== "default") return;
    Notification.requestPermission().then((answer) => { if (answer === "denied") toast(t("alertNotifyDenied")); }).catch(() => {});
  }

  // A firing from the socket: a toast in the page, and a system notification when allowed.
  function fired(firing) {
    const text = (firing.message && firing.message[state.lang]) || firing.market;
    toast("🔔 " + text, { ms: 8000, kind: "alert" });
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification("Sise", { body: text, tag: firing.id }); } catch (_) { /* some browsers only notify from a service worker */ }
    }
    if (!$("#alerts-panel").hidden) { loadHistory(); loadRules(); }
  }

  function showFields() {
    // A rule on every favorite or holding has no market of its own and no price line; a P&L
    // line needs holdings (not favorites); the portfolio's total takes P&L lines alone.
    const target = $("#alert-target").value;
    const wide = target !== "one";
    for (const option of $("#alert-type").options) {
      const pnl = option.value.startsWith("pnl");
      const price = option.value === "above" || option.value === "below";
      option.disabled = (wide && price) || (target === "favorites" && pnl) || (target === "portfolio" && !pnl);
    }
    if ($("#alert-type").selectedOptions[0].disabled) {
      $("#alert-type").value = Array.from($("#alert-type").options).find((option) => !option.disabled).value;
    }
    const type = $("#alert-type").value;
    const amount = type === "pnlAmountAbove" || type === "pnlAmountBelow";
    const price = type === "above" || type === "below";
    // A field out of sight is out of the form too: disabled, it neither blocks the submit with
    // a value it cannot show nor is sent.
    const show = (id, shown) => {
      const row = $(id);
      row.hidden = !shown;
      for (const input of row.querySelectorAll("input, select")) input.disabled = !shown;
    };
    show("#alert-market-row", !wide);
    const spike = type === "volumeSpike";
    const signal = type === "indicator";
    const indicator = $("#alert-indicator").value;
    show("#alert-price-row", price);
    show("#alert-percent-row", !price && !spike && !signal && !amount);
    // The threshold's name says what it measures: a move, a premium, a return or a strength.
    const percentLabel = $("#alert-percent-row [data-label]");
    percentLabel.dataset.label = type.startsWith("premium") ? "alertPercentPremium" : type.startsWith("pnl") ? "alertPercentReturn"
      : type.startsWith("strength") ? "alertPercentStrength" : "alertPercent";
    percentLabel.textContent = t(percentLabel.dataset.label);
    show("#alert-amount-row", amount);
    // An indicator signal: which one, on which candle, and its RSI level or its two averages.
    show("#alert-indicator-row", signal);
    show("#alert-interval-row", signal);
    show("#alert-level-row", signal && indicator.startsWith("rsi"));
    show("#alert-fast-row", signal && indicator.startsWith("ma"));
    show("#alert-slow-row", signal && indicator.startsWith("ma"));
    show("#alert-factor-row", spike);
    // A move's window is 1–1440 minutes (10 by default), a volume spike's 1–60 (5).
    const minutes = $("#alert-window");
    const max = spike ? "60" : "1440";
    if (minutes.max !== max) {
      minutes.max = max;
      minutes.value = spike ? "5" : "10";
    }
    show("#alert-window-row", type === "move" || spike);
    // A premium line: against which global venue (the matrix's cells), and optionally held for minutes.
    const premium = type === "premiumAbove" || type === "premiumBelow";
    show("#alert-venue-row", premium);
    show("#alert-hold-row", premium);
    editor.lock();
  }
  const editor = createAlertEdit({ t, showFields });

  function showError(id, error) {
    const note = $(id);
    const form = note.closest("form");
    if (error) { showFormError(form, error, note); return; }
    clearFieldErrors(form);
    note.hidden = true;
  }

  $("#alert-type").addEventListener("change", showFields);
  $("#alert-target").addEventListener("change", showFields);
  $("#alert-indicator").addEventListener("change", () => {
    // An RSI signal's usual level: 70 crossing up, 30 crossing down.
    $("#alert-level").value = $("#alert-indicator").value === "rsiBelow" ? "30" : "70";
    showFields();
  });
  onSubmit($("#alerts-form"), async (event) => {
    askPermission();
    const form = event.target;
    const market = form.target.value !== "one" ? form.target.value : form.market.value.trim().toUpperCase();
    const body = { exchange: form.exchange.value, market: market.includes("-") || form.target.value !== "one" ? market : `KRW-${market}`, type: form.type.value,
      recurring: form.recurring.checked, cooldownSeconds: Number(form.cooldownSeconds.value || 0) };
    if (body.type === "above" || body.type === "below") body.price = form.price.value.trim();
    else if (body.type === "volumeSpike") body.factor = form.factor.value.trim();
    else if (body.type === "pnlAmountAbove" || body.type === "pnlAmountBelow") body.amount = form.amount.value.trim();
    else if (body.type === "indicator") {
      Object.assign(body, { indicator: form.indicator.value, interval: form.interval.value });
      if (!form.level.disabled) body.level = Number(form.level.value);
      if (!form.fast.disabled) Object.assign(body, { fast: Number(form.fast.value), slow: Number(form.slow.value) });
    }
    else body.percent = form.percent.value.trim();
    if (body.type === "move") body.windowMinutes = Number(form.windowMinutes.value || 10);
    if (body.type === "volumeSpike") body.windowMinutes = Number(form.windowMinutes.value || 5);
    if (body.type === "premiumAbove" || body.type === "premiumBelow") {
      if (form.venue.value !== "binance") body.venue = form.venue.value;
      if (form.holdMinutes.value.trim() !== "") body.holdMinutes = Number(form.holdMinutes.value);
    }
    try {
      // Editing: the rule's figures only (its exchange, market and kind stay as they were made).
      const editing = editor.rule;
      if (editing) {
        for (const fixed of ["exchange", "market", "type"]) delete body[fixed];
        await call("PATCH", `/api/alerts/${encodeURIComponent(editing.id)}`, JSON.stringify(body));
        editor.stop();
      } else {
        await call("POST", "/api/alerts", JSON.stringify(body));
      }
      showError("#alert-error", null);
      toast(t(editing ? "alertUpdated" : "alertSaved"));
      loadRules();
    } catch (error) {
      // A list with no coin yet is the target's fault, not the hidden market field's.
      if (error.field === "market" && form.target.value !== "one") error.field = "target";
      showError("#alert-error", error);
    }
  });
  $("#alert-list").addEventListener("click", async (event) => {
    const target = event.target.closest("[data-action]");
    if (!target) return;
    const id = target.closest("li").dataset.alertId;
    try {
      if (target.dataset.action === "delete-alert") {
        await call("DELETE", `/api/alerts/${encodeURIComponent(id)}`);
        toast(t("alertRemoved"));
      }
      if (target.dataset.action === "toggle-alert") await call("PATCH", `/api/alerts/${encodeURIComponent(id)}`, JSON.stringify({ enabled: target.checked }));
      loadRules();
    } catch (error) { toast(error.message); }
  });
  // The fields each kind of destination takes: a signed webhook its URL and secret, Telegram a
  // bot token and a chat, Discord and Slack their webhook URL.
  function showWebhookFields() {
    const kind = $("#webhook-kind").value;
    const rows = { url: kind !== "telegram", secret: kind === "generic", token: kind === "telegram", chat: kind === "telegram" };
    for (const [name, shown] of Object.entries(rows)) {
      $(`#webhook-${name}-row`).hidden = !shown;
      $(`#webhook-${name}-row input`).required = shown;
    }
  }
  $("#webhook-kind").addEventListener("change", showWebhookFields);
  const hookEditor = createWebhookEdit({ t, showFields: showWebhookFields });
  onSubmit($("#webhook-form"), async (event) => {
    const form = event.target;
    if (hookEditor.hook) {
      try {
        await call("PATCH", `/api/webhooks/${encodeURIComponent(hookEditor.hook.id)}`, JSON.stringify(hookEditor.change(form)));
        showError("#webhook-error", null);
        hookEditor.stop();
        toast(t("webhookUpdated"));
        loadWebhooks();
      } catch (error) { showError("#webhook-error", error); }
      return;
    }
    const kind = form.kind.value;
    const body = { kind, lang: state.lang };
    if (kind === "telegram") Object.assign(body, { botToken: form.botToken.value.trim(), chatId: form.chatId.value.trim() });
    else body.url = form.url.value.trim();
    if (kind === "generic") body.secret = form.secret.value;
    // Quiet hours come in pairs; one alone is the server's to refuse (under quietStart).
    if (form.quietStart.value || form.quietEnd.value) Object.assign(body, { quietStart: form.quietStart.value, quietEnd: form.quietEnd.value });
    if (form.dailyCap.value.trim() !== "") body.dailyCap = Number(form.dailyCap.value);
    try {
      await call("POST", "/api/webhooks", JSON.stringify(body));
      showError("#webhook-error", null);
      // Secrets are not kept in the page once the server has them.
      form.secret.value = "";
      form.botToken.value = "";
      if (kind !== "generic") form.url.value = "";
      loadWebhooks();
    } catch (error) { showError("#webhook-error", error); }
  });
  $("#webhook-list").addEventListener("click", async (event) => {
    const target = event.target.closest("[data-action=delete-webhook]");
    if (!target) return;
    try { await call("DELETE", `/api/webhooks/${encodeURIComponent(target.closest("li").dataset.webhookId)}`); loadWebhooks(); } catch (error) { toast(error.message); }
  });

  function applyLanguage() {
    for (const label of document.querySelectorAll("#alerts-panel [data-label]")) label.textContent = t(label.dataset.label);
    const names = { above: "alertAbove", below: "alertBelow", move: "alertMove", premiumAbove: "alertPremiumAbove", premiumBelow: "alertPremiumBelow",
      volumeSpike: "alertVolumeSpike", indicator: "alertIndicator", strengthAbove: "alertStrengthAbove", strengthBelow: "alertStrengthBelow",
      pnlAbove: "alertPnlAbove", pnlBelow: "alertPnlBelow", pnlAmountAbove: "alertPnlAmountAbove", pnlAmountBelow: "alertPnlAmountBelow" };
    for (const option of $("#alert-type").options) option.textContent = t(names[option.value]);
    const signals = { rsiAbove: "signalRsiAbove", rsiBelow: "signalRsiBelow", maCrossUp: "signalMaCrossUp", maCrossDown: "signalMaCrossDown",
      bollingerAbove: "signalBollingerAbove", bollingerBelow: "signalBollingerBelow" };
    for (const option of $("#alert-indicator").options) option.textContent = t(signals[option.value]);
    const targets = { one: "alertTargetOne", favorites: "alertTargetAllFavorites", holdings: "alertTargetAllHoldings", portfolio: "alertTargetPortfolio" };
    for (const option of $("#alert-target").options) option.textContent = t(targets[option.value]);
    const kinds = { generic: "webhookGeneric", telegram: "webhookTelegram", discord: "webhookDiscord", slack: "webhookSlack" };
    for (const option of $("#webhook-kind").options) option.textContent = t(kinds[option.value]);
    picker.applyLanguage();
    push.applyLanguage();
    editor.words();
    hookEditor.words();
  }

  // From a coin page's bell: the form set to that market, its price field ready.
  function prefill(exchange, market, name) {
    $("#alert-exchange").value = exchange;
    $("#alert-target").value = "one";
    picker.set(market, name);
    $("#alert-type").value = "above";
    showFields();
    $("#alert-price").focus();
  }

  return {
    start() { showFields(); showWebhookFields(); loadRules(); loadHistory(); loadWebhooks(); push.start(); changeAlerts.load(); },
    fired,
    prefill,
    applyLanguage,
  };
}
