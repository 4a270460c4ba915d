// static/js/i18n.js: the page's gettext over the catalog the server puts in the page.
// The catalogs here are shaped as games/web/views.py (page_catalog) sends them.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { CATALOG_ID, gettext, interpolate, listed, readCatalog, translator } from "../../static/js/i18n.js";
import { CATALOG_ID as TESTS_CATALOG_ID } from "./catalog.mjs";

const GERMAN = {
  lang: "de",
  catalog: {
    "Roll the dice": "Würfeln",
    "Yahtzee box\u0004Full house": "Full House",
    "Yatzy box\u0004Full house": "Full House (Yatzy)",
    "%(count)s die held": ["%(count)s Würfel behalten", "%(count)s Würfel behalten"],
    "%s minute left": ["noch %s Minute", "noch %s Minuten"],
    "Yahtzee box\u0004%(count)s point": ["%(count)s Punkt", "%(count)s Punkte"],
    "Left untranslated": "",
  },
};

const FRENCH = {
  lang: "fr",
  catalog: { "%s game": ["%s partie", "%s parties"] },
};

describe("gettext", () => {
  test("a message the catalog has comes in its language", () => {
    assert.equal(translator(GERMAN).gettext("Roll the dice"), "Würfeln");
  });

  test("a message it lacks, or has empty, stays English", () => {
    const { gettext: t } = translator(GERMAN);
    assert.equal(t("Not in the catalog"), "Not in the catalog");
    assert.equal(t("Left untranslated"), "Left untranslated");
  });

  test("English pages have no catalog and read the messages as they are", () => {
    assert.equal(translator().gettext("Roll the dice"), "Roll the dice");
  });
});

describe("pgettext", () => {
  test("the context tells two translations of one message apart", () => {
    const { pgettext } = translator(GERMAN);
    assert.equal(pgettext("Yahtzee box", "Full house"), "Full House");
    assert.equal(pgettext("Yatzy box", "Full house"), "Full House (Yatzy)");
  });

  test("without the context the message is another one", () => {
    assert.equal(translator(GERMAN).gettext("Full house"), "Full house");
    assert.equal(translator(GERMAN).pgettext("Other", "Full house"), "Full house");
  });
});

describe("ngettext and npgettext", () => {
  test("German: the first form for 1, the second for anything else", () => {
    const { ngettext } = translator(GERMAN);
    assert.equal(ngettext("%s minute left", "%s minutes left", 1), "noch %s Minute");
    assert.equal(ngettext("%s minute left", "%s minutes left", 0), "noch %s Minuten");
    assert.equal(ngettext("%s minute left", "%s minutes left", 5), "noch %s Minuten");
  });

  test("French: 0 and 1 take the singular", () => {
    const { ngettext } = translator(FRENCH);
    assert.equal(ngettext("%s game", "%s games", 0), "%s partie");
    assert.equal(ngettext("%s game", "%s games", 1), "%s partie");
    assert.equal(ngettext("%s game", "%s games", 2), "%s parties");
  });

  test("English without a catalog: 1 is singular, 0 plural", () => {
    const { ngettext } = translator();
    assert.equal(ngettext("%s game", "%s games", 1), "%s game");
    assert.equal(ngettext("%s game", "%s games", 0), "%s games");
  });

  test("with a context", () => {
    const { npgettext } = translator(GERMAN);
    assert.equal(npgettext("Yahtzee box", "%(count)s point", "%(count)s points", 25), "%(count)s Punkte");
    assert.equal(npgettext("Yahtzee box", "%(count)s point", "%(count)s points", 1), "%(count)s Punkt");
    assert.equal(npgettext("Other", "%(count)s point", "%(count)s points", 1), "%(count)s point");
  });
});

describe("interpolate", () => {
  test("named values", () => {
    assert.equal(interpolate("%(name)s scored %(points)s", { name: "Ana", points: 25 }, true), "Ana scored 25");
  });

  test("values in turn, and a percent sign", () => {
    assert.equal(interpolate("%s of %s: 50%%", [3, 6]), "3 of 6: 50%");
    assert.equal(interpolate("%(share)s%%", { share: 40 }, true), "40%");
  });

  test("with a translation: the words move, the values follow their names", () => {
    const { ngettext } = translator(GERMAN);
    const text = interpolate(ngettext("%(count)s die held", "%(count)s dice held", 3), { count: 3 }, true);
    assert.equal(text, "3 Würfel behalten");
  });
});

describe("readCatalog", () => {
  test("reads the json_script element the page was served with", () => {
    const element = { textContent: JSON.stringify(GERMAN) };
    const doc = { getElementById: (id) => (id === CATALOG_ID ? element : null) };
    assert.deepEqual(readCatalog(doc), GERMAN);
  });

  test("a page without one reads in its own lang, untranslated", () => {
    const doc = { getElementById: () => null, documentElement: { lang: "sv" } };
    assert.deepEqual(readCatalog(doc), { lang: "sv", catalog: {} });
  });

  test("under Node there is no page: the module's own gettext is English", () => {
    assert.equal(gettext("Roll the dice"), "Roll the dice");
  });
});

test("the tests' catalog helper puts the catalog where the page has it", () => {
  assert.equal(TESTS_CATALOG_ID, CATALOG_ID);
});

test("a list is joined as the page's language joins it", () => {
  // A page without a catalog reads English; feed-de.test.mjs reads German's "Ana und Bo".
  assert.equal(listed(["Ana", "Bo", "Cy"]), "Ana, Bo, and Cy");
  assert.equal(listed(["Ana", "Bo"], "disjunction"), "Ana or Bo");
});
