// static/js/panels/finish.js: the result at the end (the winner or a shared win, the
// places), the day's game and an abandoned one, the rematch.
import { after, mock, test } from "node:test";
import assert from "node:assert/strict";

import { FinishPanel } from "../../static/js/panels/finish.js";
import { card, event, playing } from "./messages.mjs";
import { apply, openRoom } from "./table.mjs";

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function finish(state, options) {
  const page = openRoom(state, options);
  pages.push(page);
  const panel = new FinishPanel(page.room, page.document);
  panel.draw();
  const $ = (id) => page.document.getElementById(id);
  const ranking = () => [...page.document.querySelectorAll("#ranking li")].map((li) => li.textContent);
  return { ...page, panel, $, ranking };
}

function ended(winners, totals, you = 0) {
  const cards = Object.fromEntries(totals.map((total, seat) => [seat, card({}, { total })]));
  const state = playing(["Ana", "Bob", "Cy"], { you, cards });
  const places = totals.map((t) => 1 + totals.filter((o) => o > t).length);
  return [state, event(21, "finished", { winners, totals, places })];
}

test("hidden while the game is played", () => {
  const { $ } = finish(playing(["Ana", "Bob"], { you: 0 }));
  assert.equal($("finish").hidden, true);
});

test("the end: who won, the places, and a rematch to ask for", () => {
  const [state, finished] = ended([1], [150, 210, 99]);
  const { room, panel, $, ranking, sent } = finish(state);
  panel.update(apply(room, finished));
  assert.equal($("finish").hidden, false);
  assert.equal($("finish-headline").textContent, "Bob wins with 210 points!");
  assert.deepEqual(ranking(), ["1stBob210", "2ndAna150", "3rdCy99"]);
  assert.equal($("rematch-button").hidden, false);
  $("rematch-button").click();
  assert.deepEqual(sent, [["rematch", {}]]);
});

test("this player's win, and a shared one", () => {
  const [mine, won] = ended([0], [220, 210, 99]);
  const one = finish(mine);
  one.panel.update(apply(one.room, won));
  assert.equal(one.$("finish-headline").textContent, "You win with 220 points!");
  const [tied, shared] = ended([0, 1], [200, 200, 99], 2);
  const two = finish(tied);
  two.panel.update(apply(two.room, shared));
  assert.equal(two.$("finish-headline").textContent, "Ana and Bob share the win with 200 points.");
  assert.deepEqual(two.ranking(), ["1stAna200", "1stBob200", "3rdCy99"]);
});

test("a rematch opened: its link replaces the button, and everyone is told where they go", () => {
  const [state, finished] = ended([1], [150, 210, 99]);
  const { window, room, panel, $, said } = finish(state);
  panel.update(apply(room, finished));
  const visited = [];
  mock.method(window.location, "assign", (url) => visited.push(url));
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    panel.update(apply(room, event(22, "rematch", { code: "NewRoomCode12345", name: "Bob" })));
    assert.equal($("rematch-button").hidden, true);
    assert.equal($("rematch-link").hidden, false);
    assert.equal($("rematch-link").getAttribute("href"), "/g/NewRoomCode12345/");
    assert.deepEqual(said, [["Bob started a rematch: taking you to the new room…", "notice"]]);
    assert.deepEqual(visited, []); // A moment to read it first.
    mock.timers.tick(800);
    assert.deepEqual(visited, ["/g/NewRoomCode12345/"]);
  } finally {
    mock.timers.reset();
  }
});

test("the day's game: the score on today's dice, no rematch", () => {
  const state = playing(["Ana"], { you: 0, cards: { 0: card({}, { total: 187 }) } });
  const { room, panel, $ } = finish(state, { config: { daily: true } });
  panel.update(apply(room, event(21, "finished", { winners: [0], totals: [187], places: [1] })));
  assert.equal($("finish-headline").textContent, "You scored 187 on today's dice.");
  assert.equal($("rematch-button").hidden, true);
});

test("an abandoned game says so, with nothing to do", () => {
  const { room, panel, $ } = finish(playing(["Ana", "Bob"], { you: 0 }));
  panel.update(apply(room, event(21, "abandoned", {})));
  assert.equal($("finish-heading").textContent, "Game abandoned");
  assert.equal($("rematch-button").hidden, true);
  assert.equal($("finish-note").hidden, true);
});
