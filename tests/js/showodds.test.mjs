// static/js/showodds.js: the host's switch for whether the players see who is likely to
// win, and the command line's `chances on|off`; and the event that changes it (state.js).
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { OddsChoice, choiceRefusal, choiceView } from "../../static/js/showodds.js";
import { applyEvent, describe } from "../../static/js/state.js";
import { CATEGORIES, LABELS, event, lobby, playing } from "./messages.mjs";

const showing = (snapshot, show) => ({ ...snapshot, game: { ...snapshot.game, show_odds: show } });

group("choiceView: who sees the switch", () => {
  test("the host, in the lobby and in play, with the room's choice", () => {
    assert.deepEqual(choiceView(showing(lobby(["Ann", "Bob"], { you: 0 }), false)), { shown: true, show: false });
    assert.deepEqual(choiceView(showing(playing(["Ann", "Bob"], { you: 0 }), true)), { shown: true, show: true });
  });

  test("nobody else; not alone; not once it is over", () => {
    assert.equal(choiceView(playing(["Ann", "Bob"], { you: 1 })).shown, false);
    assert.equal(choiceView(playing(["Ann", "Bob"])).shown, false); // A watcher always sees them.
    assert.equal(choiceView(playing(["Ann"], { you: 0 })).shown, false);
    const over = playing(["Ann", "Bob"], { you: 0 });
    over.game.status = "finished";
    assert.equal(choiceView(over).shown, false);
    assert.equal(choiceView(null).shown, false);
  });
});

group("choiceRefusal: what `chances on|off` says instead of sending", () => {
  test("only the host", () => {
    assert.match(choiceRefusal(playing(["Ann", "Bob"], { you: 1 }), true), /^Only the host/);
    assert.match(choiceRefusal(playing(["Ann", "Bob"]), true), /^Only the host/);
  });

  test("already so, or alone at the table", () => {
    assert.equal(choiceRefusal(showing(playing(["Ann", "Bob"], { you: 0 }), true), true), "The players see who is likely to win already.");
    assert.equal(choiceRefusal(showing(playing(["Ann", "Bob"], { you: 0 }), false), false), "The players do not see who is likely to win already.");
    assert.match(choiceRefusal(playing(["Ann"], { you: 0 }), true), /nobody to beat/);
  });

  test("null when the host changes it", () => {
    assert.equal(choiceRefusal(showing(playing(["Ann", "Bob"], { you: 0 }), false), true), null);
  });
});

// The switch's two elements, as much of them as the part uses.
function fakeRoot() {
  const listeners = {};
  const toggle = { checked: false, addEventListener: (type, listener) => { listeners[type] = listener; } };
  const label = { hidden: true };
  const byId = { "show-odds-switch": label, "show-odds-toggle": toggle };
  return { root: { getElementById: (id) => byId[id] }, toggle, label, click: () => listeners.change() };
}

group("OddsChoice: the switch and the command", () => {
  test("the host ticks it: the command goes, and the tick stays until the room agrees", () => {
    const sent = [];
    const dom = fakeRoot();
    const choice = new OddsChoice((type, fields) => { sent.push([type, fields]); return true; }, { root: dom.root });
    const state = showing(playing(["Ann", "Bob"], { you: 0, version: 20 }), false);
    choice.receive(state, state);
    assert.deepEqual([dom.label.hidden, dom.toggle.checked], [false, false]);
    dom.toggle.checked = true;
    dom.click();
    assert.deepEqual(sent, [["show_odds", { show: true }]]);
    const presence = { type: "presence", players: [], watchers: 1 };
    choice.receive(presence, state); // Something else arrives first: the tick stays.
    assert.equal(dom.toggle.checked, true);
    const shown = event(21, "show_odds", { show: true, seat: 0, name: "Ann" });
    applyEvent(state, shown, CATEGORIES);
    choice.receive(shown, state);
    assert.equal(dom.toggle.checked, true);
    assert.equal(state.game.show_odds, true);
  });

  test("a refusal puts the switch back as the room has it", () => {
    const dom = fakeRoot();
    const choice = new OddsChoice(() => true, { root: dom.root });
    const state = showing(playing(["Ann", "Bob"], { you: 0 }), false);
    dom.toggle.checked = true;
    dom.click();
    choice.receive({ type: "error", code: "not_host", message: "only the host", id: "show_odds-3" }, state);
    assert.equal(dom.toggle.checked, false);
  });

  test("`chances on` from the command line: sent, answered by its event; refused ones say why", () => {
    const sent = [];
    const choice = new OddsChoice((type, fields) => { sent.push([type, fields]); return true; }, { root: fakeRoot().root });
    const host = showing(playing(["Ann", "Bob"], { you: 0 }), false);
    assert.equal(choice.command({ action: "bot_pace", pace: "quick" }, host), null); // Not its command.
    assert.deepEqual(choice.command({ action: "show_odds", on: true }, host), { sent: true, expect: "show_odds" });
    assert.deepEqual(sent, [["show_odds", { show: true }]]);
    const other = playing(["Ann", "Bob"], { you: 1 });
    assert.match(choice.command({ action: "show_odds", on: true }, other).error, /^Only the host/);
    assert.equal(sent.length, 1);
  });
});

group("the show_odds event", () => {
  test("it sets the room's choice, and the feed says who chose what", () => {
    const state = playing(["Ann", "Bob"], { you: 1 });
    applyEvent(state, event(21, "show_odds", { show: true, seat: 0, name: "Ann" }), CATEGORIES);
    assert.equal(state.game.show_odds, true);
    assert.equal(state.version, 21);
    assert.deepEqual(describe(event(22, "show_odds", { show: true, seat: 0, name: "Ann" }), state.players, LABELS),
      ["Ann let the players see who is likely to win."]);
    assert.deepEqual(describe(event(22, "show_odds", { show: false, seat: 0, name: "Ann" }), state.players, LABELS),
      ["Ann hid who is likely to win from the players (watchers still see it)."]);
  });
});
