// The review of a game that is over: step through every roll, hold and score.
// The server replayed the log with the rules and drew the page at one moment;
// this script only moves between the moments it sent, rewriting the text, the
// dice and the numbers in the scorecards. Each moment has its own link (?at=).
// A moment that was a decision (a score, or a roll after the first) carries the
// server's analysis of it, shown under the move. A move the turn clock or a bot
// made for a player says so in its text, and its analysis is marked as not the player's.

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

let current = config.start;

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
  $("replay-slider").setAttribute("aria-valuetext", `Moment ${current + 1} of ${moments.length}: ${moment.text}`);
  const url = new URL(location.href);
  url.searchParams.set("at", String(moment.seq));
  $("replay-link").href = url.search;
  if (remember) history.replaceState(null, "", url); // Reloading or sharing keeps the moment.
  for (const button of document.querySelectorAll("[data-step]")) {
    const back = ["first", "prev", "prev-turn"].includes(button.dataset.step);
    button.disabled = back ? current === 0 : current === moments.length - 1;
  }
}

function where(moment) {
  const parts = [`Round ${moment.round}`];
  if (moment.turn !== null && moment.kind !== "scored") parts.push(`${config.names[moment.turn]}'s turn`);
  if (moment.kind === "rolled" || moment.kind === "held") {
    parts.push(`${moment.rollsLeft} roll${moment.rollsLeft === 1 ? "" : "s"} left`);
  }
  parts.push(`moment ${current + 1} of ${moments.length}`);
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
    die.setAttribute("aria-label", face ? `${face}${held ? ", kept" : ""}` : "not rolled");
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

// A link to a moment of this game (the analysis's biggest mistakes) steps the replay there.
for (const link of document.querySelectorAll("a[data-at]")) {
  link.addEventListener("click", (event) => {
    const index = moments.findIndex((moment) => moment.seq === Number(link.dataset.at));
    if (index < 0) return;
    event.preventDefault();
    show(index);
    $("replay").scrollIntoView({ block: "start" });
    $("replay-heading").focus({ preventScroll: true });
  });
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
