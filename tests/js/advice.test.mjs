// static/js/advice.js: the coach's best for points and best to win, worded for a player.
// The figures are the server's for a real position (tests/strategy/test_coach.py): only
// Chance left, 6 6 5 4 1 with a roll to go, against a rival who stands on 27.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { actionWords, bothBests, chanceWords } from "../../static/js/advice.js";

const TO_WIN = {
  points: { label: "Keep 4 5 6 6", expected: 24.5, win: 0.0795 },
  win: { label: "Keep 5 6 6", expected: 24.0, win: 0.1192 },
};

describe("bothBests", () => {
  test("names each choice with its points and its chance to win", () => {
    assert.deepEqual(bothBests(TO_WIN), {
      points: "For the most points: keep 4-5-6-6 (about 25 pts, 8% to win).",
      win: "To win this game: keep 5-6-6 (about 24 pts, 12% to win).",
    });
  });

  test("says nothing more when the best for points is the best to win", () => {
    assert.equal(bothBests(null), null);
  });

  test("a box to score in is said as a move", () => {
    const toWin = {
      points: { label: "Chance (22)", expected: 231.4, win: 0.38 },
      win: { label: "Throw all", expected: 204.2, win: 0.44 },
    };
    assert.deepEqual(bothBests(toWin), {
      points: "For the most points: score 22 in Chance (about 231 pts, 38% to win).",
      win: "To win this game: throw all five again (about 204 pts, 44% to win).",
    });
  });
});

describe("the words", () => {
  test("a keep, a throw and a box", () => {
    assert.equal(actionWords("Keep 5 5 5"), "keep 5-5-5");
    assert.equal(actionWords("Throw all"), "throw all five again");
    assert.equal(actionWords("Full house (25)"), "score 25 in Full house");
  });

  test("a chance never rounds to a certainty it is not", () => {
    assert.equal(chanceWords(0), "no chance to win");
    assert.equal(chanceWords(0.001), "under 1% to win");
    assert.equal(chanceWords(0.4449), "44% to win");
    assert.equal(chanceWords(0.998), "over 99% to win");
    assert.equal(chanceWords(1), "sure to win");
  });
});
