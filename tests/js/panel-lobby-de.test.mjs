// static/js/panels/lobby.js in German, from the real catalog: the seats' badges, the note
// under them for the host, a seated player and a latecomer, and the bot's Remove.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("de");
const { LobbyPanel } = await import("../../static/js/panels/lobby.js");
const { event, lobby } = await import("./messages.mjs");
const { apply, openRoom } = await import("./table.mjs");

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

const memory = () => ({ getItem: () => null, setItem: () => {} });

function lobbyOf(state) {
  const page = openRoom(state);
  pages.push(page);
  const panel = new LobbyPanel(page.room, page.document, memory());
  panel.draw();
  const $ = (id) => page.document.getElementById(id);
  const seats = () => [...page.document.querySelectorAll("#seats li")].map((li) => li.textContent);
  return { ...page, panel, $, seats };
}

test("the seats and their badges, the empty one too", () => {
  const { seats } = lobbyOf(lobby(["Ana", "Bob"], { you: 1, seats: 3 }));
  assert.deepEqual(seats(), ["AnaGastgeber:in", "Bobdu", "Freier Platz"]);
});

test("the note says what comes next, to each", () => {
  const host = lobbyOf(lobby(["Ana", "Bob"], { you: 0 }));
  assert.equal(host.$("lobby-note").textContent, "Starte, wenn alle sitzen. Wer später kommt, kann zuschauen.");
  const guest = lobbyOf(lobby(["Ana", "Bob"], { you: 1 }));
  assert.equal(guest.$("lobby-note").textContent, "Du hast einen Platz. Ana startet das Spiel.");
  assert.equal(guest.$("coach-state").textContent, "Coach aus.");
  const latecomer = lobbyOf(lobby(["Ana", "Bob"], { seats: 2 }));
  assert.equal(latecomer.$("lobby-note").textContent, "Alle Plätze sind besetzt: Du schaust diesem Spiel zu.");
});

test("a bot seated: its badge, its title, and the host's Remove with what it does", () => {
  const { room, panel, document } = lobbyOf(lobby(["Ana"], { you: 0, seats: 2 }));
  panel.update(apply(room, event(3, "joined", { seat: 1, name: "Casual bot", host: false, bot: "casual" })));
  const badge = document.querySelector(".badge--bot");
  assert.equal(badge.textContent, "Bot");
  assert.equal(badge.getAttribute("title"), "Lockerer Bot");
  const remove = document.querySelector(".seat__remove");
  assert.equal(remove.textContent, "Entfernen");
  assert.equal(remove.getAttribute("aria-label"), "Casual bot von Platz 2 nehmen");
});
