// Editing an alert in the 알림 form (`PATCH /api/alerts/{id}`): the rule's own values filled in,
// what a rule cannot change once made — its exchange, what it watches, its market and its kind —
// fixed, the submit saying 저장 and 취소 beside it. The server checks the new values as it checks
// a new rule, and words the refusal under the field.
const $ = (selector, root = document) => root.querySelector(selector);

// The fields a rule keeps its figures in (the form's names, as the API's).
const FIGURES = ["price", "percent", "amount", "factor", "windowMinutes", "indicator", "interval", "level", "fast", "slow", "holdMinutes"];
const FIXED = ["#alert-exchange", "#alert-target", "#alert-market", "#alert-type"];

export function createAlertEdit({ t, showFields }) {
  let editing = null;   // the rule being edited, as the API listed it

  // While editing, what a rule cannot change stays fixed (the form's rows redrawn or not).
  function lock() {
    if (!editing) return;
    for (const selector of FIXED) $(selector).disabled = true;
  }

  function words() {
    $("#alert-submit").textContent = t(editing ? "accountSave" : "alertAdd");
    $("#alert-cancel").textContent = t("cancel");
    $("#alert-cancel").hidden = !editing;
  }

  function start(rule) {
    editing = rule;
    const form = $("#alerts-form");
    form.exchange.value = rule.exchange;
    form.target.value = rule.target || "one";
    form.market.value = rule.target ? "" : rule.market;
    form.type.value = rule.type;
    showFields();
    for (const name of FIGURES) {
      if (rule[name] !== null && rule[name] !== undefined && form[name]) form[name].value = String(rule[name]);
    }
    if (rule.venue) form.venue.value = rule.venue;
    form.recurring.checked = Boolean(rule.recurring);
    form.cooldownSeconds.value = String(rule.cooldownSeconds ?? 0);
    showFields();
    lock();
    words();
    form.scrollIntoView({ block: "start" });
  }

  function stop() {
    editing = null;
    const form = $("#alerts-form");
    for (const selector of FIXED) $(selector).disabled = false;
    form.market.value = "";
    showFields();
    words();
  }

  $("#alert-cancel").addEventListener("click", stop);

  return {
    start,
    stop,
    lock,
    words,
    // The rule being edited (null: the form adds one).
    get rule() { return editing; },
  };
}
