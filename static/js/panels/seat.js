// This browser's seat: the notice while a bot plays it (away, or handed to a bot for good)
// with "I'm back", and a seated player's tools: being told of the turn (a beep, a
// notification), the host's care of away or offline seats (remove, let a bot play), and
// leaving the game. The command line asks the same things of this panel.

import { canAskToNotify } from "../alerts.js";
import { gettext, interpolate } from "../i18n.js";
import { hostActions, isAway, isHanded, isPlaying, mySeat, seatName } from "../state.js";
import { markBadge, maker, setHidden, setText } from "./dom.js";

const named = (format, name) => interpolate(format, { name }, true);
const HOST_ACTIONS = {
  remove_player: (name) => ({
    title: named(gettext("Remove %(name)s?"), name),
    text: named(gettext("%(name)s leaves the game for good; their score stands and their turns are skipped."), name),
    yes: gettext("Remove"),
  }),
  hand_to_bot: (name) => ({
    title: named(gettext("Let a bot play for %(name)s?"), name),
    text: named(gettext("A bot plays %(name)s's seat for the rest of the game; %(name)s cannot take it back."), name),
    yes: gettext("Let a bot play"),
  }),
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
    setText(this.awayHeading, seat.handed ? gettext("A bot plays your seat") : gettext("You are away"));
    setText(this.awayText, seat.handed
      ? gettext("The host handed your seat to a bot for the rest of the game: you watch it play. Your score stands.")
      : gettext("The clock played two of your turns in a row, so a bot plays for you until you come back."));
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
        "aria-label": named(gettext("Remove %(name)s from the game"), action.name),
      }, gettext("Remove"));
      remove.addEventListener("click", () => this.askHost("remove_player", action.seat));
      buttons.append(remove);
      if (action.hand) {
        const hand = el("button", {
          type: "button", class: "button button--small", "data-focus": `hand-${action.seat}`,
          "aria-label": named(gettext("Let a bot play %(name)s's seat"), action.name),
        }, gettext("Let a bot play"));
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
      this.room.say(gettext("Notifications are off for this site: the tab's title still says when it is your turn."), "notice");
    }
    this.drawTools();
  }

  // "I'm back" (the button, or `back` typed).
  comeBack() {
    const { state, say } = this.room;
    if (!state.you) return say(gettext("You are watching: only a player can come back."), "error");
    if (isHanded(state)) return say(gettext("The host handed your seat to a bot for the rest of the game."), "error");
    if (!isAway(state)) return say(gettext("You are not away: nothing to come back from."), "error");
    say("");
    return this.room.send("back");
  }

  leave() {
    this.room.ask({
      title: gettext("Leave this game?"),
      text: gettext("Your score stands, but you cannot come back to your seat: you will watch the rest of the game."),
      yes: gettext("Leave the game"),
    }, () => this.room.send("leave"));
  }

  // The host's question before removing a seat or handing it to a bot.
  askHost(action, seat) {
    const name = seatName(this.room.state, seat);
    this.room.ask(HOST_ACTIONS[action](name), () => this.room.send(action, { seat }));
  }

  // Why the host may not do `action` to `seat` now, or null when they may.
  hostRefusal(action, seat) {
    const state = this.room.state;
    if (!state.you || !state.you.host) return gettext("Only the host can do that.");
    if (!isPlaying(state)) return gettext("Only during the game.");
    if (seat === state.you.seat) return gettext("That is your own seat: type leave to leave the game.");
    const player = state.players[seat];
    if (player.bot) return named(gettext("%(name)s is a computer player."), player.name);
    if (player.left) return named(gettext("%(name)s has left the game already."), player.name);
    const allowed = hostActions(state).find((a) => a.seat === seat);
    if (!allowed) {
      return named(
        gettext("%(name)s is here and playing: only an away or offline player can be removed or handed to a bot."),
        player.name,
      );
    }
    if (action === "hand_to_bot" && !allowed.hand) return named(gettext("A bot plays %(name)s's seat already."), player.name);
    return null;
  }
}
