// The room's bar and the page's layout: where the game stands in a line (the lobby's
// seats, the round and whose turn, the end; how many watch), the turn clock's setting, the
// connection's state, and which of the panels the game's stage shows (the lobby, or the
// turn, the cards and the command line).

import { describeTurnClock } from "../clock.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
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
    const values = {
      taken: state.players.length, seats: game.seats, round: game.round, rounds: categories.length,
      name: state.turn && seatName(state, state.turn.seat),
    };
    let text;
    if (status === "lobby") {
      text = ngettext("Lobby · %(taken)s of %(seats)s seat taken", "Lobby · %(taken)s of %(seats)s seats taken", game.seats);
    } else if (status === "finished") text = gettext("Finished");
    else if (status === "abandoned") text = gettext("Abandoned: the game ended unfinished");
    else if (!state.turn) text = gettext("Roll-off");
    else if (isMyTurn(state)) text = gettext("Round %(round)s of %(rounds)s · your turn");
    else text = gettext("Round %(round)s of %(rounds)s · %(name)s's turn");
    const parts = [interpolate(text, values, true)];
    if (state.watchers) {
      parts.push(interpolate(ngettext("%(count)s watching", "%(count)s watching", state.watchers), { count: state.watchers }, true));
    }
    if (!state.you) parts.push(gettext("you are watching"));
    setText(this.status, parts.join(" · "));
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
    if (connection === "open") text.textContent = pgettext("the connection", "Live");
    else if (connection === "connecting") text.textContent = gettext("Connecting…");
    else if (connection === "reconnecting") text.textContent = gettext("Reconnecting…");
    else if (connection === "gone") {
      text.textContent = pgettext("the connection", "Closed");
      this.lost.hidden = false;
      this.table.hidden = true;
    } else if (connection === "waiting") {
      const tick = () => {
        const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
        text.textContent = interpolate(gettext("Connection lost. Reconnecting in %(seconds)s s…"), { seconds }, true);
      };
      tick();
      this.countdown = setInterval(tick, 500);
    }
  }
}
