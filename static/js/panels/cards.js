// The cards: every player's scorecard side by side, a column each, with what this roll
// would score in the open boxes of the seat on turn (buttons on this player's own turn).
// The table is built when the seats change; after that each cell is drawn again only when
// what it shows changes: a score changes its box and the totals (and takes the roll's
// choices off the card), a hold changes nothing here.

import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { oddsVisible } from "../odds.js";
import { isMyTurn, seatMarks } from "../state.js";
import { markBadge, maker, setDisabled, setHidden, toggleClass } from "./dom.js";

// The sums' rows, each with the short name a phone shows, so six cards fit beside them
// (screen readers keep the whole name). The boxes' names, long and short, are the room's
// (games/words.py, in the reader's language: the config's categories).
const SUMS = {
  upper: [pgettext("card row", "Upper total"), pgettext("short card row", "Upper")],
  bonus: [pgettext("card row", "Bonus (%(points)s)"), pgettext("short card row", "Bonus")],
  yahtzee_bonus: [pgettext("card row", "Yahtzee bonus"), pgettext("short card row", "Yahtzee +")],
  lower: [pgettext("card row", "Lower total"), pgettext("short card row", "Lower")],
  total: [gettext("Grand total"), pgettext("short card row", "Total")],
};

// (A list of classes is written as an array joined: a string of two names would read as
// words to the translations' check, tests/i18n_scripts.py.)

// A computer player's level, as its badge's title says it.
const BOTS = {
  optimal: pgettext("a bot's title", "Optimal bot"),
  casual: pgettext("a bot's title", "Casual bot"),
  win: pgettext("a bot's title", "To-win bot"),
};

export class CardsPanel {
  follows = new Set(["joined", "unseated", "left", "started", "roll_off", "rolled", "scored", "finished",
    "abandoned", "away", "back", "handed", "presence", "pending", "show_odds"]);

  // `winChances` (odds.js) draws the row of chances under the names.
  constructor(room, winChances, doc = document) {
    this.room = room;
    this.winChances = winChances;
    this.doc = doc;
    this.el = maker(doc);
    this.section = doc.getElementById("cards");
    this.frame = doc.getElementById("cards-scroll");
    this.more = doc.getElementById("cards-more");
    this.table = doc.getElementById("scorecard");
    this.shape = null; // What the table was built for: the seats and the player this page is.
    this.drawn = new WeakMap(); // Each cell's drawing, as a key: drawn again when it differs.
  }

  draw() {
    const state = this.room.state;
    const shape = `${state.players.length}/${state.you ? state.you.seat : "-"}`;
    if (shape !== this.shape) this.build(shape);
    this.refresh();
  }

  update() {
    this.draw();
  }

  // The table's rows and columns, the cells empty.
  build(shape) {
    const { config, categories, state } = this.room;
    const el = this.el;
    const players = state.players;
    this.shape = shape;
    this.heads = [];
    this.cells = []; // [{ kind, seat, category?, td }]
    this.oddsRow = null;
    const table = this.table;
    table.replaceChildren();
    table.style.setProperty("--players", players.length);
    table.dataset.players = String(players.length);
    table.append(el("caption", { class: "visually-hidden" }, gettext("Every player's scorecard")));

    const head = el("tr");
    head.append(el("th", { scope: "col", class: "scorecard__corner" }, gettext("Box")));
    for (const player of players) {
      const th = el("th", { scope: "col", "data-seat": player.seat });
      this.heads.push(th);
      head.append(th);
    }
    this.thead = el("thead", {}, head);
    table.append(this.thead);

    const body = el("tbody");
    // `names`: the row's name and its short form.
    const row = ([label, short], kind, className, category = null) => {
      const tr = el("tr", className ? { class: className } : {});
      tr.append(el("th", { scope: "row" }, ...rowLabel(el, label, short)));
      for (const player of players) {
        const td = category
          ? el("td", { "data-seat": player.seat, "data-box": category.id })
          : el("td", kind === "upper" ? { class: "upper-progress" } : {});
        this.cells.push({ kind, seat: player.seat, category, td });
        tr.append(td);
      }
      body.append(tr);
    };
    const boxRow = (category) =>
      row([category.label, category.short], "box", ["scorecard__box", `scorecard__box--${category.id}`].join(" "), category);
    categories.filter((c) => c.upper).forEach(boxRow);
    row(SUMS.upper, "upper", "scorecard__sum");
    const [bonus, bonusShort] = SUMS.bonus;
    row([interpolate(bonus, { points: config.upperBonus }, true), bonusShort], "bonus", "scorecard__sum");
    categories.filter((c) => !c.upper).forEach(boxRow);
    // Yatzy's card has no Yahtzee bonus, so no row for one.
    if (config.yahtzeeBonus) row(SUMS.yahtzee_bonus, "yahtzee_bonus", "scorecard__sum");
    row(SUMS.lower, "lower", "scorecard__sum");
    table.append(body);

    const foot = el("tr");
    foot.append(el("th", { scope: "row" }, ...rowLabel(el, ...SUMS.total)));
    for (const player of players) {
      const td = el("td", { class: "scorecard__total", "data-seat": player.seat });
      this.cells.push({ kind: "total", seat: player.seat, td });
      foot.append(td);
    }
    table.append(el("tfoot", {}, foot));
  }

  // Every cell drawn as the state has it now, where it differs from what is there.
  refresh() {
    const state = this.room.state;
    const turnSeat = state.turn ? state.turn.seat : null;
    const options = state.turn && state.turn.dice ? state.turn.options : null;
    const winners = new Set(state.winners || []);
    state.players.forEach((player, seat) => this.drawHead(this.heads[seat], player, turnSeat, winners));
    this.drawOdds();
    for (const cell of this.cells) {
      const player = state.players[cell.seat];
      if (cell.kind === "box") this.drawBox(cell.td, player, cell.category, turnSeat, options);
      else this.drawSum(cell, player.card);
    }
    // While a command waits for its answer, this player's boxes wait too.
    for (const button of this.table.querySelectorAll(".box-option")) setDisabled(button, Boolean(this.room.pending));
  }

  // `draw(td)` fills a cell emptied, when `key` is not what the cell shows already.
  redraw(td, key, draw) {
    if (this.drawn.get(td) === key) return;
    this.drawn.set(td, key);
    td.replaceChildren();
    draw(td);
  }

  drawHead(th, player, turnSeat, winners) {
    const el = this.el;
    const state = this.room.state;
    const you = Boolean(state.you && state.you.seat === player.seat);
    const onTurn = player.seat === turnSeat;
    const clock = onTurn && Boolean(this.room.clock());
    const marks = seatMarks(player);
    const winner = winners.has(player.seat);
    const key = JSON.stringify([player.name, player.connected, you, player.bot, marks, onTurn, clock, player.left, winner]);
    this.redraw(th, key, () => {
      const classes = ["scorecard__player"];
      if (onTurn) classes.push("scorecard__player--turn");
      if (player.left) classes.push("scorecard__player--left");
      if (winner) classes.push("scorecard__player--winner");
      th.className = classes.join(" ");
      th.append(el("span", { class: "scorecard__name", title: player.name },
        el("span", { class: `presence-dot${player.connected ? " presence-dot--on" : ""}`, "aria-hidden": "true" }), player.name));
      // Translators: the badge by this player's own name on the cards.
      if (you) th.append(el("span", { class: ["badge", "badge--you"].join(" ") }, pgettext("badge", "you")));
      if (player.bot) {
        const title = BOTS[player.bot] || pgettext("badge", "bot");
        th.append(el("span", { class: ["badge", "badge--bot"].join(" "), title }, pgettext("badge", "bot")));
      }
      th.append(...marks.map((mark) => markBadge(el, mark)));
      if (onTurn) th.append(el("span", { class: "visually-hidden" }, " ", gettext("(on turn)")));
      if (clock) {
        // Its time is written by the turn's panel, several times a second.
        th.append(el("span", { class: "seat-clock" }, el("span", { class: "seat-clock__time" }),
          el("span", { class: "visually-hidden" }, " ", pgettext("time left on the turn clock, after the time", "left"))));
      }
      if (player.left) th.append(el("span", { class: "badge" }, pgettext("a player who left the game", "left")));
      if (winner) th.append(el("span", { class: ["badge", "badge--win"].join(" ") }, gettext("winner")));
    });
  }

  // The chances to win, under the names, while this tab sees them (odds.js fills them).
  drawOdds() {
    const state = this.room.state;
    const shown = oddsVisible(state, this.winChances.refused);
    if (this.oddsRow && (!shown || !this.oddsRow.isConnected)) this.oddsRow = null;
    if (shown && !this.oddsRow) {
      this.oddsRow = this.winChances.headRow(state, state.players, this.el);
      if (this.oddsRow) this.thead.append(this.oddsRow);
    } else if (!shown) {
      for (const row of this.thead.querySelectorAll(".scorecard__odds")) row.remove();
    }
  }

  drawBox(td, player, category, turnSeat, options) {
    const el = this.el;
    const points = player.card.boxes[category.id];
    if (points !== null) {
      this.redraw(td, `filled ${points}`, () => {
        td.className = "scorecard__filled";
        td.textContent = String(points);
      });
      return;
    }
    if (player.seat !== turnSeat || !options) {
      this.redraw(td, "open", () => td.removeAttribute("class"));
      return;
    }
    if (!(category.id in options)) {
      // Only the forced Joker rule shuts an open box for a roll.
      this.redraw(td, "closed", () => {
        td.className = "scorecard__closed";
        td.append(el("span", { "aria-hidden": "true" }, "–"),
          el("span", { class: "visually-hidden" }, gettext("not allowed for this Yahtzee")));
      });
      return;
    }
    const value = options[category.id];
    const state = this.room.state;
    if (isMyTurn(state) && player.seat === state.you.seat) {
      this.redraw(td, `button ${value}`, () => {
        td.removeAttribute("class");
        const button = el("button", {
          type: "button",
          class: `box-option${value ? "" : " box-option--zero"}`,
          "data-focus": `box-${category.id}`,
          "aria-label": interpolate(gettext("Score %(points)s in %(box)s"), { points: value, box: category.label }, true),
        }, String(value));
        button.addEventListener("click", () => this.room.play.score(category.id));
        td.append(button);
      });
    } else {
      this.redraw(td, `preview ${value}`, () => {
        td.className = "scorecard__preview";
        const words = interpolate(gettext("%(box)s would score %(points)s"), { points: value, box: category.label }, true);
        td.append(el("span", { "aria-label": words }, String(value)));
      });
    }
  }

  drawSum({ kind, td }, card) {
    const el = this.el;
    const threshold = this.room.config.upperBonusThreshold;
    if (kind === "upper") {
      this.redraw(td, String(card.upper_total), () => {
        const ratio = Math.min(1, card.upper_total / threshold);
        td.append(el("span", {}, `${card.upper_total}`), el("span", { class: "upper-progress__goal" }, ` / ${threshold}`));
        const toward = interpolate(gettext("%(points)s of %(threshold)s toward the bonus"), { points: card.upper_total, threshold }, true);
        const bar = el("span", { class: "upper-progress__bar", role: "img", "aria-label": toward });
        const fill = el("span", { class: "upper-progress__fill" });
        // Through the CSSOM: the Content-Security-Policy refuses style attributes.
        fill.style.width = `${Math.round(ratio * 100)}%`;
        bar.append(fill);
        td.append(bar);
      });
    } else if (kind === "bonus") {
      this.redraw(td, String(card.upper_bonus), () => td.append(card.upper_bonus ? String(card.upper_bonus) : ""));
    } else if (kind === "yahtzee_bonus") {
      this.redraw(td, `${card.yahtzee_bonus_count} ${card.yahtzee_bonus}`, () => {
        if (!card.yahtzee_bonus_count) return;
        const count = card.yahtzee_bonus_count;
        const checks = interpolate(ngettext("%(count)s bonus check", "%(count)s bonus checks", count), { count }, true);
        td.append(el("span", { class: "checks", "aria-label": checks }, "✓".repeat(count)),
          ` ${card.yahtzee_bonus}`);
      });
    } else if (kind === "lower") {
      this.redraw(td, String(card.lower_total), () => td.append(String(card.lower_total)));
    } else {
      this.redraw(td, String(card.total), () => td.append(String(card.total)));
    }
  }

  // Cards wider than their frame scroll sideways: say so.
  fit() {
    const frame = this.frame;
    const overflowing = !this.section.hidden && frame.scrollWidth > frame.clientWidth + 1;
    toggleClass(this.section, "cards--overflowing", overflowing);
    setHidden(this.more, !overflowing);
  }

  // Keep this player's column in view in a frame that scrolls sideways.
  showMyColumn() {
    const state = this.room.state;
    const frame = this.frame;
    const mine = state.you && frame.querySelector(`thead th[data-seat="${state.you.seat}"]`);
    if (!mine || frame.scrollWidth <= frame.clientWidth + 1) return;
    const labelsWidth = frame.querySelector(".scorecard__corner").offsetWidth;
    const left = mine.offsetLeft - labelsWidth;
    const right = mine.offsetLeft + mine.offsetWidth - frame.clientWidth;
    if (frame.scrollLeft > left) frame.scrollLeft = left;
    else if (frame.scrollLeft < right) frame.scrollLeft = right;
  }
}

// A row's name, and on a phone its short form (when it has one of its own).
function rowLabel(el, label, short) {
  if (!short || short === label) return [label];
  return [el("span", { class: "scorecard__full" }, label), el("span", { class: "scorecard__short", "aria-hidden": "true" }, short)];
}
