// static/js/panels/seat.js in German, from the real catalog: the away notice, the host's
// questions before removing a seat or handing it to a bot, and why the host may not.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("de");
const { SeatPanel } = await import("../../static/js/panels/seat.js");
const { event, playing } = await import("./messages.mjs");
const { apply, openRoom } = await import("./table.mjs");

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function seat(state) {
  const page = openRoom(state);
  pages.push(page);
  const panel = new SeatPanel(page.room, { soundOn: false }, page.document);
  panel.draw();
  return { ...page, panel, $: (id) => page.document.getElementById(id) };
}

test("away, then handed to a bot: the notice in German", () => {
  const { room, panel, $ } = seat(playing(["Ana", "Bob"], { you: 1 }));
  panel.update(apply(room, event(21, "away", { seat: 1, name: "Bob" })));
  assert.equal($("away-heading").textContent, "Du bist abwesend");
  assert.equal(
    $("away-text").textContent,
    "Die Uhr hat zwei deiner Züge hintereinander gespielt, also spielt ein Bot für dich, bis du zurückkommst.",
  );
  panel.update(apply(room, event(22, "handed", { seat: 1, name: "Bob" })));
  assert.equal($("away-heading").textContent, "Ein Bot spielt für dich");
});

test("the host's buttons and question for an away player, with the player's name", () => {
  const { room, panel, document, asked } = seat(playing(["Ana", "Bob"], { you: 0 }));
  panel.update(apply(room, event(21, "away", { seat: 1, name: "Bob" })));
  const remove = document.querySelector('[data-focus="remove-1"]');
  assert.equal(remove.textContent, "Entfernen");
  assert.equal(remove.getAttribute("aria-label"), "Bob aus dem Spiel entfernen");
  const hand = document.querySelector('[data-focus="hand-1"]');
  assert.equal(hand.getAttribute("aria-label"), "Einen Bot den Platz von Bob spielen lassen");
  hand.click();
  assert.deepEqual(asked[0].words, {
    title: "Einen Bot für Bob spielen lassen?",
    text: "Ein Bot spielt den Platz von Bob für den Rest des Spiels; Bob kann ihn nicht zurückbekommen.",
    yes: "Bot spielen lassen",
  });
});

test("what the host may not do, and why, in German", () => {
  const { panel } = seat(playing(["Ana", "Bob", "Cy"], { you: 0 }));
  assert.equal(panel.hostRefusal("remove_player", 0), "Das ist dein eigener Platz: Tippe leave, um das Spiel zu verlassen.");
  assert.equal(
    panel.hostRefusal("remove_player", 1),
    "Bob ist da und spielt: Nur wer abwesend oder offline ist, kann entfernt oder einem Bot übergeben werden.",
  );
  const guest = seat(playing(["Ana", "Bob"], { you: 1 }));
  assert.equal(guest.panel.hostRefusal("remove_player", 0), "Das kann nur die Gastgeberin oder der Gastgeber.");
  guest.panel.comeBack();
  assert.deepEqual(guest.said, [["Du bist nicht abwesend: Du musst nicht zurückkommen.", "error"]]);
});
