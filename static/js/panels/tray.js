// The dice tray and Roll: five dice to hold, the button that rolls the others. The dice
// are the template's buttons; this panel sets their faces and holds, and tumbles the
// thrown ones while a roll lands. A hold changes the dice it holds or releases, nothing
// else.

import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { isMyTurn, isPlayer } from "../state.js";
import { setAttr, setDisabled, setHidden, setText, toggleClass } from "./dom.js";

const ROLL_ANIMATION_MS = 650;
const TUMBLE_MS = 80;

export class TrayPanel {
  // The events after which the tray may differ; "pending" and "hold" are this page's own
  // (a command sent or answered, a die clicked).
  follows = new Set(["started", "roll_off", "rolled", "held", "scored", "left", "finished", "abandoned",
    "away", "back", "handed", "pending", "hold"]);

  constructor(room, doc = document) {
    this.room = room;
    this.dice = [...doc.querySelectorAll("#tray .die-button")];
    this.rollButton = doc.getElementById("roll-button");
    this.animation = 0; // Which animation is current: a newer roll takes the dice over.
    this.dice.forEach((button) => {
      button.addEventListener("click", () => room.play.toggleHold(Number(button.dataset.position)));
    });
    this.rollButton.addEventListener("click", () => room.play.roll());
  }

  draw() {
    const state = this.room.state;
    const turn = state.turn;
    const dice = turn && turn.dice;
    const held = new Set(turn ? turn.held : []);
    const canHold = this.room.play.canHold();
    this.dice.forEach((button) => {
      const position = Number(button.dataset.position);
      const face = dice ? dice[position] : null;
      if (!button.classList.contains("die-button--rolling")) setFace(button, face);
      const isHeld = Boolean(dice) && held.has(position);
      setAttr(button, "aria-pressed", String(isHeld));
      toggleClass(button, "die-button--held", isHeld);
      setDisabled(button, !canHold);
      let label = gettext("Die %(number)s: not rolled");
      if (face && isHeld) label = gettext("Die %(number)s: %(face)s, held");
      else if (face) label = gettext("Die %(number)s: %(face)s");
      setText(button.querySelector(".die-button__label"), interpolate(label, { number: position + 1, face }, true));
    });

    const mine = isMyTurn(state);
    const roll = this.rollButton;
    setHidden(roll, state.game.status === "finished" || !isPlayer(state));
    setDisabled(roll, !this.room.play.canRoll());
    let label = pgettext("the button", "Roll");
    if (turn && mine && !turn.rolls_left) label = gettext("No rolls left");
    else if (turn && mine && turn.dice) label = ngettext("Roll again · %(count)s left", "Roll again · %(count)s left", turn.rolls_left);
    else if (turn && mine) label = ngettext("Roll · %(count)s left", "Roll · %(count)s left", turn.rolls_left);
    setText(roll, interpolate(label, { count: turn ? turn.rolls_left : 0 }, true));
  }

  update(message) {
    this.draw();
    if (message.kind === "rolled") this.tumble(message.data);
  }

  // The thrown dice tumble through random faces, then land on what the server threw.
  tumble({ held }) {
    if (this.room.reduceMotion) return;
    const animation = ++this.animation;
    const thrown = this.dice.filter((b) => !held.includes(Number(b.dataset.position)));
    this.dice.forEach((b) => toggleClass(b, "die-button--rolling", thrown.includes(b)));
    const started = performance.now();
    const turn = this.room.state.turn;
    const tumble = () => {
      if (animation !== this.animation) return;
      const state = this.room.state;
      // The turn ended meanwhile (the clock or a bot plays a whole turn at once): land now,
      // or the next player's tray would show dice tumbling that nobody threw.
      const turnGoesOn = state.turn === turn && turn.dice;
      if (turnGoesOn && performance.now() - started < ROLL_ANIMATION_MS) {
        thrown.forEach((b) => setFace(b, 1 + Math.floor(Math.random() * 6)));
        setTimeout(tumble, TUMBLE_MS);
        return;
      }
      // Land on the dice as they are now: the turn may have moved on meanwhile.
      const dice = state.turn && state.turn.dice;
      this.dice.forEach((b) => {
        toggleClass(b, "die-button--rolling", false);
        setFace(b, dice ? dice[Number(b.dataset.position)] : null);
      });
    };
    tumble();
  }
}

function setFace(button, face) {
  const die = button.querySelector(".die");
  const name = face ? `die die--${face}` : "die die--blank";
  if (die.className !== name) die.className = name;
}
