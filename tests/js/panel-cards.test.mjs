// static/js/panels/cards.js: every player's card drawn from the room's state, and what an
// event changes in it: a score its box, the totals and the roll's choices; a hold nothing.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { CardsPanel } from "../../static/js/panels/cards.js";
import { WinChances } from "../../static/js/odds.js";
import { card, event, playing } from "./messages.mjs";
import { watch } from "./page.mjs";
import { apply, openRoom } from "./table.mjs";

// A Large straight on the table, and what it scores in each box (the server's `options`).
const OPTIONS = {
  ones: 0, twos: 2, threes: 3, fours: 4, fives: 5, sixes: 6, three_of_a_kind: 0, four_of_a_kind: 0,
  full_house: 0, small_straight: 30, large_straight: 40, yahtzee: 0, chance: 20,
};
const STRAIGHT = { seat: 0, dice: [6, 5, 3, 2, 4], held: [], rolls_left: 2, options: OPTIONS };
const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function cards(state, options) {
  const page = openRoom(state, options);
  pages.push(page);
  const chances = new WinChances(page.room.send, { root: page.document });
  const panel = new CardsPanel(page.room, chances, page.document);
  panel.draw();
  const cell = (seat, box) => page.document.querySelector(`#scorecard td[data-seat="${seat}"][data-box="${box}"]`);
  const total = (seat) => page.document.querySelector(`#scorecard .scorecard__total[data-seat="${seat}"]`);
  return { ...page, panel, cell, total, table: page.document.getElementById("scorecard") };
}

test("a column per player, with the name, the marks and the rows of the card", () => {
  const state = playing(["Ana", "Bob", "Cy"], { you: 1, cards: { 2: card({ fives: 15 }, { upper_total: 15, total: 15 }) } });
  state.players[2].connected = false;
  const { document, table, cell, total } = cards(state);
  const heads = [...table.querySelectorAll("thead th[data-seat]")];
  assert.deepEqual(heads.map((th) => th.querySelector(".scorecard__name").textContent), ["Ana", "Bob", "Cy"]);
  assert.ok(heads[0].classList.contains("scorecard__player--turn"));
  assert.ok(heads[1].querySelector(".badge--you"));
  assert.equal(heads[2].querySelector(".badge--offline").textContent, "offline");
  assert.equal(table.querySelectorAll("tbody tr").length, 13 + 4); // 13 boxes, upper total, bonus, Yahtzee bonus, lower total.
  assert.equal(cell(2, "fives").textContent, "15");
  assert.ok(cell(2, "fives").classList.contains("scorecard__filled"));
  assert.equal(total(2).textContent, "15");
  assert.equal(document.querySelector(".upper-progress__bar").getAttribute("aria-label"), "0 of 63 toward the bonus");
});

test("on this player's turn the roll's choices are buttons; others see them as previews", () => {
  const mine = cards(playing(["Ana", "Bob"], { you: 0, turn: STRAIGHT }));
  const button = mine.cell(0, "large_straight").querySelector("button");
  assert.equal(button.getAttribute("aria-label"), "Score 40 in Large straight");
  assert.ok(mine.cell(0, "ones").querySelector(".box-option--zero"));
  assert.equal(mine.cell(1, "chance").textContent, ""); // Not on turn: nothing to preview.
  button.click();
  assert.deepEqual(mine.sent.at(-1), ["score", { category: "large_straight", version: 20 }]);

  const watching = cards(playing(["Ana", "Bob"], { turn: STRAIGHT }));
  assert.ok(watching.cell(0, "chance").classList.contains("scorecard__preview"));
  assert.equal(watching.table.querySelectorAll("button").length, 0);
});

test("the forced Joker shuts the boxes a Yahtzee may not go in", () => {
  const joker = { seat: 0, dice: [5, 5, 5, 5, 5], held: [], rolls_left: 2, options: { fives: 25 } };
  const { cell } = cards(playing(["Ana", "Bob"], { you: 0, turn: joker, cards: { 0: card({ yahtzee: 50 }, { total: 50 }) } }));
  assert.equal(cell(0, "fives").querySelector("button").textContent, "25");
  assert.equal(cell(0, "chance").textContent, "–not allowed for this Yahtzee");
  assert.ok(cell(0, "ones").classList.contains("scorecard__closed"));
});

test("a hold changes nothing on the cards (the panel does not even follow it)", () => {
  const { panel } = cards(playing(["Ana", "Bob"], { you: 0, turn: STRAIGHT }));
  assert.equal(panel.follows.has("held"), false);
  assert.equal(panel.follows.has("hold"), false);
});

test("a score changes its box, the seat's totals and the roll's choices; the other card is untouched", async () => {
  const { window, room, panel, table, cell, total } = cards(playing(["Ana", "Bob"], { you: 0, turn: STRAIGHT }));
  const bobsBoxes = [...table.querySelectorAll('td[data-seat="1"]')];
  const changes = watch(window, table);
  const after = card({ large_straight: 40 }, { lower_total: 40, total: 40 });
  panel.update(apply(room, event(21, "scored", { seat: 0, category: "large_straight", points: 40, card: after, round: 1, next: 1 })));
  const { targets, replaced } = await changes.taken();
  assert.equal(cell(0, "large_straight").textContent, "40");
  assert.equal(total(0).textContent, "40");
  assert.equal(table.querySelectorAll("button").length, 0); // The roll's choices are gone.
  assert.ok(bobsBoxes.every((td) => ![...targets].some((node) => td.contains(node))), "Bob's boxes untouched");
  // The scored box, the 3 other choices, the lower and grand totals, and the two names
  // (the turn's mark moves): not the 13 × 2 cells and more a redraw replaced.
  const cells = new Set([...targets].map((node) => (node.nodeType === 1 ? node : node.parentNode).closest("td, th")));
  // Ana's 13 boxes (the one scored, the 12 choices taken off), her lower and grand totals,
  // and the two names (the turn's mark moves to Bob): 17 of the players' 38 cells.
  assert.equal(cells.size, 17);
  assert.equal(table.querySelectorAll("td, thead th[data-seat]").length, 38);
  // A redraw of the whole card, as the page did before the panels, replaces far more.
  const redraw = watch(window, table);
  panel.shape = null;
  panel.draw();
  const whole = await redraw.taken();
  assert.ok(replaced * 4 < whole.replaced, `${replaced} nodes replaced by the score, ${whole.replaced} by a redraw`);
});

test("presence changes the name of the seat whose connection changed, and only it", async () => {
  const { window, room, panel, table } = cards(playing(["Ana", "Bob", "Cy"], { you: 0 }));
  const changes = watch(window, table);
  room.state.players[2].connected = false;
  panel.update({ kind: "presence" });
  const { targets } = await changes.taken();
  const cy = table.querySelector('thead th[data-seat="2"]');
  assert.ok([...targets].every((node) => node === cy || cy.contains(node)));
  assert.ok(cy.querySelector(".badge--offline"));
});

test("while a command waits for its answer, this player's boxes wait too", () => {
  const { room, panel, table } = cards(playing(["Ana", "Bob"], { you: 0, turn: STRAIGHT }));
  room.pending = "score";
  panel.update({ kind: "pending" });
  assert.ok([...table.querySelectorAll(".box-option")].every((b) => b.disabled));
  room.pending = null;
  panel.update({ kind: "pending" });
  assert.ok([...table.querySelectorAll(".box-option")].every((b) => !b.disabled));
});

test("the chances to win: a row under the names for a watcher, none for players unless the room shows them", () => {
  const watcher = cards(playing(["Ana", "Bob"]));
  assert.equal(watcher.table.querySelectorAll(".scorecard__odds [data-win-seat]").length, 2);
  const player = cards(playing(["Ana", "Bob"], { you: 0 }));
  assert.equal(player.table.querySelector(".scorecard__odds"), null);
});
