// What every form shares: the file picker in the page's language with the chosen file's name and
// a preview of a picture, and a refusal from the server shown under the field it names
// (`error.field`), in the page's language, the field marked invalid until it is edited.
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function setupFileFields(t) {
  for (const field of $$(".file-field")) {
    const input = field.querySelector("input[type=file]");
    const name = field.querySelector("[data-file-name]");
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      if (!file) return;
      name.textContent = file.name;
      name.dataset.chosen = "true";
      if (!file.type.startsWith("image/")) return;
      // A data: URL (the page's policy allows no blob: images), read only for the preview.
      const reader = new FileReader();
      reader.addEventListener("load", () => {
        let preview = field.querySelector(".file-preview");
        if (!preview) {
          preview = document.createElement("img");
          preview.className = "file-preview";
          preview.alt = "";
          field.querySelector("[data-file-button]").before(preview);
        }
        preview.src = String(reader.result);
      });
      reader.readAsDataURL(file);
    });
  }
  applyFileLanguage(t);
}

export function applyFileLanguage(t) {
  for (const button of $$("[data-file-button]")) button.textContent = t("chooseFile");
  for (const name of $$("[data-file-name]:not([data-chosen])")) name.textContent = t("noFileChosen");
}

export function clearFieldErrors(form) {
  for (const note of $$(".field-error", form)) note.remove();
  for (const field of $$("[aria-invalid]", form)) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-errormessage");
  }
}

// The server's refusal under its field when it names one of this form's; otherwise in `note`.
export function showFormError(form, error, note) {
  clearFieldErrors(form);
  const field = error.field ? form.querySelector(`[name="${CSS.escape(error.field)}"]`) : null;
  if (field && field.closest("label") && field.offsetParent !== null) {
    const message = document.createElement("span");
    message.className = "field-error";
    message.id = `${field.id || field.name}-error`;
    message.setAttribute("role", "alert");
    message.textContent = error.message;
    field.closest("label").append(message);
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-errormessage", message.id);
    field.addEventListener("input", () => clearFieldErrors(form), { once: true });
    field.focus();
    note.hidden = true;
    return;
  }
  note.textContent = error.message;
  note.hidden = false;
}

// A form's submit, one at a time: while `handler` works, the form is aria-busy and its submit
// buttons are disabled — the person sees it is working, and a second tap sends nothing twice.
export function onSubmit(form, handler) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return;
    const buttons = $$("button[type=submit], button:not([type])", form);
    form.setAttribute("aria-busy", "true");
    for (const button of buttons) button.disabled = true;
    try {
      await handler(event);
    } finally {
      form.removeAttribute("aria-busy");
      for (const button of buttons) button.disabled = false;
    }
  });
}
