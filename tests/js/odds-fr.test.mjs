// The chances and the review's words in French, from the real catalog: percentages as French
// writes them (a space before the sign, by Intl), the slider's words, the daily result's
// figures, and the service worker's address, which carries the page's language.
import { test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("fr");
const { announcement, percent } = await import("../../static/js/odds.js");
const { valueText } = await import("../../static/js/chancesgraph.js");
const { figures } = await import("../../static/js/dailyresult.js");
const { WORKER_URL } = await import("../../static/js/worker.js");

// French puts a no-break space before "%": narrow (U+202F) or not (U+00A0), as the ICU's
// version has it. The tests read either as one.
const space = (text) => text.replace(/[\u00a0\u202f]/g, " ");

test("the chances to win, said in French", () => {
  assert.equal(space(percent(0.62)), "62 %");
  assert.equal(space(percent(0.001)), "<1 %");
  const seats = [{ seat: 0, win: 0.62 }, { seat: 1, win: 0.38 }];
  assert.equal(space(announcement(seats, (seat) => ["Ana", "Bob"][seat])), "Chances de victoire : Ana 62 %, Bob 38 %.");
  assert.equal(
    space(valueText({ seq: 21, lastSeq: 80, names: ["Ana", "Bob"], chances: [0.62, 0.38], turn: 2, percent })),
    "Moment 21 sur 80 : Ana 62 %, Bob 38 % ; tournant 2.",
  );
});

test("the daily result's figures, a decimal comma among them", () => {
  const result = { finished: true, place: 2, ranked: 5, engine: 254, given_away: 12.34 };
  assert.deepEqual(figures(result).map(([, label, value]) => [label, value]), [
    ["Votre place au classement du jour", "2 sur 5"],
    ["Le score du moteur sur les mêmes dés", "254"],
    ["Points perdus face au moteur", "12,3"],
  ]);
});

test("the service worker is registered for the page's language", () => {
  assert.equal(WORKER_URL, "/sw.js?lang=fr");
});
