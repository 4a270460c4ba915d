// The coach: the server's strategy engine ranks every choice for the player on turn; this
// panel asks once per roll (a new position), and shows the answer while it fits the dice:
// the best move, both bests when playing to win is not playing for points, what the dice
// held now would do, and every choice with what it gives up. On a phone its best move
// also shows in a line by the dice (the tip).

import { bothBests } from "../advice.js";
import { isMyTurn, position } from "../state.js";
import { maker, setHidden, setText, toggleClass } from "./dom.js";

const SHOWN = 6; // Choices listed before "Show all".
const points = (value) => value.toFixed(2);

export class CoachPanel {
  // A hold changes "your hold" (when the coach is on); a roll or a score, the position.
  follows = new Set(["started", "roll_off", "rolled", "held", "scored", "left", "finished", "abandoned",
    "away", "back", "handed", "coach", "hold"]);

  constructor(room, doc = document) {
    this.room = room;
    this.el = maker(doc);
    const $ = (id) => doc.getElementById(id);
    this.section = $("coach");
    this.turnSection = $("turn");
    this.tip = $("coach-tip");
    this.best = $("coach-best");
    this.both = $("coach-both");
    this.bothPoints = $("coach-both-points");
    this.bothWin = $("coach-both-win");
    this.yours = $("coach-yours");
    this.choices = $("coach-choices").tBodies[0];
    this.more = $("coach-more");
    this.advice = null; // The last advice for this player's turn, while it fits the dice.
    this.asked = null; // The position advice was last asked for.
    this.showsAll = false;
    this.more.addEventListener("click", () => {
      this.showsAll = !this.showsAll;
      this.draw();
    });
  }

  // Whether an answer is for the dice on the table now.
  fits(message) {
    const state = this.room.state;
    return isMyTurn(state) && Boolean(state.turn.dice)
      && position(state.turn) === `${message.dice.join("")}/${message.rolls_left}`;
  }

  // The server's answer to `advice`.
  receive(message) {
    if (!this.fits(message)) return;
    this.advice = message;
    this.draw();
  }

  // Nothing waits for an answer any more (the server read none of the request, or refused it).
  forget() {
    this.asked = null;
  }

  // After a snapshot, a roll or the coach switched on: ask for this position, once.
  ask() {
    const state = this.room.state;
    if (!state || !state.game.coach || !isMyTurn(state) || !state.turn.dice) return;
    if (this.advice && this.fits(this.advice)) return;
    const where = position(state.turn);
    if (this.asked === where) return;
    this.asked = where;
    this.room.send("advice");
  }

  update(message) {
    if (["held", "hold"].includes(message.kind)) {
      if (this.ready()) setText(this.yours, this.yourHold(this.advice)); // The one line a hold changes.
      return;
    }
    if (["rolled", "scored", "left"].includes(message.kind)) this.advice = this.asked = null; // A new position.
    this.draw();
    if (["rolled", "coach"].includes(message.kind)) this.ask();
  }

  // Whether the coach shows: on, and this player's turn with dice on the table.
  shown() {
    const state = this.room.state;
    return Boolean(state.game.coach && isMyTurn(state) && state.turn.dice);
  }

  ready() {
    return this.shown() && Boolean(this.advice) && this.fits(this.advice);
  }

  draw() {
    const shown = this.shown();
    setHidden(this.section, !shown);
    const advice = this.advice;
    const ready = this.ready();
    toggleClass(this.turnSection, "turn--coached", ready);
    setHidden(this.tip, !ready);
    setText(this.tip, ready ? `Coach: ${advice.choices[0].label}` : "");
    if (!shown) return;
    if (!ready) {
      setText(this.best, "Thinking…");
      setText(this.yours, "");
      setHidden(this.both, true);
      this.choices.replaceChildren();
      setHidden(this.more, true);
      return;
    }
    const el = this.el;
    const [best] = advice.choices;
    this.best.replaceChildren(el("span", { class: "coach__label" }, "Best: "),
      el("strong", {}, best.label), ` · ${points(best.expected)} expected`);
    // When playing to win is not playing for points, both, with what each costs and brings.
    const both = bothBests(advice.to_win);
    setHidden(this.both, !both);
    setText(this.bothPoints, both ? both.points : "");
    setText(this.bothWin, both ? both.win : "");
    setText(this.yours, this.yourHold(advice));
    this.choices.replaceChildren();
    const list = this.showsAll ? advice.choices : advice.choices.slice(0, SHOWN);
    list.forEach((choice, index) => {
      const row = el("tr", { class: index === 0 ? "coach__row coach__row--best" : "coach__row" });
      row.append(el("th", { scope: "row" }, choice.label), el("td", {}, points(choice.expected)),
        el("td", {}, index === 0 ? "best" : `−${points(choice.loss)}`));
      this.choices.append(row);
    });
    setHidden(this.more, advice.choices.length <= SHOWN);
    setText(this.more, this.showsAll ? "Show the best few" : `Show all ${advice.choices.length} choices`);
    this.more.setAttribute("aria-expanded", String(this.showsAll));
  }

  // What the dice held now would do (nothing held: throwing all five again).
  yourHold(advice) {
    const turn = this.room.state.turn;
    if (!turn.rolls_left) return "No rolls left: every box, best first.";
    const kept = turn.held.map((i) => turn.dice[i]).sort((a, b) => a - b).join(" ");
    const mine = advice.choices.find((c) => c.kind === "keep" && c.kept.join(" ") === kept);
    const what = kept ? `Your hold (${mine ? mine.label.toLowerCase() : kept})` : "Throwing all five again";
    if (!mine) return "";
    if (mine.loss < 0.005) return `${what} is the best keep.`;
    return `${what} gives up ${points(mine.loss)}.`;
  }
}
