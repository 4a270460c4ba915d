// static/js/panels/lobby.js: the seats before the start, what the host and the others may
// do there, and the invite, in the lobby and then in its dialog.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { LobbyPanel } from "../../static/js/panels/lobby.js";
import { event, lobby } from "./messages.mjs";
import { apply, openRoom } from "./table.mjs";

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function memory(entries = {}) {
  const kept = new Map(Object.entries(entries));
  return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, String(value)) };
}

function lobbyOf(state, storage = memory()) {
  const page = openRoom(state);
  pages.push(page);
  const panel = new LobbyPanel(page.room, page.document, storage);
  panel.draw();
  const $ = (id) => page.document.getElementById(id);
  const seats = () => [...page.document.querySelectorAll("#seats li")].map((li) => li.textContent);
  return { ...page, panel, $, seats, storage };
}

test("the seats, the empty ones too, with the host's and this player's badges", () => {
  const { seats } = lobbyOf(lobby(["Ana", "Bob"], { you: 1, seats: 3 }));
  assert.deepEqual(seats(), ["Anahost", "Bobyou", "Empty seat"]);
});

test("the host sees the coach's switch, the bots and Start; the note says what comes next", () => {
  const host = lobbyOf(lobby(["Ana", "Bob"], { you: 0 }));
  assert.equal(host.$("coach-switch").hidden, false);
  assert.equal(host.$("add-bots").hidden, false);
  assert.equal(host.$("start-button").hidden, false);
  assert.equal(host.$("lobby-note").textContent, "Start when everyone is seated. Latecomers can watch.");
  assert.ok(host.$("lobby").classList.contains("lobby--host"));
  host.$("start-button").click();
  assert.deepEqual(host.sent, [["start", { version: 3 }]]);

  const guest = lobbyOf(lobby(["Ana", "Bob"], { you: 1 }));
  assert.equal(guest.$("start-button").hidden, true);
  assert.equal(guest.$("coach-state").textContent, "Coach off.");
  assert.equal(guest.$("lobby-note").textContent, "You are seated. Ana starts the game.");
});

test("someone not seated may take a seat, with the name this browser used last", () => {
  const { $, sent, window, storage, panel } = lobbyOf(lobby(["Ana"]), memory({ "yahtzee.name": "Cy" }));
  assert.equal($("join-form").hidden, false);
  assert.equal($("join-name").value, "Cy");
  $("join-name").value = "Cyd";
  $("join-form").dispatchEvent(new window.Event("submit", { cancelable: true }));
  assert.deepEqual(sent, [["join", { name: "Cyd" }]]);
  panel.hear({ type: "joined", id: "join-1" });
  assert.equal(storage.getItem("yahtzee.name"), "Cyd");
});

test("a full room: nobody else may sit down", () => {
  const { $ } = lobbyOf(lobby(["Ana", "Bob"], { seats: 2 }));
  assert.equal($("join-form").hidden, true);
  assert.equal($("lobby-note").textContent, "Every seat is taken: you are watching this game.");
});

test("a seat taken adds its line; the host may take a bot off", () => {
  const { room, panel, seats, document, sent } = lobbyOf(lobby(["Ana"], { you: 0, seats: 2 }));
  panel.update(apply(room, event(3, "joined", { seat: 1, name: "Casual bot", host: false, bot: "casual" })));
  assert.deepEqual(seats(), ["Anahostyou", "Casual botbotRemove"]);
  document.querySelector(".seat__remove").click();
  assert.deepEqual(sent, [["remove_bot", { bot: 1 }]]);
});

test("the invite stands in the lobby, and goes into the Invite dialog once the game starts", () => {
  const { room, panel, $ } = lobbyOf(lobby(["Ana", "Bob"], { you: 0 }));
  assert.equal($("invite").parentElement, $("lobby"));
  assert.equal($("invite-button").hidden, true);
  panel.update(apply(room, event(4, "started", { first: 0, players: ["Ana", "Bob"] })));
  assert.equal($("invite").parentElement, $("invite-dialog-body"));
  assert.equal($("invite-button").hidden, false);
});
