// The table's command line, after the text games: `roll`, `roll 2 5`,
// `hold 1 3`, `score fives`, `score full house`, `score! chance`, `yes`, `say ...`,
// `back`, `leave`, `remove Ana`, `bot-seat 2`, `pace quick`, `chances on`,
// `watchers on`, `help`.
// Dice are numbered 1 to 5 from the left, as on the keyboard shortcuts; seats 1
// up, as in the lobby's list.

export const HELP = [
  "roll            throw every die not held",
  "roll 2 5        throw exactly dice 2 and 5 (keep the others)",
  "hold 1 3        hold exactly dice 1 and 3 (hold: release all)",
  "score fives     write this roll in a box: score full house,",
  "                score 3 of a kind, score chance, score sm straight...",
  "                (a 0, or far less than another box: it asks first)",
  "yes             write the score it asked about",
  "score! yahtzee  write it without asking",
  "say good luck   chat to the table",
  "back            I'm back: play your own turns again after being away",
  "leave           leave the game for good (type it twice, or leave!)",
  "remove Ana      host: take an away or offline player out of the game",
  "                (their score stands; a seat number works too: remove 2)",
  "bot-seat Ana    host: a bot plays that away or offline seat to the end",
  "pace quick      host: how the bots play: natural, quick or instant",
  "chances on      host: players see who is likely to win (chances off: not)",
  "watchers on     read the watchers' chat here (watchers off: stop)",
  "help            this list",
  "Keys: 1-5 hold a die, R or Space roll (Enter presses a focused button),",
  "/ this command line.",
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

const squash = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

// The box a player means, from its id, its label, an alias or a clear prefix.
export function findCategory(text, categories) {
  const wanted = squash(text);
  if (!wanted) return { error: "Score which box? For example: score fives" };
  // An alias names a box of this room's card (Yahtzee's or Yatzy's).
  const aliased = [ALIASES[wanted] || []].flat().find((id) => categories.some((c) => c.id === id));
  if (aliased) return { category: aliased };
  const exact = categories.find((c) => squash(c.id) === wanted || squash(c.label) === wanted);
  if (exact) return { category: exact.id };
  const matches = categories.filter((c) => squash(c.label).startsWith(wanted) || squash(c.id).startsWith(wanted));
  if (matches.length === 1) return { category: matches[0].id };
  if (matches.length > 1) {
    return { error: `"${text}" could be ${matches.map((c) => c.label).join(" or ")}.` };
  }
  return { error: `There is no box called "${text}". The boxes: ${categories.map((c) => c.label).join(", ")}.` };
}

function diceNumbers(words) {
  const positions = [];
  for (const word of words) {
    for (const part of word.split(",").filter(Boolean)) {
      if (!/^[1-5]$/.test(part)) return { error: `Dice are numbered 1 to 5, not "${part}".` };
      const position = Number(part) - 1;
      if (positions.includes(position)) return { error: `Die ${part} is named twice.` };
      positions.push(position);
    }
  }
  return { positions: positions.sort() };
}

// One line typed at the table, read into an action (or an error to show).
export function parse(line, categories) {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return { error: "Type a command, or help." };
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
      return text ? { action: "chat", text } : { error: "Say what? For example: say good luck" };
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
      return seatCommand("remove_player", verb, rest, "remove 2 or remove Ana");
    case "bot-seat":
    case "bot-seat!":
    case "botseat":
    case "botseat!":
    case "hand":
    case "hand!":
      return seatCommand("hand_to_bot", verb, rest, "bot-seat 2 or bot-seat Ana");
    case "pace":
    case "bots":
    case "bot-pace": {
      const pace = PACE_WORDS[(rest[0] || "").toLowerCase()];
      if (!pace || rest.length > 1) return { error: "The bots play natural, quick or instant: for example pace quick" };
      return { action: "bot_pace", pace };
    }
    case "chances":
    case "odds": {
      const on = onOrOff(rest);
      if (on === null) return { error: "Chances on or chances off? (Whether the players see who is likely to win.)" };
      return { action: "show_odds", on };
    }
    case "watchers": {
      const read = onOrOff(rest);
      if (read === null) return { error: "Watchers on or watchers off? (Whether you read the watchers' chat.)" };
      return { action: "read_watchers", read };
    }
    case "help":
    case "?":
      return { action: "help" };
    default:
      return { error: `Unknown command "${verb}". Type help for the list.` };
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

function seatCommand(action, verb, rest, example) {
  const who = rest.join(" ");
  if (!who) return { error: `Which seat? For example: ${example}` };
  return { action, who, sure: verb.endsWith("!") };
}

// The seat a player means: its number as shown (1 up), its name, or a clear start of it.
export function findSeat(text, players) {
  const wanted = text.trim().replace(/^seat\s+/i, "");
  if (/^\d+$/.test(wanted)) {
    const seat = Number(wanted) - 1;
    if (players[seat]) return { seat };
    return { error: `There is no seat ${wanted}: seats go from 1 to ${players.length}.` };
  }
  const lower = wanted.toLowerCase();
  const exact = players.find((p) => p.name.toLowerCase() === lower);
  if (exact) return { seat: exact.seat };
  const matches = players.filter((p) => p.name.toLowerCase().startsWith(lower));
  if (matches.length === 1) return { seat: matches[0].seat };
  if (matches.length > 1) return { error: `"${text}" could be ${matches.map((p) => p.name).join(" or ")}.` };
  return { error: `Nobody here is called "${text}". The players: ${players.map((p) => p.name).join(", ")}.` };
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
  const seconds = CONFIRM_MS / 1000;
  switch (action) {
    case "leave":
      return `Type leave again within ${seconds} s to leave the game for good (your score stands; you will watch). Or leave! at once.`;
    case "remove_player":
      return `Type that again within ${seconds} s to remove ${name} from the game (their score stands).`;
    case "hand_to_bot":
      return `Type that again within ${seconds} s to let a bot play ${name}'s seat for the rest of the game.`;
    default:
      return "";
  }
}

const PACE_ECHO = { natural: "at a natural pace", quick: "quickly", instant: "instantly" };

// What the command line says once the server has done what a typed command asked:
// the event that answered it, from this player's side. Null for other events.
export function echo({ kind, data }, labels) {
  switch (kind) {
    case "rolled": {
      const left = data.rolls_left;
      const after = left ? `${left} roll${left === 1 ? "" : "s"} left` : "no rolls left: pick a box";
      return `Rolled ${data.dice.join(" ")}: ${after}.`;
    }
    case "held":
      return data.held.length ? `Holding dice ${data.held.map((i) => i + 1).join(" ")}.` : "Holding no dice.";
    case "scored": {
      const bonus = data.yahtzee_bonus ? " and a Yahtzee bonus of 100" : "";
      return `Scored ${data.points} in ${labels[data.category] || data.category}${bonus}.`;
    }
    case "chat":
      return `Said to the table: ${data.text}`;
    case "bot_pace":
      return `The bots play ${PACE_ECHO[data.pace] || data.pace} now.`;
    case "show_odds":
      return data.show ? "The players see who is likely to win now." : "The players no longer see who is likely to win.";
    default:
      return null;
  }
}
