// static/js/watchers.js, botpace.js and setting.js: what the watchers' chat panel and the
// bots' pace control show, what a tab asks again after reconnecting, and how a setting the
// host just chose stays shown until the server answers.
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { BotPaceControl, PACES, paceRefusal, paceView } from "../../static/js/botpace.js";
import { AskedSetting } from "../../static/js/setting.js";
import { applyEvent, describe } from "../../static/js/state.js";
import { WatchersChat, panelView, readRefusal, requestsAfter, timeOf } from "../../static/js/watchers.js";
import { CATEGORIES, LABELS, event, lobby, playing } from "./messages.mjs";

const watching = (name, read, id = null) => ({ type: "watching", name, read, id });

group("panelView: the watchers' chat panel", () => {
  test("nothing before the server says how this tab takes part", () => {
    assert.equal(panelView(null).shown, false);
  });

  test("a watcher reads, writes and may rename; no switch", () => {
    assert.deepEqual(panelView(watching("Watcher 1", true)), {
      shown: true, watcher: true, lines: true, form: true, toggle: false,
    });
  });

  test("a player has the switch, and the lines only when reading", () => {
    assert.deepEqual(panelView(watching(null, false)), {
      shown: true, watcher: false, lines: false, form: false, toggle: true,
    });
    assert.deepEqual(panelView(watching(null, true)), {
      shown: true, watcher: false, lines: true, form: false, toggle: true,
    });
  });
});

group("requestsAfter: what a tab asks again after the server forgot", () => {
  test("a watcher asks for the name this browser chose, once it differs", () => {
    assert.deepEqual(requestsAfter(watching("Watcher 2", true), { name: "Sam", read: false }), [
      ["watcher_name", { name: "Sam" }],
    ]);
    assert.deepEqual(requestsAfter(watching("Sam", true), { name: "Sam", read: false }), []);
    assert.deepEqual(requestsAfter(watching("Watcher 2", true), { name: null, read: true }), []);
  });

  test("a player who chose to read asks to read again", () => {
    assert.deepEqual(requestsAfter(watching(null, false), { name: "Sam", read: true }), [
      ["read_watchers", { read: true }],
    ]);
    assert.deepEqual(requestsAfter(watching(null, false), { name: null, read: false }), []);
    assert.deepEqual(requestsAfter(watching(null, true), { name: null, read: true }), []);
  });

  test("a reply to our own request asks nothing again (a refused name is not retried)", () => {
    assert.deepEqual(requestsAfter(watching("Watcher 2", true, "watcher_name-3"), { name: "Sam" }), []);
  });
});

test("timeOf: the local hour and minute, or nothing for what is no time", () => {
  const at = new Date(2026, 10, 24, 9, 5, 30).toISOString();
  assert.equal(timeOf(at), "09:05");
  assert.equal(timeOf("not a time"), "");
});

group("paceView: the bots' pace control", () => {
  test("the host of a lobby may choose it before any bot sits down", () => {
    const state = lobby(["Ann", "Bob"], { you: 0 });
    assert.deepEqual(paceView(state), { shown: true, host: true, pace: "natural" });
  });

  test("another player sees it only once bots sit, and may not change it", () => {
    assert.equal(paceView(lobby(["Ann", "Bob"], { you: 1 })).shown, false);
    const state = lobby(["Ann", "Optimal bot"], { you: 1, bots: { 1: "optimal" } });
    assert.deepEqual(paceView(state), { shown: true, host: false, pace: "natural" });
  });

  test("in play it shows while bots play, and the bot_pace event changes it", () => {
    const state = playing(["Ann", "Bob"], { you: 0 });
    assert.equal(paceView(state).shown, false); // No bots at this table.
    state.players[1].bot = "casual";
    applyEvent(state, event(21, "bot_pace", { pace: "quick", seat: 0, name: "Ann" }), CATEGORIES);
    assert.deepEqual(paceView(state), { shown: true, host: true, pace: "quick" });
    state.game.status = "finished";
    assert.equal(paceView(state).shown, false);
  });

  test("the feed says who set which pace", () => {
    const message = event(21, "bot_pace", { pace: "instant", seat: 0, name: "Ann" });
    assert.deepEqual(describe(message, [], LABELS), ["Ann set the bots to play instantly."]);
    assert.deepEqual(Object.keys(PACES), ["natural", "quick", "instant"]);
  });
});

group("AskedSetting: a control shows the host's choice until the room agrees", () => {
  test("the choice is shown while the room still has the old value", () => {
    const pace = new AskedSetting("bot_pace");
    assert.equal(pace.shown("natural"), "natural");
    pace.choose("instant");
    pace.hear({ type: "presence", players: [], watchers: 1 });
    assert.equal(pace.shown("natural"), "instant");
  });

  test("once the room has the chosen value, the room's value is shown again", () => {
    const coach = new AskedSetting("coach");
    coach.choose(true);
    assert.equal(coach.shown(true), true);
    // Another host's change (or a later one) then shows as it is.
    assert.equal(coach.shown(false), false);
  });

  test("a refusal of this command, or of any message as too many, ends the wait", () => {
    const coach = new AskedSetting("coach");
    coach.choose(true);
    coach.hear({ type: "error", id: "roll-3", code: "not_your_turn", message: "..." });
    assert.equal(coach.shown(false), true);
    coach.hear({ type: "error", id: "coach-4", code: "not_host", message: "..." });
    assert.equal(coach.shown(false), false);
    coach.choose(true);
    coach.hear({ type: "error", id: null, code: "rate_limited", message: "..." });
    assert.equal(coach.shown(false), false);
  });

  test("a snapshot is the whole room as the server has it", () => {
    const coach = new AskedSetting("coach");
    coach.choose(true);
    coach.hear({ type: "snapshot" });
    assert.equal(coach.shown(false), false);
  });
});

// Elements with what the parts use of them: listeners kept, nothing drawn.
function fakeElements() {
  const element = () => ({ hidden: false, value: "", checked: false, children: [], addEventListener() {} });
  const made = {};
  return { getElementById: (id) => (made[id] ||= element()) };
}

group("the command line's own commands: pace and watchers", () => {
  test("paceRefusal: only the host, and not to the pace the bots have", () => {
    assert.match(paceRefusal(playing(["Ann", "Bob"], { you: 1 }), "quick"), /^Only the host/);
    assert.match(paceRefusal(playing(["Ann", "Bob"]), "quick"), /^Only the host/);
    assert.equal(paceRefusal(playing(["Ann", "Bob"], { you: 0 }), "natural"), "The bots play naturally already.");
    assert.equal(paceRefusal(playing(["Ann", "Bob"], { you: 0 }), "instant"), null);
  });

  test("`pace instant` from the host is sent and answered by its event; from another, refused", () => {
    const sent = [];
    const control = new BotPaceControl((type, fields) => { sent.push([type, fields]); return true; }, { root: fakeElements() });
    assert.equal(control.command({ action: "read_watchers", read: true }, playing(["Ann"], { you: 0 })), null);
    const host = playing(["Ann", "Bob"], { you: 0 });
    assert.deepEqual(control.command({ action: "bot_pace", pace: "instant" }, host), { sent: true, expect: "bot_pace" });
    assert.deepEqual(sent, [["bot_pace", { pace: "instant" }]]);
    assert.match(control.command({ action: "bot_pace", pace: "quick" }, playing(["Ann", "Bob"], { you: 1 })).error, /^Only the host/);
    assert.equal(sent.length, 1);
  });

  test("readRefusal: a player switches reading; a watcher always reads", () => {
    assert.equal(readRefusal(watching(null, false), true), null);
    assert.equal(readRefusal(watching(null, true), false), null);
    assert.equal(readRefusal(watching(null, true), true), "You read the watchers' chat already.");
    assert.equal(readRefusal(watching("Watcher 1", true), false), "Watchers always read the watchers' chat.");
    assert.match(readRefusal(null, true), /^Not connected yet/);
  });

  test("`watchers on` sends what the switch sends, and is kept for the next visit", () => {
    const sent = [];
    const stored = {};
    const storage = { getItem: (key) => stored[key] ?? null, setItem: (key, value) => { stored[key] = value; } };
    const chat = new WatchersChat((type, fields) => { sent.push([type, fields]); return true; }, { root: fakeElements(), storage });
    chat.watching = watching(null, false);
    const answer = chat.command({ action: "read_watchers", read: true });
    assert.equal(answer.sent, true);
    assert.match(answer.text, /^You read the watchers' chat now/);
    assert.deepEqual(sent, [["read_watchers", { read: true }]]);
    assert.equal(stored["yahtzee.readWatchers"], "true");
    assert.equal(chat.command({ action: "bot_pace", pace: "quick" }), null);
  });
});
