// static/js/panels/cards.js in German, from the real catalog (locale/de/LC_MESSAGES/
// djangojs.po): the German card's names with the short ones a phone shows, the sums, the
// badges and what a screen reader hears.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";
import { KNIFFEL, KNIFFEL_LABELS, card, playing } from "./messages.mjs";

speak("de"); // Before any module that imports i18n.js.
const { CardsPanel } = await import("../../static/js/panels/cards.js");
const { WinChances } = await import("../../static/js/odds.js");
const { openRoom } = await import("./table.mjs");

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function germanCards(state) {
  const page = openRoom(state, { config: { categories: KNIFFEL } });
  pages.push(page);
  page.room.categories = KNIFFEL;
  page.room.labels = KNIFFEL_LABELS;
  const panel = new CardsPanel(page.room, new WinChances(page.room.send, { root: page.document }), page.document);
  panel.draw();
  return { ...page, table: page.document.getElementById("scorecard") };
}

// Each row's whole name and the short one a phone shows instead (the same when it has none).
const rows = (table) => [...table.querySelectorAll("tbody th, tfoot th")].map((th) => {
  const whole = th.querySelector(".scorecard__full");
  return whole ? [whole.textContent, th.querySelector(".scorecard__short").textContent] : [th.textContent];
});

test("Kniffel's names, the short ones for a phone, and the sums in German", () => {
  const { table } = germanCards(playing(["Ana", "Bob"], { you: 0 }));
  assert.deepEqual(rows(table), [
    ["Einser"], ["Zweier"], ["Dreier"], ["Vierer"], ["Fünfer"], ["Sechser"],
    ["Summe oben", "Oben"], ["Bonus (35)", "Bonus"],
    ["Dreier\u00adpasch", "3er-Pasch"], ["Vierer\u00adpasch", "4er-Pasch"], ["Full House"],
    ["Kleine Straße", "Kl. Straße"], ["Große Straße", "Gr. Straße"], ["Kniffel"], ["Chance"],
    ["Kniffel-Bonus", "Kniffel +"], ["Summe unten", "Unten"], ["Endsumme", "Gesamt"],
  ]);
  assert.equal(table.querySelector("caption").textContent, "Die Karten aller Mitspielenden");
  assert.equal(table.querySelector(".scorecard__corner").textContent, "Feld");
  assert.equal(table.querySelector(".badge--you").textContent, "du");
  assert.equal(table.querySelector(".upper-progress__bar").getAttribute("aria-label"), "0 von 63 für den Bonus");
});

test("the roll's choices and the Kniffel bonus, as a screen reader hears them", () => {
  const turn = { seat: 0, dice: [5, 5, 5, 5, 5], held: [], rolls_left: 2, options: { fives: 25, chance: 25 } };
  const filled = card({ yahtzee: 50 }, { yahtzee_bonus_count: 1, yahtzee_bonus: 100, total: 150 });
  const { table } = germanCards(playing(["Ana", "Bob"], { you: 0, turn, cards: { 0: filled } }));
  const cell = (box) => table.querySelector(`td[data-seat="0"][data-box="${box}"]`);
  assert.equal(cell("fives").querySelector("button").getAttribute("aria-label"), "25 in Fünfer eintragen");
  assert.equal(cell("ones").textContent, "–für diesen Kniffel nicht erlaubt");
  assert.equal(table.querySelector(".checks").getAttribute("aria-label"), "1 Bonus-Haken");
});

test("a bot's badge, a winner's and one who left, in German", () => {
  const state = playing(["Ana", "Bot 1"], { you: 0 });
  state.players[1].bot = "casual";
  state.players[1].left = true;
  state.winners = [0];
  const { table } = germanCards(state);
  const bot = table.querySelector(".badge--bot");
  assert.deepEqual([bot.textContent, bot.getAttribute("title")], ["Bot", "Bot „Gelegentlich“"]);
  assert.equal(table.querySelector(".badge--win").textContent, "Sieg");
  assert.ok([...table.querySelectorAll(".badge")].some((badge) => badge.textContent === "verlassen"));
});
