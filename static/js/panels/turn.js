// The turn and its clock: whose turn it is and what to do (the heading and the hint),
// the roll-off that decides who goes first, and the time left, counted down here from
// what the server sent, beside the dice and beside the seat on turn (the cards draw that
// place; this panel writes the time in it). Now and then a sentence for the screen reader.

import { ClockAnnouncer, formatLeft, isUrgent, localClock, msLeft } from "../clock.js";
import { gettext, interpolate, pgettext } from "../i18n.js";
import { turnScroll } from "../inview.js";
import { isMyTurn, isPlaying, seatName } from "../state.js";
import { diceRow, maker, setHidden, setText, toggleClass } from "./dom.js";

const sum = (faces) => faces.reduce((a, b) => a + b, 0);

export class TurnPanel {
  follows = new Set(["started", "roll_off", "rolled", "scored", "left", "finished", "abandoned",
    "away", "back", "handed", "pending"]);

  constructor(room, doc = document) {
    this.room = room;
    this.doc = doc;
    this.el = maker(doc);
    const $ = (id) => doc.getElementById(id);
    this.section = $("turn");
    this.heading = $("turn-heading");
    this.hint = $("turn-hint");
    this.rollOff = $("roll-off");
    this.rollOffRounds = $("roll-off-rounds");
    this.clockBox = $("turn-clock");
    this.clockWho = $("turn-clock-who");
    this.clockTime = $("turn-clock-time");
    this.clockWord = $("turn-clock-word");
    this.announcerText = $("clock-announcer");
    this.announcer = new ClockAnnouncer();
    this.clock = null; // The server's clock as this page counts it (clock.js localClock), or null.
    this.rollOffDrawn = null; // The roll-off's rounds as drawn.
    // A smooth scroll bringing the turn into view takes a moment: under way (for the browser
    // tests, which wait for it to end before they touch the page, as a player's eye would).
    this.scrolling = false;
  }

  // A snapshot or an event carries the clock (null: none now); it counts from `receivedAt`.
  setClock(clock, receivedAt) {
    this.clock = localClock(clock, receivedAt);
  }

  // The clock shown: the server's, while it times the turn on the table.
  shownClock() {
    const state = this.room.state;
    if (!this.clock || !isPlaying(state) || !state.turn || this.clock.seat !== state.turn.seat) return null;
    return this.clock;
  }

  draw() {
    const { state, pending } = this.room;
    const { turn } = state;
    const mine = isMyTurn(state);
    const finished = state.game.status === "finished";
    const you = state.you;
    const name = (seat) => seatName(state, seat);
    const standIn = turn && state.players[turn.seat] && state.players[turn.seat].away; // A bot plays this turn.
    const named = (format) => interpolate(format, { name: name(turn.seat) }, true);
    let heading;
    if (finished) heading = gettext("Final dice");
    else if (!turn) heading = gettext("Roll-off");
    else if (you && turn.seat === you.seat && standIn) heading = gettext("A bot plays your turn");
    else heading = mine ? gettext("Your turn") : named(gettext("%(name)s's turn"));
    setText(this.heading, heading);
    toggleClass(this.section, "turn--mine", mine);

    // The roll-off stays in view until the first player's first roll.
    const rollOff = state.roll_off;
    const nothingPlayedYet = !(turn && turn.dice)
      && state.players.every((p) => Object.values(p.card.boxes).every((v) => v === null));
    setHidden(this.rollOff, !(rollOff && rollOff.rounds.length && nothingPlayedYet && !finished));
    if (!this.rollOff.hidden) this.drawRollOff();

    const touch = this.room.touchScreen();
    let hint = "";
    if (finished) hint = "";
    else if (!turn) hint = gettext("Everyone threw five dice: the highest sum goes first.");
    else if (mine && pending) hint = "…";
    else if (mine && !turn.dice) hint = touch ? gettext("Tap Roll to throw the dice.") : gettext("Roll the dice: R or Space.");
    else if (mine && turn.rolls_left) {
      hint = touch
        ? gettext("Tap dice to hold them; tap a box to score.")
        : gettext("Click dice (or press 1–5) to keep them, roll again, or pick a box on your card.");
    } else if (mine) {
      hint = touch ? gettext("Tap a box on your card for these dice.") : gettext("Pick a box on your card for these dice.");
    } else if (standIn) {
      hint = named(state.players[turn.seat].handed ? gettext("A bot plays for %(name)s.") : gettext("A bot plays for %(name)s (away)."));
    } else if (!you) hint = named(gettext("You are watching %(name)s play."));
    else hint = named(gettext("Waiting for %(name)s."));
    setText(this.hint, hint);
    this.tick();
  }

  update() {
    this.draw();
  }

  drawRollOff() {
    const { state } = this.room;
    const drawn = JSON.stringify([state.roll_off, state.players.map((p) => p.name)]);
    if (drawn === this.rollOffDrawn) return;
    this.rollOffDrawn = drawn;
    const el = this.el;
    const list = this.rollOffRounds;
    list.replaceChildren();
    state.roll_off.rounds.forEach((throws, index) => {
      const best = Math.max(...throws.map(([, faces]) => sum(faces)));
      const round = el("li", { class: "roll-off__round" });
      if (state.roll_off.rounds.length > 1) {
        round.append(el("p", { class: "roll-off__label" }, interpolate(pgettext("a round of the roll-off", "Round %(number)s"), { number: index + 1 }, true)));
      }
      for (const [seat, faces] of throws) {
        const total = sum(faces);
        const row = el("div", { class: `roll-off__throw${total === best ? " roll-off__throw--best" : ""}` });
        row.append(el("span", { class: "roll-off__name" }, seatName(state, seat)), diceRow(el, faces, "small"),
          el("span", { class: "roll-off__sum" }, String(total)));
        round.append(row);
      }
      list.append(round);
    });
    const winner = state.roll_off.winner;
    if (winner !== null && winner !== undefined) {
      list.append(el("li", { class: "roll-off__result" }, interpolate(gettext("%(name)s goes first."), { name: seatName(state, winner) }, true)));
    }
  }

  // Several times a second: the time left, beside the dice and beside the seat on turn.
  tick(now = performance.now()) {
    const state = this.room.state;
    if (!state) return;
    const clock = this.shownClock();
    const ms = clock ? msLeft(clock, now) : 0;
    const mine = Boolean(clock && isMyTurn(state));
    const sentence = this.announcer.next(clock, mine, ms);
    if (sentence) this.announcerText.textContent = sentence;
    setHidden(this.clockBox, !clock);
    if (!clock) return;
    const urgent = isUrgent(ms);
    const time = formatLeft(ms);
    toggleClass(this.clockBox, "turn-clock--mine", mine);
    toggleClass(this.clockBox, "turn-clock--urgent", urgent);
    setText(this.clockWho, mine ? "" : `${seatName(state, clock.seat)}:`);
    setText(this.clockTime, time);
    let word = pgettext("the turn clock, after the time", "left");
    if (ms <= 0) word = pgettext("the turn clock", "time is up");
    else if (urgent) word = pgettext("the turn clock, after the time", "left: hurry!");
    setText(this.clockWord, word);
    this.doc.querySelectorAll(".seat-clock").forEach((span) => {
      setText(span.querySelector(".seat-clock__time"), time);
      toggleClass(span, "seat-clock--urgent", urgent);
    });
  }
}

// When this seat's turn starts, the dice, Roll and every open box come into view by
// themselves, wherever the player had scrolled (the feed, the chat): the smallest scroll
// that shows them (static/js/inview.js), smoothly unless the system asks for less motion.
// `panel.scrolling` is true while the smooth scroll is under way.
export function bringTurnIntoView(panel, seat) {
  const doc = panel.doc;
  const win = doc.defaultView;
  const need = [
    ...doc.getElementById("tray").querySelectorAll(".die-button"),
    doc.getElementById("roll-button"),
    ...doc.getElementById("scorecard").querySelectorAll(`td[data-seat="${seat}"][data-box]:not(.scorecard__filled)`),
  ];
  const head = doc.getElementById("scorecard").querySelector(`thead th[data-seat="${seat}"]`);
  const scrollRoom = () => doc.documentElement.scrollHeight - win.innerHeight; // How far the page can scroll.
  const by = turnScroll(need.map((element) => onScreen(doc, element)), head ? head.getBoundingClientRect().top : null, win.innerHeight);
  const target = Math.round(Math.min(Math.max(win.scrollY + by, 0), scrollRoom()));
  if (target === Math.round(win.scrollY)) return;
  if (panel.room.reduceMotion) {
    win.scrollTo({ top: target, behavior: "instant" });
    return;
  }
  // The scroll is over when it reaches its target (a scroll that ended before it began,
  // the page shrinking as the lobby closed, also ends with a scrollend), or when the
  // player takes over.
  const events = ["scrollend", "wheel", "touchstart", "keydown", "pointerdown"];
  const over = (event) => {
    if (event.type === "scrollend" && Math.abs(win.scrollY - Math.min(target, scrollRoom())) > 1) return;
    panel.scrolling = false;
    events.forEach((type) => win.removeEventListener(type, over, true));
  };
  events.forEach((type) => win.addEventListener(type, over, true));
  panel.scrolling = true;
  win.scrollTo({ top: target, behavior: "smooth" });
}

// An element's place on the screen, and whether it is wholly there with nothing over it.
function onScreen(doc, element) {
  const win = doc.defaultView;
  const box = element.getBoundingClientRect();
  const inside = box.height > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= win.innerHeight && box.right <= doc.documentElement.clientWidth;
  const hit = inside && doc.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return { top: box.top, bottom: box.bottom, seen: Boolean(hit) && element.contains(hit) };
}
