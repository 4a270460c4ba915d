// A language's real catalog for the page modules' node tests: locale/<lang>/LC_MESSAGES/
// djangojs.po read into the shape the server puts in the page (games/web/scripts_catalog.py:
// {"lang", "catalog"}), and put where static/js/i18n.js reads it when it is first imported.
//
// i18n.js reads the page's catalog once, on import; node runs each test file in its own
// process, so a file that wants German calls `speak("de")` and then imports the modules it
// tests with `await import(...)`.
import { readFileSync } from "node:fs";

// static/js/i18n.js's CATALOG_ID. Not imported: importing i18n.js reads the page's catalog,
// which must be set here first (i18n.test.mjs checks that the two agree).
export const CATALOG_ID = "page-catalog";

const LOCALE = new URL("../../locale/", import.meta.url);

// A .po file's entries: { context, msgid, plural, strings }. Just what makemessages writes.
function entries(text) {
  const found = [];
  for (const block of text.split(/\n\s*\n/)) {
    const entry = { context: null, msgid: null, plural: null, strings: [] };
    let field = null;
    for (const line of block.split("\n")) {
      const keyword = line.match(/^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$/);
      const more = line.match(/^(".*")$/);
      if (!keyword && !more) continue;
      const value = JSON.parse((keyword ? keyword[3] : more[1]));
      if (keyword) {
        field = keyword[1].startsWith("msgstr") ? `msgstr${keyword[2] ?? ""}` : keyword[1];
        if (field.startsWith("msgstr")) entry.strings[Number(keyword[2] ?? 0)] = "";
      }
      if (field === "msgctxt") entry.context = (entry.context ?? "") + value;
      else if (field === "msgid") entry.msgid = (entry.msgid ?? "") + value;
      else if (field === "msgid_plural") entry.plural = (entry.plural ?? "") + value;
      else if (field) entry.strings[Number(field.slice(6) || 0)] += value;
    }
    if (entry.msgid) found.push(entry);
  }
  return found;
}

// The catalog of `lang`, keyed as the server keys it.
export function catalogOf(lang) {
  const text = readFileSync(new URL(`${lang}/LC_MESSAGES/djangojs.po`, LOCALE), "utf8");
  const catalog = {};
  for (const { context, msgid, plural, strings } of entries(text)) {
    const key = context === null ? msgid : `${context}\u0004${msgid}`;
    catalog[key] = plural === null ? strings[0] : strings;
  }
  return { lang, catalog };
}

// From now on in this process, a page module imported for the first time reads `lang`.
export function speak(lang) {
  const element = { textContent: JSON.stringify(catalogOf(lang)) };
  globalThis.document = {
    documentElement: { lang },
    getElementById: (id) => (id === CATALOG_ID ? element : null),
  };
}
