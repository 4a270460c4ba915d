// static/js/panels/console.js: a typed command goes to the same actions as the buttons,
// its answer is echoed when its event comes, and messages show in the output and a toast
// that has its own place during the game.
import { after, mock, test } from "node:test";
import assert from "node:assert/strict";

import { ConsolePanel } from "../../static/js/panels/console.js";
import { SeatPanel } from "../../static/js/panels/seat.js";
import { event, lobby, playing } from "./messages.mjs";
import { apply, openRoom } from "./table.mjs";

const rolled = { seat: 0, dice: [6, 6, 6, 2, 4], held: [], rolls_left: 2, options: { sixes: 18, chance: 24, ones: 0 } };
const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function commandLine(state) {
  const page = openRoom(state);
  pages.push(page);
  const seat = new SeatPanel(page.room, { soundOn: false }, page.document);
  const panel = new ConsolePanel(page.room, seat, page.document);
  page.room.say = (text, kind) => panel.say(text, kind); // As room.js: the command line says it.
  panel.draw();
  const $ = (id) => page.document.getElementById(id);
  const type = (line) => {
    $("console-input").value = line;
    $("console-form").dispatchEvent(new page.window.Event("submit", { cancelable: true }));
  };
  return { ...page, panel, $, type };
}

test("roll, hold and score as typed go to the server like the buttons", () => {
  const { type, sent, room } = commandLine(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  type("hold 1 2 3");
  assert.deepEqual(sent.at(-1), ["hold", { hold: [0, 1, 2] }]);
  type("roll");
  assert.deepEqual(sent.at(-1), ["roll", { hold: [0, 1, 2], version: 20 }]);
  room.pending = null;
  type("score sixes");
  assert.deepEqual(sent.at(-1), ["score", { category: "sixes", version: 20 }]);
});

test("a refusal shows in the output and in the toast; plain words in the output alone", () => {
  const { type, $ } = commandLine(playing(["Ana", "Bob"], { you: 1, turn: rolled }));
  type("roll");
  assert.equal($("console-output").textContent, "It is Ana's turn.");
  assert.equal($("toast").textContent, "It is Ana's turn.");
  assert.equal($("toast").hidden, false);
  type("help");
  assert.match($("console-output").textContent, /roll/);
  assert.equal($("toast").textContent, "It is Ana's turn.");
});

test("a low score is asked about first, and `yes` confirms it", () => {
  const { type, sent, $ } = commandLine(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  type("score ones");
  assert.equal(sent.length, 0);
  assert.match($("console-output").textContent, /yes/);
  type("yes");
  assert.deepEqual(sent.at(-1), ["score", { category: "ones", version: 20 }]);
});

test("the command typed is answered once its event comes", () => {
  const { type, panel, room, $ } = commandLine(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  type("score chance");
  room.pending = null;
  const after = { ...room.state.players[0].card, total: 24 };
  panel.echo(apply(room, event(21, "scored", { seat: 0, category: "chance", points: 24, card: after, round: 1, next: 1 })));
  assert.equal($("console-output").textContent, "Scored 24 in Chance.");
});

test("the toast has its place: in the lobby at the page's foot, in the game by the dice", () => {
  const { room, panel, $ } = commandLine(lobby(["Ana", "Bob"], { you: 0 }));
  assert.equal($("toast").parentElement, $("room"));
  panel.update(apply(room, event(4, "started", { first: 0, players: ["Ana", "Bob"] })));
  assert.equal($("toast").parentElement, $("turn-say"));
});

test("the toast goes after a few seconds", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { panel, $ } = commandLine(playing(["Ana", "Bob"], { you: 0 }));
    panel.say("Not connected: waiting to reconnect, then try again.", "error");
    assert.equal($("toast").hidden, false);
    mock.timers.tick(4000);
    assert.equal($("toast").hidden, true);
  } finally {
    mock.timers.reset();
  }
});
