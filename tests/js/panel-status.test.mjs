// static/js/panels/status.js: the room's bar (where the game stands, the clock's setting,
// the connection) and which panels the game's stage shows.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { StatusPanel } from "../../static/js/panels/status.js";
import { event, lobby, playing } from "./messages.mjs";
import { apply, openRoom } from "./table.mjs";

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function status(state) {
  const page = openRoom(state);
  pages.push(page);
  const panel = new StatusPanel(page.room, page.document);
  panel.draw();
  return { ...page, panel, $: (id) => page.document.getElementById(id) };
}

test("the lobby: its seats in a line, and only the lobby shows", () => {
  const { $ } = status(lobby(["Ana", "Bob"], { you: 1 }));
  assert.equal($("room-status").textContent, "Lobby · 2 of 4 seats taken");
  assert.equal($("lobby").hidden, false);
  assert.equal($("turn").hidden, true);
  assert.equal($("cards").hidden, true);
  assert.equal($("room").dataset.status, "lobby");
});

test("in play: the round and whose turn, the watchers, the clock's setting; the table shows", () => {
  const state = playing(["Ana", "Bob"], { you: 0, turnSeconds: 30 });
  const { $, room, panel } = status(state);
  assert.equal($("room-status").textContent, "Round 1 of 13 · your turn · 1 watching");
  assert.equal($("clock-setting").hidden, false);
  assert.equal($("turn").hidden, false);
  assert.equal($("console").hidden, false);
  assert.equal($("lobby").hidden, true);
  panel.update(apply(room, event(21, "scored", { seat: 0, category: "chance", points: 20, card: state.players[0].card, round: 1, next: 1 })));
  assert.equal($("room-status").textContent, "Round 1 of 13 · Bob's turn · 1 watching");
});

test("a watcher is told so, and has no command line", () => {
  const { $ } = status(playing(["Ana", "Bob"]));
  assert.equal($("room-status").textContent, "Round 1 of 13 · Ana's turn · 1 watching · you are watching");
  assert.equal($("console").hidden, true);
});

test("the connection: live, then lost with a countdown, then gone", () => {
  const { panel, $ } = status(playing(["Ana", "Bob"]));
  const text = () => $("connection").querySelector(".connection__text").textContent;
  panel.showConnection({ state: "open" });
  assert.equal(text(), "Live");
  panel.showConnection({ state: "waiting", retryAt: Date.now() + 3000 });
  assert.equal(text(), "Connection lost. Reconnecting in 3 s…");
  assert.equal($("connection").querySelector(".connection__retry").hidden, false);
  panel.showConnection({ state: "gone" });
  assert.equal(text(), "Closed");
  assert.equal($("room-lost").hidden, false);
  assert.equal($("table").hidden, true);
});
