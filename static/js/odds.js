// Who is likely to win (issue 18): each seat's chance, as a bar and a percentage under
// its name on the cards. Watchers always see it; players only while the host chooses so
// (`game.show_odds`, when the room opens or later: showodds.js), so nobody is told
// they have lost.
//
// The server works the chances out (docs/protocol.md, `odds`); this tab asks after
// every move it sees (a roll, a score, someone leaving, the end) with the version it
// has, and shows an answer only if it is for the latest version it asked about: an
// answer overtaken by a newer move is dropped. Screen readers hear the chances once a
// turn ends, not after every roll.
//
// The pure functions and OddsRequests are tested in node (tests/js/odds.test.mjs);
// WinChances draws them into the cards' head (static/js/panels/cards.js calls `headRow`).

import { gettext, interpolate, lang, pgettext } from "./i18n.js";

// The events after which the chances may have moved.
export const MOVES = new Set(["roll_off", "rolled", "scored", "left", "finished", "abandoned"]);
// After these the screen reader hears the chances: a turn ended (or a seat left the game).
export const TURN_ENDS = new Set(["scored", "left"]);

// Whether this tab sees the chances: a game of two seats or more, under way or over,
// and a watcher, or a player in a room that shows them (and the server has not said no).
export function oddsVisible(state, refused = false) {
  if (!state || refused) return false;
  if (!["playing", "finished", "abandoned"].includes(state.game.status)) return false;
  if (state.players.length < 2) return false;
  return !state.you || Boolean(state.game.show_odds);
}

// A whole percentage as the reader's language writes it: "62%", "62 %" in French.
const PERCENT = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });

// "62%"; never "0%" or "100%" for a chance that is neither: "<1%", ">99%".
export function percent(win) {
  if (win <= 0) return PERCENT.format(0);
  if (win >= 1) return PERCENT.format(1);
  const rounded = Math.round(win * 100);
  if (rounded < 1) return `<${PERCENT.format(0.01)}`;
  if (rounded > 99) return `>${PERCENT.format(0.99)}`;
  return PERCENT.format(rounded / 100);
}

// What the screen reader hears: "Chances to win: Ana 62%, Bob 38%." (seats that left
// are not named: they cannot win).
export function announcement(seats, nameOf) {
  const named = seats.filter((s) => !s.left).map((s) => `${nameOf(s.seat)} ${percent(s.win)}`);
  return named.length ? interpolate(gettext("Chances to win: %(chances)s."), { chances: named.join(", ") }, true) : "";
}

// Which version to ask about, and which answer to show. `ask(version, announce)` says
// whether to send a request (not twice for one version); `accept(reply)` whether a
// reply is the one to show, and then whether to announce it.
export class OddsRequests {
  constructor() {
    this.asked = null; // The version last asked about.
    this.announce = false; // Whether its answer is to be read out.
    this.shown = null; // The reply shown.
  }

  // A turn's end not yet read out stays to be read with the next answer shown (the next
  // move may come before its answer, with instant bots).
  ask(version, announce = false) {
    if (this.asked !== null && version <= this.asked) {
      this.announce ||= announce && version === this.asked;
      return false;
    }
    this.asked = version;
    this.announce ||= announce;
    return true;
  }

  // A reply: shown only if it answers the latest request. Returns { show, announce }.
  accept(reply) {
    if (reply.version !== this.asked) return { show: false, announce: false };
    this.shown = reply;
    const announce = this.announce;
    this.announce = false;
    return { show: true, announce };
  }

  // Ask again from scratch (a new socket's snapshot: the answer may have been lost). A
  // turn's end not yet read out is still read, with the answer to the asking again.
  forget() {
    this.asked = null;
  }
}

export class WinChances {
  // `send(type, fields)` sends a request as the room does (with an id "<type>-<n>").
  constructor(send, { root = document } = {}) {
    this.send = send;
    this.root = root;
    this.requests = new OddsRequests();
    this.refused = false; // The server said this tab may not see them (odds_hidden).
    this.state = null;
    this.who = null; // The seat this tab acts for (null: it watches).
    this.announcer = root.getElementById("odds-announcer");
  }

  // Every message the room receives passes here, after the room has applied it.
  receive(message, state) {
    this.state = state;
    const who = state && state.you ? state.you.seat : null;
    if (who !== this.who) { // A seat taken or given up: what the server allows may change.
      this.who = who;
      this.refused = false;
    }
    if (message.type === "snapshot") {
      this.refused = false;
      // A snapshot past the move last asked about came after a gap (events missed, a
      // turn's end among them perhaps): its chances are read out. A page's first is not.
      const skipped = this.requests.asked !== null && state.version > this.requests.asked;
      this.requests.forget();
      this.askIfShown(state, skipped);
    } else if (message.type === "event" && message.kind === "show_odds") {
      // The host changed who sees them: ask again if this tab does now (an answer kept
      // from before they were hidden is old news).
      this.refused = false;
      this.requests.shown = null;
      this.askIfShown(state, false);
    } else if (message.type === "event" && MOVES.has(message.kind)) {
      this.askIfShown(state, TURN_ENDS.has(message.kind));
    } else if (message.type === "odds") {
      const { show, announce } = this.requests.accept(message);
      if (show) this.fill();
      if (show && announce && this.announcer) {
        this.announcer.textContent = announcement(message.seats, (seat) => this.nameOf(seat));
      }
    } else if (message.type === "error" && String(message.id).startsWith("odds-")) {
      // `stale`: the move is on its way, and its event asks again. `odds_hidden`: not here.
      if (message.code === "odds_hidden") {
        this.refused = true;
        for (const row of this.root.querySelectorAll(".scorecard__odds")) row.remove();
      }
    }
  }

  askIfShown(state, announce) {
    if (!oddsVisible(state, this.refused)) return;
    if (this.requests.ask(state.version, announce)) this.send("odds", { version: state.version });
  }

  nameOf(seat) {
    const player = this.state && this.state.players[seat];
    return player ? player.name : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);
  }

  // The row under the names, for the cards (panels/cards.js draws it before this part hears of
  // the message: `state` is the room's): null when this tab does not see it.
  headRow(state, players, el) {
    if (!oddsVisible(state, this.refused)) return null;
    const row = el("tr", { class: "scorecard__odds" });
    row.append(el("th", { scope: "row", class: "scorecard__odds-label" },
      el("span", { class: "scorecard__full" }, gettext("Chance to win")),
      el("span", { class: "scorecard__short", "aria-hidden": "true" }, pgettext("the cards' row of the chances, short", "To win"))));
    for (const player of players) {
      const cell = el("td", { class: "win-chance", "data-win-seat": player.seat });
      cell.append(el("span", { class: "win-chance__text" }, "…"),
        el("span", { class: "win-chance__bar", "aria-hidden": "true" }, el("span", { class: "win-chance__fill" })));
      row.append(cell);
    }
    this.fillRow(row);
    return row;
  }

  // Write the last answer into the cells on the page.
  fill() {
    for (const row of this.root.querySelectorAll(".scorecard__odds")) this.fillRow(row);
  }

  fillRow(row) {
    const reply = this.requests.shown;
    const bySeat = new Map(reply ? reply.seats.map((s) => [s.seat, s]) : []);
    const best = reply ? Math.max(...reply.seats.map((s) => s.win)) : null;
    for (const cell of row.querySelectorAll("[data-win-seat]")) {
      const seat = bySeat.get(Number(cell.dataset.winSeat));
      const text = cell.querySelector(".win-chance__text");
      const fill = cell.querySelector(".win-chance__fill");
      text.textContent = seat ? percent(seat.win) : "…";
      cell.classList.toggle("win-chance--leading", Boolean(seat && seat.win === best && best > 0));
      // Through the CSSOM: the Content-Security-Policy refuses style attributes.
      fill.style.width = seat ? `${(seat.win * 100).toFixed(1)}%` : "0%";
    }
  }
}
