// The feed in German, from the real catalog (locale/de/LC_MESSAGES/djangojs.po): whole
// sentences with Kniffel's box names as the server gives them in the room's config (with
// its soft hyphens), points counted in the plural German needs, names listed with "und".
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("de");
const { describe } = await import("../../static/js/state.js");
const { FeedPanel } = await import("../../static/js/panels/feed.js");
const { StatusPanel } = await import("../../static/js/panels/status.js");
const { TrayPanel } = await import("../../static/js/panels/tray.js");
const { event, card, playing } = await import("./messages.mjs");
const { apply, openRoom } = await import("./table.mjs");

// games/words.py's Kniffel names (locale/de/LC_MESSAGES/django.po), as the room's config has them.
const KNIFFEL = {
  ones: "Einser", chance: "Chance", full_house: "Full House", three_of_a_kind: "Dreier\u00adpasch",
  yahtzee: "Kniffel", large_straight: "Große Straße",
};
const ANA_BO = [{ seat: 0, name: "Ana" }, { seat: 1, name: "Bo" }];
const say = (kind, data, players = ANA_BO) => describe(event(10, kind, data), players, KNIFFEL);
const scored = (fields) => ({ dice: [1, 2, 3, 4, 6], yahtzee_bonus: false, total: 0, next: 1, round: 2, card: card(), ...fields });

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

test("Ana's time ran out: the clock scored 18 in Chance, in German", () => {
  assert.deepEqual(
    say("scored", scored({ seat: 0, category: "chance", points: 18, by: "clock" })),
    ["Für Ana ist die Zeit abgelaufen: Die Uhr hat 18 Punkte bei Chance eingetragen."],
  );
});

test("a score: one Punkt, several Punkte, Kniffel's names, and the Kniffel bonus", () => {
  assert.deepEqual(say("scored", scored({ seat: 1, category: "ones", points: 1 })), ["Bo hat 1 Punkt bei Einser eingetragen."]);
  assert.deepEqual(
    say("scored", scored({ seat: 1, category: "three_of_a_kind", points: 0 })),
    ["Bo hat 0 Punkte bei Dreier\u00adpasch eingetragen."],
  );
  assert.deepEqual(
    say("scored", scored({ seat: 0, category: "yahtzee", points: 50, yahtzee_bonus: true })),
    ["Ana hat 50 Punkte bei Kniffel und einen Kniffel-Bonus von 100 eingetragen."],
  );
});

test("a bot plays for someone away, or for a seat handed to it for good", () => {
  assert.deepEqual(
    say("scored", scored({ seat: 0, category: "full_house", points: 25, by: "bot" })),
    ["Ein Bot hat für Ana (abwesend) 25 Punkte bei Full House eingetragen."],
  );
  const handed = [{ seat: 0, name: "Ana", handed: true }, ANA_BO[1]];
  assert.deepEqual(
    say("rolled", { seat: 0, dice: [6, 1, 6, 2, 6], held: [0, 2, 4], rolls_left: 1, options: {}, by: "bot" }, handed),
    ["Ein Bot hat 6 6 6 für Ana behalten.", "Ein Bot hat 6 1 6 2 6 für Ana gewürfelt."],
  );
});

test("who sits, who is away, who goes first, who won", () => {
  assert.deepEqual(say("joined", { seat: 0, name: "Ana", host: true }, []), ["Ana hat als Gastgeberin oder Gastgeber Platz genommen."]);
  assert.deepEqual(say("away", { seat: 0, name: "Ana" }), ["Ana ist abwesend: Ein Bot spielt für Ana, bis Ana zurückkommt."]);
  assert.deepEqual(
    say("roll_off", { throws: [[0, [4, 2, 4, 5, 2]], [1, [4, 4, 5, 1, 2]]], contenders: [0], first: 0 }),
    ["Auswürfeln: Ana 17, Bo 16: Ana fängt an."],
  );
  assert.deepEqual(say("finished", { winners: [1], totals: [87, 115] }), ["Spiel vorbei: Bo gewinnt mit 115 Punkten."]);
  assert.deepEqual(
    say("finished", { winners: [0, 1], totals: [200, 200] }),
    ["Spiel vorbei: Ana und Bo teilen sich den Sieg mit 200 Punkten."],
  );
  assert.deepEqual(say("coach", { on: true, seat: 0, name: "Ana" }), ["Ana hat den Coach eingeschaltet."]);
});

test("the feed panel writes each event in German, and the bar and Roll follow", () => {
  const page = openRoom(playing(["Ana", "Bo"], { you: 0 }));
  pages.push(page);
  page.room.labels = KNIFFEL;
  page.room.state.watchers = 2;
  const feed = new FeedPanel(page.room, page.document);
  feed.draw();
  feed.update(apply(page.room, event(21, "rolled", { seat: 0, dice: [6, 6, 3, 6, 1], held: [], rolls_left: 2, options: {} })));
  const lines = [...page.document.querySelectorAll("#feed li")].map((li) => li.textContent);
  assert.equal(lines.at(-1), "Ana hat 6 6 3 6 1 gewürfelt.");

  new StatusPanel(page.room, page.document).draw();
  assert.equal(page.document.getElementById("room-status").textContent, "Runde 1 von 13 · du bist dran · 2 schauen zu");
  new TrayPanel(page.room, page.document).draw();
  assert.equal(page.document.getElementById("roll-button").textContent, "Nochmal · 2 übrig");
});
