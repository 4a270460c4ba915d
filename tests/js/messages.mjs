// Messages shaped as the server sends them (docs/protocol.md; games/live/services.py
// builds them), and the page's `categories` as games/web/views.py puts them in the
// room's config. Each builder returns a fresh object: applyEvent changes state in place.

// The short names a phone's card shows, where a name runs long (games/words.py).
const SHORT = {
  three_of_a_kind: "3 of a kind", four_of_a_kind: "4 of a kind", small_straight: "Sm straight", large_straight: "Lg straight",
};

export const CATEGORIES = [
  ["ones", "Ones", true],
  ["twos", "Twos", true],
  ["threes", "Threes", true],
  ["fours", "Fours", true],
  ["fives", "Fives", true],
  ["sixes", "Sixes", true],
  ["three_of_a_kind", "Three of a kind", false],
  ["four_of_a_kind", "Four of a kind", false],
  ["full_house", "Full house", false],
  ["small_straight", "Small straight", false],
  ["large_straight", "Large straight", false],
  ["yahtzee", "Yahtzee", false],
  ["chance", "Chance", false],
].map(([id, label, upper]) => ({ id, label, short: SHORT[id] || label, upper }));

// As room.js builds them for `describe`.
export const LABELS = Object.fromEntries(CATEGORIES.map((c) => [c.id, c.label]));

// The same card in German, as the server words it (games/words.py, locale/de/.../django.po):
// Kniffel's names, soft hyphens in the long ones, and the short names a phone shows.
export const KNIFFEL = [
  ["ones", "Einser"], ["twos", "Zweier"], ["threes", "Dreier"], ["fours", "Vierer"], ["fives", "Fünfer"],
  ["sixes", "Sechser"], ["three_of_a_kind", "Dreier\u00adpasch", "3er-Pasch"],
  ["four_of_a_kind", "Vierer\u00adpasch", "4er-Pasch"], ["full_house", "Full House"],
  ["small_straight", "Kleine Straße", "Kl. Straße"], ["large_straight", "Große Straße", "Gr. Straße"],
  ["yahtzee", "Kniffel"], ["chance", "Chance"],
].map(([id, label, short = label], index) => ({ id, label, short, upper: index < 6 }));
export const KNIFFEL_LABELS = Object.fromEntries(KNIFFEL.map((c) => [c.id, c.label]));

let clock = 0;

// One event as broadcast: {"type": "event", "version", "kind", "data", "at"}.
export function event(version, kind, data) {
  clock += 1;
  const at = new Date(Date.UTC(2026, 10, 21, 21, 11, 0, clock)).toISOString().replace("Z", "+00:00");
  return { type: "event", version, kind, data, at };
}

// A card as card_json writes it, with some boxes filled (and the totals given).
export function card(boxes = {}, totals = {}) {
  return {
    boxes: Object.fromEntries(CATEGORIES.map((c) => [c.id, boxes[c.id] ?? null])),
    upper_total: 0,
    upper_bonus: 0,
    yahtzee_bonus_count: 0,
    yahtzee_bonus: 0,
    lower_total: 0,
    total: 0,
    ...totals,
  };
}

function player(seat, name, { host = false, bot = null, connected = true, left = false, filled } = {}) {
  return { seat, name, host, connected, left, bot, away: false, handed: false, card: filled ?? card() };
}

function game(status, fields = {}) {
  return {
    code: "BaJQp_Upd_oL23Ct",
    preset: "official",
    preset_label: "Official (forced Joker)",
    seats: 4,
    coach: false,
    bot_pace: "natural",
    status,
    created_at: "2026-11-21T21:11:42.981148+00:00",
    started_at: null,
    finished_at: null,
    round: null,
    turn_seconds: null,
    ...fields,
  };
}

// A lobby: `names` seated in order, the first one host; `you` is a seat or null (a watcher).
export function lobby(names, { you = null, seats = 4, version = 1 + names.length, bots = {} } = {}) {
  const players = names.map((name, seat) => player(seat, name, { host: seat === 0, bot: bots[seat] ?? null }));
  const recent = [
    event(1, "created", { preset: "official", seats, coach: false }),
    ...names.map((name, seat) => event(2 + seat, "joined", { seat, name, host: seat === 0 })),
  ];
  return {
    type: "snapshot",
    version,
    game: game("lobby", { seats }),
    you: you === null ? null : { seat: you, name: names[you], host: you === 0 },
    players,
    watchers: 0,
    turn: null,
    roll_off: null,
    winners: [],
    rematch: null,
    clock: null,
    recent,
  };
}

// A game in play, decided roll-off, round `round`, `turn` on the table (null: the roll-off
// is still pending). With `turnSeconds`, the room has a turn clock and `clock` times the turn.
export function playing(names, { you = null, version = 20, round = 1, turn = freshTurnOf(0), cards = {}, turnSeconds = null, clock = null } = {}) {
  const players = names.map((name, seat) => player(seat, name, { host: seat === 0, filled: cards[seat] }));
  return {
    type: "snapshot",
    version,
    game: game("playing", { seats: names.length, started_at: "2026-11-21T21:11:43.804013+00:00", round, turn_seconds: turnSeconds }),
    you: you === null ? null : { seat: you, name: names[you], host: you === 0 },
    players,
    watchers: 1,
    turn,
    roll_off: { contenders: [0], rounds: [names.map((_, seat) => [seat, seat === 0 ? [6, 6, 6, 6, 5] : [1, 1, 2, 2, 3]])], winner: 0 },
    winners: [],
    rematch: null,
    clock,
    recent: [],
  };
}

// The snapshot's `turn` before the turn's first roll.
export function freshTurnOf(seat) {
  return { seat, dice: null, held: [], rolls_left: 3, options: {} };
}

// The clock as the server sends it: the seat on turn must act before `deadline`; `ms_left` then.
export function clockOf(seat, msLeft = 60_000, deadline = "2026-11-24T13:01:05.120000+00:00") {
  return { seat, deadline, ms_left: msLeft };
}

// An event with the top-level `clock` key beside `data` (null: no clock now).
export function timed(message, clock) {
  return { ...message, clock };
}
