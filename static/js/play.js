// What the player can do at the table: hold dice, roll, score, each asked of the server
// (which answers with the event, or says no). The dice tray, the cards, the keyboard and
// the command line all come here; a move that cannot be made now is explained instead.

import { cautionWords, scoreCaution } from "./caution.js";
import { CONFIRM_MS } from "./commands.js";
import { gettext, interpolate, listed } from "./i18n.js";
import { isAway, isHanded, isMyTurn, position, seatName } from "./state.js";

export class Play {
  // `room`: the room's state and commands (room.js).
  constructor(room) {
    this.room = room;
    this.holdsInFlight = 0; // Our own holds not yet echoed back as `held` events.
    this.scoreAsked = null; // The command line's question before a low score: { category, position, at }.
  }

  canHold() {
    const { state, pending } = this.room;
    return isMyTurn(state) && Boolean(state.turn.dice) && state.turn.rolls_left > 0 && !pending;
  }

  canRoll() {
    const { state, pending } = this.room;
    return isMyTurn(state) && state.turn.rolls_left > 0 && !pending && state.turn.held.length < 5;
  }

  toggleHold(position) {
    if (!this.canHold()) return this.explainWhyNot("hold");
    const held = new Set(this.room.state.turn.held);
    if (held.has(position)) held.delete(position);
    else held.add(position);
    return this.setHeld([...held].sort());
  }

  setHeld(positions) {
    if (!this.canHold()) return this.explainWhyNot("hold");
    if (positions.length === 5) {
      this.room.say(gettext("Keep at most four dice: a roll needs at least one die to throw."), "error");
      return undefined;
    }
    this.room.state.turn.held = positions; // Shown at once; the server's `held` event confirms it.
    this.room.changed("hold");
    if (!this.room.send("hold", { hold: positions })) return false;
    this.holdsInFlight += 1;
    return true;
  }

  // A `held` event about this player's own seat, before it is applied: clicks run ahead of
  // their echoes, so until the last one is back, what is on screen (the newest choice)
  // stands. Returns the message to apply.
  echoed(message) {
    if (this.holdsInFlight === 0) return message;
    this.holdsInFlight -= 1;
    if (this.holdsInFlight === 0) return message;
    return { ...message, data: { ...message.data, held: this.room.state.turn.held } };
  }

  // A hold refused, or every hold forgotten (`all`: a snapshot, the rate limit).
  holdAnswered(all = false) {
    this.holdsInFlight = all ? 0 : Math.max(0, this.holdsInFlight - 1);
  }

  // `throwOnly`: the positions to throw (the command line's `roll 1 3`), the others held.
  roll(throwOnly = null) {
    const { state, pending, say } = this.room;
    if (!isMyTurn(state) || !state.turn.rolls_left || pending) return this.explainWhyNot("roll");
    let hold = state.turn.dice ? state.turn.held : [];
    if (throwOnly) {
      if (!state.turn.dice) {
        say(gettext("The first roll throws all five dice: type roll."), "error");
        return undefined;
      }
      hold = [0, 1, 2, 3, 4].filter((i) => !throwOnly.includes(i));
    }
    if (hold.length === 5) {
      say(gettext("Every die is held: release one to roll, or pick a box."), "error");
      return undefined;
    }
    return this.room.sendPlay("roll", { hold });
  }

  // `sure`: the player has answered the question about a low score already.
  score(category, { sure = false, fromConsole = false } = {}) {
    const { state, pending, say, labels } = this.room;
    if (!isMyTurn(state) || pending) return this.explainWhyNot("score");
    if (!state.turn.dice) return say(gettext("Roll first: a box takes the dice of a roll."), "error");
    if (state.players[state.you.seat].card.boxes[category] !== null) {
      return say(interpolate(gettext("Your %(box)s box is already filled."), { box: labels[category] }, true), "error");
    }
    if (!(category in state.turn.options)) {
      const allowed = listed(Object.keys(state.turn.options).map((c) => labels[c]), "disjunction");
      return say(interpolate(gettext("The forced Joker rule sends this Yahtzee to %(boxes)s."), { boxes: allowed }, true), "error");
    }
    const caution = sure ? null : scoreCaution(category, state.turn.options);
    if (caution) {
      const words = cautionWords(category, caution, labels, state.turn.dice);
      if (fromConsole) {
        this.scoreAsked = { category, position: position(state.turn), at: performance.now() };
        return say(words.line);
      }
      // The dialog's answer comes later: by then the turn may have moved on (the clock).
      const where = position(state.turn);
      return this.room.ask(words, () => {
        const now = this.room.state;
        if (isMyTurn(now) && now.turn.dice && position(now.turn) === where) this.score(category, { sure: true });
      });
    }
    return this.room.sendPlay("score", { category });
  }

  // `yes` to the command line's question: only for the same roll, within CONFIRM_MS.
  confirmScore() {
    const { state } = this.room;
    const asked = this.scoreAsked;
    this.scoreAsked = null;
    const fresh = asked && performance.now() - asked.at <= CONFIRM_MS;
    if (!fresh || !isMyTurn(state) || !state.turn.dice || position(state.turn) !== asked.position) {
      return this.room.say(gettext("Nothing to confirm: type score and a box."), "error");
    }
    return this.score(asked.category, { sure: true, fromConsole: true });
  }

  explainWhyNot(action) {
    const { state, pending } = this.room;
    if (!state) return undefined;
    const you = state.you;
    let why;
    if (!you) why = gettext("You are watching: only the players at the table can act.");
    else if (state.game.status === "lobby") why = gettext("The game has not started yet.");
    else if (state.game.status === "finished") why = gettext("The game is over.");
    else if (state.game.status === "abandoned") why = gettext("The game was abandoned.");
    else if (isHanded(state)) why = gettext("The host handed your seat to a bot for the rest of the game.");
    else if (isAway(state)) why = gettext("You are away: press I'm back (or type back) to play your turns again.");
    else if (!state.turn) why = gettext("Waiting for the roll-off.");
    else if (state.turn.seat !== you.seat) why = interpolate(gettext("It is %(name)s's turn."), { name: seatName(state, state.turn.seat) }, true);
    else if (pending) why = gettext("Waiting for the server…");
    else if (!state.turn.dice) why = action === "roll" ? "" : gettext("Roll first.");
    else if (!state.turn.rolls_left) why = gettext("No rolls left: pick a box on your card.");
    if (why) this.room.say(why, "error");
    return undefined;
  }
}
