// The review of a game that is over: step through every roll, hold and score.
// The server replayed the log with the rules and drew the page at one moment;
// this script only moves between the moments it sent, rewriting the text, the
// dice and the numbers in the scorecards. Each moment has its own link (?at=).
// A moment that was a decision (a score, or a roll after the first) carries the
// server's analysis of it, shown under the move. A move the turn clock or a bot
// made for a player says so in its text, and its analysis is marked as not the player's.
// Ways to jump: the list of every move, the analysis's biggest mistakes, the chart of
// running totals (a point there is a score), and the graph of the chances to win (any
// moment) with its turning points. A page opened at a moment (?at=) starts at the
// replay, not at the top of the page.

import { keyboardGraph, markGraph, valueText } from "./chancesgraph.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { percent } from "./odds.js";

const config = JSON.parse(document.getElementById("review-config").textContent);
const moments = config.moments;
const $ = (id) => document.getElementById(id);

// The cards at each moment: the start's cards, then each score writes its box
// and brings its card's totals.
const cardsAt = [];
moments.forEach((moment, index) => {
  const cards = index === 0 ? moment.cards : [...cardsAt[index - 1]];
  if (moment.card) {
    const before = cards[moment.seat];
    cards[moment.seat] = { ...moment.card, boxes: { ...before.boxes, [moment.category]: moment.points } };
  }
  cardsAt.push(cards);
});
const scoreIndexes = moments.flatMap((moment, index) => (moment.kind === "scored" ? [index] : []));
// Each seat's scores in order: the chart's point of round r (r from 1) is the seat's r-th.
const scoresOf = config.names.map((_, seat) => scoreIndexes.filter((i) => moments[i].seat === seat));
const moveLinks = new Map(
  [...document.querySelectorAll("#moves-list a[data-index]")].map((link) => [Number(link.dataset.index), link]),
);
const chart = document.querySelector("#chart svg");
const chancesChart = document.querySelector("#chances-chart svg");

let current = config.start;
// The last moment's number in the log: the page counts moments as their links do.
const lastSeq = moments[moments.length - 1].seq;

function show(index, { remember = true } = {}) {
  current = Math.max(0, Math.min(moments.length - 1, index));
  const moment = moments[current];
  $("replay-text").textContent = moment.text;
  if (moment.by) $("replay-text").dataset.by = moment.by;
  else delete $("replay-text").dataset.by;
  drawAnalysis(moment.analysis);
  $("replay-where").textContent = where(moment);
  drawDice(moment);
  drawCards(moment, cardsAt[current]);
  $("replay-slider").value = String(current);
  const valueNow = interpolate(gettext("Moment %(seq)s of %(last)s: %(text)s"), { seq: moment.seq, last: lastSeq, text: moment.text }, true);
  $("replay-slider").setAttribute("aria-valuetext", valueNow);
  markMove(current);
  markChartPoint(current);
  markChances(current);
  const url = new URL(location.href);
  url.searchParams.set("at", String(moment.seq));
  $("replay-link").href = url.search;
  if (remember) history.replaceState(null, "", url); // Reloading or sharing keeps the moment.
  for (const button of document.querySelectorAll("[data-step]")) {
    const back = ["first", "prev", "prev-turn"].includes(button.dataset.step);
    button.disabled = back ? current === 0 : current === moments.length - 1;
  }
}

// The list of every move shows which is on the table, scrolled (within itself) to keep it seen.
function markMove(index) {
  for (const link of moveLinks.values()) link.removeAttribute("aria-current");
  const link = moveLinks.get(index);
  if (!link) return;
  link.setAttribute("aria-current", "step");
  const list = $("moves-list");
  const top = link.offsetTop;
  const bottom = top + link.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top - 8;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 8;
}

// On the chart, the point of the last score made by this moment.
function markChartPoint(index) {
  if (!chart) return;
  for (const point of chart.querySelectorAll(".chart__point--current")) point.classList.remove("chart__point--current");
  const last = [...scoreIndexes].reverse().find((i) => i <= index);
  if (last === undefined) return;
  const seat = moments[last].seat;
  const round = scoresOf[seat].indexOf(last) + 1;
  const point = chart.querySelector(`.chart__point[data-seat="${seat}"][data-round="${round}"]`);
  if (point) point.classList.add("chart__point--current");
}

// The chances to win at this moment: beside the replay, and as a line across the graph.
function markChances(index) {
  const at = config.chances && config.chances[index];
  for (const chance of document.querySelectorAll("#replay-chances [data-seat]")) {
    const win = at ? at[Number(chance.dataset.seat)] : null;
    chance.querySelector("strong").textContent = win === null || win === undefined ? "" : percent(win);
  }
  if (!chancesChart) return;
  const cursor = chancesChart.querySelector(".chart__cursor");
  const x = chancesX(index);
  cursor.setAttribute("x1", String(x));
  cursor.setAttribute("x2", String(x));
  cursor.setAttribute("visibility", "visible");
  let turn = null;
  for (const mark of chancesChart.querySelectorAll(".chart__turn")) {
    const here = Number(mark.dataset.index) === index;
    mark.classList.toggle("chart__turn--current", here);
    if (here) turn = Number(mark.dataset.number);
  }
  const { seq } = moments[index];
  markGraph(chancesChart, index, valueText({ seq, lastSeq, names: config.names, chances: at, turn, percent }));
}

// Moment `index` on the graph, and back: the moments share the plot's width evenly.
function chancesX(index) {
  const { plotLeft, plotWidth, moments: count } = chancesChart.dataset;
  return Number(plotLeft) + (Number(plotWidth) * index) / Math.max(Number(count) - 1, 1);
}

function chancesIndex(clientX, clientY) {
  const point = chancesChart.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  const { x } = point.matrixTransform(chancesChart.getScreenCTM().inverse());
  const { plotLeft, plotWidth, moments: count } = chancesChart.dataset;
  const index = Math.round(((x - Number(plotLeft)) / Number(plotWidth)) * (Number(count) - 1));
  return Math.max(0, Math.min(Number(count) - 1, index));
}

function where(moment) {
  const parts = [interpolate(gettext("Round %(round)s"), { round: moment.round }, true)];
  if (moment.turn !== null && moment.kind !== "scored") {
    parts.push(interpolate(gettext("%(name)s's turn"), { name: config.names[moment.turn] }, true));
  }
  if (moment.kind === "rolled" || moment.kind === "held") {
    const count = moment.rollsLeft;
    parts.push(interpolate(ngettext("%(count)s roll left", "%(count)s rolls left", count), { count }, true));
  }
  // Numbered as the link numbers it (?at=): the moment's place in the game's log.
  parts.push(interpolate(gettext("moment %(seq)s of %(last)s"), { seq: moment.seq, last: lastSeq }, true));
  return parts.join(" · ");
}

function drawAnalysis(analysis) {
  const line = $("replay-analysis");
  line.hidden = !analysis;
  line.textContent = analysis ? analysis.text : "";
  // A move the clock or a bot made for the player is not the player's mistake.
  line.classList.toggle("replay__analysis--loss", Boolean(analysis && analysis.loss > 0 && !analysis.by));
  line.classList.toggle("replay__analysis--by", Boolean(analysis && analysis.by));
}

function drawDice(moment) {
  const dice = $("replay-dice").querySelectorAll(".die");
  dice.forEach((die, position) => {
    const face = moment.dice ? moment.dice[position] : null;
    const held = moment.held.includes(position);
    die.className = `die ${face ? `die--${face}` : "die--blank"}${held ? " die--held" : ""}`;
    let label = gettext("not rolled");
    if (face) label = held ? interpolate(gettext("%(face)s, kept"), { face }, true) : String(face);
    die.setAttribute("aria-label", label);
  });
}

function drawCards(moment, cards) {
  const table = $("replay-card");
  for (const cell of table.querySelectorAll("td[data-key]")) {
    const card = cards[Number(cell.dataset.seat)];
    const key = cell.dataset.key;
    const isBox = key in card.boxes;
    const value = isBox ? card.boxes[key] : card[key];
    // A bonus not (yet) earned is left blank, as on paper (the server marks those rows).
    const blank = value === null || (value === 0 && "blankZero" in cell.dataset);
    cell.textContent = blank ? "" : String(value);
    cell.classList.toggle("scorecard__filled", isBox && value !== null);
    cell.classList.toggle("scorecard__just", moment.category === key && moment.seat === Number(cell.dataset.seat));
  }
  for (const th of table.querySelectorAll("th[data-seat]")) {
    const onTurn = moment.kind !== "scored" && moment.turn === Number(th.dataset.seat);
    th.classList.toggle("scorecard__player--turn", onTurn);
  }
}

function step(how) {
  const previousScore = [...scoreIndexes].reverse().find((i) => i < current);
  const nextScore = scoreIndexes.find((i) => i > current);
  const targets = {
    first: 0,
    prev: current - 1,
    "prev-turn": previousScore ?? 0,
    next: current + 1,
    "next-turn": nextScore ?? moments.length - 1,
    last: moments.length - 1,
  };
  show(targets[how]);
}

for (const button of document.querySelectorAll("[data-step]")) {
  button.addEventListener("click", () => step(button.dataset.step));
}
$("replay-slider").addEventListener("input", (event) => show(Number(event.target.value)));

// Bring the replay into view, and the keyboard's focus to it.
function goToReplay() {
  $("replay").scrollIntoView({ block: "start" });
  $("replay-heading").focus({ preventScroll: true });
}

// A biggest mistake in the analysis table, or a turning point, steps the replay there,
// without a reload.
for (const link of document.querySelectorAll("#analysis-table a[data-at], #turning-points a[data-at]")) {
  link.addEventListener("click", (event) => {
    const index = moments.findIndex((moment) => moment.seq === Number(link.dataset.at));
    if (index < 0) return;
    event.preventDefault();
    show(index);
    goToReplay();
  });
}

// A move in the list: the replay shows it, and the focus stays in the list, so the
// keyboard can go on down it (the replay's text is read out as it changes).
for (const [index, link] of moveLinks) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    show(index);
    const text = $("replay-text").getBoundingClientRect();
    if (text.top < 0 || text.bottom > window.innerHeight) $("replay").scrollIntoView({ block: "start" });
  });
}

// A click on the chart: the nearest point is a player's total after a round, so the
// replay goes to that player's score in that round (round 0 is the start).
function nearestPoint(x, y) {
  let best = null;
  let bestDistance = Infinity;
  for (const point of chart.querySelectorAll(".chart__point")) {
    const box = point.getBoundingClientRect();
    const distance = Math.hypot(box.left + box.width / 2 - x, box.top + box.height / 2 - y);
    if (distance < bestDistance) [best, bestDistance] = [point, distance];
  }
  return best;
}

if (chart) {
  chart.addEventListener("click", (event) => {
    const point = nearestPoint(event.clientX, event.clientY);
    if (!point) return;
    const round = Number(point.dataset.round);
    const index = round === 0 ? 0 : scoresOf[Number(point.dataset.seat)][round - 1];
    if (index === undefined) return;
    show(index);
    goToReplay();
  });
}

// A click on the graph of the chances: the moment under it (a turning point's number
// is that moment too).
if (chancesChart) {
  chancesChart.addEventListener("click", (event) => {
    const mark = event.target.closest(".chart__turn");
    show(mark ? Number(mark.dataset.index) : chancesIndex(event.clientX, event.clientY));
    goToReplay();
  });
}

// And by keyboard: the graph is a slider over the moments (chancesgraph.js).
if (chancesChart) {
  keyboardGraph(chancesChart, { count: moments.length, show, current: () => current, goToReplay });
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  // The slider moves itself with the arrow keys; text fields keep theirs.
  if (event.target.closest("input, textarea, select, [contenteditable]")) return;
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  if (keys[event.key]) {
    event.preventDefault();
    step(keys[event.key]);
  }
});

show(current, { remember: false });
// A link to a moment opens at it: the replay in view (not the top of the page), focused.
if (new URLSearchParams(location.search).has("at")) goToReplay();
