// static/js/panels/coach.js: the coach asks once per position, shows the answer that fits
// the dice, and a hold changes its one line about the hold.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { CoachPanel } from "../../static/js/panels/coach.js";
import { event, playing } from "./messages.mjs";
import { watch } from "./page.mjs";
import { apply, openRoom } from "./table.mjs";

const rolled = { seat: 0, dice: [6, 5, 3, 2, 4], held: [], rolls_left: 2, options: { chance: 20 } };
// A choice as the server sends it: its English label, and the facts the page words it from.
const choice = (label, expected, loss, kept = null) => ({
  label, expected, loss, kind: kept ? "keep" : "score", kept: kept || [],
  category: kept ? null : "large_straight", points: kept ? null : 40,
});
const ADVICE = {
  type: "advice", dice: [6, 5, 3, 2, 4], rolls_left: 2, to_win: null,
  choices: [choice("Large straight (40)", 231.5, 0), choice("Keep 2 3 4 5", 229.1, 2.4, [2, 3, 4, 5]),
    choice("Keep 2 3 4 5 6", 231.5, 0, [2, 3, 4, 5, 6]), ...Array.from({ length: 6 }, (_, i) => choice(`Keep ${i + 1}`, 200 - i, 31 + i, [i + 1])),
    choice("Keep 5 6", 225.2, 6.3, [5, 6])],
};
const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function coach(state) {
  state.game.coach = true;
  const page = openRoom(state);
  pages.push(page);
  const panel = new CoachPanel(page.room, page.document);
  const $ = (id) => page.document.getElementById(id);
  return { ...page, panel, $ };
}

test("the player on turn asks once per position, and sees 'Thinking…' until the answer", () => {
  const { panel, sent, $ } = coach(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  panel.draw();
  panel.ask();
  panel.ask();
  assert.deepEqual(sent, [["advice", {}]]);
  assert.equal($("coach").hidden, false);
  assert.equal($("coach-best").textContent, "Thinking…");
});

test("the answer: the best move, what the hold gives up, the best few of every choice", () => {
  const { panel, $, document } = coach(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  panel.draw();
  panel.receive(ADVICE);
  assert.equal($("coach-best").textContent, "Best: Large straight (40) · 231.50 expected");
  assert.equal($("coach-tip").textContent, "Coach: Large straight (40)");
  assert.equal($("coach-yours").textContent, "");
  assert.equal(document.querySelectorAll(".coach__row").length, 6);
  assert.equal($("coach-more").textContent, "Show all 10 choices");
  $("coach-more").click();
  assert.equal(document.querySelectorAll(".coach__row").length, 10);
  assert.equal($("coach-both").hidden, true);
});

test("an answer for other dice is not shown; a watcher or another player sees no coach", () => {
  const { panel, $ } = coach(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  panel.draw();
  panel.receive({ ...ADVICE, dice: [1, 1, 1, 1, 1] });
  assert.equal($("coach-best").textContent, "Thinking…");
  const other = coach(playing(["Ana", "Bob"], { you: 1, turn: rolled }));
  other.panel.draw();
  assert.equal(other.$("coach").hidden, true);
});

test("a hold changes the line about the hold, and nothing else of the coach", async () => {
  const { window, room, panel, $ } = coach(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  panel.draw();
  panel.receive(ADVICE);
  const changes = watch(window, $("coach"));
  panel.update(apply(room, event(21, "held", { seat: 0, held: [1, 2, 3, 4] })));
  const { targets } = await changes.taken();
  assert.equal($("coach-yours").textContent, "Your hold (keep 2 3 4 5) gives up 2.40.");
  assert.ok([...targets].every((node) => node === $("coach-yours") || $("coach-yours").contains(node)));
});

test("both bests when playing to win is not playing for points", () => {
  const { panel, $ } = coach(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  panel.draw();
  const toWin = {
    points: { label: "Large straight (40)", expected: 231.5, win: 0.41 },
    win: { label: "Keep 5 6", expected: 225.2, win: 0.47 },
  };
  panel.receive({ ...ADVICE, to_win: toWin });
  assert.equal($("coach-both").hidden, false);
  assert.equal($("coach-both-points").textContent, "For the most points: score 40 in Large straight (about 232 pts, 41% to win).");
  assert.equal($("coach-both-win").textContent, "To win this game: keep 5-6 (about 225 pts, 47% to win).");
});

test("a roll is a new position: the old answer goes and the coach asks again", () => {
  const { room, panel, sent, $ } = coach(playing(["Ana", "Bob"], { you: 0, turn: rolled }));
  panel.draw();
  panel.ask();
  panel.receive(ADVICE);
  panel.update(apply(room, event(21, "rolled", { seat: 0, dice: [6, 5, 3, 2, 1], held: [0, 1, 2, 3], rolls_left: 1, options: {} })));
  assert.equal($("coach-best").textContent, "Thinking…");
  assert.deepEqual(sent, [["advice", {}], ["advice", {}]]);
});
