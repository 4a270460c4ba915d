// This browser's seat: the notice while a bot plays it (away, or handed to a bot for good)
// with "I'm back", and a seated player's tools: being told of the turn (a beep, a
// notification), the host's care of away or offline seats (remove, let a bot play), and
// leaving the game. The command line asks the same things of this panel.

import { canAskToNotify } from "../alerts.js";
import { hostActions, isAway, isHanded, isPlaying, mySeat, seatName } from "../state.js";
import { markBadge, maker, setHidden, setText } from "./dom.js";

const HOST_ACTIONS = {
  remove_player: {
    title: (name) => `Remove ${name}?`,
    text: (name) => `${name} leaves the game for good; their score stands and their turns are skipped.`,
    yes: "Remove",
  },
  hand_to_bot: {
    title: (name) => `Let a bot play for ${name}?`,
    text: (name) => `A bot plays ${name}'s seat for the rest of the game; ${name} cannot take it back.`,
    yes: "Let a bot play",
  },
};

export class SeatPanel {
  follows = new Set(["joined", "unseated", "left", "started", "finished", "abandoned", "away", "back", "handed",
    "presence"]);

  // `alerts` (alerts.js TurnAlerts): the beep and the notification when the turn starts.
  constructor(room, alerts, doc = document) {
    this.room = room;
    this.alerts = alerts;
    this.el = maker(doc);
    this.win = doc.defaultView;
    const $ = (id) => doc.getElementById(id);
    this.away = $("away-notice");
    this.awayHeading = $("away-heading");
    this.awayText = $("away-text");
    this.backButton = $("back-button");
    this.tools = $("seat-tools");
    this.sound = $("sound-toggle");
    this.notifyButton = $("notify-button");
    this.leaveButton = $("leave-game-button");
    this.hostSeats = $("host-seats");
    this.hostSeatsList = $("host-seats-list");
    this.backButton.addEventListener("click", () => this.comeBack());
    this.leaveButton.addEventListener("click", () => this.leave());
    this.sound.addEventListener("change", () => (alerts.soundOn = this.sound.checked));
    this.notifyButton.addEventListener("click", () => this.askToNotify());
  }

  draw() {
    this.drawAway();
    this.drawTools();
  }

  update() {
    this.draw();
  }

  drawAway() {
    const state = this.room.state;
    const seat = mySeat(state);
    const shown = Boolean(isPlaying(state) && seat && seat.away);
    setHidden(this.away, !shown);
    if (!shown) return;
    setText(this.awayHeading, seat.handed ? "A bot plays your seat" : "You are away");
    setText(this.awayText, seat.handed
      ? "The host handed your seat to a bot for the rest of the game: you watch it play. Your score stands."
      : "The clock played two of your turns in a row, so a bot plays for you until you come back.");
    setHidden(this.backButton, seat.handed);
  }

  drawTools() {
    const state = this.room.state;
    const status = state.game.status;
    const shown = Boolean(state.you) && !isHanded(state) && (status === "lobby" || status === "playing");
    setHidden(this.tools, !shown);
    if (!shown) return;
    this.sound.checked = this.alerts.soundOn;
    setHidden(this.notifyButton, !canAskToNotify(this.win.Notification));
    setHidden(this.leaveButton, status !== "playing");
    const actions = hostActions(state);
    setHidden(this.hostSeats, !actions.length);
    const el = this.el;
    this.hostSeatsList.replaceChildren(...actions.map((action) => {
      const item = el("li", { class: "host-seats__item" });
      const buttons = el("span", { class: "host-seats__actions" });
      item.append(el("span", { class: "host-seats__name" }, action.name), ...action.marks.map((mark) => markBadge(el, mark)), buttons);
      const remove = el("button", {
        type: "button", class: "button button--small", "data-focus": `remove-${action.seat}`,
        "aria-label": `Remove ${action.name} from the game`,
      }, "Remove");
      remove.addEventListener("click", () => this.askHost("remove_player", action.seat));
      buttons.append(remove);
      if (action.hand) {
        const hand = el("button", {
          type: "button", class: "button button--small", "data-focus": `hand-${action.seat}`,
          "aria-label": `Let a bot play ${action.name}'s seat`,
        }, "Let a bot play");
        hand.addEventListener("click", () => this.askHost("hand_to_bot", action.seat));
        buttons.append(hand);
      }
      return item;
    }));
  }

  async askToNotify() {
    const Notification = this.win.Notification;
    await Notification.requestPermission();
    if (Notification.permission === "denied") {
      this.room.say("Notifications are off for this site: the tab's title still says when it is your turn.", "notice");
    }
    this.drawTools();
  }

  // "I'm back" (the button, or `back` typed).
  comeBack() {
    const { state, say } = this.room;
    if (!state.you) return say("You are watching: only a player can come back.", "error");
    if (isHanded(state)) return say("The host handed your seat to a bot for the rest of the game.", "error");
    if (!isAway(state)) return say("You are not away: nothing to come back from.", "error");
    say("");
    return this.room.send("back");
  }

  leave() {
    this.room.ask({
      title: "Leave this game?",
      text: "Your score stands, but you cannot come back to your seat: you will watch the rest of the game.",
      yes: "Leave the game",
    }, () => this.room.send("leave"));
  }

  // The host's question before removing a seat or handing it to a bot.
  askHost(action, seat) {
    const name = seatName(this.room.state, seat);
    const words = HOST_ACTIONS[action];
    this.room.ask({ title: words.title(name), text: words.text(name), yes: words.yes }, () => this.room.send(action, { seat }));
  }

  // Why the host may not do `action` to `seat` now, or null when they may.
  hostRefusal(action, seat) {
    const state = this.room.state;
    if (!state.you || !state.you.host) return "Only the host can do that.";
    if (!isPlaying(state)) return "Only during the game.";
    if (seat === state.you.seat) return "That is your own seat: type leave to leave the game.";
    const player = state.players[seat];
    if (player.bot) return `${player.name} is a computer player.`;
    if (player.left) return `${player.name} has left the game already.`;
    const allowed = hostActions(state).find((a) => a.seat === seat);
    if (!allowed) return `${player.name} is here and playing: only an away or offline player can be removed or handed to a bot.`;
    if (action === "hand_to_bot" && !allowed.hand) return `A bot plays ${player.name}'s seat already.`;
    return null;
  }
}
