// static/js/commands.js: the table's command line. Dice are typed 1 to 5 from the
// left and sent as positions 0 to 4 (docs/protocol.md, roll and hold).
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { CONFIRM_MS, Confirmation, HELP, confirmPrompt, echo, findCategory, findSeat, parse } from "../../static/js/commands.js";
import { CATEGORIES, LABELS } from "./messages.mjs";

const read = (line) => parse(line, CATEGORIES);
const BOXES =
  "Ones, Twos, Threes, Fours, Fives, Sixes, Three of a kind, Four of a kind, Full house, " +
  "Small straight, Large straight, Yahtzee, Chance";

describe("parse: nothing typed", () => {
  for (const line of ["", "   ", "\t \n"]) {
    test(`${JSON.stringify(line)} asks for a command`, () => {
      assert.deepEqual(read(line), { error: "Type a command, or help." });
    });
  }
});

describe("parse: roll", () => {
  test("roll alone throws every die not held", () => {
    assert.deepEqual(read("roll"), { action: "roll", throw: null });
  });

  test("r, ROLL, Roll and surrounding spaces are the same command", () => {
    for (const line of ["r", "ROLL", "Roll", "  roll  ", "R"]) {
      assert.deepEqual(read(line), { action: "roll", throw: null }, line);
    }
  });

  test("dice are numbered 1 to 5 and sent as positions 0 to 4, in order", () => {
    assert.deepEqual(read("roll 2 5"), { action: "roll", throw: [1, 4] });
    assert.deepEqual(read("roll 5 2"), { action: "roll", throw: [1, 4] });
    assert.deepEqual(read("roll 1"), { action: "roll", throw: [0] });
    assert.deepEqual(read("roll 5 4 3 2 1"), { action: "roll", throw: [0, 1, 2, 3, 4] });
  });

  test("commas and spaces both separate dice", () => {
    for (const line of ["roll 2,5", "roll 2, 5", "roll 2 ,5", "roll 2 , 5", "roll 2,,5", "roll ,2,5,", "r\t2\t5"]) {
      assert.deepEqual(read(line), { action: "roll", throw: [1, 4] }, line);
    }
  });

  test("a roll that names no die, only commas, throws every die not held", () => {
    assert.deepEqual(read("roll ,"), { action: "roll", throw: null });
    assert.deepEqual(read("r , ,"), { action: "roll", throw: null });
  });

  test("a die named twice is refused", () => {
    assert.deepEqual(read("roll 2 2"), { error: "Die 2 is named twice." });
    assert.deepEqual(read("roll 1,3,1"), { error: "Die 1 is named twice." });
  });

  test("a die outside 1 to 5, or not a number, is refused as typed", () => {
    for (const [line, part] of [
      ["roll 0", "0"], ["roll 6", "6"], ["roll 2 6", "6"], ["roll 25", "25"], ["roll 2,6", "6"],
      ["roll -1", "-1"], ["roll 1.5", "1.5"], ["roll 02", "02"], ["roll two", "two"], ["roll 1;2", "1;2"],
    ]) {
      assert.deepEqual(read(line), { error: `Dice are numbered 1 to 5, not “${part}”.` }, line);
    }
  });
});

describe("parse: hold", () => {
  test("hold, keep and h name the dice held, as positions", () => {
    assert.deepEqual(read("hold 1 3"), { action: "hold", hold: [0, 2] });
    assert.deepEqual(read("keep 3 1"), { action: "hold", hold: [0, 2] });
    assert.deepEqual(read("h 1,3"), { action: "hold", hold: [0, 2] });
    assert.deepEqual(read("HOLD 4"), { action: "hold", hold: [3] });
  });

  test("hold alone lets every die go", () => {
    assert.deepEqual(read("hold"), { action: "hold", hold: [] });
    assert.deepEqual(read("keep"), { action: "hold", hold: [] });
  });

  test("holding all five is read (the page refuses it: a roll must throw a die)", () => {
    assert.deepEqual(read("hold 1 2 3 4 5"), { action: "hold", hold: [0, 1, 2, 3, 4] });
  });

  test("bad dice are refused as in roll", () => {
    assert.deepEqual(read("hold 3 3"), { error: "Die 3 is named twice." });
    assert.deepEqual(read("hold 7"), { error: "Dice are numbered 1 to 5, not “7”." });
  });
});

describe("parse: score", () => {
  const box = (line) => read(line).category;

  test("score and s write the roll in a box named by its id or its label, in any case", () => {
    assert.deepEqual(read("score fives"), { action: "score", category: "fives", sure: false });
    assert.deepEqual(read("s chance"), { action: "score", category: "chance", sure: false });
    for (const line of ["score full house", "score Full House", "score full_house", "score full-house", "score FULLHOUSE"]) {
      assert.equal(box(line), "full_house", line);
    }
    assert.equal(box("score three of a kind"), "three_of_a_kind");
    assert.equal(box("score Four of a kind"), "four_of_a_kind");
    assert.equal(box("score small straight"), "small_straight");
    assert.equal(box("score large straight"), "large_straight");
    assert.equal(box("score yahtzee!"), "yahtzee");
  });

  test("every box is found by its id and by its label", () => {
    for (const { id, label } of CATEGORIES) {
      assert.equal(box(`score ${id}`), id);
      assert.equal(box(`score ${label}`), id);
    }
  });

  test("the short names", () => {
    const aliases = {
      "1s": "ones", "2s": "twos", "3s": "threes", "4s": "fours", "5s": "fives", "6s": "sixes",
      "3 of a kind": "three_of_a_kind", "3-of-a-kind": "three_of_a_kind", "3 kind": "three_of_a_kind",
      "3k": "three_of_a_kind", trips: "three_of_a_kind",
      "4 of a kind": "four_of_a_kind", "4kind": "four_of_a_kind", "4K": "four_of_a_kind", quads: "four_of_a_kind",
      fh: "full_house", house: "full_house",
      ss: "small_straight", sm: "small_straight", "sm straight": "small_straight", small: "small_straight",
      ls: "large_straight", lg: "large_straight", "lg straight": "large_straight", large: "large_straight",
      y: "yahtzee", Y: "yahtzee",
    };
    for (const [typed, id] of Object.entries(aliases)) {
      assert.deepEqual(read(`score ${typed}`), { action: "score", category: id, sure: false }, typed);
    }
  });

  test("a clear beginning of a name is enough", () => {
    const prefixes = {
      on: "ones", tw: "twos", fi: "fives", si: "sixes", fu: "full_house", ch: "chance", c: "chance",
      ya: "yahtzee", la: "large_straight", l: "large_straight", sma: "small_straight",
      "three of": "three_of_a_kind", "four of": "four_of_a_kind", threes: "threes",
    };
    for (const [typed, id] of Object.entries(prefixes)) {
      assert.equal(box(`score ${typed}`), id, typed);
    }
  });

  test("a beginning that fits several boxes names them all", () => {
    assert.deepEqual(read("score f"), { error: "“f” could be Fours, Fives, Four of a kind, or Full house." });
    assert.deepEqual(read("score four"), { error: "“four” could be Fours or Four of a kind." });
    assert.deepEqual(read("score three"), { error: "“three” could be Threes or Three of a kind." });
    assert.deepEqual(read("score t"), { error: "“t” could be Twos, Threes, or Three of a kind." });
    assert.deepEqual(read("score S"), { error: "“S” could be Sixes or Small straight." });
  });

  test("an unknown box is refused with the list of boxes, quoting what was typed", () => {
    assert.deepEqual(read("score banana"), { error: `There is no box called “banana”. The boxes: ${BOXES}.` });
    assert.deepEqual(read("score  Big   Straight "), { error: `There is no box called “Big Straight”. The boxes: ${BOXES}.` });
    assert.deepEqual(read("score 6"), { error: `There is no box called “6”. The boxes: ${BOXES}.` });
  });

  test("score! and s! write it without asking, even a 0", () => {
    assert.deepEqual(read("score! full house"), { action: "score", category: "full_house", sure: true });
    assert.deepEqual(read("s! fh"), { action: "score", category: "full_house", sure: true });
    assert.deepEqual(read("score! banana").error, `There is no box called “banana”. The boxes: ${BOXES}.`);
  });

  test("yes confirms the score the command line asked about", () => {
    assert.deepEqual(read("yes"), { action: "yes" });
    assert.deepEqual(read("YES"), { action: "yes" });
  });

  test("score with no box asks which", () => {
    assert.deepEqual(read("score"), { error: "Score which box? For example: score fives" });
    assert.deepEqual(read("s --"), { error: "Score which box? For example: score fives" });
  });
});

describe("findCategory", () => {
  test("it reads a box name on its own", () => {
    assert.deepEqual(findCategory("Full house", CATEGORIES), { category: "full_house" });
    assert.deepEqual(findCategory("fh", CATEGORIES), { category: "full_house" });
    assert.deepEqual(findCategory("", CATEGORIES), { error: "Score which box? For example: score fives" });
  });

  test("on a Yatzy card it reads Yatzy's boxes, and an alias means the box this card has", () => {
    const yatzy = [
      ...CATEGORIES.filter((c) => c.upper),
      { id: "one_pair", label: "One pair", upper: false },
      { id: "two_pairs", label: "Two pairs", upper: false },
      ...CATEGORIES.filter((c) => !c.upper && c.id !== "yahtzee"),
      { id: "yatzy", label: "Yatzy", upper: false },
    ];
    assert.deepEqual(findCategory("y", yatzy), { category: "yatzy" });
    assert.deepEqual(findCategory("y", CATEGORIES), { category: "yahtzee" });
    assert.deepEqual(findCategory("two pairs", yatzy), { category: "two_pairs" });
    assert.deepEqual(findCategory("pair", yatzy), { category: "one_pair" });
    assert.deepEqual(findCategory("fh", yatzy), { category: "full_house" });
    assert.deepEqual(findCategory("yahtzee", yatzy).error.startsWith("There is no box called “yahtzee”"), true);
    // Yahtzee's card has no pairs: the alias names nothing there.
    assert.deepEqual(findCategory("pairs", CATEGORIES).error.startsWith("There is no box"), true);
  });
});

describe("parse: say and chat", () => {
  test("say and chat send the rest of the line, spaces inside kept", () => {
    assert.deepEqual(read("say good luck"), { action: "chat", text: "good luck" });
    assert.deepEqual(read("chat  Well   played! "), { action: "chat", text: "Well   played!" });
    assert.deepEqual(read("SAY Roll 2 5, then score fives"), { action: "chat", text: "Roll 2 5, then score fives" });
  });

  test("say with nothing to say asks what", () => {
    assert.deepEqual(read("say"), { error: "Say what? For example: say good luck" });
    assert.deepEqual(read("chat   "), { error: "Say what? For example: say good luck" });
  });
});

describe("parse: the bots' pace, the chances and the watchers' chat", () => {
  test("pace names one of the three paces, in a few words", () => {
    assert.deepEqual(read("pace quick"), { action: "bot_pace", pace: "quick" });
    assert.deepEqual(read("bots Instantly"), { action: "bot_pace", pace: "instant" });
    assert.deepEqual(read("pace natural"), { action: "bot_pace", pace: "natural" });
    assert.deepEqual(read("bot-pace fast"), { action: "bot_pace", pace: "quick" });
  });

  test("a pace that is none of them, or none at all, says which there are", () => {
    const error = "The bots play natural, quick or instant: for example pace quick";
    for (const line of ["pace", "pace slowly please", "pace 3", "bots warp"]) {
      assert.deepEqual(read(line), { error }, line);
    }
  });

  test("chances on and off: whether the players see who is likely to win", () => {
    assert.deepEqual(read("chances on"), { action: "show_odds", on: true });
    assert.deepEqual(read("Chances OFF"), { action: "show_odds", on: false });
    assert.deepEqual(read("odds show"), { action: "show_odds", on: true });
    assert.match(read("chances").error, /^Chances on or chances off\?/);
    assert.match(read("chances maybe").error, /^Chances on or chances off\?/);
  });

  test("watchers on and off: whether this player reads the watchers' chat", () => {
    assert.deepEqual(read("watchers on"), { action: "read_watchers", read: true });
    assert.deepEqual(read("watchers read"), { action: "read_watchers", read: true });
    assert.deepEqual(read("watchers off"), { action: "read_watchers", read: false });
    assert.match(read("watchers").error, /^Watchers on or watchers off\?/);
  });
});

describe("parse: help and unknown commands", () => {
  test("help and ? show the list", () => {
    for (const line of ["help", "?", "HELP", " help me "]) {
      assert.deepEqual(read(line), { action: "help" }, line);
    }
  });

  test("an unknown command is named as typed", () => {
    assert.deepEqual(read("dance"), { error: "Unknown command “dance”. Type help for the list." });
    assert.deepEqual(read("Throw 1 2"), { error: "Unknown command “Throw”. Type help for the list." });
    assert.deepEqual(read("sayhello"), { error: "Unknown command “sayhello”. Type help for the list." });
  });
});

describe("parse: back, leave, remove, bot-seat", () => {
  test("back (or imback) is the I'm back button", () => {
    assert.deepEqual(read("back"), { action: "back" });
    assert.deepEqual(read(" BACK "), { action: "back" });
    assert.deepEqual(read("imback"), { action: "back" });
  });

  test("leave asks first; leave! is already sure", () => {
    assert.deepEqual(read("leave"), { action: "leave", sure: false });
    assert.deepEqual(read("Leave"), { action: "leave", sure: false });
    assert.deepEqual(read("leave!"), { action: "leave", sure: true });
  });

  test("remove and bot-seat name a seat by number or name, the rest of the line", () => {
    assert.deepEqual(read("remove 2"), { action: "remove_player", who: "2", sure: false });
    assert.deepEqual(read("kick Mary Ann"), { action: "remove_player", who: "Mary Ann", sure: false });
    assert.deepEqual(read("remove! Bob"), { action: "remove_player", who: "Bob", sure: true });
    assert.deepEqual(read("bot-seat Bob"), { action: "hand_to_bot", who: "Bob", sure: false });
    assert.deepEqual(read("botseat 3"), { action: "hand_to_bot", who: "3", sure: false });
    assert.deepEqual(read("hand! 3"), { action: "hand_to_bot", who: "3", sure: true });
  });

  test("without a seat they ask which", () => {
    assert.deepEqual(read("remove"), { error: "Which seat? For example: remove 2 or remove Ana" });
    assert.deepEqual(read("bot-seat"), { error: "Which seat? For example: bot-seat 2 or bot-seat Ana" });
  });
});

describe("findSeat", () => {
  const players = ["Ann", "Bob", "Bobby", "Cy"].map((name, seat) => ({ seat, name }));

  test("a number is the seat as shown, from 1", () => {
    assert.deepEqual(findSeat("1", players), { seat: 0 });
    assert.deepEqual(findSeat("seat 4", players), { seat: 3 });
    assert.deepEqual(findSeat("5", players), { error: "There is no seat 5: seats go from 1 to 4." });
    assert.deepEqual(findSeat("0", players), { error: "There is no seat 0: seats go from 1 to 4." });
  });

  test("a name, in any case; an exact name wins over a longer one", () => {
    assert.deepEqual(findSeat("cy", players), { seat: 3 });
    assert.deepEqual(findSeat("BOB", players), { seat: 1 });
    assert.deepEqual(findSeat("bobb", players), { seat: 2 });
  });

  test("a clear start of a name; an unclear or unknown one is explained", () => {
    assert.deepEqual(findSeat("an", players), { seat: 0 });
    assert.deepEqual(findSeat("b", players), { error: "“b” could be Bob or Bobby." });
    assert.deepEqual(findSeat("Dee", players), { error: "Nobody here is called “Dee”. The players: Ann, Bob, Bobby, Cy." });
  });
});

describe("Confirmation: the command line asks twice", () => {
  test("the same command again within the time goes ahead, once", () => {
    const asks = new Confirmation();
    assert.equal(asks.check("leave", 1_000), false);
    assert.equal(asks.check("leave", 1_000 + CONFIRM_MS), true);
    assert.equal(asks.check("leave", 1_000 + CONFIRM_MS + 1), false); // A third time asks again.
  });

  test("too late, or another command in between, asks again", () => {
    const asks = new Confirmation();
    asks.check("leave", 0);
    assert.equal(asks.check("leave", CONFIRM_MS + 1), false);
    assert.equal(asks.check("remove_player-1", CONFIRM_MS + 2), false);
    assert.equal(asks.check("remove_player-2", CONFIRM_MS + 3), false);
    assert.equal(asks.check("remove_player-2", CONFIRM_MS + 4), true);
  });

  test("what it answers the first time", () => {
    assert.equal(confirmPrompt("leave"),
      "Type leave again within 10 s to leave the game for good (your score stands; you will watch). Or leave! at once.");
    assert.equal(confirmPrompt("remove_player", "Bob"),
      "Type that again within 10 s to remove Bob from the game (their score stands).");
    assert.equal(confirmPrompt("hand_to_bot", "Bob"),
      "Type that again within 10 s to let a bot play Bob's seat for the rest of the game.");
  });
});

describe("HELP", () => {
  test("every command the list shows, and the README's, reads without an error", () => {
    const examples = [
      "roll", "roll 2 5", "hold 1 3", "hold", "score fives", "score full house", "score 3 of a kind",
      "score chance", "score sm straight", "say good luck", "back", "leave", "leave!", "remove Ana",
      "remove 2", "bot-seat Ana", "help", "yes", "score! yahtzee", "pace quick", "chances on",
      "watchers on",
    ];
    for (const line of examples) {
      assert.ok(HELP.includes(line), `HELP shows ${line}`);
      assert.equal(read(line).error, undefined, line);
    }
  });

  test("it names the keys", () => {
    assert.match(HELP, /Keys: 1-5 hold a die, R or Space roll \(Enter presses a focused button\),\n\/ this command line\./);
  });
});

describe("echo: what a typed command did, once the server has done it", () => {
  test("a roll: the dice and the rolls left", () => {
    const rolled = (dice, left) => ({ kind: "rolled", data: { seat: 0, dice, held: [], rolls_left: left, options: {} } });
    assert.equal(echo(rolled([4, 4, 1, 2, 6], 2), LABELS), "Rolled 4 4 1 2 6: 2 rolls left.");
    assert.equal(echo(rolled([4, 4, 4, 2, 6], 1), LABELS), "Rolled 4 4 4 2 6: 1 roll left.");
    assert.equal(echo(rolled([4, 4, 4, 4, 6], 0), LABELS), "Rolled 4 4 4 4 6: no rolls left: pick a box.");
  });

  test("the host's settings: the bots' pace, and whether the players see the chances", () => {
    assert.equal(echo({ kind: "bot_pace", data: { pace: "quick", seat: 0, name: "Ann" } }, LABELS), "The bots play quickly now.");
    assert.equal(echo({ kind: "bot_pace", data: { pace: "natural", seat: 0, name: "Ann" } }, LABELS), "The bots play at a natural pace now.");
    assert.equal(echo({ kind: "show_odds", data: { show: true, seat: 0, name: "Ann" } }, LABELS), "The players see who is likely to win now.");
    assert.equal(echo({ kind: "show_odds", data: { show: false, seat: 0, name: "Ann" } }, LABELS), "The players no longer see who is likely to win.");
  });

  test("a hold names the dice as typed, 1 to 5", () => {
    assert.equal(echo({ kind: "held", data: { seat: 0, held: [0, 2] } }, LABELS), "Holding dice 1 3.");
    assert.equal(echo({ kind: "held", data: { seat: 0, held: [] } }, LABELS), "Holding no dice.");
  });

  test("a score: the points, the box and a Yahtzee bonus", () => {
    const scored = (category, points, bonus) => ({ kind: "scored", data: { seat: 0, category, points, yahtzee_bonus: bonus } });
    assert.equal(echo(scored("full_house", 25, false), LABELS), "Scored 25 in Full house.");
    assert.equal(echo(scored("fives", 25, true), LABELS), "Scored 25 in Fives and a Yahtzee bonus of 100.");
  });

  test("a chat line, and nothing for events no command causes", () => {
    assert.equal(echo({ kind: "chat", data: { seat: 0, name: "Ana", text: "gl" } }, LABELS), "Said to the table: gl");
    assert.equal(echo({ kind: "away", data: { seat: 0, name: "Ana" } }, LABELS), null);
  });
});
