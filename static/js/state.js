// The room as this browser knows it: the server's snapshot, kept up to date by
// its events. Nothing here decides a rule; the server sends what a roll may
// score (`options`) and each card after a score.

import { gettext, interpolate, listed, ngettext } from "./i18n.js";

const RECENT_KEPT = 50;

export function freshTurn(seat) {
  return { seat, dice: null, held: [], rolls_left: 3, options: {} };
}

function emptyCard(categories) {
  return {
    boxes: Object.fromEntries(categories.map((c) => [c.id, null])),
    upper_total: 0,
    upper_bonus: 0,
    yahtzee_bonus_count: 0,
    yahtzee_bonus: 0,
    lower_total: 0,
    total: 0,
  };
}

// Apply one event (already known to be the next version) to `state`, in place.
export function applyEvent(state, message, categories) {
  const { kind, data } = message;
  const game = state.game;
  switch (kind) {
    case "joined":
      state.players.push({
        seat: data.seat, name: data.name, host: data.host, bot: data.bot || null,
        connected: Boolean(data.bot), left: false, away: false, handed: false, card: emptyCard(categories),
      });
      break;
    case "unseated":
      unseat(state, data);
      break;
    case "left":
      leave(state, data);
      break;
    case "started":
      game.status = "playing";
      game.started_at = message.at;
      game.round = 1;
      state.roll_off = { contenders: state.players.map((p) => p.seat), rounds: [], winner: null };
      state.turn = data.first === null ? null : freshTurn(data.first);
      if (data.first !== null) state.roll_off.winner = data.first;
      break;
    case "roll_off":
      state.roll_off.rounds.push(data.throws);
      state.roll_off.contenders = data.contenders;
      state.roll_off.winner = data.first;
      if (data.first !== null) state.turn = freshTurn(data.first);
      break;
    case "rolled":
      state.turn = {
        seat: data.seat, dice: data.dice, held: data.held,
        rolls_left: data.rolls_left, options: data.options || {},
      };
      break;
    case "held":
      if (state.turn) state.turn.held = data.held;
      break;
    case "scored": {
      const player = state.players[data.seat];
      player.card = data.card;
      game.round = data.round;
      state.turn = data.next === null ? null : freshTurn(data.next);
      break;
    }
    case "finished":
      game.status = "finished";
      game.finished_at = message.at;
      state.winners = data.winners;
      if (data.places) state.players.forEach((p) => { p.place = data.places[p.seat]; });
      state.turn = null;
      state.clock = null;
      break;
    case "abandoned":
      game.status = "abandoned";
      game.finished_at = message.at;
      state.turn = null;
      state.clock = null;
      break;
    case "away":
      state.players[data.seat].away = true;
      break;
    case "back":
      state.players[data.seat].away = false;
      break;
    case "handed":
      Object.assign(state.players[data.seat], { away: true, handed: true });
      break;
    case "rematch":
      state.rematch = data.code;
      break;
    case "coach":
      game.coach = data.on;
      break;
    case "bot_pace":
      game.bot_pace = data.pace;
      break;
    case "show_odds":
      game.show_odds = data.show;
      break;
    case "created":
    case "chat":
      break; // Nothing to redraw but the feed.
    default:
      break; // A kind newer than this page: the feed still lists it.
  }
  // The clock comes beside `data` when this event changed it (null: no clock now).
  if ("clock" in message) state.clock = message.clock;
  state.version = message.version;
  state.recent.push(message);
  if (state.recent.length > RECENT_KEPT) state.recent.shift();
}

// A play command (roll, score, start, rematch) waits for its answer: the event it
// causes, or an error. `sent` is where it was sent from: { version, connection }, the
// room's version it was sent at and the socket's connection number (socket.js).
// These events answer it (or overtake it: the turn moved on, the game ended).
const ANSWERS = new Set(["rolled", "scored", "started", "roll_off", "finished", "left", "abandoned"]);

export function eventEndsWait(message) {
  return ANSWERS.has(message.kind);
}

// Whether a snapshot ends the wait. One newer than the command has its event in it (or
// the move it came too late for: the server refuses it as stale). One that came on a
// later connection ends it too: the command went with the old socket, unanswered. But
// a snapshot asked for before the command was sent (after a gap, or a seat taken) and
// no newer than it knows nothing of it: the answer is still on its way.
export function snapshotEndsWait(sent, snapshot, connection) {
  if (!sent) return true;
  return snapshot.version > sent.version || connection !== sent.connection;
}

// In the lobby a seat that is left is freed, and everyone after it moves up one.
function unseat(state, data) {
  const you = state.you;
  state.players.splice(data.seat, 1);
  state.players.forEach((p, index) => {
    p.seat = index;
    p.host = index === data.host;
  });
  if (you) {
    if (you.seat === data.seat) state.you = null;
    else {
      if (you.seat > data.seat) you.seat -= 1;
      you.host = you.seat === data.host;
    }
  }
}

// In play a seat that is left keeps its number and its card; its turns are skipped.
function leave(state, data) {
  const you = state.you;
  state.players[data.seat].left = true;
  if (you && you.seat === data.seat) state.you = null;
  if (state.turn && state.turn.seat === data.seat) {
    state.turn = data.next === null ? null : freshTurn(data.next);
  }
}

// The seats the host may act on during play: another person's seat that is away
// or has no connection and is still in the game. `hand` is false once a bot has it.
export function hostActions(state) {
  const you = state.you;
  if (!you || !you.host || state.game.status !== "playing") return [];
  return state.players
    .filter((p) => p.seat !== you.seat && !p.bot && !p.left && (p.away || !p.connected))
    .map((p) => ({ seat: p.seat, name: p.name, marks: seatMarks(p), hand: !p.handed }));
}

// What a seat's label says beside the name (never colour alone), as codes that
// panels/dom.js markBadge words: a person whose turns a bot plays for now ("away") or for
// good ("bot-plays"), or who has no connection ("offline"). Nothing for a bot's own seat or
// a seat that left.
export function seatMarks(player) {
  if (player.bot || player.left) return [];
  if (player.handed) return ["bot-plays"];
  const marks = player.away ? ["away"] : [];
  if (!player.connected) marks.push("offline");
  return marks;
}

export function applyPresence(state, message) {
  for (const { seat, connected } of message.players) {
    if (state.players[seat]) state.players[seat].connected = connected;
  }
  state.watchers = message.watchers;
}

// What an event says in the room's feed, as lines of text, in the reader's language. Seats
// are named from `players`; the events that change who sits where carry their own names.
// Each line is one whole sentence of the catalog with named placeholders (a translator
// orders the words their language needs); box names are the card's own `labels` (the
// server's, in the reader's language and the room's game: Kniffel's, Yatzy's).

// A seat the page has no player for: "Seat 3".
const seatNumbered = (seat) => interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);

// What the clock or a bot did for a seat, and what a player did: { kept, rolled }.
function rolledWords(by, away) {
  if (by === "clock") {
    return { kept: gettext("The clock kept %(dice)s for %(name)s."), rolled: gettext("The clock rolled %(dice)s for %(name)s.") };
  }
  if (by === "bot" && away) {
    return { kept: gettext("A bot kept %(dice)s for %(name)s (away)."), rolled: gettext("A bot rolled %(dice)s for %(name)s (away).") };
  }
  if (by === "bot") {
    return { kept: gettext("A bot kept %(dice)s for %(name)s."), rolled: gettext("A bot rolled %(dice)s for %(name)s.") };
  }
  return { kept: gettext("%(name)s kept %(dice)s."), rolled: gettext("%(name)s rolled %(dice)s.") };
}

// A score in the feed: by the player, by the clock when their time ran out, or by a bot.
function scoredWords({ by, away, bonus, points }) {
  if (by === "clock") {
    return bonus
      ? ngettext("%(name)s's time ran out: the clock scored %(points)s in %(box)s and a Yahtzee bonus of 100.",
        "%(name)s's time ran out: the clock scored %(points)s in %(box)s and a Yahtzee bonus of 100.", points)
      : ngettext("%(name)s's time ran out: the clock scored %(points)s in %(box)s.",
        "%(name)s's time ran out: the clock scored %(points)s in %(box)s.", points);
  }
  if (by === "bot" && away) {
    return bonus
      ? ngettext("A bot scored %(points)s in %(box)s and a Yahtzee bonus of 100 for %(name)s (away).",
        "A bot scored %(points)s in %(box)s and a Yahtzee bonus of 100 for %(name)s (away).", points)
      : ngettext("A bot scored %(points)s in %(box)s for %(name)s (away).",
        "A bot scored %(points)s in %(box)s for %(name)s (away).", points);
  }
  if (by === "bot") {
    return bonus
      ? ngettext("A bot scored %(points)s in %(box)s and a Yahtzee bonus of 100 for %(name)s.",
        "A bot scored %(points)s in %(box)s and a Yahtzee bonus of 100 for %(name)s.", points)
      : ngettext("A bot scored %(points)s in %(box)s for %(name)s.", "A bot scored %(points)s in %(box)s for %(name)s.", points);
  }
  return bonus
    ? ngettext("%(name)s scored %(points)s in %(box)s and a Yahtzee bonus of 100.",
      "%(name)s scored %(points)s in %(box)s and a Yahtzee bonus of 100.", points)
    : ngettext("%(name)s scored %(points)s in %(box)s.", "%(name)s scored %(points)s in %(box)s.", points);
}

// The end of a game, with the best total.
function finishedWords(winners, points, { solo, daily }) {
  if (solo && daily) return ngettext("Game over: %(name)s scored %(points)s on today's dice.", "Game over: %(name)s scored %(points)s on today's dice.", points);
  if (solo) return ngettext("Game over: %(name)s scored %(points)s.", "Game over: %(name)s scored %(points)s.", points);
  if (winners === 1) return ngettext("Game over: %(name)s wins with %(points)s.", "Game over: %(name)s wins with %(points)s.", points);
  return ngettext("Game over: %(names)s share the win with %(points)s.", "Game over: %(names)s share the win with %(points)s.", points);
}

function botPaceWords(pace) {
  if (pace === "natural") return gettext("%(name)s set the bots to play at a natural pace.");
  if (pace === "quick") return gettext("%(name)s set the bots to play quickly.");
  if (pace === "instant") return gettext("%(name)s set the bots to play instantly.");
  return gettext("%(name)s set the bots' pace: %(pace)s."); // A pace newer than this page: its code.
}

// `daily`: the game plays today's dice (the end says so, and there is no winner to name).
export function describe(message, players, labels, { daily = false } = {}) {
  const { kind, data } = message;
  const name = (seat) => (players[seat] ? players[seat].name : seatNumbered(seat));
  const dice = (faces) => faces.join(" ");
  const say = (format, values = {}) => [interpolate(format, values, true)];
  // Whom a stand-in played for: a seat the host handed to a bot is not "away" for a while, it is the bot's.
  const away = (seat) => !(players[seat] && players[seat].handed);
  switch (kind) {
    case "created":
      return [gettext("The room was opened.")];
    case "joined":
      if (data.bot) return say(gettext("%(name)s took a seat (a computer player)."), data);
      return say(data.host ? gettext("%(name)s took a seat as host.") : gettext("%(name)s took a seat."), data);
    case "unseated":
      return say(gettext("%(name)s left the table."), data);
    case "left":
      return say(data.by === "host" ? gettext("%(name)s was removed by the host.") : gettext("%(name)s left the game."), data);
    case "started":
      return say(gettext("The game started: %(players)s."), { players: data.players.join(", ") });
    case "roll_off": {
      const throws = data.throws.map(([seat, faces]) => `${name(seat)} ${faces.reduce((a, b) => a + b, 0)}`).join(", ");
      if (data.first === null) return say(gettext("Roll-off: %(throws)s: a tie, so they roll again."), { throws });
      return say(gettext("Roll-off: %(throws)s: %(name)s goes first."), { throws, name: name(data.first) });
    }
    case "rolled": {
      const words = rolledWords(data.by, away(data.seat));
      const values = { name: name(data.seat), dice: dice(data.dice) };
      const kept = data.held.length ? say(words.kept, { ...values, dice: dice(data.held.map((i) => data.dice[i])) }) : [];
      return [...kept, ...say(words.rolled, values)];
    }
    case "held":
      return [];
    case "scored": {
      const points = data.points;
      const words = scoredWords({ by: data.by, away: away(data.seat), bonus: data.yahtzee_bonus, points });
      return say(words, { name: name(data.seat), points, box: labels[data.category] || data.category });
    }
    case "away":
      return say(gettext("%(name)s is away: a bot plays for %(name)s until %(name)s comes back."), data);
    case "back":
      return say(gettext("%(name)s is back."), data);
    case "handed":
      return say(gettext("The host handed %(name)s's seat to a bot."), data);
    case "abandoned":
      return [gettext("The game was abandoned: nobody played for a long while.")];
    case "finished": {
      const winners = data.winners.map(name);
      if (!winners.length) return [gettext("The game is over.")];
      const points = data.totals[data.winners[0]];
      // A solo game has a score, not a winner; a daily one is on the dice everyone plays today.
      const words = finishedWords(winners.length, points, { solo: players.length === 1, daily });
      return say(words, { name: winners[0], names: listed(winners), points });
    }
    case "rematch":
      return say(gettext("%(name)s started a rematch."), data);
    case "coach":
      return say(data.on ? gettext("%(name)s turned the coach on.") : gettext("%(name)s turned the coach off."), data);
    case "bot_pace":
      return say(botPaceWords(data.pace), data);
    case "show_odds":
      return say(data.show
        ? gettext("%(name)s let the players see who is likely to win.")
        : gettext("%(name)s hid who is likely to win from the players (watchers still see it)."), data);
    default:
      return [];
  }
}

// Who this browser is at the table, asked of the state by every panel alike.
export const isPlaying = (state) => Boolean(state) && state.game.status === "playing";
// This browser's seat (null: it watches).
export const mySeat = (state) => (state && state.you ? state.players[state.you.seat] : null);
// A bot plays this player's turns, for now or for good (handed).
export const isAway = (state) => Boolean(mySeat(state) && mySeat(state).away);
export const isHanded = (state) => Boolean(mySeat(state) && mySeat(state).handed);
// Someone who may play here: seated, and not handed to a bot. Watchers see no player controls.
export const isPlayer = (state) => Boolean(state && state.you) && !isHanded(state);
export const isMyTurn = (state) => isPlaying(state) && Boolean(state.you) && Boolean(state.turn)
  && state.turn.seat === state.you.seat && !isAway(state);
export const seatName = (state, seat) => (state.players[seat] ? state.players[seat].name : seatNumbered(seat));
// Where a turn stands ("dice/rolls left"): an answer for another position is stale.
export const position = (turn) => `${turn.dice.join("")}/${turn.rolls_left}`;
