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
        connected: Boolean(data.bot), left: false, card: emptyCard(categories),
      });
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
      break;
    case "rematch":
      state.rematch = data.code;
      break;
    case "coach":
      game.coach = data.on;
      break;
    default:
      break; // created, chat: nothing to redraw but the feed.
  }
  state.version = message.version;
  state.recent.push(message);
  if (state.recent.length > RECENT_KEPT) state.recent.shift();
}

function leave(state, data) {
  const you = state.you;
  if (state.game.status === "lobby") {
    // In the lobby the seat is freed and everyone after it moves up one.
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
    return;
  }
  state.players[data.seat].left = true;
  if (you && you.seat === data.seat) state.you = null;
  if (state.turn && state.turn.seat === data.seat) {
    state.turn = data.next === null ? null : freshTurn(data.next);
  }
}

export function applyPresence(state, message) {
  for (const { seat, connected } of message.players) {
    if (state.players[seat]) state.players[seat].connected = connected;
  }
  state.watchers = message.watchers;
}

// What an event says in the room's feed, as lines of text. Seats are named from
// `players`; the events that change who sits where carry their own names.
export function describe(message, players, labels) {
  const { kind, data } = message;
  const name = (seat) => (players[seat] ? players[seat].name : `Seat ${seat + 1}`);
  const dice = (faces) => faces.join(" ");
  switch (kind) {
    case "created":
      return ["The room was opened."];
    case "joined":
      if (data.bot) return [`${data.name} took a seat (a computer player).`];
      return [`${data.name} took a seat${data.host ? " as host" : ""}.`];
    case "left":
      return [`${data.name} left the ${"next" in data ? "game" : "table"}.`];
    case "started":
      return [`The game started: ${data.players.join(", ")}.`];
    case "roll_off": {
      const throws = data.throws.map(([seat, faces]) => `${name(seat)} ${faces.reduce((a, b) => a + b, 0)}`);
      const outcome = data.first === null ? "a tie, so they roll again" : `${name(data.first)} goes first`;
      return [`Roll-off: ${throws.join(", ")}: ${outcome}.`];
    }
    case "rolled": {
      const lines = [];
      if (data.held.length) lines.push(`${name(data.seat)} kept ${dice(data.held.map((i) => data.dice[i]))}.`);
      lines.push(`${name(data.seat)} rolled ${dice(data.dice)}.`);
      return lines;
    }
    case "held":
      return [];
    case "scored": {
      const bonus = data.yahtzee_bonus ? " and a Yahtzee bonus of 100" : "";
      return [`${name(data.seat)} scored ${data.points} in ${labels[data.category] || data.category}${bonus}.`];
    }
    case "finished": {
      const winners = data.winners.map(name);
      if (!winners.length) return ["The game is over."];
      const best = data.totals[data.winners[0]];
      return winners.length === 1
        ? [`Game over: ${winners[0]} wins with ${best}.`]
        : [`Game over: ${winners.join(" and ")} share the win with ${best}.`];
    }
    case "rematch":
      return [`${data.name} started a rematch.`];
    case "coach":
      return [`${data.name} turned the coach ${data.on ? "on" : "off"}.`];
    default:
      return [];
  }
}
