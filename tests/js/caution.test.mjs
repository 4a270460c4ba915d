// static/js/caution.js: no silent zero. The options below are what the server
// offers for each roll on an empty card (docs/rules.md): every box, with its points.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { FAR_BELOW, cautionWords, scoreCaution } from "../../static/js/caution.js";
import { LABELS } from "./messages.mjs";

// 6 5 3 2 4 on an empty card: a Large straight.
const STRAIGHT = {
  ones: 0, twos: 2, threes: 3, fours: 4, fives: 5, sixes: 6, three_of_a_kind: 0, four_of_a_kind: 0,
  full_house: 0, small_straight: 30, large_straight: 40, yahtzee: 0, chance: 20,
};
// 2 2 2 5 5 on an empty card: a Full house.
const HOUSE = {
  ones: 0, twos: 6, threes: 0, fours: 0, fives: 10, sixes: 0, three_of_a_kind: 16, four_of_a_kind: 0,
  full_house: 25, small_straight: 0, large_straight: 0, yahtzee: 0, chance: 16,
};

describe("scoreCaution: when to ask", () => {
  test("a 0 always asks, and names the best other box", () => {
    assert.deepEqual(scoreCaution("full_house", STRAIGHT), {
      points: 0, zero: true, better: { category: "large_straight", points: 40 },
    });
  });

  test("a 0 asks even when no other box would take much", () => {
    const poor = { ones: 0, yahtzee: 0, sixes: 6 };
    assert.deepEqual(scoreCaution("yahtzee", poor), { points: 0, zero: true, better: null });
  });

  test(`${FAR_BELOW} or more below the best other open box asks`, () => {
    // Sixes 6 with a Large straight (40) open: 34 below.
    assert.deepEqual(scoreCaution("sixes", STRAIGHT), {
      points: 6, zero: false, better: { category: "large_straight", points: 40 },
    });
    // Twos 6 with a Full house (25) open: 19 below.
    assert.deepEqual(scoreCaution("twos", HOUSE), {
      points: 6, zero: false, better: { category: "full_house", points: 25 },
    });
    // Exactly FAR_BELOW: 10 against 25.
    assert.deepEqual(scoreCaution("fives", HOUSE), {
      points: 10, zero: false, better: { category: "full_house", points: 25 },
    });
  });

  test("less than that below goes ahead: a choice players make on purpose", () => {
    // Small straight 30 with the Large (40) open: 10 below.
    assert.equal(scoreCaution("small_straight", STRAIGHT), null);
    // Three of a kind 16 with a Full house 25: 9 below.
    assert.equal(scoreCaution("three_of_a_kind", HOUSE), null);
    // The best box itself.
    assert.equal(scoreCaution("large_straight", STRAIGHT), null);
    assert.equal(scoreCaution("full_house", HOUSE), null);
  });

  test("Chance is not compared: keeping it for later is why one writes little elsewhere", () => {
    // Fives 5 is 15 below Chance's 20, but Chance is left out; a Small straight (30) is not.
    assert.deepEqual(scoreCaution("fives", STRAIGHT).better, { category: "large_straight", points: 40 });
    const chanceOnly = { ones: 2, chance: 24 };
    assert.equal(scoreCaution("ones", chanceOnly), null);
    // Chance itself far below a straight still asks.
    assert.deepEqual(scoreCaution("chance", STRAIGHT), {
      points: 20, zero: false, better: { category: "large_straight", points: 40 },
    });
  });

  test("a box the roll may not take (the forced Joker) is the server's to refuse", () => {
    assert.equal(scoreCaution("fives", { sixes: 30 }), null);
  });
});

describe("cautionWords: the question", () => {
  test("for a 0, in the dialog and on the command line", () => {
    const words = cautionWords("full_house", scoreCaution("full_house", STRAIGHT), LABELS, [6, 5, 3, 2, 4]);
    assert.deepEqual(words, {
      title: "Write 0 in Full house?",
      text: "6 5 3 2 4 scores 0 in Full house, and the box is then filled for the rest of the game. Large straight would take 40.",
      yes: "Score 0 in Full house",
      line: "6 5 3 2 4 scores 0 in Full house, and the box is then filled for the rest of the game. Large straight would take 40. Type yes (or score! full house) to write it.",
    });
  });

  test("for a low score", () => {
    const words = cautionWords("twos", scoreCaution("twos", HOUSE), LABELS, [2, 2, 2, 5, 5]);
    assert.equal(words.title, "Only 6 in Twos?");
    assert.equal(words.yes, "Score 6 in Twos");
    assert.match(words.text, /Full house would take 25\.$/);
  });

  test("a 0 with nothing better says nothing of another box", () => {
    const words = cautionWords("yahtzee", scoreCaution("yahtzee", { yahtzee: 0 }), LABELS, [1, 2, 3, 5, 6]);
    assert.equal(words.text, "1 2 3 5 6 scores 0 in Yahtzee, and the box is then filled for the rest of the game.");
  });
});
