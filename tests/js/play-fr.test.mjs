// static/js/play.js and the command line's answers in French, from the real catalog
// (locale/fr/LC_MESSAGES/djangojs.po): why a move cannot be made now, in "vous", with the
// French card's names (Yam's), and French plurals (0 and 1 take the singular).
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";
import { card, playing } from "./messages.mjs";

speak("fr"); // Before any module that imports i18n.js.
const { openRoom } = await import("./table.mjs");
const { echo } = await import("../../static/js/commands.js");

const LABELS = { fives: "Cinq", full_house: "Full", small_straight: "Petite suite", yahtzee: "Yam's", chance: "Chance" };
const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function room(state) {
  const page = openRoom(state);
  pages.push(page);
  page.room.labels = LABELS;
  return page;
}

test("why a move cannot be made, in French", () => {
  const watcher = room(playing(["Ana", "Bob"]));
  watcher.room.play.roll();
  const other = room(playing(["Ana", "Bob"], { you: 1 }));
  other.room.play.roll();
  assert.deepEqual([...watcher.said, ...other.said], [
    ["Vous regardez : seuls les joueurs à la table peuvent jouer.", "error"],
    ["À Ana de jouer.", "error"],
  ]);
});

test("a filled box, and the forced Joker's boxes as a French list", () => {
  const joker = { seat: 0, dice: [5, 5, 5, 5, 5], held: [], rolls_left: 2, options: { fives: 25, chance: 25 } };
  const { room: table, said } = room(playing(["Ana", "Bob"], { you: 0, turn: joker, cards: { 0: card({ yahtzee: 50 }) } }));
  table.play.score("yahtzee");
  table.play.score("full_house");
  assert.deepEqual(said, [
    ["Votre case Yam's est déjà remplie.", "error"],
    ["La règle du joker imposé envoie ce Yam's en Cinq ou Chance.", "error"],
  ]);
});

test("the rolls left: the singular for one, as French says it", () => {
  const rolled = (left) => ({ kind: "rolled", data: { seat: 0, dice: [6, 6, 2, 3, 1], held: [], rolls_left: left, options: {} } });
  assert.equal(echo(rolled(1), LABELS), "Lancer : 6 6 2 3 1. Il reste 1 lancer.");
  assert.equal(echo(rolled(2), LABELS), "Lancer : 6 6 2 3 1. Il reste 2 lancers.");
  assert.equal(echo({ kind: "held", data: { seat: 0, held: [4] } }, LABELS), "Dé 5 gardé.");
});
