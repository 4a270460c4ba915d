// static/js/state.js and the turn clock's protocol additions (issue 16): the
// `clock` key beside an event's data, away and handed seats, a seat the host
// removed, an abandoned game, and what the feed says about each.
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { applyEvent, describe, hostActions, seatMarks } from "../../static/js/state.js";
import { CATEGORIES, LABELS, card, clockOf, event, freshTurnOf, lobby, playing, timed } from "./messages.mjs";

const apply = (state, message) => applyEvent(state, message, CATEGORIES);
const SCORED = { category: "chance", points: 18, dice: [6, 5, 4, 2, 1], yahtzee_bonus: false, total: 18, round: 1, card: card() };

group("applyEvent: the clock beside an event's data", () => {
  test("an event with `clock` replaces the room's clock", () => {
    const state = playing(["Ann", "Bob"], { turnSeconds: 60, clock: clockOf(0, 41_000) });
    apply(state, timed(event(21, "scored", { seat: 0, next: 1, ...SCORED }), clockOf(1, 60_000, "2026-11-24T13:02:05+00:00")));
    assert.deepEqual(state.clock, clockOf(1, 60_000, "2026-11-24T13:02:05+00:00"));
  });

  test("an event without `clock` leaves it as it was", () => {
    const state = playing(["Ann", "Bob"], { turnSeconds: 60, clock: clockOf(0, 41_000) });
    apply(state, event(21, "rolled", { seat: 0, dice: [1, 2, 3, 4, 5], held: [], rolls_left: 2, options: {} }));
    assert.deepEqual(state.clock, clockOf(0, 41_000));
  });

  test("`clock: null` stops it (a bot's turn, or nobody left to wait for)", () => {
    const state = playing(["Ann", "Optimal bot"], { turnSeconds: 60, clock: clockOf(0) });
    apply(state, timed(event(21, "scored", { seat: 0, next: 1, ...SCORED }), null));
    assert.equal(state.clock, null);
  });

  test("the end of the game stops the clock even when the event does not say", () => {
    const state = playing(["Ann", "Bob"], { turnSeconds: 60, clock: clockOf(1) });
    apply(state, event(90, "finished", { winners: [0], totals: [200, 150], places: [1, 2] }));
    assert.equal(state.clock, null);
  });
});

group("applyEvent: away, back, handed", () => {
  test("away marks the seat; back clears it", () => {
    const state = playing(["Ann", "Bob"], { you: 0 });
    apply(state, event(21, "away", { seat: 1, name: "Bob" }));
    assert.deepEqual(state.players.map((p) => [p.away, p.handed]), [[false, false], [true, false]]);
    apply(state, event(22, "back", { seat: 1, name: "Bob" }));
    assert.deepEqual(state.players.map((p) => [p.away, p.handed]), [[false, false], [false, false]]);
  });

  test("handed: the seat is away for good, and still this browser's seat", () => {
    const state = playing(["Ann", "Bob"], { you: 1 });
    apply(state, event(21, "handed", { seat: 1, name: "Bob", host: 0 }));
    assert.deepEqual([state.players[1].away, state.players[1].handed], [true, true]);
    assert.deepEqual(state.you, { seat: 1, name: "Bob", host: false });
  });

  test("the host removed a seat: it is left, keeps its card, and its browser watches", () => {
    const state = playing(["Ann", "Bob", "Cy"], { you: 2, turn: freshTurnOf(2) });
    apply(state, event(21, "left", { seat: 2, name: "Cy", next: 0, by: "host" }));
    assert.equal(state.players[2].left, true);
    assert.equal(state.you, null);
    assert.deepEqual(state.turn, freshTurnOf(0));
  });
});

group("applyEvent: abandoned", () => {
  test("the game ends unfinished: no turn, no clock, the cards as they were", () => {
    const state = playing(["Ann", "Bob"], { you: 0, turnSeconds: 60, clock: clockOf(0), cards: { 0: card({ chance: 20 }, { total: 20 }) } });
    apply(state, event(40, "abandoned", {}));
    assert.equal(state.game.status, "abandoned");
    assert.equal(state.turn, null);
    assert.equal(state.clock, null);
    assert.equal(state.players[0].card.total, 20);
    assert.deepEqual(state.winners, []);
  });
});

group("describe: the clock, the bots and the away seats", () => {
  const players = [{ seat: 0, name: "Ana" }, { seat: 1, name: "Bob" }];
  const say = (kind, data, who = players) => describe(event(10, kind, data), who, LABELS);

  test("the spec's words for a score the clock played", () => {
    assert.deepEqual(say("scored", { seat: 0, next: 1, by: "clock", ...SCORED }), [
      "Ana's time ran out: the clock scored 18 in Chance.",
    ]);
  });

  test("the clock's rolls and keeps", () => {
    assert.deepEqual(say("rolled", { seat: 0, dice: [6, 6, 2, 6, 1], held: [], rolls_left: 2, by: "clock" }), [
      "The clock rolled 6 6 2 6 1 for Ana.",
    ]);
    assert.deepEqual(say("rolled", { seat: 0, dice: [6, 6, 3, 6, 5], held: [0, 1, 3], rolls_left: 1, by: "clock" }), [
      "The clock kept 6 6 6 for Ana.", "The clock rolled 6 6 3 6 5 for Ana.",
    ]);
  });

  test("a bot standing in for an away seat", () => {
    assert.deepEqual(say("scored", { seat: 0, next: 1, by: "bot", ...SCORED }), [
      "A bot scored 18 in Chance for Ana (away).",
    ]);
    assert.deepEqual(say("rolled", { seat: 1, dice: [1, 2, 3, 4, 6], held: [0], rolls_left: 0, by: "bot" }), [
      "A bot kept 1 for Bob (away).", "A bot rolled 1 2 3 4 6 for Bob (away).",
    ]);
  });

  test("a seat handed to a bot for good is not called away", () => {
    const handed = [{ seat: 0, name: "Ana", away: true, handed: true }];
    assert.deepEqual(say("scored", { seat: 0, next: 0, by: "bot", ...SCORED }, handed), ["A bot scored 18 in Chance for Ana."]);
  });

  test("away, back, handed, removed and abandoned", () => {
    assert.deepEqual(say("away", { seat: 0, name: "Ana" }), ["Ana is away: a bot plays for Ana until Ana comes back."]);
    assert.deepEqual(say("back", { seat: 0, name: "Ana" }), ["Ana is back."]);
    assert.deepEqual(say("handed", { seat: 0, name: "Ana", host: 1 }), ["The host handed Ana's seat to a bot."]);
    assert.deepEqual(say("left", { seat: 0, name: "Ana", next: 1, by: "host" }), ["Ana was removed by the host."]);
    assert.deepEqual(say("abandoned", {}), ["The game was abandoned: nobody played for a long while."]);
  });

  test("a move without `by` reads as before", () => {
    assert.deepEqual(say("scored", { seat: 1, next: 0, ...SCORED }), ["Bob scored 18 in Chance."]);
  });
});

group("seatMarks: what a seat's label says, as codes (panels/dom.js words them)", () => {
  const person = (fields) => ({ seat: 0, name: "Ana", bot: null, connected: true, left: false, away: false, handed: false, ...fields });

  test("a person here and playing: nothing", () => {
    assert.deepEqual(seatMarks(person({})), []);
  });

  test("away, offline, both, and a seat a bot plays for good", () => {
    assert.deepEqual(seatMarks(person({ away: true })), ["away"]);
    assert.deepEqual(seatMarks(person({ connected: false })), ["offline"]);
    assert.deepEqual(seatMarks(person({ away: true, connected: false })), ["away", "offline"]);
    assert.deepEqual(seatMarks(person({ away: true, handed: true, connected: false })), ["bot-plays"]);
  });

  test("a bot's own seat and a seat that left: nothing (their badges say it)", () => {
    assert.deepEqual(seatMarks(person({ bot: "optimal", connected: true })), []);
    assert.deepEqual(seatMarks(person({ left: true, connected: false })), []);
  });
});

group("hostActions: the seats the host may remove or hand to a bot", () => {
  const room = ({ you = 0, status = "playing" } = {}) => {
    const state = playing(["Ann", "Bob", "Cy", "Dee"], { you });
    state.game.status = status;
    return state;
  };

  test("everyone here and playing: none", () => {
    assert.deepEqual(hostActions(room()), []);
  });

  test("an away seat and an offline seat, with their marks", () => {
    const state = room();
    state.players[1].away = true;
    state.players[3].connected = false;
    assert.deepEqual(hostActions(state), [
      { seat: 1, name: "Bob", marks: ["away"], hand: true },
      { seat: 3, name: "Dee", marks: ["offline"], hand: true },
    ]);
  });

  test("a seat already handed to a bot may be removed, not handed again", () => {
    const state = room();
    Object.assign(state.players[2], { away: true, handed: true });
    assert.deepEqual(hostActions(state), [{ seat: 2, name: "Cy", marks: ["bot-plays"], hand: false }]);
  });

  test("never the host's own seat, a bot, or a seat that left", () => {
    const state = room();
    state.players[0].connected = false; // Another tab of the host's: still not for the host to remove.
    Object.assign(state.players[1], { bot: "optimal", connected: true });
    Object.assign(state.players[2], { left: true, connected: false });
    assert.deepEqual(hostActions(state), []);
  });

  test("only the host, and only in play", () => {
    const notHost = room({ you: 1 });
    notHost.players[2].away = true;
    assert.deepEqual(hostActions(notHost), []);
    const watcher = room({ you: null });
    watcher.players[2].away = true;
    assert.deepEqual(hostActions(watcher), []);
    const inLobby = lobby(["Ann", "Bob"], { you: 0 });
    inLobby.players[1].connected = false;
    assert.deepEqual(hostActions(inLobby), []);
    const over = room({ status: "abandoned" });
    over.players[2].away = true;
    assert.deepEqual(hostActions(over), []);
  });
});
