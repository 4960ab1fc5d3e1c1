// The phone's navigation: 더보기's sheet (the tabs the bottom bar has no room for, and the
// settings), the bar button that stands for the tab on screen, and 코인정보's own switch between
// trending/search and the ranking. Tabs themselves are chosen through app.js's selectTab.
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function setupNav({ t, selectTab }) {
  const button = $("#more-button");
  const sheet = $("#more-sheet");
  const backdrop = $("#more-backdrop");
  const inSheet = new Set($$("[data-tab]", sheet).map((tab) => tab.dataset.tab));

  function open(yes) {
    if (yes) sheet.dataset.open = ""; else delete sheet.dataset.open;
    button.setAttribute("aria-expanded", String(yes));
    backdrop.hidden = !yes;
  }
  button.addEventListener("click", () => {
    const opening = !sheet.hasAttribute("data-open");
    open(opening);
    if (opening) $("[role=tab]", sheet).focus();
  });
  backdrop.addEventListener("click", () => open(false));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !sheet.hasAttribute("data-open")) return;
    open(false);
    button.focus();
  });
  $("#setting-lang").addEventListener("click", () => $("#lang-toggle").click());
  $("#setting-theme").addEventListener("click", () => { $("#theme-toggle").click(); applyLanguage(); });
  for (const view of $$("[data-info-view]")) view.addEventListener("click", () => selectTab(view.dataset.infoView));

  // What the bar shows for `tab`; the sheet closes whenever a tab is shown.
  function showing(tab) {
    // 랭킹 is a view of 코인정보 (its switch): the bar's 코인정보 stands for it, and 더보기 does not.
    const shownBy = tab === "ranking" ? "info" : tab;
    $(".tabs > .tab-group [data-tab=info]").classList.toggle("current", tab === "ranking");
    button.classList.toggle("current", inSheet.has(shownBy));
    $("#info-switch").hidden = tab !== "info" && tab !== "ranking";
    for (const view of $$("[data-info-view]")) view.setAttribute("aria-pressed", String(view.dataset.infoView === tab));
    open(false);
  }

  function applyLanguage() {
    $("#tabs").setAttribute("aria-label", t("menu"));
    $(".tab-label", button).textContent = t("tabMore");
    $("#settings-title").textContent = t("settings");
    $("#setting-lang-label").textContent = t("language");
    $("#setting-lang-value").textContent = t("languageName");
    $("#setting-theme-label").textContent = t("theme");
    const theme = document.documentElement.dataset.theme;
    $("#setting-theme-value").textContent = t(theme === "dark" ? "themeDark" : theme === "light" ? "themeLight" : "themeAuto");
    $("#info-switch").setAttribute("aria-label", t("tabInfo"));
    $("[data-info-view=info]").textContent = t("infoHome");
    $("[data-info-view=ranking]").textContent = t("tabRanking");
  }

  return { showing, applyLanguage };
}
