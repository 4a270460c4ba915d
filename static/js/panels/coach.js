// The coach: the server's strategy engine ranks every choice for the player on turn; this
// panel asks once per roll (a new position), and shows the answer while it fits the dice:
// the best move, both bests when playing to win is not playing for points, what the dice
// held now would do, and every choice with what it gives up. On a phone its best move
// also shows in a line by the dice (the tip).

import { bothBests, choiceLabel } from "../advice.js";
import { gettext, interpolate, lang, ngettext } from "../i18n.js";
import { isMyTurn, position } from "../state.js";
import { maker, setHidden, setText, toggleClass } from "./dom.js";

const SHOWN = 6; // Choices listed before "Show all".
const twoPlaces = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const points = (value) => twoPlaces.format(value);

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
    const label = (choice) => choiceLabel(choice, this.room.labels);
    // Translators: the coach's best move, in a line by the dice on a phone.
    setText(this.tip, ready ? interpolate(gettext("Coach: %(move)s"), { move: label(advice.choices[0]) }, true) : "");
    if (!shown) return;
    if (!ready) {
      setText(this.best, gettext("Thinking…"));
      setText(this.yours, "");
      setHidden(this.both, true);
      this.choices.replaceChildren();
      setHidden(this.more, true);
      return;
    }
    const el = this.el;
    const [best] = advice.choices;
    // Translators: "Best:" then the best move, then its expected final total, as "· 231.50 expected".
    this.best.replaceChildren(el("span", { class: "coach__label" }, gettext("Best:"), " "),
      el("strong", {}, label(best)), " · ", interpolate(gettext("%(points)s expected"), { points: points(best.expected) }, true));
    // When playing to win is not playing for points, both, with what each costs and brings.
    const both = bothBests(advice, this.room.labels);
    setHidden(this.both, !both);
    setText(this.bothPoints, both ? both.points : "");
    setText(this.bothWin, both ? both.win : "");
    setText(this.yours, this.yourHold(advice));
    this.choices.replaceChildren();
    const list = this.showsAll ? advice.choices : advice.choices.slice(0, SHOWN);
    list.forEach((choice, index) => {
      const row = el("tr", { class: "coach__row" });
      if (index === 0) row.classList.add("coach__row--best");
      row.append(el("th", { scope: "row" }, label(choice)), el("td", {}, points(choice.expected)),
        // Translators: in the coach's list, what the best choice gives up: nothing.
        el("td", {}, index === 0 ? gettext("best") : `−${points(choice.loss)}`));
      this.choices.append(row);
    });
    setHidden(this.more, advice.choices.length <= SHOWN);
    const count = advice.choices.length;
    setText(this.more, this.showsAll
      ? gettext("Show the best few")
      : interpolate(ngettext("Show the %(count)s choice", "Show all %(count)s choices", count), { count }, true));
    this.more.setAttribute("aria-expanded", String(this.showsAll));
  }

  // What the dice held now would do (nothing held: throwing all five again).
  yourHold(advice) {
    const turn = this.room.state.turn;
    if (!turn.rolls_left) return gettext("No rolls left: every box, best first.");
    const kept = turn.held.map((i) => turn.dice[i]).sort((a, b) => a - b).join(" ");
    const mine = advice.choices.find((c) => c.kind === "keep" && c.kept.join(" ") === kept);
    if (!mine) return "";
    const values = { dice: kept, points: points(mine.loss) };
    const best = mine.loss < 0.005;
    if (!kept) {
      return best
        ? gettext("Throwing all five again is the best keep.")
        : interpolate(gettext("Throwing all five again gives up %(points)s."), values, true);
    }
    return best
      ? interpolate(gettext("Your hold (keep %(dice)s) is the best keep."), values, true)
      : interpolate(gettext("Your hold (keep %(dice)s) gives up %(points)s."), values, true);
  }
}
