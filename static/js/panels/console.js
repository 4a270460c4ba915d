// The command line, and what this page says to its player. A typed command goes to the
// same actions as the buttons (static/js/commands.js reads it); it is answered in the
// command line's output once the server has done it. A refusal or a notice also shows in
// a toast wherever the player is: during the game in the turn's hint's place (the
// result's, at the end), so it never covers the dice, Roll or the card; in the lobby, at
// the screen's foot.

import { Confirmation, HELP, confirmPrompt, echo, findSeat, parse } from "../commands.js";
import { gettext } from "../i18n.js";
import { seatName } from "../state.js";

const TOAST_MS = 4000;
const TYPED_ECHO_MS = 10_000; // A typed command's event later than this is not echoed.

export class ConsolePanel {
  follows = new Set(["started", "finished", "abandoned"]);

  // `seat` (SeatPanel): coming back, leaving and the host's care of seats, as typed.
  constructor(room, seat, doc = document) {
    this.room = room;
    this.seat = seat;
    const $ = (id) => doc.getElementById(id);
    this.section = $("console");
    this.input = $("console-input");
    this.output = $("console-output");
    this.toast = $("toast");
    this.homes = { playing: $("turn-say"), finished: $("finish-say"), other: $("room") };
    this.toastTimer = 0;
    this.asks = new Confirmation(); // `leave`, `remove`, `bot-seat` typed twice.
    this.typed = null; // The command typed and sent, until its event comes: { kind, at }.
    $("console-form").addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.input.value.trim()) this.run(this.input.value);
      this.input.value = "";
    });
  }

  draw() {
    const status = this.room.state.game.status;
    const home = this.homes[status] ?? this.homes.other;
    if (this.toast.parentElement !== home) home.append(this.toast);
  }

  update() {
    this.draw();
  }

  // A message for this player: in the command line's output, and for a refusal or a
  // notice also in the toast.
  say(text, kind = "info") {
    this.output.textContent = text;
    this.output.dataset.kind = kind;
    if (kind === "info") return;
    this.toast.textContent = text;
    this.toast.dataset.kind = kind;
    this.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (this.toast.hidden = true), TOAST_MS);
  }

  // An event about this player's seat: the command typed for it is answered now.
  echo(message) {
    const typed = this.typed;
    if (!typed || typed.kind !== message.kind || performance.now() - typed.at > TYPED_ECHO_MS) return;
    this.typed = null;
    const line = echo(message, this.room.labels);
    if (line) this.say(line);
  }

  // A typed command that went to the server (`sent` true) is echoed when its event comes.
  typing(kind, sent) {
    this.typed = sent === true ? { kind, at: performance.now() } : null;
  }

  run(line) {
    const { play, say } = this.room;
    const command = parse(line, this.room.categories);
    if (command.error) return say(command.error, "error");
    switch (command.action) {
      case "help":
        return say(HELP);
      case "roll":
        say("");
        return this.typing("rolled", play.roll(command.throw));
      case "hold":
        say("");
        return this.typing("held", play.setHeld(command.hold));
      case "score":
        say("");
        return this.typing("scored", play.score(command.category, { sure: command.sure, fromConsole: true }));
      case "yes":
        say("");
        return this.typing("scored", play.confirmScore());
      case "chat":
        if (!this.room.state.you) return say(gettext("Only players write in this chat; watchers talk in the watchers' chat."), "error");
        return this.typing("chat", this.room.send("chat", { text: command.text }));
      case "back":
        return this.seat.comeBack();
      case "leave":
        return this.leave(command.sure);
      case "remove_player":
      case "hand_to_bot":
        return this.host(command);
      default: // The parts' own: the bots' pace, the chances, the watchers' chat.
        return this.partCommand(this.room.partCommand(command));
    }
  }

  partCommand(answer) {
    if (!answer) return undefined;
    const { say } = this.room;
    if (answer.error) return say(answer.error, "error");
    say(answer.sent && answer.text ? answer.text : "");
    return answer.expect ? this.typing(answer.expect, answer.sent) : answer.sent;
  }

  leave(sure) {
    const { state, say } = this.room;
    if (!state.you) return say(gettext("You are watching: you have no seat to leave."), "error");
    const status = state.game.status;
    if (status !== "playing" && status !== "lobby") return say(gettext("The game is over: there is nothing to leave."), "error");
    if (!sure && !this.asks.check("leave", performance.now())) return say(confirmPrompt("leave"));
    say("");
    return this.room.send("leave");
  }

  host({ action, who, sure }) {
    const { state, say } = this.room;
    const found = findSeat(who, state.players);
    if (found.error) return say(found.error, "error");
    const why = this.seat.hostRefusal(action, found.seat);
    if (why) return say(why, "error");
    if (!sure && !this.asks.check(`${action}-${found.seat}`, performance.now())) {
      return say(confirmPrompt(action, seatName(state, found.seat)));
    }
    say("");
    return this.room.send(action, { seat: found.seat });
  }
}
