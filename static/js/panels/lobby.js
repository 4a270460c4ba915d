// The lobby and the invite: who sits where before the start, the form to take a seat, the
// host's room options (the coach, the bots) and the start; and the invite (the link, Copy,
// Share, the QR code), which stands in the lobby and, once the game has started, opens
// from the room's bar in a dialog.

import { gettext, interpolate, pgettext } from "../i18n.js";
import { AskedSetting } from "../setting.js";
import { seatMarks } from "../state.js";
import { markBadge, maker, setDisabled, setHidden, setText, toggleClass } from "./dom.js";

const NAME_KEY = "yahtzee.name"; // The name this browser last sat down with.
const COPIED_MS = 3000;
// A bot's badge's title, by its level (the levels of templates/games/room.html's buttons).
const BOT_TITLES = {
  optimal: () => pgettext("a bot's badge's title", "Optimal bot"),
  casual: () => pgettext("a bot's badge's title", "Casual bot"),
};

export class LobbyPanel {
  follows = new Set(["joined", "unseated", "coach", "started", "presence", "pending"]);

  constructor(room, doc = document, storage = localStorage) {
    this.room = room;
    this.doc = doc;
    this.storage = storage;
    this.el = maker(doc);
    const $ = (id) => doc.getElementById(id);
    this.section = $("lobby");
    this.seats = $("seats");
    this.joinForm = $("join-form");
    this.joinName = $("join-name");
    this.coachSwitch = $("coach-switch");
    this.coachToggle = $("coach-toggle");
    this.coachState = $("coach-state");
    this.addBots = $("add-bots");
    this.startButton = $("start-button");
    this.leaveButton = $("leave-button");
    this.note = $("lobby-note");
    this.invite = $("invite");
    this.inviteUrl = $("invite-url");
    this.inviteButton = $("invite-button");
    this.inviteDialog = $("invite-dialog");
    this.inviteDialogBody = $("invite-dialog-body");
    this.shareButton = $("share-button");
    this.copyStatus = $("copy-status");
    this.coachAsked = new AskedSetting("coach"); // The switch as the host set it, until the room says so.

    this.joinName.value = storage.getItem(NAME_KEY) || "";
    this.joinForm.addEventListener("submit", (event) => {
      event.preventDefault();
      room.send("join", { name: this.joinName.value });
    });
    this.startButton.addEventListener("click", () => room.sendPlay("start", {}));
    this.coachToggle.addEventListener("change", () => {
      const on = this.coachToggle.checked;
      if (room.send("coach", { on })) this.coachAsked.choose(on);
      else this.coachToggle.checked = !on;
    });
    doc.querySelectorAll("[data-bot]").forEach((button) => {
      button.addEventListener("click", () => room.send("add_bot", { level: button.dataset.bot }));
    });
    this.leaveButton.addEventListener("click", () => {
      if (doc.defaultView.confirm(gettext("Give up your seat?"))) room.send("leave");
    });
    $("copy-button").addEventListener("click", () => this.copy());
    this.inviteButton.addEventListener("click", () => this.inviteDialog.showModal());
    this.shareButton.addEventListener("click", () => this.share());
  }

  // Every message the room receives: a refusal or a snapshot ends the coach switch's wait;
  // the server's answer to `join` keeps the name for the next room.
  hear(message) {
    this.coachAsked.hear(message);
    if (message.type === "joined") this.storage.setItem(NAME_KEY, this.joinName.value.trim());
  }

  draw() {
    const state = this.room.state;
    const status = state.game.status;
    this.placeInvite(status);
    if (status !== "lobby") return;
    this.drawSeats();
    const you = state.you;
    const full = state.players.length >= state.game.seats;
    const host = Boolean(you && you.host);
    toggleClass(this.section, "lobby--host", host); // On a phone the host's invite comes first.
    setHidden(this.coachSwitch, !host);
    this.coachToggle.checked = this.coachAsked.shown(Boolean(state.game.coach));
    setHidden(this.coachState, host);
    setText(this.coachState, state.game.coach
      ? gettext("Coach on: the player on turn sees the best move.")
      : gettext("Coach off."));
    setHidden(this.addBots, !host || full);
    setHidden(this.joinForm, Boolean(you) || full);
    setHidden(this.startButton, !host);
    setDisabled(this.startButton, Boolean(this.room.pending));
    setHidden(this.leaveButton, !you);
    let note;
    if (host) note = gettext("Start when everyone is seated. Latecomers can watch.");
    else if (you) {
      const seatedHost = state.players.find((p) => p.host);
      note = seatedHost
        ? interpolate(gettext("You are seated. %(host)s starts the game."), { host: seatedHost.name }, true)
        : gettext("You are seated. The host starts the game.");
    } else if (full) note = gettext("Every seat is taken: you are watching this game.");
    else note = gettext("Take a seat to play, or just watch.");
    setText(this.note, note);
  }

  update() {
    this.draw();
  }

  drawSeats() {
    const el = this.el;
    const state = this.room.state;
    const you = state.you;
    const items = [];
    for (let seat = 0; seat < state.game.seats; seat += 1) {
      const player = state.players[seat];
      const item = el("li", { class: player ? "seat" : "seat seat--empty" });
      if (player) {
        item.append(
          el("span", { class: `presence-dot${player.connected ? " presence-dot--on" : ""}`, "aria-hidden": "true" }),
          el("span", { class: "seat__name" }, player.name),
        );
        if (player.host) item.append(el("span", { class: "badge" }, pgettext("a seat's badge", "host")));
        if (player.bot) {
          const title = BOT_TITLES[player.bot] ? BOT_TITLES[player.bot]() : pgettext("a seat's badge", "bot");
          item.append(el("span", { class: "badge badge--bot", title }, pgettext("a seat's badge", "bot")));
        }
        if (you && you.seat === seat) item.append(el("span", { class: "badge badge--you" }, pgettext("a seat's badge", "you")));
        item.append(...seatMarks(player).map((mark) => markBadge(el, mark)));
        if (player.bot && you && you.host) {
          const remove = el("button", {
            type: "button", class: "button button--small button--quiet seat__remove",
            "aria-label": interpolate(gettext("Take %(name)s off seat %(seat)s"), { name: player.name, seat: seat + 1 }, true),
          }, gettext("Remove"));
          remove.addEventListener("click", () => this.room.send("remove_bot", { bot: seat }));
          item.append(remove);
        }
      } else {
        item.append(el("span", { class: "seat__name" }, gettext("Empty seat")));
      }
      items.push(item);
    }
    this.seats.replaceChildren(...items);
  }

  // The invite stands in the lobby; once the game has started, the Invite button opens it.
  placeInvite(status) {
    const home = status === "lobby" ? this.section : this.inviteDialogBody;
    if (this.invite.parentElement !== home) home.append(this.invite);
    setHidden(this.inviteButton, status === "lobby");
    setHidden(this.shareButton, typeof this.doc.defaultView.navigator.share !== "function");
  }

  async copy() {
    const url = this.inviteUrl.value;
    try {
      await this.doc.defaultView.navigator.clipboard.writeText(url);
    } catch {
      this.inviteUrl.select(); // No clipboard (plain http on another host): let them copy it.
      this.doc.execCommand("copy");
    }
    this.copyStatus.textContent = gettext("Link copied.");
    setTimeout(() => (this.copyStatus.textContent = ""), COPIED_MS);
  }

  async share() {
    try {
      await this.doc.defaultView.navigator.share({ title: this.doc.title, text: gettext("Come to my Yahtzee table:"), url: this.inviteUrl.value });
    } catch {
      // Closed without sharing, or refused: the link and the QR code are still there.
    }
  }
}
