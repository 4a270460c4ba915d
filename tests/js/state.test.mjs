// static/js/state.js: the room as the page knows it, kept up to date by the
// server's events, and the feed's text for each event.
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { applyEvent, applyPresence, describe, eventEndsWait, freshTurn, snapshotEndsWait } from "../../static/js/state.js";
import { CATEGORIES, LABELS, card, event, freshTurnOf, lobby, playing } from "./messages.mjs";

const apply = (state, message) => applyEvent(state, message, CATEGORIES);
const seatsAndHosts = (state) => state.players.map((p) => [p.seat, p.name, p.host]);

// The roll right after the worked example's third roll (docs/protocol.md, version 11).
const OPTIONS_14536 = {
  ones: 1, twos: 0, threes: 3, fours: 4, fives: 5, sixes: 6, three_of_a_kind: 0,
  four_of_a_kind: 0, full_house: 0, small_straight: 30, large_straight: 0, yahtzee: 0, chance: 19,
};

group("freshTurn", () => {
  test("it is the snapshot's turn before the first roll: no dice, nothing held, three rolls", () => {
    assert.deepEqual(freshTurn(2), { seat: 2, dice: null, held: [], rolls_left: 3, options: {} });
  });

  test("each call gives a new turn, so changing one changes no other", () => {
    const one = freshTurn(0);
    one.held.push(1);
    assert.deepEqual(freshTurn(0).held, []);
  });
});

group("applyEvent: joined", () => {
  test("a person takes the next seat with an empty card, not yet connected", () => {
    const state = lobby(["Ann", "Bob"], { you: 0 });
    apply(state, event(4, "joined", { seat: 2, name: "Cy", host: false }));
    assert.deepEqual(state.players[2], {
      seat: 2, name: "Cy", host: false, bot: null, connected: false, left: false, away: false, handed: false, card: card(),
    });
    assert.equal(state.players.length, 3);
    assert.deepEqual(state.you, { seat: 0, name: "Ann", host: true });
  });

  test("the first person in an empty room is host", () => {
    const state = lobby([]);
    apply(state, event(2, "joined", { seat: 0, name: "Ann", host: true }));
    assert.deepEqual(seatsAndHosts(state), [[0, "Ann", true]]);
  });

  test("a bot's seat has its level and is always connected", () => {
    const state = lobby(["Ann"], { you: 0 });
    apply(state, event(3, "joined", { seat: 1, name: "Optimal bot", host: false, bot: "optimal" }));
    apply(state, event(4, "joined", { seat: 2, name: "Casual bot", host: false, bot: "casual" }));
    assert.deepEqual(
      state.players.map((p) => [p.name, p.bot, p.connected]),
      [["Ann", null, true], ["Optimal bot", "optimal", true], ["Casual bot", "casual", true]],
    );
  });

  test("the empty card has every box of the room's categories, empty, and zero totals", () => {
    const state = lobby([]);
    apply(state, event(2, "joined", { seat: 0, name: "Ann", host: true }));
    const { boxes, ...totals } = state.players[0].card;
    assert.deepEqual(Object.keys(boxes), CATEGORIES.map((c) => c.id));
    assert.ok(Object.values(boxes).every((points) => points === null));
    assert.deepEqual(totals, {
      upper_total: 0, upper_bonus: 0, yahtzee_bonus_count: 0, yahtzee_bonus: 0, lower_total: 0, total: 0,
    });
  });
});

group("applyEvent: unseated, a seat freed in the lobby", () => {
  // The protocol's example: Host (seat 0) left, Guest moved from seat 1 to seat 0 and became host.
  test("when the host leaves, everyone after moves up one seat and the first seat is host", () => {
    const state = lobby(["Host", "Guest", "Cy"]);
    apply(state, event(5, "unseated", { seat: 0, name: "Host", host: 0 }));
    assert.deepEqual(seatsAndHosts(state), [[0, "Guest", true], [1, "Cy", false]]);
  });

  test("a seat in the middle leaves: the seats after it move up, the host stays", () => {
    const state = lobby(["Ann", "Bob", "Cy", "Dee"]);
    apply(state, event(6, "unseated", { seat: 1, name: "Bob", host: 0 }));
    assert.deepEqual(seatsAndHosts(state), [[0, "Ann", true], [1, "Cy", false], [2, "Dee", false]]);
  });

  test("the last seat leaves: nobody moves", () => {
    const state = lobby(["Ann", "Bob"]);
    apply(state, event(4, "unseated", { seat: 1, name: "Bob", host: 0 }));
    assert.deepEqual(seatsAndHosts(state), [[0, "Ann", true]]);
  });

  test("the last person leaves: the room is empty and nobody is host", () => {
    const state = lobby(["Ann"], { you: 0 });
    apply(state, event(3, "unseated", { seat: 0, name: "Ann", host: null }));
    assert.deepEqual(state.players, []);
    assert.equal(state.you, null);
  });

  test("your seat moves up when a seat before it leaves", () => {
    const state = lobby(["Ann", "Bob", "Cy"], { you: 2 });
    apply(state, event(5, "unseated", { seat: 1, name: "Bob", host: 0 }));
    assert.deepEqual(state.you, { seat: 1, name: "Cy", host: false });
  });

  test("you become host when the host before you leaves", () => {
    const state = lobby(["Ann", "Bob", "Cy"], { you: 1 });
    apply(state, event(5, "unseated", { seat: 0, name: "Ann", host: 0 }));
    assert.deepEqual(state.you, { seat: 0, name: "Bob", host: true });
  });

  test("your seat stays when a seat after it leaves", () => {
    const state = lobby(["Ann", "Bob", "Cy"], { you: 0 });
    apply(state, event(5, "unseated", { seat: 2, name: "Cy", host: 0 }));
    assert.deepEqual(state.you, { seat: 0, name: "Ann", host: true });
  });

  test("when you leave you are a watcher", () => {
    const state = lobby(["Ann", "Bob"], { you: 1 });
    apply(state, event(4, "unseated", { seat: 1, name: "Bob", host: 0 }));
    assert.equal(state.you, null);
  });

  test("a watcher stays a watcher", () => {
    const state = lobby(["Ann", "Bob"]);
    apply(state, event(4, "unseated", { seat: 0, name: "Ann", host: 0 }));
    assert.equal(state.you, null);
  });

  test("each player keeps its own connection and bot level as it moves up", () => {
    const state = lobby(["Ann", "Bob", "Optimal bot"], { bots: { 2: "optimal" } });
    state.players[1].connected = false;
    apply(state, event(5, "unseated", { seat: 0, name: "Ann", host: 0 }));
    assert.deepEqual(
      state.players.map((p) => [p.seat, p.name, p.connected, p.bot]),
      [[0, "Bob", false, null], [1, "Optimal bot", true, "optimal"]],
    );
  });

  test("the host takes a bot off its seat (remove_bot): unseated", () => {
    const state = lobby(["Ann", "Optimal bot", "Bob"], { you: 2, bots: { 1: "optimal" } });
    apply(state, event(5, "unseated", { seat: 1, name: "Optimal bot", host: 0 }));
    assert.deepEqual(seatsAndHosts(state), [[0, "Ann", true], [1, "Bob", false]]);
    assert.deepEqual(state.you, { seat: 1, name: "Bob", host: false });
  });

  test("the last person leaves a lobby with bots: the bots go too, last seat first", () => {
    const state = lobby(["Ann", "Optimal bot", "Casual bot"], { you: 0, bots: { 1: "optimal", 2: "casual" } });
    apply(state, event(5, "unseated", { seat: 0, name: "Ann", host: 0 }));
    apply(state, event(6, "unseated", { seat: 1, name: "Casual bot", host: 0 }));
    apply(state, event(7, "unseated", { seat: 0, name: "Optimal bot", host: null }));
    assert.deepEqual(state.players, []);
    assert.equal(state.you, null);
  });
});

group("applyEvent: left in the game", () => {
  test("a seat not on turn leaves: it is marked, keeps its number, and the turn goes on", () => {
    const turn = { seat: 0, dice: [1, 4, 3, 4, 4], held: [1], rolls_left: 2, options: { fours: 12 } };
    const state = playing(["Ann", "Bob", "Cy"], { you: 0, turn: structuredClone(turn) });
    apply(state, event(21, "left", { seat: 1, name: "Bob", next: 0 }));
    assert.deepEqual(state.players.map((p) => [p.seat, p.name, p.left]), [
      [0, "Ann", false], [1, "Bob", true], [2, "Cy", false],
    ]);
    assert.deepEqual(state.turn, turn);
    assert.deepEqual(state.you, { seat: 0, name: "Ann", host: true });
  });

  test("the seat on turn leaves: its turn ends and `next` starts a fresh one", () => {
    const state = playing(["Ann", "Bob", "Cy"], {
      turn: { seat: 1, dice: [2, 2, 5, 6, 1], held: [0, 1], rolls_left: 1, options: { twos: 4 } },
    });
    apply(state, event(21, "left", { seat: 1, name: "Bob", next: 2 }));
    assert.deepEqual(state.turn, freshTurnOf(2));
    assert.equal(state.players[1].left, true);
  });

  test("the seat on turn leaves and that ends the game: no turn", () => {
    const state = playing(["Ann", "Bob"], { round: 13, turn: { ...freshTurnOf(1) } });
    apply(state, event(80, "left", { seat: 1, name: "Bob", next: null }));
    assert.equal(state.turn, null);
    assert.equal(state.game.status, "playing"); // The finished event says so, next.
  });

  test("when you leave the game you are a watcher; your seat stays on the card", () => {
    const state = playing(["Ann", "Bob"], { you: 1 });
    apply(state, event(21, "left", { seat: 1, name: "Bob", next: 0 }));
    assert.equal(state.you, null);
    assert.deepEqual(state.players.map((p) => p.name), ["Ann", "Bob"]);
  });

  test("the last person leaves: the bot on turn leaves after it and the turn ends", () => {
    const state = playing(["Ann", "Optimal bot"], { you: 0, turn: freshTurnOf(1) });
    apply(state, event(30, "left", { seat: 0, name: "Ann", next: 1 }));
    assert.deepEqual(state.turn, freshTurnOf(1));
    apply(state, event(31, "left", { seat: 1, name: "Optimal bot", next: null }));
    assert.equal(state.turn, null);
    assert.deepEqual(state.players.map((p) => p.left), [true, true]);
  });
});

group("applyEvent: started", () => {
  test("one player: no roll-off, the game starts with seat 0's turn", () => {
    const state = lobby(["Solo"], { you: 0 });
    const started = event(3, "started", { players: ["Solo"], first: 0 });
    apply(state, started);
    assert.equal(state.game.status, "playing");
    assert.equal(state.game.started_at, started.at);
    assert.equal(state.game.round, 1);
    // As the server's snapshot shows a one-seat roll-off: decided, with no rounds.
    assert.deepEqual(state.roll_off, { contenders: [0], rounds: [], winner: 0 });
    assert.deepEqual(state.turn, freshTurnOf(0));
  });

  test("two players: the roll-off is pending, every seat in it, nobody on turn", () => {
    const state = lobby(["Ann", "Bob"], { you: 0 });
    apply(state, event(4, "started", { players: ["Ann", "Bob"], first: null }));
    assert.equal(state.game.status, "playing");
    assert.equal(state.game.round, 1);
    assert.deepEqual(state.roll_off, { contenders: [0, 1], rounds: [], winner: null });
    assert.equal(state.turn, null);
  });
});

group("applyEvent: roll_off", () => {
  test("a tie rolls again; the next round's winner is on turn", () => {
    const state = lobby(["Ann", "Bob", "Cy"]);
    apply(state, event(5, "started", { players: ["Ann", "Bob", "Cy"], first: null }));
    const first = [[0, [6, 6, 1, 1, 1]], [1, [5, 5, 3, 1, 1]], [2, [2, 2, 2, 2, 2]]]; // 15, 15, 10
    apply(state, event(6, "roll_off", { throws: first, contenders: [0, 1], first: null }));
    assert.deepEqual(state.roll_off, { contenders: [0, 1], rounds: [first], winner: null });
    assert.equal(state.turn, null);

    const second = [[0, [1, 2, 3, 4, 5]], [1, [6, 6, 6, 1, 1]]]; // 15, 20
    apply(state, event(7, "roll_off", { throws: second, contenders: [1], first: 1 }));
    assert.deepEqual(state.roll_off, { contenders: [1], rounds: [first, second], winner: 1 });
    assert.deepEqual(state.turn, freshTurnOf(1));
    assert.equal(state.version, 7);
  });
});

group("applyEvent: rolled and held", () => {
  test("a roll puts its dice, holds, rolls left and options on the table", () => {
    const state = playing(["Ann", "Bob"]);
    const data = {
      seat: 0, dice: [1, 4, 1, 2, 1], held: [0, 1], rolls_left: 1,
      options: { ones: 3, twos: 2, threes: 0, fours: 4, fives: 0, sixes: 0, three_of_a_kind: 9,
        four_of_a_kind: 0, full_house: 0, small_straight: 0, large_straight: 0, yahtzee: 0, chance: 9 },
    };
    apply(state, event(21, "rolled", structuredClone(data)));
    assert.deepEqual(state.turn, { seat: 0, dice: [1, 4, 1, 2, 1], held: [0, 1], rolls_left: 1, options: data.options });
  });

  test("an extra Yahtzee under the forced Joker offers only the box the rule allows", () => {
    const state = playing(["Solo"]);
    apply(state, event(6, "rolled", { seat: 0, dice: [4, 4, 4, 4, 4], held: [], rolls_left: 2, options: { fours: 20 } }));
    assert.deepEqual(state.turn.options, { fours: 20 });
  });

  test("a roll without options offers none", () => {
    const state = playing(["Solo"]);
    apply(state, event(6, "rolled", { seat: 0, dice: [1, 2, 3, 4, 6], held: [], rolls_left: 2 }));
    assert.deepEqual(state.turn.options, {});
  });

  test("a hold changes the held dice and nothing else", () => {
    const state = playing(["Ann", "Bob"], {
      turn: { seat: 0, dice: [1, 4, 3, 4, 4], held: [], rolls_left: 2, options: { fours: 12 } },
    });
    apply(state, event(21, "held", { seat: 0, held: [0] }));
    apply(state, event(22, "held", { seat: 0, held: [0, 1] }));
    assert.deepEqual(state.turn, { seat: 0, dice: [1, 4, 3, 4, 4], held: [0, 1], rolls_left: 2, options: { fours: 12 } });
    apply(state, event(23, "held", { seat: 0, held: [] }));
    assert.deepEqual(state.turn.held, []);
  });

  test("a hold with no turn on the table changes nothing but the version", () => {
    const state = playing(["Ann", "Bob"], { turn: null });
    apply(state, event(21, "held", { seat: 0, held: [1] }));
    assert.equal(state.turn, null);
    assert.equal(state.version, 21);
  });
});

group("applyEvent: scored", () => {
  const ANN_AFTER = card({ chance: 19 }, { lower_total: 19, total: 19 });

  test("the seat's card is the event's card, the round is the event's, the next seat is on turn", () => {
    const state = playing(["Ann", "Bob"], {
      turn: { seat: 0, dice: [1, 4, 5, 3, 6], held: [0, 1], rolls_left: 0, options: OPTIONS_14536 },
    });
    apply(state, event(21, "scored", {
      seat: 0, category: "chance", points: 19, dice: [1, 4, 5, 3, 6], yahtzee_bonus: false,
      total: 19, next: 1, round: 1, card: structuredClone(ANN_AFTER),
    }));
    assert.deepEqual(state.players[0].card, ANN_AFTER);
    assert.deepEqual(state.players[1].card, card());
    assert.equal(state.game.round, 1);
    assert.deepEqual(state.turn, freshTurnOf(1));
  });

  test("the last seat of a round scores: the round moves on", () => {
    const state = playing(["Ann", "Bob"], { turn: { seat: 1, dice: [2, 4, 4, 3, 2], held: [], rolls_left: 2, options: {} } });
    apply(state, event(22, "scored", {
      seat: 1, category: "chance", points: 15, dice: [2, 4, 4, 3, 2], yahtzee_bonus: false,
      total: 15, next: 0, round: 2, card: card({ chance: 15 }, { lower_total: 15, total: 15 }),
    }));
    assert.equal(state.game.round, 2);
    assert.deepEqual(state.turn, freshTurnOf(0));
  });

  test("a Yahtzee bonus comes in the card", () => {
    const state = playing(["Solo"], { round: 3 });
    const after = card({ fours: 20, yahtzee: 50 }, {
      upper_total: 20, yahtzee_bonus_count: 1, yahtzee_bonus: 100, lower_total: 50, total: 170,
    });
    apply(state, event(7, "scored", {
      seat: 0, category: "fours", points: 20, dice: [4, 4, 4, 4, 4], yahtzee_bonus: true,
      total: 170, next: 0, round: 3, card: after,
    }));
    assert.deepEqual(state.players[0].card, after);
    assert.deepEqual(state.turn, freshTurnOf(0));
  });

  test("the last box of the game: no turn, round 13", () => {
    const state = playing(["Ann", "Bob"], { round: 13, turn: { seat: 0, dice: [4, 2, 6, 4, 6], held: [0, 3], rolls_left: 1, options: { yahtzee: 0 } } });
    apply(state, event(83, "scored", {
      seat: 0, category: "yahtzee", points: 0, dice: [4, 2, 6, 4, 6], yahtzee_bonus: false,
      total: 87, next: null, round: 13, card: card({}, { total: 87 }),
    }));
    assert.equal(state.turn, null);
    assert.equal(state.game.round, 13);
    assert.equal(state.game.status, "playing"); // Until the finished event.
  });
});

group("applyEvent: finished, rematch, coach, chat and the rest", () => {
  test("finished: the game is over, with its winners, its end time and no turn", () => {
    const state = playing(["Ann", "Bob"], { round: 13, turn: null });
    const finished = event(84, "finished", { winners: [1], totals: [87, 115] });
    apply(state, finished);
    assert.equal(state.game.status, "finished");
    assert.equal(state.game.finished_at, finished.at);
    assert.deepEqual(state.winners, [1]);
    assert.equal(state.turn, null);
  });

  test("finished with a shared win, and with nobody left to win", () => {
    const shared = playing(["Ann", "Bob"], { turn: null });
    apply(shared, event(84, "finished", { winners: [0, 1], totals: [200, 200] }));
    assert.deepEqual(shared.winners, [0, 1]);
    const nobody = playing(["Ann", "Bob"], { turn: null });
    apply(nobody, event(40, "finished", { winners: [], totals: [30, 12] }));
    assert.deepEqual(nobody.winners, []);
    assert.equal(nobody.game.status, "finished");
  });

  test("finished: each seat takes the place the server gives (ties share, a seat that left has none)", () => {
    const state = playing(["Ann", "Bob", "Cy"], { turn: null });
    apply(state, event(120, "finished", { winners: [0, 2], totals: [200, 300, 200], places: [1, null, 1] }));
    assert.deepEqual(state.players.map((p) => p.place), [1, null, 1]);
  });

  test("rematch: the new room's code", () => {
    const state = playing(["Ann", "Bob"], { turn: null });
    state.game.status = "finished";
    apply(state, event(85, "rematch", { code: "m2y3X9q0VQn5Lr7c", seat: 1, name: "Bob" }));
    assert.equal(state.rematch, "m2y3X9q0VQn5Lr7c");
  });

  test("coach: on and off", () => {
    const state = lobby(["Ann", "Bob"], { you: 0 });
    apply(state, event(4, "coach", { on: true, seat: 0, name: "Ann" }));
    assert.equal(state.game.coach, true);
    apply(state, event(5, "coach", { on: false, seat: 0, name: "Ann" }));
    assert.equal(state.game.coach, false);
  });

  for (const [kind, data] of [
    ["chat", { seat: 0, name: "Ann", text: "good luck!" }],
    ["created", { preset: "official", seats: 2, coach: false }],
    ["mystery", { anything: 1 }],
  ]) {
    test(`${kind}: nothing changes but the version and the recent events`, () => {
      const state = lobby(["Ann", "Bob"], { you: 0 });
      const before = structuredClone(state);
      const message = event(4, kind, data);
      apply(state, message);
      assert.deepEqual({ ...state, version: before.version, recent: before.recent }, before);
      assert.equal(state.version, 4);
      assert.deepEqual(state.recent.at(-1), message);
    });
  }
});

group("applyEvent: version and recent events", () => {
  test("each event brings its version and is added to the recent events", () => {
    const state = lobby(["Ann"], { you: 0 }); // recent: created, joined
    const chat = event(3, "chat", { seat: 0, name: "Ann", text: "hi" });
    apply(state, chat);
    assert.equal(state.version, 3);
    assert.equal(state.recent.length, 3);
    assert.equal(state.recent.at(-1), chat);
  });

  test("the recent events are the last 50, oldest first, as in a snapshot", () => {
    const state = lobby(["Ann"], { you: 0 });
    for (let version = 3; version <= 80; version += 1) {
      apply(state, event(version, "chat", { seat: 0, name: "Ann", text: String(version) }));
      assert.ok(state.recent.length <= 50);
    }
    assert.equal(state.recent.length, 50);
    assert.deepEqual(state.recent.map((m) => m.version), Array.from({ length: 50 }, (_, i) => 31 + i));
    assert.equal(state.version, 80);
  });

  test("a snapshot with 50 recent events keeps 50 after the next one", () => {
    const state = lobby(["Ann"], { you: 0 });
    state.recent = Array.from({ length: 50 }, (_, i) => event(i + 1, "chat", { seat: 0, name: "Ann", text: "x" }));
    state.version = 50;
    apply(state, event(51, "coach", { on: true, seat: 0, name: "Ann" }));
    assert.equal(state.recent.length, 50);
    assert.equal(state.recent[0].version, 2);
    assert.equal(state.recent[49].version, 51);
  });
});

group("applyEvent: the protocol's worked example", () => {
  // docs/protocol.md: Ann and Bob in a two-seat room at version 3; the events up to
  // version 11 give the snapshot the page shows for version 11.
  test("events 4 to 11 turn the lobby snapshot into the version 11 snapshot", () => {
    const state = lobby(["Ann", "Bob"], { you: 0, seats: 2, version: 3 });
    const events = [
      event(4, "chat", { seat: 0, name: "Ann", text: "good luck!" }),
      event(5, "started", { players: ["Ann", "Bob"], first: null }),
      event(6, "roll_off", { throws: [[0, [4, 2, 4, 5, 2]], [1, [4, 4, 5, 1, 2]]], contenders: [0], first: 0 }),
      event(7, "rolled", { seat: 0, dice: [1, 4, 3, 4, 4], held: [], rolls_left: 2,
        options: { ones: 1, fours: 12, three_of_a_kind: 16, chance: 16 } }),
      event(8, "held", { seat: 0, held: [0] }),
      event(9, "held", { seat: 0, held: [0, 1] }),
      event(10, "rolled", { seat: 0, dice: [1, 4, 1, 2, 1], held: [0, 1], rolls_left: 1,
        options: { ones: 3, twos: 2, fours: 4, three_of_a_kind: 9, chance: 9 } }),
      event(11, "rolled", { seat: 0, dice: [1, 4, 5, 3, 6], held: [0, 1], rolls_left: 0, options: OPTIONS_14536 }),
    ];
    for (const message of events) apply(state, message);

    assert.equal(state.version, 11);
    assert.equal(state.game.status, "playing");
    assert.equal(state.game.round, 1);
    assert.deepEqual(state.you, { seat: 0, name: "Ann", host: true });
    assert.deepEqual(state.turn, { seat: 0, dice: [1, 4, 5, 3, 6], held: [0, 1], rolls_left: 0, options: OPTIONS_14536 });
    assert.deepEqual(state.roll_off, { contenders: [0], rounds: [[[0, [4, 2, 4, 5, 2]], [1, [4, 4, 5, 1, 2]]]], winner: 0 });
    assert.deepEqual(state.players.map((p) => [p.seat, p.name, p.host, p.left, p.card]), [
      [0, "Ann", true, false, card()], [1, "Bob", false, false, card()],
    ]);
    assert.deepEqual(state.recent.map((m) => m.version), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});

group("applyPresence", () => {
  test("it sets each seat's connection and the number watching", () => {
    const state = lobby(["Ann", "Bob", "Cy"], { you: 0 });
    applyPresence(state, {
      type: "presence",
      players: [{ seat: 0, connected: true }, { seat: 1, connected: false }, { seat: 2, connected: true }],
      watchers: 3,
    });
    assert.deepEqual(state.players.map((p) => p.connected), [true, false, true]);
    assert.equal(state.watchers, 3);
  });

  test("it changes no version and adds no recent event: presence is not an event", () => {
    const state = lobby(["Ann"], { you: 0 });
    applyPresence(state, { type: "presence", players: [{ seat: 0, connected: false }], watchers: 0 });
    assert.equal(state.version, 2);
    assert.equal(state.recent.length, 2);
  });

  test("a seat the page does not know yet is skipped", () => {
    const state = lobby(["Ann"], { you: 0 });
    applyPresence(state, {
      type: "presence", players: [{ seat: 0, connected: false }, { seat: 1, connected: true }], watchers: 1,
    });
    assert.equal(state.players.length, 1);
    assert.equal(state.players[0].connected, false);
    assert.equal(state.watchers, 1);
  });
});

group("describe", () => {
  const ANN_BOB = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }];
  const say = (kind, data, players = ANN_BOB) => describe(event(10, kind, data), players, LABELS);

  test("created", () => {
    assert.deepEqual(say("created", { preset: "official", seats: 2, coach: false }), ["The room was opened."]);
  });

  test("joined: the host, a person, a bot", () => {
    assert.deepEqual(say("joined", { seat: 0, name: "Ann", host: true }, []), ["Ann took a seat as host."]);
    assert.deepEqual(say("joined", { seat: 1, name: "Bob", host: false }), ["Bob took a seat."]);
    assert.deepEqual(
      say("joined", { seat: 2, name: "Optimal bot", host: false, bot: "optimal" }),
      ["Optimal bot took a seat (a computer player)."],
    );
  });

  test("unseated leaves the table in the lobby, left the game in play, named by the event (the seat is gone)", () => {
    assert.deepEqual(say("unseated", { seat: 0, name: "Host", host: 0 }, [{ seat: 0, name: "Guest" }]), ["Host left the table."]);
    assert.deepEqual(say("unseated", { seat: 1, name: "Bob", host: null }, []), ["Bob left the table."]);
    assert.deepEqual(say("left", { seat: 1, name: "Bob", next: 0 }), ["Bob left the game."]);
    assert.deepEqual(say("left", { seat: 1, name: "Bob", next: null }), ["Bob left the game."]);
  });

  test("started: the players in seat order", () => {
    assert.deepEqual(say("started", { players: ["Ann", "Bob"], first: null }), ["The game started: Ann, Bob."]);
    assert.deepEqual(say("started", { players: ["Solo"], first: 0 }, [{ seat: 0, name: "Solo" }]), ["The game started: Solo."]);
  });

  test("roll_off: each throw's sum, and who goes first", () => {
    assert.deepEqual(
      say("roll_off", { throws: [[0, [4, 2, 4, 5, 2]], [1, [4, 4, 5, 1, 2]]], contenders: [0], first: 0 }),
      ["Roll-off: Ann 17, Bob 16: Ann goes first."],
    );
  });

  test("roll_off: a tie rolls again", () => {
    const players = [...ANN_BOB, { seat: 2, name: "Cy" }];
    assert.deepEqual(
      say("roll_off", {
        throws: [[0, [6, 6, 1, 1, 1]], [1, [5, 5, 3, 1, 1]], [2, [2, 2, 2, 2, 2]]], contenders: [0, 1], first: null,
      }, players),
      ["Roll-off: Ann 15, Bob 15, Cy 10: a tie, so they roll again."],
    );
    assert.deepEqual(
      say("roll_off", { throws: [[0, [1, 2, 3, 4, 5]], [1, [6, 6, 6, 1, 1]]], contenders: [1], first: 1 }, players),
      ["Roll-off: Ann 15, Bob 20: Bob goes first."],
    );
  });

  test("rolled: the dice, and first the faces kept when some were", () => {
    assert.deepEqual(
      say("rolled", { seat: 0, dice: [1, 4, 3, 4, 4], held: [], rolls_left: 2, options: {} }),
      ["Ann rolled 1 4 3 4 4."],
    );
    assert.deepEqual(
      say("rolled", { seat: 1, dice: [6, 1, 6, 2, 6], held: [0, 2, 4], rolls_left: 1, options: {} }),
      ["Bob kept 6 6 6.", "Bob rolled 6 1 6 2 6."],
    );
  });

  test("held: nothing in the feed (the dice show it)", () => {
    assert.deepEqual(say("held", { seat: 0, held: [0, 1] }), []);
  });

  test("scored: the points and the box's label", () => {
    assert.deepEqual(
      say("scored", { seat: 0, category: "chance", points: 19, dice: [1, 4, 5, 3, 6], yahtzee_bonus: false, total: 19, next: 1, round: 1, card: card() }),
      ["Ann scored 19 in Chance."],
    );
    assert.deepEqual(
      say("scored", { seat: 1, category: "three_of_a_kind", points: 0, dice: [1, 2, 3, 4, 6], yahtzee_bonus: false, total: 0, next: 0, round: 2, card: card() }),
      ["Bob scored 0 in Three of a kind."],
    );
  });

  test("scored: with a Yahtzee bonus", () => {
    assert.deepEqual(
      say("scored", { seat: 0, category: "fours", points: 20, dice: [4, 4, 4, 4, 4], yahtzee_bonus: true, total: 170, next: 0, round: 3, card: card() }),
      ["Ann scored 20 in Fours and a Yahtzee bonus of 100."],
    );
  });

  test("finished: one winner, a shared win, nobody", () => {
    assert.deepEqual(say("finished", { winners: [1], totals: [87, 115] }), ["Game over: Bob wins with 115."]);
    assert.deepEqual(say("finished", { winners: [0, 1], totals: [200, 200] }), ["Game over: Ann and Bob share the win with 200."]);
    assert.deepEqual(say("finished", { winners: [], totals: [30, 12] }), ["The game is over."]);
  });

  test("finished: the winner is the best of those who stayed, not the best total", () => {
    // Ann left with 250; Bob stayed to the end with 120.
    assert.deepEqual(say("finished", { winners: [1], totals: [250, 120] }), ["Game over: Bob wins with 120."]);
  });

  test("finished: a solo game tells the score, on today's dice for a daily game", () => {
    const ann = [{ seat: 0, name: "Ann" }];
    const over = event(10, "finished", { winners: [0], totals: [47] });
    assert.deepEqual(describe(over, ann, LABELS), ["Game over: Ann scored 47."]);
    assert.deepEqual(describe(over, ann, LABELS, { daily: true }), ["Game over: Ann scored 47 on today's dice."]);
    // Two seats are a game with a winner, whatever the dice.
    assert.deepEqual(describe(event(10, "finished", { winners: [1], totals: [87, 115] }), ANN_BOB, LABELS, { daily: true }), ["Game over: Bob wins with 115."]);
  });

  test("rematch and coach: who did it", () => {
    assert.deepEqual(say("rematch", { code: "m2y3X9q0VQn5Lr7c", seat: 1, name: "Bob" }), ["Bob started a rematch."]);
    assert.deepEqual(say("coach", { on: true, seat: 0, name: "Ann" }), ["Ann turned the coach on."]);
    assert.deepEqual(say("coach", { on: false, seat: 0, name: "Ann" }), ["Ann turned the coach off."]);
  });

  test("chat and unknown kinds: no line (the page draws chat itself)", () => {
    assert.deepEqual(say("chat", { seat: 0, name: "Ann", text: "good luck!" }), []);
    assert.deepEqual(say("mystery", {}), []);
  });

  test("a seat the page has no player for is named by its number from 1", () => {
    assert.deepEqual(
      say("rolled", { seat: 2, dice: [1, 1, 1, 1, 1], held: [], rolls_left: 2, options: {} }),
      ["Seat 3 rolled 1 1 1 1 1."],
    );
  });
});

// A command in flight, as room.js keeps it: its type, and where it was sent from.
group("a command in flight, and the snapshots and events that reach the page meanwhile", () => {
  const ROLL = { seat: 0, dice: [2, 3, 3, 5, 6], held: [], rolls_left: 2, options: { threes: 6 } };

  // Ann's page at version 20 sends a roll on its first connection.
  function rollSent() {
    const page = { state: playing(["Ann", "Bob"], { you: 0, version: 20 }), pending: null, sent: null };
    page.pending = "roll";
    page.sent = { version: page.state.version, connection: 1 };
    return page;
  }
  // What room.js does with each message.
  function snapshotArrives(page, snapshot, connection = 1) {
    page.state = snapshot;
    if (snapshotEndsWait(page.sent, snapshot, connection)) page.pending = null;
  }
  function eventArrives(page, message) {
    applyEvent(page.state, message, CATEGORIES);
    if (eventEndsWait(message)) page.pending = null;
  }

  test("a snapshot asked for before the roll, at its version, leaves it waiting; its answer ends the wait", () => {
    const page = rollSent();
    snapshotArrives(page, playing(["Ann", "Bob"], { you: 0, version: 20 }));
    assert.equal(page.pending, "roll"); // The roll is still on its way: Roll stays pressed.
    eventArrives(page, event(21, "rolled", ROLL));
    assert.equal(page.pending, null);
    assert.equal(page.state.version, 21);
    assert.deepEqual(page.state.turn.dice, [2, 3, 3, 5, 6]);
  });

  test("a snapshot older still (version 19) leaves it waiting too", () => {
    const page = rollSent();
    snapshotArrives(page, playing(["Ann", "Bob"], { you: 0, version: 19 }));
    assert.equal(page.pending, "roll");
  });

  test("a snapshot newer than the roll ends the wait: the roll is in it, or came too late for it", () => {
    const page = rollSent();
    snapshotArrives(page, playing(["Ann", "Bob"], { you: 0, version: 21, turn: { ...ROLL } }));
    assert.equal(page.pending, null);
  });

  test("a new connection's snapshot ends the wait: the roll went with the old socket", () => {
    const page = rollSent();
    snapshotArrives(page, playing(["Ann", "Bob"], { you: 0, version: 20 }), 2);
    assert.equal(page.pending, null);
  });

  test("nothing sent yet: any snapshot is the room as it is", () => {
    assert.equal(snapshotEndsWait(null, { version: 3 }, 1), true);
  });

  test("the events that answer a play command, and those that do not", () => {
    for (const kind of ["rolled", "scored", "started", "roll_off", "finished", "left", "abandoned"]) {
      assert.equal(eventEndsWait({ kind }), true, kind);
    }
    for (const kind of ["held", "chat", "coach", "bot_pace", "joined", "away", "back"]) {
      assert.equal(eventEndsWait({ kind }), false, kind);
    }
  });
});
