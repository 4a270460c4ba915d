// static/js/caution.js in German: the question is asked in the reader's language, from the
// real catalog (locale/de/LC_MESSAGES/djangojs.po), with the German box names the page has.
import { test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("de");
const { cautionWords, scoreCaution } = await import("../../static/js/caution.js");

const LABELS = { full_house: "Full House", large_straight: "Große Straße" };

test("a zero in Full House with a Large straight open, asked in German", () => {
  const dice = [6, 5, 3, 2, 4];
  const caution = scoreCaution("full_house", { full_house: 0, large_straight: 40, chance: 20 });

  assert.deepEqual(cautionWords("full_house", caution, LABELS, dice), {
    title: "0 in Full House eintragen?",
    text:
      "6 5 3 2 4 bringt 0 in Full House, und das Feld ist dann für den Rest des Spiels belegt." +
      " Große Straße brächte 40.",
    yes: "0 in Full House eintragen",
    line:
      "6 5 3 2 4 bringt 0 in Full House, und das Feld ist dann für den Rest des Spiels belegt." +
      " Große Straße brächte 40. Tippe yes (oder score! full house), um es einzutragen.",
  });
});
