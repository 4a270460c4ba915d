// The game room: the wiring of its panels (static/js/panels/). The server's snapshot is
// the room's state (state.js applies each event after it); each panel draws its part of
// the page from that state, and is told of the events that touch it, and only those.
// The browser only asks: every roll, hold and score is the server's answer.

import { TurnAlerts } from "./alerts.js";
import { gettext, interpolate } from "./i18n.js";
import { spokenLeft, msLeft } from "./clock.js";
import { RoomSocket } from "./socket.js";
import { applyEvent, applyPresence, eventEndsWait, isMyTurn, isPlaying, snapshotEndsWait } from "./state.js";
import { BotPaceControl } from "./botpace.js";
import { Play } from "./play.js";
import { WatchersChat } from "./watchers.js";
import { WinChances } from "./odds.js";
import { DailyResult } from "./dailyresult.js";
import { OddsChoice } from "./showodds.js";
import { CardsPanel } from "./panels/cards.js";
import { CoachPanel } from "./panels/coach.js";
import { ConfirmDialog } from "./panels/confirm.js";
import { ConsolePanel } from "./panels/console.js";
import { rememberFocus, restoreFocus } from "./panels/dom.js";
import { FeedPanel } from "./panels/feed.js";
import { FinishPanel } from "./panels/finish.js";
import { LobbyPanel } from "./panels/lobby.js";
import { SeatPanel } from "./panels/seat.js";
import { StatusPanel } from "./panels/status.js";
import { TrayPanel } from "./panels/tray.js";
import { TurnPanel, bringTurnIntoView } from "./panels/turn.js";

const config = JSON.parse(document.getElementById("room-config").textContent);
const $ = (id) => document.getElementById(id);
// A touch screen (no hover, a finger for a pointer): the hints say tap, not click or press.
const touchScreen = matchMedia("(hover: none) and (pointer: coarse)");
const lessMotion = matchMedia("(prefers-reduced-motion: reduce)");
const PENDING_RESYNC_MS = 5000;
const RATE_LIMIT_PAUSE_MS = 1000;
const CLOCK_TICK_MS = 250;
// The events that answer a command waiting (`pending`) for its answer.

let state = null; // The last snapshot, with the events after it applied.
let pending = null; // The command sent and not yet answered: "roll", "score", "start" or "rematch".
let resyncing = false; // A snapshot asked for and not yet come (a new socket sends one).
let requestId = 0; // Ids are "<type>-<n>": an error names the command it refuses.
let pendingTimer = 0;
let pendingSent = null; // Where the pending command went from: { version, connection } (state.js).
let wasMyTurn = null; // To tell the moment this player's turn begins (null: nothing drawn yet).

// What every panel is given: the room's state and what may be asked of the server.
const room = {
  config,
  categories: config.categories,
  labels: Object.fromEntries(config.categories.map((c) => [c.id, c.label])),
  get state() { return state; },
  get pending() { return pending; },
  get reduceMotion() { return lessMotion.matches; },
  touchScreen: () => touchScreen.matches,
  send,
  sendPlay,
  sendRematch,
  say: (text, kind) => commandLine.say(text, kind),
  // A typed command one of the parts knows (the bots' pace, the chances, the watchers' chat).
  partCommand: (command) => parts.map((part) => part.command && part.command(command, state)).find(Boolean),
  ask: (words, then) => dialog.ask(words, then),
  clock: () => turn.shownClock(),
  changed,
};
const play = new Play(room);
room.play = play;
const alerts = new TurnAlerts({ icon: $("favicon"), turnIcon: $("room").dataset.turnIcon });
const dialog = new ConfirmDialog();
const winChances = new WinChances(send); // Its row goes under the names on the cards.
const status = new StatusPanel(room);
const lobby = new LobbyPanel(room);
const tray = new TrayPanel(room);
const turn = new TurnPanel(room);
const coach = new CoachPanel(room);
const cards = new CardsPanel(room, winChances);
const finish = new FinishPanel(room);
const seat = new SeatPanel(room, alerts);
const feed = new FeedPanel(room);
const commandLine = new ConsolePanel(room, seat);
const panels = [status, lobby, tray, turn, coach, cards, finish, seat, feed, commandLine];
// Self-contained parts, each told of every message after the room has applied it.
const parts = [
  new WatchersChat(send),
  new BotPaceControl(send),
  winChances,
  new OddsChoice(send),
  ...(config.daily ? [new DailyResult(config.code)] : []),
];

const socket = new RoomSocket(config.websocket, {
  onMessage: (message) => {
    lobby.hear(message);
    receive(message);
    for (const part of parts) part.receive(message, state);
  },
  onStatus: (connection) => status.showConnection(connection),
});

// ---------------------------------------------------------------------------
// Talking to the server

function send(type, fields = {}) {
  const id = `${type}-${++requestId}`;
  if (!socket.send({ type, id, ...fields })) {
    room.say(gettext("Not connected: waiting to reconnect, then try again."), "error");
    return false;
  }
  return true;
}

// A move (roll, score, start) goes once at a time: true when it went to the server.
function sendPlay(type, fields) {
  if (pending) return false;
  if (!send(type, { ...fields, version: state.version })) return false;
  waitFor(type);
  changed("pending");
  return true;
}

function sendRematch() {
  if (!pending && send("rematch")) {
    waitFor("rematch");
    changed("pending");
  }
}

// A command is answered by its event (or an error). If neither comes, the event may
// have been lost on the way (a gap shows only when a later event arrives): after a
// while, ask for the whole room again.
function waitFor(type) {
  pending = type;
  pendingSent = { version: state.version, connection: socket.connection };
  clearTimeout(pendingTimer);
  pendingTimer = setTimeout(() => { if (pending === type) resync(); }, PENDING_RESYNC_MS);
}

// Ask for the whole room again, once: events after a gap would each ask otherwise.
function resync() {
  if (!resyncing) resyncing = socket.send({ type: "snapshot" });
}

function receive(message) {
  const receivedAt = performance.now(); // The clock's `ms_left` counts from now.
  switch (message.type) {
    case "snapshot":
      state = message;
      turn.setClock(message.clock, receivedAt);
      resyncing = false;
      if (snapshotEndsWait(pendingSent, message, socket.connection)) pending = null;
      play.holdAnswered(true);
      drawAll();
      coach.ask();
      break;
    case "advice":
      coach.receive(message);
      break;
    case "event":
      if (!state || message.version <= state.version) return; // Old news.
      if (message.version > state.version + 1) {
        resync(); // A gap: something was missed.
        return;
      }
      onEvent(message, receivedAt);
      break;
    case "presence":
      if (state) {
        applyPresence(state, message);
        changed("presence");
      }
      break;
    case "joined":
      resync(); // Redraw as the seated player.
      break;
    case "error":
      onError(message);
      break;
    default:
      break; // pong
  }
}

function onEvent(message, receivedAt) {
  const you = state.you;
  const aboutMe = Boolean(you && message.data && "seat" in message.data && message.data.seat === you.seat);
  if (message.kind === "held" && aboutMe) message = play.echoed(message);
  const wasPlaying = isPlaying(state);
  applyEvent(state, message, room.categories);
  if ("clock" in message) turn.setClock(message.clock, receivedAt);
  if (eventEndsWait(message)) pending = null;
  if (aboutMe) tellMe(message, wasPlaying);
  if (aboutMe) commandLine.echo(message);
  dispatch(message);
}

// What happened to this player's own seat, said to them too (the toast is read out).
function tellMe({ kind, data }, wasPlaying) {
  if (kind === "left" && wasPlaying) {
    room.say(data.by === "host"
      ? gettext("The host removed you from the game: you are watching now.")
      : gettext("You left the game: you are watching now."), "notice");
  } else if (kind === "away") {
    room.say(gettext("You are away: a bot plays your turns until you press I'm back (or type back)."), "notice");
  } else if (kind === "back") {
    room.say(gettext("You are back: your turns wait for you again."), "notice"); // Not "away" a moment longer.
  } else if (kind === "handed") {
    room.say(gettext("The host handed your seat to a bot for the rest of the game: you are watching it play."), "notice");
  }
}

function onError(message) {
  if (message.code === "rate_limited") {
    // The server read none of the message (not even its id): whatever it was, nothing
    // waits for its answer any more (a request for the room included); in a moment the
    // room is read again, which asks the coach again too.
    pending = null;
    play.holdAnswered(true);
    coach.forget();
    resyncing = false;
    room.say(gettext("Too many clicks at once: one moment."), "error");
    setTimeout(resync, RATE_LIMIT_PAUSE_MS);
    changed("pending");
    return;
  }
  const what = typeof message.id === "string" ? message.id.split("-")[0] : null;
  if (what === "advice") {
    // The turn moved on (or the coach went off) before the answer: the table says so already.
    coach.forget();
    return;
  }
  if (what === "odds") return; // The chances to win deal with their own (odds.js).
  if (what === pending) pending = null;
  if (what === "hold") {
    play.holdAnswered();
    resync(); // Show the holds the server has.
  }
  if (message.code === "stale") {
    room.say(gettext("The table changed before your move arrived: look again and decide."), "error");
    resync();
  } else {
    room.say(capitalise(message.message) + ".", "error");
  }
  changed("pending");
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// ---------------------------------------------------------------------------
// Drawing: the whole page from a snapshot; after that, each change to the panels it touches.

function drawAll() {
  const focus = rememberFocus(document);
  for (const panel of panels) panel.draw();
  settle(focus);
}

// An event applied, or this page's own change ("pending": a command sent or answered;
// "hold": a die clicked; "presence": who is connected).
function dispatch(message) {
  const focus = rememberFocus(document);
  for (const panel of panels) if (panel.follows.has(message.kind)) panel.update(message);
  settle(focus);
}

function changed(kind) {
  if (state) dispatch({ type: "local", kind });
}

function settle(focus) {
  turn.tick();
  cards.fit();
  restoreFocus(document, focus);
  noticeTurn(); // Last: a turn that starts scrolls the page as it is now drawn.
}

// The tab says whose turn it is; the moment this player's turn begins it may also beep,
// buzz and notify (not when the page first opens on it), and the turn comes into view.
function noticeTurn() {
  const mine = isMyTurn(state);
  alerts.show(mine);
  if (mine && !wasMyTurn) {
    cards.showMyColumn();
    bringTurnIntoView(turn, state.you.seat);
  }
  if (mine && wasMyTurn === false) {
    const clock = turn.shownClock();
    alerts.ring(clock
      ? interpolate(gettext("You have %(time)s."), { time: spokenLeft(msLeft(clock, performance.now())) }, true)
      : gettext("Roll when you are ready."));
  }
  wasMyTurn = mine;
}

setInterval(() => turn.tick(), CLOCK_TICK_MS);
addEventListener("resize", () => state && cards.fit()); // A phone turned on its side, say.
$("connection").querySelector(".connection__retry").addEventListener("click", () => socket.retryNow());

// ---------------------------------------------------------------------------
// The keyboard: R or Space rolls, 1-5 hold, C goes to the card, arrows move along it,
// / to the command line.

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target.closest("input, textarea, select, [contenteditable], dialog")) return;
  if (!state || state.game.status !== "playing") return;
  if (/^[1-5]$/.test(event.key)) {
    event.preventDefault();
    play.toggleHold(Number(event.key) - 1);
  } else if (event.key === "r" || event.key === "R") {
    event.preventDefault();
    play.roll();
  } else if (event.key === " " && (state.you || !target.closest("button, a, summary"))) {
    // A player's Space rolls wherever the focus is, on a die just clicked too (Enter
    // still presses a focused button); a watcher's Space keeps its usual work.
    event.preventDefault();
    play.roll();
  } else if ((event.key === "c" || event.key === "C") && focusBox(0)) {
    event.preventDefault(); // To the card: the first box these dice can go in.
  } else if (["ArrowDown", "ArrowUp"].includes(event.key) && target.classList.contains("box-option")) {
    // From box to box down and up the card; Enter (the button's own) scores.
    event.preventDefault();
    focusBox(event.key === "ArrowDown" ? 1 : -1, target);
  } else if (event.key === "/" && !$("console").hidden) {
    event.preventDefault();
    $("console-input").focus();
  }
});

// The keyboard's way to score: focus the open box `step` boxes from `from` (or the first),
// staying at the ends. Whether there was a box to focus.
function focusBox(step, from = null) {
  // Not while a command waits for its answer: the boxes are disabled until it comes.
  const boxes = [...document.querySelectorAll("#scorecard .box-option:not(:disabled)")];
  if (!boxes.length) return false;
  const at = from ? boxes.indexOf(from) : -1;
  boxes[Math.min(Math.max(at + step, 0), boxes.length - 1)].focus();
  return true;
}

// For the browser tests and the curious: the room's state and its socket.
window.yahtzeeRoom = {
  get state() { return state; },
  get advice() { return coach.advice; },
  get turnScrolling() { return turn.scrolling; },
  get holdsInFlight() { return play.holdsInFlight; }, // Holds the server has not yet echoed.
  socket,
};

socket.connect();
