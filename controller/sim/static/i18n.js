// The page's words in the page's language (docs/translation.md). /i18n/catalogue.js, loaded
// before this file, holds the catalogue of the language the page chose (its switch sets a
// cookie; without one, the board's language). The HTML's own words are translated here as the
// page loads: every text and title/aria-label/placeholder/alt is looked up as it stands in
// English (controller/i18n/html.py extracts the same words). Scripts mark their sentences with
// N_("…") where they define them and translate with t() where they use them.
"use strict";

const I18N = window.DAMATH_I18N || { lang: "en", board: "en", cookie: "damath_lang", languages: { en: "English" }, messages: {} };

function N_(message) { return message; }

function t(message, values) {
  const text = I18N.messages[message] || message;
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

const I18N_ATTRIBUTES = ["title", "aria-label", "placeholder", "alt"];

function translateDom(root) {
  if (!Object.keys(I18N.messages).length) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const parent = node.parentNode && node.parentNode.nodeName;
    if (parent === "SCRIPT" || parent === "STYLE") continue;
    const raw = node.nodeValue;
    const key = raw.replace(/\s+/g, " ").trim();
    if (!key || !I18N.messages[key]) continue;
    node.nodeValue = raw.match(/^\s*/)[0] + I18N.messages[key] + raw.match(/\s*$/)[0];
  }
  for (const el of root.querySelectorAll("*")) {
    for (const name of I18N_ATTRIBUTES) {
      const value = el.getAttribute(name);
      if (!value) continue;
      const key = value.replace(/\s+/g, " ").trim();
      if (I18N.messages[key]) el.setAttribute(name, I18N.messages[key]);
    }
  }
}

// The switch: a select in the page's header; the choice is kept a year in a cookie, so the
// downloads and every page of this simulator follow it too.
function languageSwitch() {
  const header = document.querySelector("header.top") || document.querySelector("main") || document.body;
  const label = document.createElement("label");
  label.className = "language";
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", t(N_("Language")));
  for (const [code, name] of Object.entries(I18N.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === I18N.lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    document.cookie = I18N.cookie + "=" + select.value + "; path=/; max-age=31536000; SameSite=Lax";
    location.reload();
  });
  label.append(select);
  header.append(label);
}

document.documentElement.lang = I18N.lang;
document.title = t(document.title.replace(/\s+/g, " ").trim());
translateDom(document.body);
languageSwitch();
