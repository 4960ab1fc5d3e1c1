// The page's words come from the server (`/i18n/{lang}.json`, generated from SiseCore's one
// table); this file only loads them and fills `{name}` placeholders. No string lives here.
import { get } from "./http.js";

const tables = {};

export async function loadStrings(languages = ["ko", "en"]) {
  await Promise.all(languages.map(async (lang) => {
    if (tables[lang]) return;
    tables[lang] = await get(`/i18n/${lang}.json`);
  }));
}

export function text(lang, key, values = {}) {
  const template = (tables[lang] || {})[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export function pickLanguage() {
  const saved = localStorage.getItem("sise.lang");
  if (saved === "ko" || saved === "en") return saved;
  const first = (navigator.languages || [navigator.language || "ko"])[0] || "ko";
  return first.toLowerCase().startsWith("en") ? "en" : "ko";
}
