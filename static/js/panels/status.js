// The room's bar and the page's layout: where the game stands in a line (the lobby's
// seats, the round and whose turn, the end; how many watch), the turn clock's setting, the
// connection's state, and which of the panels the game's stage shows (the lobby, or the
// turn, the cards and the command line).

import { describeTurnClock } from "../clock.js";
import { isMyTurn, isPlayer, seatName } from "../state.js";
import { setHidden, setText } from "./dom.js";

export class StatusPanel {
  follows = new Set(["joined", "unseated", "left", "started", "roll_off", "scored", "finished", "abandoned",
    "away", "back", "handed", "presence"]);

  constructor(room, doc = document) {
    this.room = room;
    const $ = (id) => doc.getElementById(id);
    this.page = $("room");
    this.status = $("room-status");
    this.clockSetting = $("clock-setting");
    this.stages = { lobby: $("lobby"), turn: $("turn"), console: $("console"), cards: $("cards") };
    this.connection = $("connection");
    this.connectionText = this.connection.querySelector(".connection__text");
    this.retry = this.connection.querySelector(".connection__retry");
    this.lost = $("room-lost");
    this.table = $("table");
    this.countdown = 0;
  }

  draw() {
    const { state, categories } = this.room;
    const { game } = state;
    const status = game.status;
    if (this.page.dataset.status !== status) this.page.dataset.status = status;
    setHidden(this.stages.lobby, status !== "lobby");
    setHidden(this.stages.turn, status !== "playing");
    setHidden(this.stages.console, status !== "playing" || !isPlayer(state));
    setHidden(this.stages.cards, status === "lobby");
    let text;
    if (status === "lobby") text = `Lobby · ${state.players.length} of ${game.seats} seats taken`;
    else if (status === "finished") text = "Finished";
    else if (status === "abandoned") text = "Abandoned: the game ended unfinished";
    else if (!state.turn) text = "Roll-off";
    else text = `Round ${game.round} of ${categories.length} · ${isMyTurn(state) ? "your turn" : `${seatName(state, state.turn.seat)}'s turn`}`;
    const watching = state.watchers ? ` · ${state.watchers} watching` : "";
    setText(this.status, text + watching + (state.you ? "" : " · you are watching"));
    // A solo room never has a clock: saying so there would be noise.
    const setting = game.seats > 1 ? describeTurnClock(game.turn_seconds) : null;
    setHidden(this.clockSetting, !setting);
    setText(this.clockSetting, setting || "");
  }

  update() {
    this.draw();
  }

  // The socket's state (socket.js): live, connecting, waiting to reconnect (a countdown), gone.
  showConnection({ state: connection, retryAt }) {
    const text = this.connectionText;
    this.connection.dataset.state = connection;
    clearInterval(this.countdown);
    this.retry.hidden = connection !== "waiting";
    if (connection === "open") text.textContent = "Live";
    else if (connection === "connecting") text.textContent = "Connecting…";
    else if (connection === "reconnecting") text.textContent = "Reconnecting…";
    else if (connection === "gone") {
      text.textContent = "Closed";
      this.lost.hidden = false;
      this.table.hidden = true;
    } else if (connection === "waiting") {
      const tick = () => {
        const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
        text.textContent = `Connection lost. Reconnecting in ${seconds} s…`;
      };
      tick();
      this.countdown = setInterval(tick, 500);
    }
  }
}
