// static/js/dailyresult.js: a daily game's result in the room's end panel, asked once the
// game is over and drawn as the day's page shows it.
import { describe as group, test } from "node:test";
import assert from "node:assert/strict";

import { DailyResult, figures, unfinishedNote } from "../../static/js/dailyresult.js";

const FINISHED = { score: 231, finished: true, boxes: 13, place: 2, ranked: 5, engine: 254, given_away: 12.345, share: "…", board: "/daily/2026-11-27/" };
const LEFT = { ...FINISHED, score: 29, finished: false, boxes: 2, place: null, given_away: null };

group("figures: the place, the engine's score and the points given away", () => {
  test("a finished attempt: its place of those ranked, given away to one decimal", () => {
    assert.deepEqual(figures(FINISHED).map(([, , value]) => value), ["2 of 5", "254", "12.3"]);
    assert.equal(unfinishedNote(FINISHED), null);
  });

  test("an attempt not finished: no place, nothing counted, and a note that it was the attempt", () => {
    assert.deepEqual(figures(LEFT).map(([, , value]) => value), ["not ranked: not finished", "254", "not counted"]);
    assert.equal(unfinishedNote(LEFT), "Not finished: 29 after 2 of 13 boxes. It was your attempt for today, listed under the board without a place.");
  });
});

// Just enough of a document for the panel: elements that keep their children and text.
function fakeDocument() {
  const made = (tag) => ({ tag, children: [], hidden: true, textContent: "", id: "", append(...c) { this.children.push(...c); }, replaceChildren(...c) { this.children = c; } });
  const nodes = { "daily-result": made("dl"), "daily-result-note": made("p") };
  return { nodes, getElementById: (id) => nodes[id], createElement: made };
}

group("DailyResult: asks once, when the game is over", () => {
  test("nothing is asked while the game is played; once over, one request, drawn when it comes", async () => {
    const root = fakeDocument();
    const asked = [];
    let answer;
    const fetcher = (url) => { asked.push(url); return new Promise((resolve) => { answer = resolve; }); };
    const part = new DailyResult("abc DEF", { root, fetcher });
    part.receive({ type: "event" }, { game: { status: "playing" } });
    assert.deepEqual(asked, []);
    part.receive({ type: "event" }, { game: { status: "finished" } });
    part.receive({ type: "snapshot" }, { game: { status: "finished" } });
    assert.deepEqual(asked, ["/g/abc%20DEF/daily/"]);

    answer({ ok: true, json: async () => FINISHED });
    await new Promise((resolve) => setImmediate(resolve));
    const list = root.nodes["daily-result"];
    assert.equal(list.hidden, false);
    assert.deepEqual(list.children.map((row) => [row.children[0].textContent, row.children[1].id, row.children[1].textContent]), [
      ["Your place on today's board", "daily-result-place", "2 of 5"],
      ["The engine's score on the same dice", "daily-result-engine", "254"],
      ["Points given away against the engine", "daily-result-given", "12.3"],
    ]);
    assert.equal(root.nodes["daily-result-note"].hidden, true);
  });

  test("a request that failed for the network is made again at the next message; a refusal is not", async () => {
    const root = fakeDocument();
    let calls = 0;
    const part = new DailyResult("c", { root, fetcher: async () => { calls += 1; if (calls === 1) throw new TypeError("offline"); return { ok: false }; } });
    const over = { game: { status: "abandoned" } };
    part.receive({}, over);
    await new Promise((resolve) => setImmediate(resolve));
    part.receive({}, over);
    await new Promise((resolve) => setImmediate(resolve));
    part.receive({}, over);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls, 2);
    assert.equal(root.nodes["daily-result"].hidden, true);
  });
});
