// The feed in Swedish in a Yatzy room, from the real catalog (locale/sv/LC_MESSAGES/
// djangojs.po), with Yatzy's box names as the server gives them for that room.
import { test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("sv");
const { describe } = await import("../../static/js/state.js");
const { event, card } = await import("./messages.mjs");

// games/words.py's Yatzy names (locale/sv/LC_MESSAGES/django.po).
const YATZY = { chance: "Chans", full_house: "Kåk", two_pairs: "Två par", yatzy: "Yatzy", ones: "Ettor" };
const ANA_BO = [{ seat: 0, name: "Ana" }, { seat: 1, name: "Bo" }];
const say = (kind, data, players = ANA_BO) => describe(event(10, kind, data), players, YATZY);
const scored = (fields) => ({ dice: [1, 2, 3, 4, 6], yahtzee_bonus: false, total: 0, next: 1, round: 2, card: card(), ...fields });

test("Ana's time ran out: the clock scored 18 in Chance, in Swedish Yatzy", () => {
  assert.deepEqual(
    say("scored", scored({ seat: 0, category: "chance", points: 18, by: "clock" })),
    ["Tiden tog slut för Ana: klockan skrev in 18 poäng på Chans."],
  );
});

test("scores, a bot's turn, the end", () => {
  assert.deepEqual(say("scored", scored({ seat: 1, category: "two_pairs", points: 14 })), ["Bo skrev in 14 poäng på Två par."]);
  assert.deepEqual(say("scored", scored({ seat: 1, category: "yatzy", points: 50, by: "bot" })), ["En bot skrev in 50 poäng på Yatzy åt Bo (borta)."]);
  assert.deepEqual(say("rolled", { seat: 0, dice: [5, 5, 2, 5, 3], held: [0, 1], rolls_left: 1, options: {} }), ["Ana sparade 5 5.", "Ana slog 5 5 2 5 3."]);
  assert.deepEqual(
    say("finished", { winners: [0, 1], totals: [200, 200] }),
    ["Partiet är slut: Ana och Bo delar på segern med 200 poäng."],
  );
  assert.deepEqual(say("handed", { seat: 1, name: "Bo" }), ["Värden gav platsen för Bo till en bot."]);
});
