// Short notes at the foot of the screen. `kind` marks what a toast says (`alert` for a fired
// alert, which stays longer). A toast already on screen with the same words is shown again for
// its full time, never stacked (seven quick failed searches are one "try again" toast); at most
// three stand at once.
export function toast(text, { ms = 2500, kind = "" } = {}) {
  const shelf = document.querySelector("#toasts");
  let element = Array.from(shelf.children).find((shown) => shown.textContent === text);
  if (!element) {
    element = document.createElement("div");
    element.className = "toast";
    element.setAttribute("role", "status");
    element.textContent = text;
  }
  if (kind) element.dataset.kind = kind; else delete element.dataset.kind;
  shelf.append(element);
  while (shelf.children.length > 3) shelf.firstElementChild.remove();
  clearTimeout(element.expiry);
  element.expiry = setTimeout(() => element.remove(), ms);
}
