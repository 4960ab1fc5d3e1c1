// Short notes at the foot of the screen. `kind` marks what a toast says (`alert` for a fired
// alert, which stays longer); `action` ({ label, run }) gives it one button — 되돌리기 after a
// delete — which runs once and closes the toast. A toast already on screen with the same words is
// shown again for its full time, never stacked (seven quick failed searches are one "try again"
// toast); at most three stand at once.
export function toast(text, { ms = 2500, kind = "", action = null } = {}) {
  const shelf = document.querySelector("#toasts");
  let element = Array.from(shelf.children).find((shown) => shown.dataset.words === text);
  if (!element) {
    element = document.createElement("div");
    element.className = "toast";
    element.setAttribute("role", "status");
    element.dataset.words = text;
  }
  element.replaceChildren(text);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "toast-action";
    button.dataset.action = "toast-action";
    button.textContent = action.label;
    button.addEventListener("click", () => { element.remove(); action.run(); }, { once: true });
    element.append(" ", button);
  }
  if (kind) element.dataset.kind = kind; else delete element.dataset.kind;
  shelf.append(element);
  while (shelf.children.length > 3) shelf.firstElementChild.remove();
  clearTimeout(element.expiry);
  element.expiry = setTimeout(() => element.remove(), ms);
}
