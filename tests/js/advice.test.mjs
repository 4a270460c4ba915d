// static/js/advice.js: the coach's choices and its best for points and best to win, worded
// for a player from the choices' facts and the room's box names. The figures are the
// server's for a real position (tests/strategy/test_coach.py): only Chance left, 6 6 5 4 1
// with a roll to go, against a rival who stands on 27.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { actionWords, bothBests, chanceWords, choiceLabel } from "../../static/js/advice.js";
import { LABELS } from "./messages.mjs";

const keep = (kept, label) => ({ kind: "keep", label, kept, category: null, points: null });
const box = (category, points, label) => ({ kind: "score", label, kept: [], category, points });

const CHOICES = [keep([4, 5, 6, 6], "Keep 4 5 6 6"), keep([5, 6, 6], "Keep 5 6 6"), box("chance", 22, "Chance (22)")];
const TO_WIN = {
  points: { label: "Keep 4 5 6 6", expected: 24.5, win: 0.0795 },
  win: { label: "Keep 5 6 6", expected: 24.0, win: 0.1192 },
};

describe("bothBests", () => {
  test("names each choice with its points and its chance to win", () => {
    assert.deepEqual(bothBests({ to_win: TO_WIN, choices: CHOICES }, LABELS), {
      points: "For the most points: keep 4-5-6-6 (about 25 pts, 8% to win).",
      win: "To win this game: keep 5-6-6 (about 24 pts, 12% to win).",
    });
  });

  test("says nothing more when the best for points is the best to win", () => {
    assert.equal(bothBests({ to_win: null, choices: CHOICES }, LABELS), null);
  });

  test("a box to score in is said as a move, with the room's name for it", () => {
    const toWin = {
      points: { label: "Chance (22)", expected: 231.4, win: 0.38 },
      win: { label: "Throw all", expected: 204.2, win: 0.44 },
    };
    const choices = [box("chance", 22, "Chance (22)"), keep([], "Throw all")];
    assert.deepEqual(bothBests({ to_win: toWin, choices }, { ...LABELS, chance: "Anything" }), {
      points: "For the most points: score 22 in Anything (about 231 pts, 38% to win).",
      win: "To win this game: throw all five again (about 204 pts, 44% to win).",
    });
  });
});

describe("the words", () => {
  test("a keep, a throw and a box, as a move", () => {
    assert.equal(actionWords(keep([5, 5, 5]), LABELS), "keep 5-5-5");
    assert.equal(actionWords(keep([]), LABELS), "throw all five again");
    assert.equal(actionWords(box("full_house", 25), LABELS), "score 25 in Full house");
  });

  test("a keep, a throw and a box, as the coach lists them: the server's labels, in English", () => {
    for (const choice of [...CHOICES, keep([], "Throw all"), box("full_house", 25, "Full house (25)")]) {
      assert.equal(choiceLabel(choice, LABELS), choice.label);
    }
  });

  test("a chance never rounds to a certainty it is not", () => {
    assert.equal(chanceWords(0), "no chance to win");
    assert.equal(chanceWords(0.001), "under 1% to win");
    assert.equal(chanceWords(0.4449), "44% to win");
    assert.equal(chanceWords(0.998), "over 99% to win");
    assert.equal(chanceWords(1), "sure to win");
  });
});
