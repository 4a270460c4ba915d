// static/js/chancesgraph.js: the review's graph of the chances to win, by keyboard.
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { graphKey, keyboardGraph, markGraph, valueText } from "../../static/js/chancesgraph.js";

const TURNS = [12, 40, 25]; // The turning points' moments, as the graph numbers them (not sorted).

group("graphKey: where each key takes the graph", () => {
  test("the arrows step one moment, and stop at either end", () => {
    assert.equal(graphKey("ArrowRight", 5, 60, TURNS), 6);
    assert.equal(graphKey("ArrowUp", 5, 60, TURNS), 6);
    assert.equal(graphKey("ArrowLeft", 5, 60, TURNS), 4);
    assert.equal(graphKey("ArrowDown", 5, 60, TURNS), 4);
    assert.equal(graphKey("ArrowLeft", 0, 60, TURNS), 0);
    assert.equal(graphKey("ArrowRight", 59, 60, TURNS), 59);
  });

  test("Home and End: the start and the end", () => {
    assert.equal(graphKey("Home", 30, 60, TURNS), 0);
    assert.equal(graphKey("End", 30, 60, TURNS), 59);
  });

  test("Page Down and Page Up: the next and the previous turning point, in the game's order", () => {
    assert.equal(graphKey("PageDown", 0, 60, TURNS), 12);
    assert.equal(graphKey("PageDown", 12, 60, TURNS), 25);
    assert.equal(graphKey("PageDown", 26, 60, TURNS), 40);
    assert.equal(graphKey("PageDown", 40, 60, TURNS), 40); // None after the last: it stays.
    assert.equal(graphKey("PageUp", 40, 60, TURNS), 25);
    assert.equal(graphKey("PageUp", 13, 60, TURNS), 12);
    assert.equal(graphKey("PageUp", 12, 60, TURNS), 12);
    assert.equal(graphKey("PageDown", 3, 60, []), 3); // A close game has none.
  });

  test("other keys are left to the page", () => {
    for (const key of ["Tab", "a", "Escape", "Enter"]) assert.equal(graphKey(key, 3, 60, TURNS), null, key);
  });
});

group("valueText: what the slider says", () => {
  const percent = (win) => `${Math.round(win * 100)}%`;
  test("the moment as its link numbers it, each seat's chance, and a turning point", () => {
    const names = ["Ana", "Ben"];
    assert.equal(valueText({ seq: 21, lastSeq: 80, names, chances: [0.62, 0.38], turn: 2, percent }),
      "Moment 21 of 80: Ana 62%, Ben 38%; turning point 2.");
    assert.equal(valueText({ seq: 22, lastSeq: 80, names, chances: [0.6, 0.4], turn: null, percent }),
      "Moment 22 of 80: Ana 60%, Ben 40%.");
    assert.equal(valueText({ seq: 3, lastSeq: 80, names, chances: null, turn: null, percent }), "Moment 3 of 80.");
  });
});

// An <svg> with the parts keyboardGraph uses: attributes, a listener, its turning points.
function fakeGraph(turns) {
  const attributes = {};
  const listeners = {};
  const figure = { querySelector: () => ({ id: "chances-help" }) };
  return {
    attributes,
    setAttribute: (name, value) => { attributes[name] = value; },
    addEventListener: (type, listener) => { listeners[type] = listener; },
    querySelectorAll: () => turns.map((index) => ({ dataset: { index: String(index) } })),
    closest: () => figure,
    press(key) {
      const event = { key, prevented: false, stopped: false, preventDefault() { this.prevented = true; }, stopPropagation() { this.stopped = true; } };
      listeners.keydown(event);
      return event;
    },
  };
}

group("keyboardGraph: the graph as a slider", () => {
  test("it is focusable, named a slider over the moments, described by its caption", () => {
    const svg = fakeGraph(TURNS);
    keyboardGraph(svg, { count: 60, show() {}, current: () => 0, goToReplay() {} });
    assert.deepEqual(svg.attributes, {
      role: "slider", tabindex: "0", "aria-valuemin": "0", "aria-valuemax": "59",
      "aria-orientation": "horizontal", "aria-describedby": "chances-help",
    });
    markGraph(svg, 7, "Moment 9 of 80.");
    assert.equal(svg.attributes["aria-valuenow"], "7");
    assert.equal(svg.attributes["aria-valuetext"], "Moment 9 of 80.");
  });

  test("its keys show a moment (and no other handler steps again); Enter goes to the replay", () => {
    const svg = fakeGraph(TURNS);
    let at = 10;
    const shown = [];
    let replays = 0;
    keyboardGraph(svg, { count: 60, show: (index) => { shown.push(index); at = index; }, current: () => at, goToReplay: () => { replays += 1; } });
    const next = svg.press("PageDown");
    assert.deepEqual([next.prevented, next.stopped], [true, true]);
    svg.press("ArrowRight");
    svg.press("End");
    assert.deepEqual(shown, [12, 13, 59]);
    assert.equal(svg.press("Enter").prevented, true);
    assert.equal(replays, 1);
    assert.equal(svg.press("Tab").prevented, false); // The focus moves on as usual.
    assert.deepEqual(shown, [12, 13, 59]);
  });
});
