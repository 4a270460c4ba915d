// static/js/odds.js: who sees the chances to win, how they are written and read out, and
// which answers are shown (only the latest move's: an overtaken answer is dropped).
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { OddsRequests, WinChances, announcement, oddsVisible, percent } from "../../static/js/odds.js";
import { applyEvent } from "../../static/js/state.js";
import { CATEGORIES, event, lobby, playing } from "./messages.mjs";

const showing = (snapshot, show) => ({ ...snapshot, game: { ...snapshot.game, show_odds: show } });
const reply = (version, wins, id = null) => ({
  type: "odds", version, over: false, id,
  seats: wins.map((win, seat) => ({ seat, win, left: false })),
});

group("oddsVisible: who sees the chances", () => {
  test("watchers always, once the game is under way", () => {
    assert.equal(oddsVisible(showing(playing(["Ana", "Bob"]), false)), true);
    assert.equal(oddsVisible(showing(lobby(["Ana", "Bob"]), false)), false);
  });

  test("players only when the host chose so", () => {
    const mine = playing(["Ana", "Bob"], { you: 1 });
    assert.equal(oddsVisible(showing(mine, false)), false);
    assert.equal(oddsVisible(showing(mine, true)), true);
  });

  test("not in a solo game, and not once the server said no", () => {
    assert.equal(oddsVisible(showing(playing(["Ana"]), true)), false);
    assert.equal(oddsVisible(showing(playing(["Ana", "Bob"]), true), true), false);
    assert.equal(oddsVisible(null), false);
  });

  test("still at the end, to see how it finished", () => {
    const over = playing(["Ana", "Bob"]);
    over.game.status = "finished";
    assert.equal(oddsVisible(over), true);
  });
});

group("percent and announcement: the chances in words", () => {
  test("whole percentages, never 0% or 100% for what is neither", () => {
    assert.deepEqual([0, 0.004, 0.006, 0.5, 0.6249, 0.994, 0.996, 1].map(percent),
      ["0%", "<1%", "1%", "50%", "62%", "99%", ">99%", "100%"]);
  });

  test("the seats still in the game, by name", () => {
    const seats = [{ seat: 0, win: 0.62, left: false }, { seat: 1, win: 0.38, left: false }, { seat: 2, win: 0, left: true }];
    const names = ["Ana", "Bob", "Cy"];
    assert.equal(announcement(seats, (s) => names[s]), "Chances to win: Ana 62%, Bob 38%.");
    assert.equal(announcement([], (s) => names[s]), "");
  });
});

group("OddsRequests: the latest move's answer, and nothing older", () => {
  test("asks once per version, never for an older one", () => {
    const requests = new OddsRequests();
    assert.equal(requests.ask(20), true);
    assert.equal(requests.ask(20), false);
    assert.equal(requests.ask(19), false);
    assert.equal(requests.ask(21), true);
  });

  test("an answer overtaken by a newer move is dropped", () => {
    const requests = new OddsRequests();
    requests.ask(20);
    requests.ask(21);
    assert.deepEqual(requests.accept(reply(20, [0.5, 0.5])), { show: false, announce: false });
    assert.equal(requests.shown, null);
    assert.deepEqual(requests.accept(reply(21, [0.7, 0.3])), { show: true, announce: false });
    assert.deepEqual(requests.shown.seats.map((s) => s.win), [0.7, 0.3]);
  });

  test("a turn's end is read out with the next answer shown, even past a quicker move", () => {
    const requests = new OddsRequests();
    requests.ask(30, true); // A score.
    requests.ask(31, false); // An instant bot's roll before its answer.
    assert.equal(requests.accept(reply(30, [0.5, 0.5])).show, false);
    assert.deepEqual(requests.accept(reply(31, [0.4, 0.6])), { show: true, announce: true });
    requests.ask(32, false);
    assert.deepEqual(requests.accept(reply(32, [0.4, 0.6])), { show: true, announce: false });
  });

  test("a new socket's snapshot asks again, even for the same version", () => {
    const requests = new OddsRequests();
    requests.ask(40);
    requests.forget();
    assert.equal(requests.ask(40), true);
  });

  test("a turn's end asked about before a snapshot is read out with the answer after it", () => {
    const requests = new OddsRequests();
    requests.ask(40, true); // The turn ended at 40: its answer is to be read out.
    requests.forget(); // A snapshot (a new socket, or a gap) before the answer came.
    assert.equal(requests.ask(40, false), true);
    assert.deepEqual(requests.accept({ version: 40 }), { show: true, announce: true });
    requests.forget();
    requests.ask(41, false);
    assert.deepEqual(requests.accept({ version: 41 }), { show: true, announce: false });
  });
});

// A document with nothing in it: the part's requests, without drawing.
const emptyRoot = { getElementById: () => null, querySelectorAll: () => [] };

function part() {
  const sent = [];
  const chances = new WinChances((type, fields) => { sent.push([type, fields]); return true; }, { root: emptyRoot });
  return { chances, sent };
}

group("WinChances: what a tab asks and when", () => {
  test("a watcher asks on the snapshot and after each move, not after a hold or a chat", () => {
    const { chances, sent } = part();
    const state = showing(playing(["Ana", "Bob"], { version: 20 }), false);
    chances.receive(state, state);
    const moves = [
      event(21, "rolled", { seat: 0, dice: [1, 2, 3, 4, 6], held: [], rolls_left: 2, options: {} }),
      event(22, "held", { seat: 0, held: [0, 1] }),
      event(23, "chat", { seat: 1, name: "Bob", text: "hi" }),
      event(24, "scored", { seat: 0, category: "chance", points: 16, dice: [1, 2, 3, 4, 6], yahtzee_bonus: false, next: 1 }),
    ];
    for (const message of moves) {
      applyEvent(state, message, CATEGORIES);
      chances.receive(message, state);
    }
    assert.deepEqual(sent, [["odds", { version: 20 }], ["odds", { version: 21 }], ["odds", { version: 24 }]]);
  });

  test("a snapshot after a gap is read out with its answer; a page's first is not", () => {
    const { chances } = part();
    const state = showing(playing(["Ana", "Bob"], { version: 20 }), false);
    chances.receive(state, state);
    assert.deepEqual(chances.requests.accept(reply(20, [0.5, 0.5])), { show: true, announce: false });
    // Events 21-23 missed (the bot's turn ended among them): the page asked for the room.
    const later = showing(playing(["Ana", "Bob"], { version: 23 }), false);
    chances.receive(later, later);
    assert.deepEqual(chances.requests.accept(reply(23, [0.7, 0.3])), { show: true, announce: true });
  });

  test("a player in a room that hides them never asks", () => {
    const { chances, sent } = part();
    const state = showing(playing(["Ana", "Bob"], { you: 0 }), false);
    chances.receive(state, state);
    assert.deepEqual(sent, []);
    assert.equal(chances.headRow(state, state.players, () => ({})), null);
  });

  test("a refusal stops the asking until a new snapshot", () => {
    const { chances, sent } = part();
    const state = showing(playing(["Ana", "Bob"], { you: 0, version: 20 }), true);
    chances.receive(state, state);
    chances.receive({ type: "error", code: "odds_hidden", message: "no", id: "odds-1" }, state);
    state.version = 21;
    chances.receive(event(21, "rolled", { seat: 0, dice: [6, 6, 6, 6, 6], held: [] }), state);
    assert.deepEqual(sent, [["odds", { version: 20 }]]);
    chances.receive(state, state);
    assert.deepEqual(sent.at(-1), ["odds", { version: 21 }]);
  });

  test("the host shows them during the game: a player asks at once; hidden again, no more", () => {
    const { chances, sent } = part();
    const state = showing(playing(["Ana", "Bob"], { you: 1, version: 20 }), false);
    chances.receive(state, state);
    assert.deepEqual(sent, []);
    const shown = event(21, "show_odds", { show: true, seat: 0, name: "Ana" });
    applyEvent(state, shown, CATEGORIES);
    chances.receive(shown, state);
    assert.deepEqual(sent, [["odds", { version: 21 }]]);
    assert.notEqual(chances.headRow(state, state.players, () => ({ append() {}, querySelectorAll: () => [] })), null);
    const hidden = event(22, "show_odds", { show: false, seat: 0, name: "Ana" });
    applyEvent(state, hidden, CATEGORIES);
    chances.receive(hidden, state);
    applyEvent(state, event(23, "rolled", { seat: 0, dice: [6, 6, 6, 6, 6], held: [], rolls_left: 2, options: {} }), CATEGORIES);
    chances.receive(event(23, "rolled", { seat: 0, dice: [6, 6, 6, 6, 6], held: [] }), state);
    assert.deepEqual(sent, [["odds", { version: 21 }]]);
    assert.equal(chances.headRow(state, state.players, () => ({})), null);
  });

  test("shown again after a refusal, a player asks again and shows no old answer meanwhile", () => {
    const { chances, sent } = part();
    const state = showing(playing(["Ana", "Bob"], { you: 1, version: 20 }), true);
    chances.receive(state, state);
    chances.receive(reply(20, [0.5, 0.5]), state);
    chances.receive({ type: "error", code: "odds_hidden", message: "no", id: "odds-2" }, state);
    const shown = event(21, "show_odds", { show: true, seat: 0, name: "Ana" });
    applyEvent(state, shown, CATEGORIES);
    chances.receive(shown, state);
    assert.deepEqual(sent.at(-1), ["odds", { version: 21 }]);
    assert.equal(chances.requests.shown, null);
  });

  test("a player who leaves the game watches, and sees the chances", () => {
    const { chances, sent } = part();
    const state = showing(playing(["Ana", "Bob", "Cy"], { you: 2, version: 20 }), false);
    chances.receive(state, state);
    assert.deepEqual(sent, []);
    const left = event(21, "left", { seat: 2, name: "Cy", next: null });
    applyEvent(state, left, CATEGORIES);
    chances.receive(left, state);
    assert.deepEqual(sent, [["odds", { version: 21 }]]);
  });
});

group("WinChances: the announcer and the bar after an instant bot's turn", () => {
  // The frames a watcher's page received in a failing run of test_win_chances.py (its
  // check was at fault: it read the engine before the bot had played). The page reads out
  // the turn's end with the next answer it shows, and the bar's answer last.
  test("Ana scores, the bot rolls and scores before her answer: the last words are the bar's", () => {
    const announcer = { textContent: "" };
    const root = { getElementById: (id) => (id === "odds-announcer" ? announcer : null), querySelectorAll: () => [] };
    const sent = [];
    const chances = new WinChances((type, fields) => { sent.push([type, fields]); return true; }, { root });
    const state = showing(playing(["Ana", "Casual bot"], { version: 6 }), false);
    chances.receive(state, state);
    chances.receive(reply(6, [0.7567, 0.2433], "odds-1"), state);
    const heard = (message) => {
      if (message.type === "event") applyEvent(state, message, CATEGORIES);
      chances.receive(message, state);
    };
    heard(event(7, "scored", { seat: 0, category: "yahtzee", points: 50, dice: [6, 6, 6, 6, 6], yahtzee_bonus: false, next: 1 }));
    heard({ type: "error", code: "stale", message: "the play has moved on", id: "odds-2" });
    heard(event(8, "rolled", { seat: 1, dice: [1, 2, 3, 4, 6], held: [], rolls_left: 2, options: {} }));
    heard(reply(8, [0.7704, 0.2296], "odds-3"));
    assert.equal(announcer.textContent, "Chances to win: Ana 77%, Casual bot 23%.");
    heard(event(9, "scored", { seat: 1, category: "small_straight", points: 30, dice: [1, 2, 3, 4, 6], yahtzee_bonus: false, next: 0 }));
    heard(reply(9, [0.7874, 0.2126], "odds-4"));
    assert.deepEqual(sent.map(([, fields]) => fields.version), [6, 7, 8, 9]);
    assert.equal(chances.requests.shown.version, 9);
    assert.equal(announcer.textContent, "Chances to win: Ana 79%, Casual bot 21%.");
  });
});
