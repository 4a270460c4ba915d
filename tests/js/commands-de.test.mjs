// static/js/commands.js in German, from the real catalog (locale/de/LC_MESSAGES/djangojs.po):
// the commands stay English keywords (the help says so), the boxes go by the German card's
// names, and every help line, answer and error is German.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";
import { KNIFFEL, KNIFFEL_LABELS } from "./messages.mjs";

speak("de");
const { HELP, confirmPrompt, echo, findSeat, parse } = await import("../../static/js/commands.js");
const read = (line) => parse(line, KNIFFEL);

describe("the help, in German", () => {
  test("it says the commands are typed in English, and the boxes by the card's names", () => {
    assert.match(HELP.split("\n")[0], /^Die Befehle \(auf Englisch, .*die Felder mit den Namen auf deiner Karte\):$/);
    assert.match(HELP, /^roll {12}wirft alle Würfel, die du nicht hältst$/m);
    assert.match(HELP, /^Tasten: 1-5 halten einen Würfel, R oder Leertaste würfeln/m);
  });

  test("every command it shows reads without an error on the German card", () => {
    const lines = HELP.split("\n").slice(1, -2); // Not the first line, nor the keys.
    // The examples' column, and the boxes the score line names as examples.
    const typed = lines.filter((line) => !line.startsWith(" ")).map((line) => line.split(/\s{2,}/)[0]);
    const boxes = HELP.match(/score [^,…\n]+?(?=\s{2,}|,|…|$)/gm).map((example) => example.trim());
    assert.deepEqual(boxes, ["score fünfer", "score full house", "score dreierpasch", "score chance", "score kl. straße"]);
    assert.ok(typed.includes("score! kniffel") && typed.includes("say viel Glück"));
    for (const line of [...typed, ...boxes]) assert.equal(read(line).error, undefined, line);
  });
});

describe("the boxes go by the German card's names", () => {
  test("whole, short, without accents or the soft hyphens, or by a clear beginning", () => {
    const box = (line) => read(line).category;
    assert.equal(box("score Dreierpasch"), "three_of_a_kind");
    assert.equal(box("score 4er-pasch"), "four_of_a_kind");
    assert.equal(box("score große straße"), "large_straight");
    assert.equal(box("score gr. straße"), "large_straight");
    assert.equal(box("score funfer"), "fives");
    assert.equal(box("score kni"), "yahtzee");
    assert.equal(box("score fives"), "fives"); // The ids (English) still do.
  });

  test("a beginning that fits several boxes names them, as a German list", () => {
    assert.deepEqual(read("score f"), { error: "„f“ könnte Fünfer oder Full House sein." });
    assert.deepEqual(read("score vier"), { error: "„vier“ könnte Vierer oder Vierer\u00adpasch sein." });
  });

  test("an unknown box, die or command is explained in German", () => {
    assert.match(read("score banane").error, /^Es gibt kein Feld „banane“\. Die Felder: Einser, Zweier, .*, Kniffel, Chance\.$/);
    assert.deepEqual(read("roll 7"), { error: "Die Würfel sind von 1 bis 5 nummeriert, nicht „7“." });
    assert.deepEqual(read("hold 2 2"), { error: "Würfel 2 ist zweimal genannt." });
    assert.deepEqual(read("würfeln"), { error: "Unbekannter Befehl „würfeln“. Tippe help für die Liste." });
    assert.deepEqual(read(""), { error: "Tippe einen Befehl, oder help." });
  });
});

test("seats, and the questions before what cannot be undone", () => {
  const players = ["Bob", "Bobby", "Cy"].map((name, seat) => ({ seat, name }));
  assert.deepEqual(findSeat("b", players), { error: "„b“ könnte Bob oder Bobby sein." });
  assert.deepEqual(findSeat("7", players), { error: "Es gibt keinen Platz 7: die Plätze gehen von 1 bis 3." });
  assert.equal(confirmPrompt("remove_player", "Bob"),
    "Tippe das innerhalb von 10 s noch einmal, um Bob aus dem Spiel zu nehmen (die Punkte bleiben).");
});

describe("echo: what a typed command did, in German", () => {
  const rolled = (left) => ({ kind: "rolled", data: { seat: 0, dice: [6, 5, 3, 2, 4], held: [], rolls_left: left, options: {} } });

  test("the rolls left, one or more or none", () => {
    assert.equal(echo(rolled(2), KNIFFEL_LABELS), "Gewürfelt: 6 5 3 2 4. Noch 2 Würfe.");
    assert.equal(echo(rolled(1), KNIFFEL_LABELS), "Gewürfelt: 6 5 3 2 4. Noch 1 Wurf.");
    assert.equal(echo(rolled(0), KNIFFEL_LABELS), "Gewürfelt: 6 5 3 2 4. Kein Wurf mehr: wähle ein Feld.");
  });

  test("a score in the German box, with a Kniffel bonus", () => {
    const scored = { kind: "scored", data: { seat: 0, category: "full_house", points: 25, yahtzee_bonus: true } };
    assert.equal(echo(scored, KNIFFEL_LABELS), "25 in Full House eingetragen, dazu ein Kniffel-Bonus von 100.");
    assert.equal(echo({ kind: "held", data: { seat: 0, held: [0, 2] } }, KNIFFEL_LABELS), "Würfel 1 3 gehalten.");
    assert.equal(echo({ kind: "bot_pace", data: { pace: "quick" } }, KNIFFEL_LABELS), "Die Bots spielen jetzt schnell.");
  });
});
