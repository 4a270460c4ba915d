// static/js/panels/tray.js: the dice and Roll drawn from the room's state, and what a
// hold changes (the die it holds, nothing else).
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { TrayPanel } from "../../static/js/panels/tray.js";
import { event, playing } from "./messages.mjs";
import { watch } from "./page.mjs";
import { apply, openRoom } from "./table.mjs";

const rolled = (held = [], rollsLeft = 2) => ({ seat: 0, dice: [6, 5, 3, 2, 4], held, rolls_left: rollsLeft, options: { chance: 20 } });
const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function tray(state, options) {
  const page = openRoom(state, options);
  pages.push(page);
  const panel = new TrayPanel(page.room, page.document);
  panel.draw();
  const labels = () => [...page.document.querySelectorAll(".die-button__label")].map((l) => l.textContent);
  return { ...page, panel, labels, roll: page.document.getElementById("roll-button") };
}

test("the dice are drawn from the turn, held ones pressed, and Roll counts the rolls left", () => {
  const { document, labels, roll } = tray(playing(["Ana", "Bob"], { you: 0, turn: rolled([1, 3]) }));
  assert.deepEqual(labels(), ["Die 1: 6", "Die 2: 5, held", "Die 3: 3", "Die 4: 2, held", "Die 5: 4"]);
  const dice = [...document.querySelectorAll(".die-button")];
  assert.deepEqual(dice.map((d) => d.getAttribute("aria-pressed")), ["false", "true", "false", "true", "false"]);
  assert.equal(dice[0].querySelector(".die").className, "die die--6");
  assert.ok(dice.every((d) => !d.disabled));
  assert.equal(roll.textContent, "Roll again · 2 left");
  assert.equal(roll.disabled, false);
});

test("before the first roll the dice are blank and cannot be held", () => {
  const { document, labels, roll } = tray(playing(["Ana", "Bob"], { you: 0 }));
  assert.deepEqual(labels(), ["Die 1: not rolled", "Die 2: not rolled", "Die 3: not rolled", "Die 4: not rolled", "Die 5: not rolled"]);
  assert.ok([...document.querySelectorAll(".die-button")].every((d) => d.disabled));
  assert.equal(roll.textContent, "Roll · 3 left");
});

test("another player's turn: the dice show, nothing can be pressed; a watcher has no Roll", () => {
  const seated = tray(playing(["Ana", "Bob"], { you: 1, turn: rolled() }));
  assert.ok([...seated.document.querySelectorAll(".die-button")].every((d) => d.disabled));
  assert.equal(seated.roll.textContent, "Roll");
  assert.equal(seated.roll.disabled, true);
  assert.equal(seated.roll.hidden, false);
  const watcher = tray(playing(["Ana", "Bob"], { turn: rolled() }));
  assert.equal(watcher.roll.hidden, true);
});

test("a hold changes the die it holds and nothing else in the tray", async () => {
  const { window, document, room, panel, labels } = tray(playing(["Ana", "Bob"], { you: 1, turn: rolled() }));
  const changes = watch(window, document.getElementById("tray"));
  panel.update(apply(room, event(21, "held", { seat: 0, held: [2] })));
  const { targets, replaced } = await changes.taken();
  const die = document.querySelectorAll(".die-button")[2];
  assert.ok([...targets].every((node) => die.contains(node)), "only die 3 changed");
  assert.equal(replaced, 2); // Its label's text, written anew.
  assert.equal(labels()[2], "Die 3: 3, held");
});

test("a click holds the die at once and sends the hold; a fifth die held is refused", async () => {
  const { document, room, sent, said, changes } = tray(playing(["Ana", "Bob"], { you: 0, turn: rolled([0, 1, 2, 3]) }));
  const dice = document.querySelectorAll(".die-button");
  dice[3].click();
  assert.deepEqual(sent.at(-1), ["hold", { hold: [0, 1, 2] }]);
  assert.deepEqual(room.state.turn.held, [0, 1, 2]);
  assert.deepEqual(changes, ["hold"]); // room.js redraws the tray (and the coach's line) on it.
  dice[3].click();
  dice[4].click();
  assert.deepEqual(said.at(-1), ["Keep at most four dice: a roll needs at least one die to throw.", "error"]);
});

test("a roll lands on the server's dice; Roll is off while a command waits", () => {
  const { room, panel, roll, labels } = tray(playing(["Ana", "Bob"], { you: 0 }));
  roll.click();
  assert.equal(room.pending, "roll");
  panel.update({ kind: "pending" });
  assert.equal(roll.disabled, true);
  room.pending = null;
  panel.update(apply(room, event(21, "rolled", { seat: 0, dice: [1, 1, 1, 2, 2], held: [], rolls_left: 2, options: {} })));
  assert.equal(labels()[0], "Die 1: 1");
  assert.equal(roll.textContent, "Roll again · 2 left");
});
