// The table's command line, after the text games: `roll`, `roll 2 5`,
// `hold 1 3`, `score fives`, `score full house`, `score! chance`, `yes`, `say ...`,
// `back`, `leave`, `remove Ana`, `bot-seat 2`, `pace quick`, `chances on`,
// `watchers on`, `help`.
// Dice are numbered 1 to 5 from the left, as on the keyboard shortcuts; seats 1
// up, as in the lobby's list.

import { gettext, interpolate, listed, ngettext, pgettext } from "./i18n.js";

// The commands are English words in every language (the help says so in each); the boxes
// go by their names on this room's card, in the reader's language (or by their ids).

// Each command with what it does. A description may run over several lines (a line break
// in the message): they are indented under the first. The examples in the context "typed
// command" keep their English command word; the rest (a box, a name, what to say) is the
// reader's.
const COMMANDS = [
  // Translators: the first line of the command line's help. Say there that the commands
  // are typed as the English words shown, while the boxes go by the names on the card.
  ["", gettext("The commands (typed as shown):")],
  ["roll", gettext("throw every die not held")],
  ["roll 2 5", gettext("throw exactly dice 2 and 5 (keep the others)")],
  ["hold 1 3", gettext("hold exactly dice 1 and 3 (hold: release all)")],
  // Translators: keep the English command word; the box as your card names it, in lower case.
  [pgettext("typed command", "score fives"),
    // Translators: "score" stays English; the boxes as your card names them, in lower case.
    gettext("write this roll in a box: score full house,\nscore 3 of a kind, score chance, score sm straight...\n(a 0, or far less than another box: it asks first)")],
  ["yes", gettext("write the score it asked about")],
  [pgettext("typed command", "score! yahtzee"), gettext("write it without asking")],
  [pgettext("typed command", "say good luck"), gettext("chat to the table")],
  ["back", gettext("I'm back: play your own turns again after being away")],
  ["leave", gettext("leave the game for good (type it twice, or leave!)")],
  [pgettext("typed command", "remove Ana"), gettext("host: take an away or offline player out of the game\n(their score stands; a seat number works too: remove 2)")],
  [pgettext("typed command", "bot-seat Ana"), gettext("host: a bot plays that away or offline seat to the end")],
  [pgettext("typed command", "pace quick"), gettext("host: how the bots play: natural, quick or instant")],
  [pgettext("typed command", "chances on"), gettext("host: players see who is likely to win (chances off: not)")],
  [pgettext("typed command", "watchers on"), gettext("read the watchers' chat here (watchers off: stop)")],
  ["help", gettext("this list")],
];
// The descriptions' column: after the longest example (in the reader's language), at 16 or more.
const COLUMN = Math.max(16, ...COMMANDS.map(([command]) => command.length + 2));

export const HELP = [
  ...COMMANDS.flatMap(([command, what]) =>
    what.split("\n").map((line, index) => (index ? "" : command).padEnd(command ? COLUMN : 0) + line)),
  gettext("Keys: 1-5 hold a die, R or Space roll (Enter presses a focused button),\n/ this command line."),
].join("\n");

const ALIASES = {
  "1s": "ones", "2s": "twos", "3s": "threes", "4s": "fours", "5s": "fives", "6s": "sixes",
  "3ofakind": "three_of_a_kind", "3kind": "three_of_a_kind", "3k": "three_of_a_kind", "trips": "three_of_a_kind",
  "4ofakind": "four_of_a_kind", "4kind": "four_of_a_kind", "4k": "four_of_a_kind", "quads": "four_of_a_kind",
  "fh": "full_house", "house": "full_house",
  "ss": "small_straight", "sm": "small_straight", "smstraight": "small_straight", "small": "small_straight",
  "ls": "large_straight", "lg": "large_straight", "lgstraight": "large_straight", "large": "large_straight",
  "y": ["yahtzee", "yatzy"],
  "pair": "one_pair", "1pair": "one_pair", "2pairs": "two_pairs", "pairs": "two_pairs",
};

// A name as typed or printed, for comparing: lower case, without accents, spaces or
// punctuation ("Große Straße" and "grosse-strasse" differ, "Kåk" and "kak" do not).
const squash = (text) => text.normalize("NFD").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

// "A, B or C" in the reader's language.
const either = (names) => listed(names, "disjunction");

// The names a box goes by on the card: its label, and its short form on a phone.
const names = (c) => [c.label, c.short].filter(Boolean).map(squash);

// The box a player means, from its id, its label (or its short form), an alias or a clear
// prefix.
export function findCategory(text, categories) {
  const wanted = squash(text);
  if (!wanted) return { error: gettext("Score which box? For example: score fives") };
  // An alias names a box of this room's card (Yahtzee's or Yatzy's).
  const aliased = [ALIASES[wanted] || []].flat().find((id) => categories.some((c) => c.id === id));
  if (aliased) return { category: aliased };
  const exact = categories.find((c) => squash(c.id) === wanted || names(c).includes(wanted));
  if (exact) return { category: exact.id };
  // A beginning of a name on the card; of an (English) id only when it begins no name, so a
  // German "f" means Fünfer or Full House, not "fours" too.
  const starts = (c) => names(c).some((n) => n.startsWith(wanted));
  const byName = categories.filter(starts);
  const matches = byName.length ? byName : categories.filter((c) => squash(c.id).startsWith(wanted));
  if (matches.length === 1) return { category: matches[0].id };
  if (matches.length > 1) {
    return { error: interpolate(gettext("“%(typed)s” could be %(boxes)s."), { typed: text, boxes: either(matches.map((c) => c.label)) }, true) };
  }
  const boxes = categories.map((c) => c.label).join(", ");
  return { error: interpolate(gettext("There is no box called “%(typed)s”. The boxes: %(boxes)s."), { typed: text, boxes }, true) };
}

function diceNumbers(words) {
  const positions = [];
  for (const word of words) {
    for (const part of word.split(",").filter(Boolean)) {
      if (!/^[1-5]$/.test(part)) return { error: interpolate(gettext("Dice are numbered 1 to 5, not “%(typed)s”."), { typed: part }, true) };
      const position = Number(part) - 1;
      if (positions.includes(position)) return { error: interpolate(gettext("Die %(die)s is named twice."), { die: part }, true) };
      positions.push(position);
    }
  }
  return { positions: positions.sort() };
}

// One line typed at the table, read into an action (or an error to show).
export function parse(line, categories) {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return { error: gettext("Type a command, or help.") };
  const [verb, ...rest] = words;
  switch (verb.toLowerCase()) {
    case "roll":
    case "r": {
      const read = diceNumbers(rest);
      if (read.error) return read;
      // No die named ("roll", or "roll ,"): throw every die not held, not none of them.
      return { action: "roll", throw: read.positions.length ? read.positions : null };
    }
    case "hold":
    case "keep":
    case "h": {
      const read = diceNumbers(rest);
      return read.error ? read : { action: "hold", hold: read.positions };
    }
    case "score":
    case "s":
    case "score!":
    case "s!": {
      const found = findCategory(rest.join(" "), categories);
      return found.error ? found : { action: "score", category: found.category, sure: verb.endsWith("!") };
    }
    case "yes":
      return { action: "yes" };
    case "say":
    case "chat": {
      const text = line.trim().slice(verb.length).trim();
      return text ? { action: "chat", text } : { error: gettext("Say what? For example: say good luck") };
    }
    case "back":
    case "imback":
      return { action: "back" };
    case "leave":
    case "leave!":
      return { action: "leave", sure: verb.endsWith("!") };
    case "remove":
    case "remove!":
    case "kick":
    case "kick!":
      return seatCommand("remove_player", verb, rest, gettext("Which seat? For example: remove 2 or remove Ana"));
    case "bot-seat":
    case "bot-seat!":
    case "botseat":
    case "botseat!":
    case "hand":
    case "hand!":
      return seatCommand("hand_to_bot", verb, rest, gettext("Which seat? For example: bot-seat 2 or bot-seat Ana"));
    case "pace":
    case "bots":
    case "bot-pace": {
      const pace = PACE_WORDS[(rest[0] || "").toLowerCase()];
      if (!pace || rest.length > 1) return { error: gettext("The bots play natural, quick or instant: for example pace quick") };
      return { action: "bot_pace", pace };
    }
    case "chances":
    case "odds": {
      const on = onOrOff(rest);
      if (on === null) return { error: gettext("Chances on or chances off? (Whether the players see who is likely to win.)") };
      return { action: "show_odds", on };
    }
    case "watchers": {
      const read = onOrOff(rest);
      if (read === null) return { error: gettext("Watchers on or watchers off? (Whether you read the watchers' chat.)") };
      return { action: "read_watchers", read };
    }
    case "help":
    case "?":
      return { action: "help" };
    default:
      return { error: interpolate(gettext("Unknown command “%(typed)s”. Type help for the list."), { typed: verb }, true) };
  }
}

const PACE_WORDS = {
  natural: "natural", naturally: "natural", normal: "natural", slow: "natural",
  quick: "quick", quickly: "quick", fast: "quick",
  instant: "instant", instantly: "instant",
};

// `on` or `off` (yes/no, show/hide too) as true or false; null for anything else.
function onOrOff(rest) {
  if (rest.length !== 1) return null;
  const word = rest[0].toLowerCase();
  if (["on", "yes", "show", "read"].includes(word)) return true;
  if (["off", "no", "hide"].includes(word)) return false;
  return null;
}

// `which`: what to say when no seat is named.
function seatCommand(action, verb, rest, which) {
  const who = rest.join(" ");
  if (!who) return { error: which };
  return { action, who, sure: verb.endsWith("!") };
}

// The seat a player means: its number as shown (1 up), its name, or a clear start of it.
export function findSeat(text, players) {
  const wanted = text.trim().replace(/^seat\s+/i, "");
  if (/^\d+$/.test(wanted)) {
    const seat = Number(wanted) - 1;
    if (players[seat]) return { seat };
    return { error: interpolate(gettext("There is no seat %(seat)s: seats go from 1 to %(last)s."), { seat: wanted, last: players.length }, true) };
  }
  const lower = wanted.toLowerCase();
  const exact = players.find((p) => p.name.toLowerCase() === lower);
  if (exact) return { seat: exact.seat };
  const matches = players.filter((p) => p.name.toLowerCase().startsWith(lower));
  if (matches.length === 1) return { seat: matches[0].seat };
  if (matches.length > 1) return { error: interpolate(gettext("“%(typed)s” could be %(players)s."), { typed: text, players: either(matches.map((p) => p.name)) }, true) };
  return { error: interpolate(gettext("Nobody here is called “%(typed)s”. The players: %(players)s."), { typed: text, players: players.map((p) => p.name).join(", ") }, true) };
}

// Leaving, removing a player or handing a seat to a bot cannot be undone, so the
// command line asks twice: the same command again within CONFIRM_MS goes ahead.
// (A `!` after the verb, as in `leave!`, goes ahead at once.)
export const CONFIRM_MS = 10_000;

export class Confirmation {
  constructor() {
    this.asked = null;
  }

  // True when the same `key` was asked within CONFIRM_MS (and forgets it);
  // otherwise remembers this ask and returns false.
  check(key, now) {
    const confirmed = Boolean(this.asked && this.asked.key === key && now - this.asked.at <= CONFIRM_MS);
    this.asked = confirmed ? null : { key, at: now };
    return confirmed;
  }
}

// What the command line answers to the first ask.
export function confirmPrompt(action, name = "") {
  const values = { seconds: CONFIRM_MS / 1000, name };
  switch (action) {
    case "leave":
      return interpolate(
        gettext("Type leave again within %(seconds)s s to leave the game for good (your score stands; you will watch). Or leave! at once."),
        values, true);
    case "remove_player":
      return interpolate(gettext("Type that again within %(seconds)s s to remove %(name)s from the game (their score stands)."), values, true);
    case "hand_to_bot":
      return interpolate(gettext("Type that again within %(seconds)s s to let a bot play %(name)s's seat for the rest of the game."), values, true);
    default:
      return "";
  }
}

// The host's choice of pace, as the command line confirms it.
const PACE_ECHO = {
  natural: gettext("The bots play at a natural pace now."),
  quick: gettext("The bots play quickly now."),
  instant: gettext("The bots play instantly now."),
};

// What the command line says once the server has done what a typed command asked:
// the event that answered it, from this player's side. Null for other events.
export function echo({ kind, data }, labels) {
  switch (kind) {
    case "rolled": {
      const left = data.rolls_left;
      const values = { dice: data.dice.join(" "), left };
      if (!left) return interpolate(gettext("Rolled %(dice)s: no rolls left: pick a box."), values, true);
      return interpolate(ngettext("Rolled %(dice)s: %(left)s roll left.", "Rolled %(dice)s: %(left)s rolls left.", left), values, true);
    }
    case "held":
      if (!data.held.length) return gettext("Holding no dice.");
      return interpolate(
        ngettext("Holding die %(dice)s.", "Holding dice %(dice)s.", data.held.length),
        { dice: data.held.map((i) => i + 1).join(" ") }, true);
    case "scored": {
      const values = { points: data.points, box: labels[data.category] || data.category };
      return data.yahtzee_bonus
        ? interpolate(gettext("Scored %(points)s in %(box)s and a Yahtzee bonus of 100."), values, true)
        : interpolate(gettext("Scored %(points)s in %(box)s."), values, true);
    }
    case "chat":
      return interpolate(gettext("Said to the table: %(text)s"), { text: data.text }, true);
    case "bot_pace":
      return PACE_ECHO[data.pace] ?? null;
    case "show_odds":
      return data.show ? gettext("The players see who is likely to win now.") : gettext("The players no longer see who is likely to win.");
    default:
      return null;
  }
}
