// Editing a webhook or chat in its form (`PATCH /api/webhooks/{id}`): where it delivers and its
// secrets stay as they were made (the page never shows them again); its quiet hours and daily
// cap are filled in, changed or cleared, and saved with 저장 (or left with 취소).
const $ = (selector, root = document) => root.querySelector(selector);
const MADE = ["#webhook-kind", "#webhook-url", "#webhook-secret", "#webhook-token", "#webhook-chat"];

export function createWebhookEdit({ t, showFields }) {
  let editing = null;   // the destination being edited, as the API listed it

  function words() {
    $("#webhook-submit").textContent = t(editing ? "accountSave" : "webhookAdd");
    $("#webhook-cancel").textContent = t("cancel");
    $("#webhook-cancel").hidden = !editing;
  }

  function start(hook) {
    editing = hook;
    const form = $("#webhook-form");
    form.kind.value = hook.kind || "generic";
    showFields();
    // What it was made with stays out of the form: hidden, and neither required nor sent.
    for (const selector of MADE) {
      const field = $(selector);
      field.disabled = true;
      if (field.closest("label") && selector !== "#webhook-kind") field.closest("label").hidden = true;
    }
    form.quietStart.value = hook.quietStart || "";
    form.quietEnd.value = hook.quietEnd || "";
    form.dailyCap.value = hook.dailyCap ? String(hook.dailyCap) : "";
    words();
    form.scrollIntoView({ block: "start" });
  }

  function stop() {
    editing = null;
    for (const selector of MADE) $(selector).disabled = false;
    const form = $("#webhook-form");
    form.quietStart.value = "";
    form.quietEnd.value = "";
    form.dailyCap.value = "";
    showFields();
    words();
  }

  // The change the API takes: an empty field clears its setting.
  function change(form) {
    const cap = form.dailyCap.value.trim();
    return { quietStart: form.quietStart.value || null, quietEnd: form.quietEnd.value || null, dailyCap: cap === "" ? null : Number(cap) };
  }

  $("#webhook-cancel").addEventListener("click", stop);

  return { start, stop, words, change, get hook() { return editing; } };
}
