// The page's words in the reader's language: gettext, ngettext, pgettext, npgettext and
// interpolate, as Django names them, over the catalog the page was served with.
//
// The server puts the catalog in the page as JSON (json_script: a <script
// type="application/json"> the Content-Security-Policy allows, since it never runs), for the
// language of the request: {"lang": "de", "catalog": {...}}. Its keys are the English
// messages, a message with a context keyed "context\u0004message" (as gettext keys it);
// a value is the translation, or for a plural message its forms in order. A message the
// catalog lacks stays English, so an untranslated page still reads.
//
// Plurals: which form a count takes comes from the browser's own rules for the language
// (Intl.PluralRules), never from evaluating the catalog's C expression (which the policy's
// script-src, without 'unsafe-eval', forbids). English, German, Spanish and Swedish take the
// first form for 1, French for 0 and 1; a language with more than two forms needs its
// categories listed in FORMS below.

//: The element the catalog comes in (templates/base.html's page_catalog block; games/web/scripts_catalog.py).
export const CATALOG_ID = "page-catalog";

//: Each plural category's form, by its place in a catalog's plural forms, per language;
//: "*" for every language with gettext's two forms ("one" is the first, all else the second).
const FORMS = { "*": ["one", "other"] };

const CONTEXT = "\u0004";

// A translator for `lang` over `catalog` (the shape above). Its functions may be passed
// around alone: they hold no `this`.
export function translator({ lang = "en", catalog = {} } = {}) {
  const rules = new Intl.PluralRules(lang);
  const order = FORMS[lang] || FORMS["*"];

  function form(count, forms) {
    const index = order.indexOf(rules.select(count));
    return forms[index < 0 ? forms.length - 1 : Math.min(index, forms.length - 1)];
  }

  function lookup(key) {
    return Object.hasOwn(catalog, key) ? catalog[key] : undefined;
  }

  function gettext(message) {
    const found = lookup(message);
    return typeof found === "string" && found ? found : message;
  }

  function ngettext(singular, plural, count) {
    const found = lookup(singular);
    if (Array.isArray(found) && found.every(Boolean)) return form(count, found);
    return count === 1 ? singular : plural;
  }

  function pgettext(context, message) {
    const found = lookup(context + CONTEXT + message);
    return typeof found === "string" && found ? found : message;
  }

  function npgettext(context, singular, plural, count) {
    const found = lookup(context + CONTEXT + singular);
    if (Array.isArray(found) && found.every(Boolean)) return form(count, found);
    return count === 1 ? singular : plural;
  }

  return { lang, gettext, ngettext, pgettext, npgettext, interpolate };
}

// Django's interpolate: `%(name)s` from an object (named), or each `%s` from an array in
// turn. `%%` is a percent sign.
export function interpolate(format, values, named = false) {
  if (named) {
    return format.replace(/%%|%\((\w+)\)s/g, (match, name) =>
      match === "%%" ? "%" : String(values[name]),
    );
  }
  let next = 0;
  return format.replace(/%%|%s/g, (match) => (match === "%%" ? "%" : String(values[next++])));
}

// The catalog a page was served with, read from its json_script element; a page without
// one (or a test without a document) reads English.
export function readCatalog(doc = globalThis.document) {
  const element = doc && doc.getElementById(CATALOG_ID);
  if (!element) return { lang: (doc && doc.documentElement && doc.documentElement.lang) || "en", catalog: {} };
  return JSON.parse(element.textContent);
}

// The page's translator: `import { gettext } from "./i18n.js"` in a page's module.
const page = translator(readCatalog());
export const { gettext, ngettext, pgettext, npgettext } = page;
export const lang = page.lang;

// A list in the reader's language: "Ana, Bo and Cy", "Ana, Bo und Cy"; with "disjunction",
// "Ana, Bo or Cy".
export function listed(items, type = "conjunction") {
  return new Intl.ListFormat(lang, { type }).format(items);
}
