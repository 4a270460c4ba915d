// The coach in German, from the real catalog (locale/de/LC_MESSAGES/djangojs.po): its
// choices worded from their facts with the German card's names (never the server's English
// label), its numbers as German writes them ("2,40", "8 %"), whole sentences for both bests.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";
import { KNIFFEL, KNIFFEL_LABELS, playing } from "./messages.mjs";

speak("de"); // Before any module that imports i18n.js (table.mjs does, through play.js).
const { openRoom } = await import("./table.mjs");
const { actionWords, bothBests, chanceWords, choiceLabel } = await import("../../static/js/advice.js");
const { CoachPanel } = await import("../../static/js/panels/coach.js");

const keep = (kept, label, expected = 0, loss = 0) => ({ kind: "keep", label, kept, category: null, points: null, expected, loss });
const box = (category, points, label, expected = 0, loss = 0) => ({ kind: "score", label, kept: [], category, points, expected, loss });
const NBSP = "\u00a0"; // German writes "8 %" with a space that does not break.

test("a choice as the coach lists it and as a move, with the German card's names", () => {
  assert.equal(choiceLabel(keep([4, 5, 6, 6], "Keep 4 5 6 6"), KNIFFEL_LABELS), "4 5 6 6 behalten");
  assert.equal(choiceLabel(keep([], "Throw all"), KNIFFEL_LABELS), "Alle werfen");
  assert.equal(choiceLabel(box("large_straight", 40, "Large straight (40)"), KNIFFEL_LABELS), "Große Straße (40)");
  assert.equal(actionWords(box("chance", 22, "Chance (22)"), KNIFFEL_LABELS), "22 in Chance eintragen");
  assert.equal(actionWords(keep([], "Throw all"), KNIFFEL_LABELS), "alle fünf neu werfen");
  assert.equal(chanceWords(0.001), `unter 1${NBSP}% Siegchance`);
  assert.equal(chanceWords(1), "sicherer Sieg");
});

test("both bests, as German sentences", () => {
  const choices = [keep([4, 5, 6, 6], "Keep 4 5 6 6"), keep([5, 6, 6], "Keep 5 6 6")];
  const toWin = {
    points: { label: "Keep 4 5 6 6", expected: 24.5, win: 0.0795 },
    win: { label: "Keep 5 6 6", expected: 1.2, win: 0.1192 },
  };
  assert.deepEqual(bothBests({ to_win: toWin, choices }, KNIFFEL_LABELS), {
    points: `Für die meisten Punkte: 4-5-6-6 behalten (etwa 25 Punkte, 8${NBSP}% Siegchance).`,
    win: `Um dieses Spiel zu gewinnen: 5-6-6 behalten (etwa 1 Punkt, 12${NBSP}% Siegchance).`,
  });
});

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

test("the panel: the best move, its figures and the hold, in German", () => {
  const turn = { seat: 0, dice: [6, 5, 3, 2, 4], held: [1, 2, 3, 4], rolls_left: 2, options: { large_straight: 40 } };
  const state = playing(["Ana", "Bob"], { you: 0, turn });
  state.game.coach = true;
  const page = openRoom(state);
  pages.push(page);
  page.room.categories = KNIFFEL;
  page.room.labels = KNIFFEL_LABELS;
  const panel = new CoachPanel(page.room, page.document);
  const $ = (id) => page.document.getElementById(id);
  panel.draw();
  assert.equal($("coach-best").textContent, "Denkt nach …");
  const choices = [box("large_straight", 40, "Large straight (40)", 231.5, 0), keep([2, 3, 4, 5], "Keep 2 3 4 5", 229.1, 2.4),
    ...Array.from({ length: 6 }, (_, i) => keep([i + 1], `Keep ${i + 1}`, 200 - i, 31.5 + i))];
  panel.receive({ type: "advice", dice: [6, 5, 3, 2, 4], rolls_left: 2, to_win: null, choices });
  assert.equal($("coach-best").textContent, "Am besten: Große Straße (40) · 231,50 erwartet");
  assert.equal($("coach-tip").textContent, "Coach: Große Straße (40)");
  assert.equal($("coach-yours").textContent, "Was du hältst (2 3 4 5 behalten), verschenkt 2,40.");
  const rows = [...page.document.querySelectorAll(".coach__row")].map((row) => [...row.children].map((cell) => cell.textContent));
  assert.deepEqual(rows.slice(0, 2), [["Große Straße (40)", "231,50", "beste"], ["2 3 4 5 behalten", "229,10", "−2,40"]]);
  assert.equal($("coach-more").textContent, "Alle 8 Möglichkeiten zeigen");
  $("coach-more").click();
  assert.equal($("coach-more").textContent, "Nur die besten zeigen");
});
