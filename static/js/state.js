// The room as this browser knows it: the server's snapshot, kept up to date by
// its events. Nothing here decides a rule; the server sends what a roll may
// score (`options`) and each card after a score.

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

// What a seat's label says in words beside the name (never colour alone): a person
// whose turns a bot plays for now ("away") or for good ("bot plays"), or who has no
// connection ("offline"). Nothing for a bot's own seat or a seat that left.
export function seatMarks(player) {
  if (player.bot || player.left) return [];
  if (player.handed) return ["bot plays"];
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

// What an event says in the room's feed, as lines of text. Seats are named from
// `players`; the events that change who sits where carry their own names.
const BOT_PACE_WORDS = { natural: "at a natural pace", quick: "quickly", instant: "instantly" };

// `daily`: the game plays today's dice (the end says so, and there is no winner to name).
export function describe(message, players, labels, { daily = false } = {}) {
  const { kind, data } = message;
  const name = (seat) => (players[seat] ? players[seat].name : `Seat ${seat + 1}`);
  const dice = (faces) => faces.join(" ");
  // Whom a stand-in played for: a seat the host handed to a bot is not "away" for a while, it is the bot's.
  const forSeat = (seat, by) => `for ${name(seat)}${by === "bot" && !(players[seat] && players[seat].handed) ? " (away)" : ""}`;
  switch (kind) {
    case "created":
      return ["The room was opened."];
    case "joined":
      if (data.bot) return [`${data.name} took a seat (a computer player).`];
      return [`${data.name} took a seat${data.host ? " as host" : ""}.`];
    case "unseated":
      return [`${data.name} left the table.`];
    case "left":
      if (data.by === "host") return [`${data.name} was removed by the host.`];
      return [`${data.name} left the game.`];
    case "started":
      return [`The game started: ${data.players.join(", ")}.`];
    case "roll_off": {
      const throws = data.throws.map(([seat, faces]) => `${name(seat)} ${faces.reduce((a, b) => a + b, 0)}`);
      const outcome = data.first === null ? "a tie, so they roll again" : `${name(data.first)} goes first`;
      return [`Roll-off: ${throws.join(", ")}: ${outcome}.`];
    }
    case "rolled": {
      const kept = data.held.length ? dice(data.held.map((i) => data.dice[i])) : null;
      if (data.by === "clock" || data.by === "bot") {
        const who = data.by === "clock" ? "The clock" : "A bot";
        const forWhom = forSeat(data.seat, data.by);
        return [...(kept ? [`${who} kept ${kept} ${forWhom}.`] : []), `${who} rolled ${dice(data.dice)} ${forWhom}.`];
      }
      return [...(kept ? [`${name(data.seat)} kept ${kept}.`] : []), `${name(data.seat)} rolled ${dice(data.dice)}.`];
    }
    case "held":
      return [];
    case "scored": {
      const bonus = data.yahtzee_bonus ? " and a Yahtzee bonus of 100" : "";
      const what = `${data.points} in ${labels[data.category] || data.category}${bonus}`;
      if (data.by === "clock") return [`${name(data.seat)}'s time ran out: the clock scored ${what}.`];
      if (data.by === "bot") return [`A bot scored ${what} ${forSeat(data.seat, "bot")}.`];
      return [`${name(data.seat)} scored ${what}.`];
    }
    case "away":
      return [`${data.name} is away: a bot plays for ${data.name} until ${data.name} comes back.`];
    case "back":
      return [`${data.name} is back.`];
    case "handed":
      return [`The host handed ${data.name}'s seat to a bot.`];
    case "abandoned":
      return ["The game was abandoned: nobody played for a long while."];
    case "finished": {
      const winners = data.winners.map(name);
      if (!winners.length) return ["The game is over."];
      const best = data.totals[data.winners[0]];
      // A solo game has a score, not a winner; a daily one is on the dice everyone plays today.
      if (players.length === 1) return [`Game over: ${winners[0]} scored ${best}${daily ? " on today's dice" : ""}.`];
      return winners.length === 1
        ? [`Game over: ${winners[0]} wins with ${best}.`]
        : [`Game over: ${winners.join(" and ")} share the win with ${best}.`];
    }
    case "rematch":
      return [`${data.name} started a rematch.`];
    case "coach":
      return [`${data.name} turned the coach ${data.on ? "on" : "off"}.`];
    case "bot_pace":
      return [`${data.name} set the bots to play ${BOT_PACE_WORDS[data.pace] || data.pace}.`];
    case "show_odds":
      return [data.show
        ? `${data.name} let the players see who is likely to win.`
        : `${data.name} hid who is likely to win from the players (watchers still see it).`];
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
export const seatName = (state, seat) => (state.players[seat] ? state.players[seat].name : `Seat ${seat + 1}`);
// Where a turn stands ("dice/rolls left"): an answer for another position is stale.
export const position = (turn) => `${turn.dice.join("")}/${turn.rolls_left}`;
