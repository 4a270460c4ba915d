// static/js/panels/seat.js: the notice while a bot plays this seat, a seated player's
// tools, and the host's care of away or offline seats.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { SeatPanel } from "../../static/js/panels/seat.js";
import { event, lobby, playing } from "./messages.mjs";
import { apply, openRoom } from "./table.mjs";

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function seat(state) {
  const page = openRoom(state);
  pages.push(page);
  const alerts = { soundOn: false };
  const panel = new SeatPanel(page.room, alerts, page.document);
  panel.draw();
  return { ...page, panel, alerts, $: (id) => page.document.getElementById(id) };
}

test("a seated player's tools; none for a watcher", () => {
  const player = seat(playing(["Ana", "Bob"], { you: 1 }));
  assert.equal(player.$("seat-tools").hidden, false);
  assert.equal(player.$("leave-game-button").hidden, false);
  assert.equal(player.$("host-seats").hidden, true);
  player.$("sound-toggle").checked = true;
  player.$("sound-toggle").dispatchEvent(new player.window.Event("change"));
  assert.equal(player.alerts.soundOn, true);
  const inLobby = seat(lobby(["Ana", "Bob"], { you: 1 }));
  assert.equal(inLobby.$("leave-game-button").hidden, true);
  const watcher = seat(playing(["Ana", "Bob"]));
  assert.equal(watcher.$("seat-tools").hidden, true);
});

test("away: the notice with I'm back; handed to a bot: the notice without it", () => {
  const { room, panel, $, sent } = seat(playing(["Ana", "Bob"], { you: 1 }));
  assert.equal($("away-notice").hidden, true);
  panel.update(apply(room, event(21, "away", { seat: 1, name: "Bob" })));
  assert.equal($("away-notice").hidden, false);
  assert.equal($("away-heading").textContent, "You are away");
  $("back-button").click();
  assert.deepEqual(sent, [["back", {}]]);
  panel.update(apply(room, event(22, "handed", { seat: 1, name: "Bob" })));
  assert.equal($("away-heading").textContent, "A bot plays your seat");
  assert.equal($("back-button").hidden, true);
  assert.equal($("seat-tools").hidden, true);
});

test("the host sees an away player with Remove and Let a bot play, each asked first", () => {
  const { room, panel, $, document, asked, sent } = seat(playing(["Ana", "Bob"], { you: 0 }));
  panel.update(apply(room, event(21, "away", { seat: 1, name: "Bob" })));
  assert.equal($("host-seats").hidden, false);
  const item = document.querySelector(".host-seats__item");
  assert.equal(item.querySelector(".host-seats__name").textContent, "Bob");
  assert.equal(item.querySelector(".badge--away").textContent, "away");
  item.querySelector('[data-focus="hand-1"]').click();
  assert.equal(asked[0].words.title, "Let a bot play for Bob?");
  asked[0].then();
  assert.deepEqual(sent, [["hand_to_bot", { seat: 1 }]]);
});

test("what the host may not do, and why", () => {
  const { panel, room } = seat(playing(["Ana", "Bob", "Cy"], { you: 0 }));
  assert.equal(panel.hostRefusal("remove_player", 0), "That is your own seat: type leave to leave the game.");
  assert.equal(panel.hostRefusal("remove_player", 1), "Bob is here and playing: only an away or offline player can be removed or handed to a bot.");
  room.state.players[2].connected = false;
  assert.equal(panel.hostRefusal("remove_player", 2), null);
  const guest = seat(playing(["Ana", "Bob"], { you: 1 }));
  assert.equal(guest.panel.hostRefusal("remove_player", 0), "Only the host can do that.");
});

test("coming back when not away is refused with a reason", () => {
  const { panel, said, sent } = seat(playing(["Ana", "Bob"], { you: 1 }));
  panel.comeBack();
  assert.deepEqual(said, [["You are not away: nothing to come back from.", "error"]]);
  assert.deepEqual(sent, []);
});
