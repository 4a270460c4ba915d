// static/js/panels/turn.js: whose turn it is and what to do, the roll-off, and the clock.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { TurnPanel } from "../../static/js/panels/turn.js";
import { clockOf, event, playing } from "./messages.mjs";
import { watch } from "./page.mjs";
import { apply, openRoom } from "./table.mjs";

const rolled = { seat: 0, dice: [6, 5, 3, 2, 4], held: [], rolls_left: 2, options: {} };
const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function turn(state, options) {
  const page = openRoom(state, options);
  pages.push(page);
  const panel = new TurnPanel(page.room, page.document);
  const text = (id) => page.document.getElementById(id).textContent;
  return { ...page, panel, text };
}

test("the heading and the hint say whose turn it is and what this player may do", () => {
  const mine = turn(playing(["Ana", "Bob"], { you: 0 }));
  mine.panel.draw();
  assert.equal(mine.text("turn-heading"), "Your turn");
  assert.equal(mine.text("turn-hint"), "Roll the dice: R or Space.");
  assert.ok(mine.document.getElementById("turn").classList.contains("turn--mine"));

  const phone = turn(playing(["Ana", "Bob"], { you: 0, turn: rolled }), { touch: true });
  phone.panel.draw();
  assert.equal(phone.text("turn-hint"), "Tap dice to hold them; tap a box to score.");

  const waiting = turn(playing(["Ana", "Bob"], { you: 1 }));
  waiting.panel.draw();
  assert.equal(waiting.text("turn-heading"), "Ana's turn");
  assert.equal(waiting.text("turn-hint"), "Waiting for Ana.");

  const watcher = turn(playing(["Ana", "Bob"]));
  watcher.panel.draw();
  assert.equal(watcher.text("turn-hint"), "You are watching Ana play.");
});

test("a seat a bot plays for: said in the heading for its player, in the hint for the others", () => {
  const state = playing(["Ana", "Bob"], { you: 0 });
  state.players[0].away = true;
  const away = turn(state);
  away.panel.draw();
  assert.equal(away.text("turn-heading"), "A bot plays your turn");
  assert.equal(away.text("turn-hint"), "A bot plays for Ana (away).");
});

test("the roll-off shows until the first roll, with who goes first", () => {
  const { panel, document, room } = turn(playing(["Ana", "Bob"], { you: 1 }));
  panel.draw();
  const rollOff = document.getElementById("roll-off");
  assert.equal(rollOff.hidden, false);
  assert.equal(document.querySelector(".roll-off__result").textContent, "Ana goes first.");
  assert.deepEqual([...document.querySelectorAll(".roll-off__sum")].map((s) => s.textContent), ["29", "9"]);
  panel.update(apply(room, event(21, "rolled", { seat: 0, ...rolled })));
  assert.equal(rollOff.hidden, true);
});

test("the clock counts down from what the server sent, and hurries at 10 seconds", () => {
  const { panel, text, document, room } = turn(playing(["Ana", "Bob"], { you: 1, turnSeconds: 60 }));
  panel.setClock(clockOf(0, 45_000), 1000);
  room.clockShown = panel.shownClock();
  panel.draw();
  panel.tick(1000);
  const box = document.getElementById("turn-clock");
  assert.equal(box.hidden, false);
  assert.equal(text("turn-clock-who"), "Ana:");
  assert.equal(text("turn-clock-time"), "0:45");
  panel.tick(1000 + 36_000);
  assert.equal(text("turn-clock-time"), "0:09");
  assert.equal(text("turn-clock-word"), "left: hurry!");
  assert.ok(box.classList.contains("turn-clock--urgent"));
  panel.setClock(null, 0);
  panel.tick(50_000);
  assert.equal(box.hidden, true);
});

test("a tick writes the time and nothing else", async () => {
  const { window, panel, document } = turn(playing(["Ana", "Bob"], { you: 1, turnSeconds: 60 }));
  panel.setClock(clockOf(0, 45_000), 0);
  panel.draw();
  panel.tick(0);
  const changes = watch(window, document.getElementById("room"));
  panel.tick(1500);
  const { targets } = await changes.taken();
  const time = document.getElementById("turn-clock-time");
  assert.ok([...targets].every((node) => node === time || time.contains(node)));
  assert.equal(time.textContent, "0:44");
});
