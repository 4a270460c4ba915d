// The game room: lobby, table and final cards, drawn from the server's
// snapshot and kept live by its events. The browser only asks; every roll,
// hold and score is the server's answer.

import { TurnAlerts, canAskToNotify } from "./alerts.js";
import { ClockAnnouncer, describeTurnClock, formatLeft, isUrgent, localClock, msLeft, spokenLeft } from "./clock.js";
import { cautionWords, scoreCaution } from "./caution.js";
import { CONFIRM_MS, Confirmation, HELP, confirmPrompt, echo, findSeat, parse } from "./commands.js";
import { RoomSocket } from "./socket.js";
import { applyEvent, applyPresence, describe, eventEndsWait, hostActions, seatMarks, snapshotEndsWait } from "./state.js";
import { BotPaceControl } from "./botpace.js";
import { AskedSetting } from "./setting.js";
import { bothBests } from "./advice.js";
import { turnScroll } from "./inview.js";
import { WatchersChat } from "./watchers.js";
import { WinChances } from "./odds.js";
import { OddsChoice } from "./showodds.js";

const config = JSON.parse(document.getElementById("room-config").textContent);
const categories = config.categories;
const labels = Object.fromEntries(categories.map((c) => [c.id, c.label]));
const $ = (id) => document.getElementById(id);
const reduceMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
// A touch screen (no hover, a finger for a pointer): the hints say tap, not click or press.
const touchScreen = matchMedia("(hover: none) and (pointer: coarse)");
const ROLL_ANIMATION_MS = 650;
const REMATCH_DELAY_MS = 800; // Long enough to read where you are going.

let state = null; // The last snapshot, with the events after it applied.
let pending = null; // The command sent and not yet answered: "roll", "score", "start" or "rematch".
let resyncing = false; // A snapshot asked for and not yet come (a new socket sends one).
let holdsInFlight = 0; // Our own holds not yet echoed back as `held` events.
let requestId = 0; // Ids are "<type>-<n>": an error names the command it refuses.
let advice = null; // The coach's last advice for this player's turn, while it fits the dice.
let adviceAsked = null; // The position ("dice/rolls left") advice was last asked for.
let coachShowsAll = false;
const coachAsked = new AskedSetting("coach"); // The switch as the host set it, until the room says so.
const COACH_SHOWN = 6; // Choices listed before "Show all".
let turnClock = null; // The server's clock as this page counts it (clock.js localClock), or null.
let wasMyTurn = null; // To tell the moment this player's turn begins (null: nothing drawn yet).
const announcer = new ClockAnnouncer();
const consoleAsks = new Confirmation(); // `leave`, `remove`, `bot-seat` typed twice.
let scoreAsked = null; // The command line's question before a low score: { category, position, at }.
let typed = null; // The command typed and sent, until its event comes: { kind, at }.
const TYPED_ECHO_MS = 10_000;
const alerts = new TurnAlerts({ icon: $("favicon"), turnIcon: $("room").dataset.turnIcon });

// Self-contained parts of the room, each told of every message after the room has applied it.
const winChances = new WinChances(send); // Its row goes under the names on the cards.
const parts = [new WatchersChat(send), new BotPaceControl(send), winChances, new OddsChoice(send)];
function receiveAll(message) {
  coachAsked.hear(message);
  receive(message);
  for (const part of parts) part.receive(message, state);
}
const socket = new RoomSocket(config.websocket, { onMessage: receiveAll, onStatus: showConnection });

// ---------------------------------------------------------------------------
// Talking to the server

function send(type, fields = {}) {
  const id = `${type}-${++requestId}`;
  if (!socket.send({ type, id, ...fields })) {
    say("Not connected: waiting to reconnect, then try again.", "error");
    return false;
  }
  return true;
}

// True when the command went to the server.
function sendPlay(type, fields) {
  if (pending) return false;
  if (!send(type, { ...fields, version: state.version })) return false;
  waitFor(type);
  render();
  return true;
}

// A command is answered by its event (or an error). If neither comes, the event may
// have been lost on the way (a gap shows only when a later event arrives): after a
// while, ask for the whole room again.
const PENDING_RESYNC_MS = 5000;
let pendingTimer = 0;
let pendingSent = null; // Where the pending command went from: { version, connection } (state.js).
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
      turnClock = localClock(message.clock, receivedAt);
      resyncing = false;
      if (snapshotEndsWait(pendingSent, message, socket.connection)) pending = null;
      holdsInFlight = 0;
      rebuildFeed();
      render();
      askCoach();
      break;
    case "advice":
      if (fitsTurn(message)) {
        advice = message;
        renderCoach();
      }
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
        render();
      }
      break;
    case "joined":
      localStorage.setItem("yahtzee.name", $("join-name").value.trim());
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
  if (message.kind === "held" && you() && message.data.seat === you().seat && holdsInFlight > 0) {
    // Clicks run ahead of their echoes: until the last one is back, what is on
    // screen (the newest choice) stands.
    holdsInFlight -= 1;
    if (holdsInFlight > 0) message = { ...message, data: { ...message.data, held: state.turn.held } };
  }
  const rolledBy = message.kind === "rolled" ? message.data : null;
  if (["rolled", "scored", "left"].includes(message.kind)) advice = adviceAsked = null; // A new position.
  const aboutMe = you() && message.data && "seat" in message.data && message.data.seat === you().seat;
  const wasPlaying = playing();
  applyEvent(state, message, categories);
  if ("clock" in message) turnClock = localClock(message.clock, receivedAt);
  if (eventEndsWait(message)) pending = null;
  addToFeed(message);
  if (aboutMe) tellMe(message, wasPlaying);
  if (aboutMe) echoTyped(message);
  render();
  if (rolledBy) animateRoll(rolledBy);
  if (message.kind === "finished") showResult();
  if (message.kind === "rematch") goToRematch(message.data);
  if (["rolled", "coach"].includes(message.kind)) askCoach();
}

// What happened to this player's own seat, said to them too (the toast is read out).
function tellMe({ kind, data }, wasPlaying) {
  if (kind === "left" && wasPlaying) {
    say(data.by === "host" ? "The host removed you from the game: you are watching now." : "You left the game: you are watching now.", "notice");
  } else if (kind === "away") {
    say("You are away: a bot plays your turns until you press I'm back (or type back).", "notice");
  } else if (kind === "back") {
    say("You are back: your turns wait for you again.", "notice"); // Not "away" a moment longer.
  } else if (kind === "handed") {
    say("The host handed your seat to a bot for the rest of the game: you are watching it play.", "notice");
  }
}

// A command typed in the command line is answered there, once the server has done it.
function echoTyped(message) {
  if (!typed || typed.kind !== message.kind || performance.now() - typed.at > TYPED_ECHO_MS) return;
  typed = null;
  const line = echo(message, labels);
  if (line) say(line);
}

// The game just ended: the result comes into view, with a short burst of confetti for
// everyone who has not asked their system for less motion.
const CELEBRATION_MS = 2600;

function showResult() {
  const finish = $("finish");
  finish.scrollIntoView({ block: "start", behavior: reduceMotion ? "auto" : "smooth" });
  if (reduceMotion) return;
  const burst = el("div", { class: "celebration", "aria-hidden": "true" });
  for (let i = 0; i < 28; i += 1) {
    const piece = el("span", { class: `celebration__piece celebration__piece--${i % 4}` });
    // Spread over the width and a little in time, the same way each time (through the
    // CSSOM: the Content-Security-Policy refuses style attributes).
    piece.style.left = `${(i * 37) % 100}%`;
    piece.style.animationDelay = `${(i % 7) * 90}ms`;
    piece.style.setProperty("--drift", `${((i * 53) % 60) - 30}px`);
    burst.append(piece);
  }
  finish.append(burst);
  setTimeout(() => burst.remove(), CELEBRATION_MS);
}

// Everyone in the room, watchers too, follows a rematch to its new room.
function goToRematch({ code, name }) {
  say(`${name} started a rematch: taking you to the new room…`, "notice");
  setTimeout(() => location.assign(`/g/${encodeURIComponent(code)}/`), REMATCH_DELAY_MS);
}

const RATE_LIMIT_PAUSE_MS = 1000;

function onError(message) {
  if (message.code === "rate_limited") {
    // The server read none of the message (not even its id): whatever it was, nothing
    // waits for its answer any more (a request for the room included); in a moment the
    // room is read again, which asks the coach again too.
    pending = null;
    holdsInFlight = 0;
    adviceAsked = null;
    resyncing = false;
    say("Too many clicks at once: one moment.", "error");
    setTimeout(resync, RATE_LIMIT_PAUSE_MS);
    render();
    return;
  }
  const what = typeof message.id === "string" ? message.id.split("-")[0] : null;
  if (what === "advice") {
    // The turn moved on (or the coach went off) before the answer: the table says so already.
    adviceAsked = null;
    return;
  }
  if (what === "odds") return; // The chances to win deal with their own (odds.js).
  if (what === pending) pending = null;
  if (what === "hold") {
    holdsInFlight = Math.max(0, holdsInFlight - 1);
    resync(); // Show the holds the server has.
  }
  if (message.code === "stale") {
    say("The table changed before your move arrived: look again and decide.", "error");
    resync();
  } else {
    say(capitalise(message.message) + ".", "error");
  }
  render();
}

// ---------------------------------------------------------------------------
// What the player can do

const you = () => state && state.you;
const playing = () => state && state.game.status === "playing";
const mySeat = () => (you() ? state.players[you().seat] : null);
const away = () => Boolean(mySeat() && mySeat().away); // A bot plays this player's turns (for now, or for good).
const handed = () => Boolean(mySeat() && mySeat().handed);
const myTurn = () => playing() && you() && state.turn && state.turn.seat === you().seat && !away();
// Someone who may play here: seated, and not handed to a bot. Watchers see no player controls.
const player = () => Boolean(you()) && !handed();
const nameOf = (seat) => (state.players[seat] ? state.players[seat].name : `Seat ${seat + 1}`);

function canHold() {
  return myTurn() && state.turn.dice && state.turn.rolls_left > 0 && !pending;
}

function canRoll() {
  return myTurn() && state.turn.rolls_left > 0 && !pending && state.turn.held.length < 5;
}

function toggleHold(position) {
  if (!canHold()) return explainWhyNot("hold");
  const held = new Set(state.turn.held);
  if (held.has(position)) held.delete(position);
  else held.add(position);
  setHeld([...held].sort());
}

function setHeld(positions) {
  if (!canHold()) return explainWhyNot("hold");
  if (positions.length === 5) {
    say("Keep at most four dice: a roll needs at least one die to throw.", "error");
    return;
  }
  state.turn.held = positions; // Shown at once; the server's `held` event confirms it.
  render();
  if (!send("hold", { hold: positions })) return false;
  holdsInFlight += 1;
  return true;
}

function roll(throwOnly = null) {
  if (!myTurn() || !state.turn.rolls_left || pending) return explainWhyNot("roll");
  let hold = state.turn.dice ? state.turn.held : [];
  if (throwOnly) {
    if (!state.turn.dice) {
      say("The first roll throws all five dice: type roll.", "error");
      return;
    }
    hold = [0, 1, 2, 3, 4].filter((i) => !throwOnly.includes(i));
  }
  if (hold.length === 5) {
    say("Every die is held: release one to roll, or pick a box.", "error");
    return;
  }
  return sendPlay("roll", { hold });
}

// `sure`: the player has answered the question about a low score already.
function score(category, { sure = false, fromConsole = false } = {}) {
  if (!myTurn() || pending) return explainWhyNot("score");
  if (!state.turn.dice) return say("Roll first: a box takes the dice of a roll.", "error");
  if (state.players[you().seat].card.boxes[category] !== null) {
    return say(`Your ${labels[category]} box is already filled.`, "error");
  }
  if (!(category in state.turn.options)) {
    const allowed = Object.keys(state.turn.options).map((c) => labels[c]).join(" or ");
    return say(`The forced Joker rule sends this Yahtzee to ${allowed}.`, "error");
  }
  const caution = sure ? null : scoreCaution(category, state.turn.options);
  if (caution) {
    const words = cautionWords(category, caution, labels, state.turn.dice);
    if (fromConsole) {
      scoreAsked = { category, position: position(state.turn), at: performance.now() };
      return say(words.line);
    }
    // The dialog's answer comes later: by then the turn may have moved on (the clock).
    const where = position(state.turn);
    return ask(words, () => {
      if (myTurn() && state.turn.dice && position(state.turn) === where) score(category, { sure: true });
    });
  }
  return sendPlay("score", { category });
}

// `yes` to the command line's question: only for the same roll, within CONFIRM_MS.
function confirmScore() {
  const asked = scoreAsked;
  scoreAsked = null;
  const fresh = asked && performance.now() - asked.at <= CONFIRM_MS;
  if (!fresh || !myTurn() || !state.turn.dice || position(state.turn) !== asked.position) {
    return say("Nothing to confirm: type score and a box.", "error");
  }
  return score(asked.category, { sure: true, fromConsole: true });
}

function explainWhyNot(action) {
  if (!state) return;
  let why;
  if (!you()) why = "You are watching: only the players at the table can act.";
  else if (state.game.status === "lobby") why = "The game has not started yet.";
  else if (state.game.status === "finished") why = "The game is over.";
  else if (state.game.status === "abandoned") why = "The game was abandoned.";
  else if (handed()) why = "The host handed your seat to a bot for the rest of the game.";
  else if (away()) why = "You are away: press I'm back (or type back) to play your turns again.";
  else if (!state.turn) why = "Waiting for the roll-off.";
  else if (state.turn.seat !== you().seat) why = `It is ${nameOf(state.turn.seat)}'s turn.`;
  else if (pending) why = "Waiting for the server…";
  else if (!state.turn.dice) why = action === "roll" ? "" : "Roll first.";
  else if (!state.turn.rolls_left) why = "No rolls left: pick a box on your card.";
  if (why) say(why, "error");
}

// ---------------------------------------------------------------------------
// Drawing

function render() {
  if (!state) return;
  const focus = rememberFocus();
  const status = state.game.status;
  $("room").dataset.status = status;
  $("lobby").hidden = status !== "lobby";
  $("turn").hidden = status !== "playing";
  $("console").hidden = status !== "playing" || !player();
  $("cards").hidden = status === "lobby";
  placeInvite(status);
  placeToast(status);
  renderStatus();
  if (status === "lobby") renderLobby();
  else {
    renderTurn();
    renderCoach();
    renderCards();
    renderFinish();
  }
  renderAway();
  renderSeatTools();
  renderChat();
  tickClock();
  fitCards();
  restoreFocus(focus);
  noticeTurn(); // Last: a turn that starts scrolls the page as it is now drawn.
}

// The invite stands in the lobby; once the game has started, the Invite button opens it.
// Messages to this player: in the game, in the turn's hint's place (the result's, at the
// end), so they never cover the dice, Roll or the card; in the lobby, at the screen's foot.
function placeToast(status) {
  const home = { playing: $("turn-say"), finished: $("finish-say") }[status] ?? $("room");
  const toast = $("toast");
  if (toast.parentElement !== home) home.append(toast);
}

function placeInvite(status) {
  const home = status === "lobby" ? $("lobby") : $("invite-dialog-body");
  const invite = $("invite");
  if (invite.parentElement !== home) home.append(invite);
  $("invite-button").hidden = status === "lobby";
  $("share-button").hidden = typeof navigator.share !== "function";
}

// Cards wider than their frame scroll sideways: say so, and keep this player's column in view.
function fitCards() {
  const frame = $("cards-scroll");
  const overflowing = !$("cards").hidden && frame.scrollWidth > frame.clientWidth + 1;
  $("cards").classList.toggle("cards--overflowing", overflowing);
  $("cards-more").hidden = !overflowing;
}

function showMyColumn() {
  const frame = $("cards-scroll");
  const mine = you() && frame.querySelector(`thead th[data-seat="${you().seat}"]`);
  if (!mine || frame.scrollWidth <= frame.clientWidth + 1) return;
  const labelsWidth = frame.querySelector(".scorecard__corner").offsetWidth;
  const left = mine.offsetLeft - labelsWidth;
  const right = mine.offsetLeft + mine.offsetWidth - frame.clientWidth;
  if (frame.scrollLeft > left) frame.scrollLeft = left;
  else if (frame.scrollLeft < right) frame.scrollLeft = right;
}

// The turn clock ------------------------------------------------------------

// The clock shown: the server's, while it times the turn on the table.
function shownClock() {
  if (!turnClock || !playing() || !state.turn || turnClock.seat !== state.turn.seat) return null;
  return turnClock;
}

// Several times a second: the time left, beside the dice and beside the seat on
// turn; and now and then a sentence for the screen reader.
function tickClock() {
  if (!state) return;
  const clock = shownClock();
  const ms = clock ? msLeft(clock, performance.now()) : 0;
  const mine = Boolean(clock && myTurn());
  const sentence = announcer.next(clock, mine, ms);
  if (sentence) $("clock-announcer").textContent = sentence;
  const box = $("turn-clock");
  box.hidden = !clock;
  if (!clock) return;
  const urgent = isUrgent(ms);
  const time = formatLeft(ms);
  box.classList.toggle("turn-clock--mine", mine);
  box.classList.toggle("turn-clock--urgent", urgent);
  $("turn-clock-who").textContent = mine ? "" : `${nameOf(clock.seat)}:`;
  $("turn-clock-time").textContent = time;
  $("turn-clock-word").textContent = ms <= 0 ? "time is up" : urgent ? "left: hurry!" : "left";
  document.querySelectorAll(".seat-clock").forEach((span) => {
    span.querySelector(".seat-clock__time").textContent = time;
    span.classList.toggle("seat-clock--urgent", urgent);
  });
}

// The tab says whose turn it is; the moment this player's turn begins it may
// also beep, buzz and notify (not when the page first opens on it).
function noticeTurn() {
  const mine = Boolean(myTurn());
  alerts.show(mine);
  if (mine && !wasMyTurn) {
    showMyColumn();
    bringTurnIntoView();
  }
  if (mine && wasMyTurn === false) {
    const clock = shownClock();
    alerts.ring(clock ? `You have ${spokenLeft(msLeft(clock, performance.now()))}.` : "Roll when you are ready.");
  }
  wasMyTurn = mine;
}

// When this seat's turn starts, the dice, Roll and every open box come into view by
// themselves, wherever the player had scrolled (the feed, the chat): the smallest scroll
// that shows them (static/js/inview.js), smoothly unless the system asks for less motion.
// A smooth scroll takes a moment: `turnScrolling` says it is under way (for the browser
// tests, which wait for it to end before they touch the page, as a player's eye would).
let turnScrolling = false;
function bringTurnIntoView() {
  const seat = you().seat;
  const need = [
    ...$("tray").querySelectorAll(".die-button"),
    $("roll-button"),
    ...$("scorecard").querySelectorAll(`td[data-seat="${seat}"][data-box]:not(.scorecard__filled)`),
  ];
  const head = $("scorecard").querySelector(`thead th[data-seat="${seat}"]`);
  const by = turnScroll(need.map(onScreen), head ? head.getBoundingClientRect().top : null, innerHeight);
  const target = Math.round(Math.min(Math.max(scrollY + by, 0), scrollRoom()));
  if (target === Math.round(scrollY)) return;
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) {
    scrollTo({ top: target, behavior: "instant" });
    return;
  }
  // The scroll is over when it reaches its target (a scroll that ended before it began,
  // the page shrinking as the lobby closed, also ends with a scrollend), or when the
  // player takes over.
  const events = ["scrollend", "wheel", "touchstart", "keydown", "pointerdown"];
  const over = (event) => {
    if (event.type === "scrollend" && Math.abs(scrollY - Math.min(target, scrollRoom())) > 1) return;
    turnScrolling = false;
    events.forEach((type) => removeEventListener(type, over, true));
  };
  events.forEach((type) => addEventListener(type, over, true));
  turnScrolling = true;
  scrollTo({ top: target, behavior: "smooth" });
}

// How far the page can scroll down.
function scrollRoom() {
  return document.documentElement.scrollHeight - innerHeight;
}

// An element's place on the screen, and whether it is wholly there with nothing over it.
function onScreen(element) {
  const box = element.getBoundingClientRect();
  const inside = box.height > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= innerHeight && box.right <= document.documentElement.clientWidth;
  const hit = inside && document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return { top: box.top, bottom: box.bottom, seen: Boolean(hit) && element.contains(hit) };
}

// This player's seat is away, or the host handed it to a bot.
function renderAway() {
  const seat = mySeat();
  const shown = Boolean(playing() && seat && seat.away);
  $("away-notice").hidden = !shown;
  if (!shown) return;
  $("away-heading").textContent = seat.handed ? "A bot plays your seat" : "You are away";
  $("away-text").textContent = seat.handed
    ? "The host handed your seat to a bot for the rest of the game: you watch it play. Your score stands."
    : "The clock played two of your turns in a row, so a bot plays for you until you come back.";
  $("back-button").hidden = seat.handed;
}

// A seated player's tools: the turn alerts, the host's care of away seats, leaving.
function renderSeatTools() {
  const status = state.game.status;
  const shown = Boolean(you()) && !handed() && (status === "lobby" || status === "playing");
  $("seat-tools").hidden = !shown;
  if (!shown) return;
  $("sound-toggle").checked = alerts.soundOn;
  $("notify-button").hidden = !canAskToNotify(window.Notification);
  $("leave-game-button").hidden = status !== "playing";
  const actions = hostActions(state);
  $("host-seats").hidden = !actions.length;
  $("host-seats-list").replaceChildren(...actions.map((action) => {
    const item = el("li", { class: "host-seats__item" });
    const buttons = el("span", { class: "host-seats__actions" });
    item.append(el("span", { class: "host-seats__name" }, action.name), ...action.marks.map(markBadge), buttons);
    const remove = el("button", {
      type: "button", class: "button button--small", "data-focus": `remove-${action.seat}`,
      "aria-label": `Remove ${action.name} from the game`,
    }, "Remove");
    remove.addEventListener("click", () => askHost("remove_player", action.seat));
    buttons.append(remove);
    if (action.hand) {
      const hand = el("button", {
        type: "button", class: "button button--small", "data-focus": `hand-${action.seat}`,
        "aria-label": `Let a bot play ${action.name}'s seat`,
      }, "Let a bot play");
      hand.addEventListener("click", () => askHost("hand_to_bot", action.seat));
      buttons.append(hand);
    }
    return item;
  }));
}

// "away", "bot plays", "offline": in words, with a colour.
function markBadge(mark) {
  return el("span", { class: `badge badge--${mark.replace(/\s+/g, "-")}` }, mark);
}

function renderStatus() {
  const { game } = state;
  let text;
  if (game.status === "lobby") text = `Lobby · ${state.players.length} of ${game.seats} seats taken`;
  else if (game.status === "finished") text = "Finished";
  else if (game.status === "abandoned") text = "Abandoned: the game ended unfinished";
  else if (!state.turn) text = "Roll-off";
  else text = `Round ${game.round} of ${categories.length} · ${myTurn() ? "your turn" : `${nameOf(state.turn.seat)}'s turn`}`;
  const watching = state.watchers ? ` · ${state.watchers} watching` : "";
  $("room-status").textContent = text + watching + (you() ? "" : " · you are watching");
  // A solo room never has a clock: saying so there would be noise.
  const setting = game.seats > 1 ? describeTurnClock(game.turn_seconds) : null;
  $("clock-setting").hidden = !setting;
  $("clock-setting").textContent = setting || "";
}

function renderLobby() {
  const seats = $("seats");
  seats.replaceChildren();
  for (let seat = 0; seat < state.game.seats; seat += 1) {
    const player = state.players[seat];
    const item = el("li", { class: player ? "seat" : "seat seat--empty" });
    if (player) {
      item.append(
        el("span", { class: `presence-dot${player.connected ? " presence-dot--on" : ""}`, "aria-hidden": "true" }),
        el("span", { class: "seat__name" }, player.name),
      );
      if (player.host) item.append(el("span", { class: "badge" }, "host"));
      if (player.bot) item.append(el("span", { class: "badge badge--bot", title: `${player.bot} bot` }, "bot"));
      if (you() && you().seat === seat) item.append(el("span", { class: "badge badge--you" }, "you"));
      item.append(...seatMarks(player).map(markBadge));
      if (player.bot && you() && you().host) {
        const remove = el("button", {
          type: "button", class: "button button--small button--quiet seat__remove",
          "aria-label": `Take ${player.name} off seat ${seat + 1}`,
        }, "Remove");
        remove.addEventListener("click", () => send("remove_bot", { bot: seat }));
        item.append(remove);
      }
    } else {
      item.append(el("span", { class: "seat__name" }, "Empty seat"));
    }
    seats.append(item);
  }
  const full = state.players.length >= state.game.seats;
  const host = Boolean(you() && you().host);
  $("lobby").classList.toggle("lobby--host", host); // On a phone the host's invite comes first.
  $("coach-switch").hidden = !host;
  $("coach-toggle").checked = coachAsked.shown(Boolean(state.game.coach));
  $("coach-state").hidden = host;
  $("coach-state").textContent = state.game.coach
    ? "Coach on: the player on turn sees the best move."
    : "Coach off.";
  $("add-bots").hidden = !host || full;
  $("join-form").hidden = Boolean(you()) || full;
  $("start-button").hidden = !(you() && you().host);
  $("start-button").disabled = Boolean(pending);
  $("leave-button").hidden = !you();
  let note;
  if (you() && you().host) note = "Start when everyone is seated. Latecomers can watch.";
  else if (you()) {
    const host = state.players.find((p) => p.host);
    note = `You are seated. ${host ? host.name : "The host"} starts the game.`;
  } else if (full) note = "Every seat is taken: you are watching this game.";
  else note = "Take a seat to play, or just watch.";
  $("lobby-note").textContent = note;
}

function renderTurn() {
  const { turn } = state;
  const mine = myTurn();
  const finished = state.game.status === "finished";
  const standIn = turn && state.players[turn.seat] && state.players[turn.seat].away; // A bot plays this turn.
  let heading;
  if (finished) heading = "Final dice";
  else if (!turn) heading = "Roll-off";
  else if (you() && turn.seat === you().seat && standIn) heading = "A bot plays your turn";
  else heading = mine ? "Your turn" : `${nameOf(turn.seat)}'s turn`;
  $("turn-heading").textContent = heading;
  $("turn").classList.toggle("turn--mine", Boolean(mine));

  // The roll-off stays in view until the first player's first roll.
  const rollOff = state.roll_off;
  const nothingPlayedYet = !(turn && turn.dice)
    && state.players.every((p) => Object.values(p.card.boxes).every((v) => v === null));
  $("roll-off").hidden = !(rollOff && rollOff.rounds.length && nothingPlayedYet && !finished);
  if (!$("roll-off").hidden) renderRollOff();

  const dice = turn && turn.dice;
  const held = new Set(turn ? turn.held : []);
  document.querySelectorAll(".die-button").forEach((button) => {
    const position = Number(button.dataset.position);
    const face = dice ? dice[position] : null;
    if (!button.classList.contains("die-button--rolling")) setFace(button, face);
    const isHeld = Boolean(dice) && held.has(position);
    button.setAttribute("aria-pressed", String(isHeld));
    button.classList.toggle("die-button--held", isHeld);
    button.disabled = !canHold();
    button.querySelector(".die-button__label").textContent =
      `Die ${position + 1}: ${face ?? "not rolled"}${isHeld ? ", held" : ""}`;
  });

  const rollButton = $("roll-button");
  rollButton.hidden = finished || !player();
  rollButton.disabled = !canRoll();
  if (turn && mine) {
    rollButton.textContent = turn.rolls_left
      ? `${turn.dice ? "Roll again" : "Roll"} · ${turn.rolls_left} left`
      : "No rolls left";
  } else rollButton.textContent = "Roll";

  let hint = "";
  if (finished) hint = "";
  else if (!turn) hint = "Everyone threw five dice: the highest sum goes first.";
  else if (mine && pending) hint = "…";
  else if (mine && !turn.dice) hint = touchScreen.matches ? "Tap Roll to throw the dice." : "Roll the dice: R or Space.";
  else if (mine && turn.rolls_left) {
    hint = touchScreen.matches
      ? "Tap dice to hold them; tap a box to score."
      : "Click dice (or press 1–5) to keep them, roll again, or pick a box on your card.";
  } else if (mine) hint = `${touchScreen.matches ? "Tap" : "Pick"} a box on your card for these dice.`;
  else if (standIn) hint = `A bot plays for ${nameOf(turn.seat)}${state.players[turn.seat].handed ? "" : " (away)"}.`;
  else if (!you()) hint = `You are watching ${nameOf(turn.seat)} play.`;
  else hint = `Waiting for ${nameOf(turn.seat)}.`;
  $("turn-hint").textContent = hint;
}

// ---------------------------------------------------------------------------
// The coach: the server's strategy engine ranks every choice for the player on
// turn; this browser only asks, once per roll, and shows the answer.

const position = (turn) => `${turn.dice.join("")}/${turn.rolls_left}`;
const fitsTurn = (message) => myTurn() && state.turn.dice
  && position(state.turn) === `${message.dice.join("")}/${message.rolls_left}`;

function askCoach() {
  if (!state || !state.game.coach || !myTurn() || !state.turn.dice) return;
  if (advice && fitsTurn(advice)) return;
  const where = position(state.turn);
  if (adviceAsked === where) return;
  adviceAsked = where;
  send("advice");
}

function renderCoach() {
  const section = $("coach");
  const shown = Boolean(state.game.coach && myTurn() && state.turn.dice);
  section.hidden = !shown;
  const ready = shown && advice && fitsTurn(advice);
  $("turn").classList.toggle("turn--coached", Boolean(ready));
  $("coach-tip").hidden = !ready;
  $("coach-tip").textContent = ready ? `Coach: ${advice.choices[0].label}` : "";
  if (!shown) return;
  if (!ready) {
    $("coach-best").textContent = "Thinking…";
    $("coach-yours").textContent = "";
    $("coach-both").hidden = true;
    $("coach-choices").tBodies[0].replaceChildren();
    $("coach-more").hidden = true;
    return;
  }
  const [best] = advice.choices;
  $("coach-best").replaceChildren(el("span", { class: "coach__label" }, "Best: "),
    el("strong", {}, best.label), ` · ${points(best.expected)} expected`);
  // When playing to win is not playing for points, both, with what each costs and brings.
  const both = bothBests(advice.to_win);
  $("coach-both").hidden = !both;
  $("coach-both-points").textContent = both ? both.points : "";
  $("coach-both-win").textContent = both ? both.win : "";
  // What the dice held now would do (nothing held: throwing all five again).
  const yours = $("coach-yours");
  yours.textContent = "No rolls left: every box, best first.";
  if (state.turn.rolls_left) {
    const kept = state.turn.held.map((i) => state.turn.dice[i]).sort((a, b) => a - b).join(" ");
    const mine = advice.choices.find((c) => c.kind === "keep" && c.kept.join(" ") === kept);
    const what = kept ? `Your hold (${mine ? mine.label.toLowerCase() : kept})` : "Throwing all five again";
    if (!mine) yours.textContent = "";
    else if (mine.loss < 0.005) yours.textContent = `${what} is the best keep.`;
    else yours.textContent = `${what} gives up ${points(mine.loss)}.`;
  }
  const body = $("coach-choices").tBodies[0];
  body.replaceChildren();
  const list = coachShowsAll ? advice.choices : advice.choices.slice(0, COACH_SHOWN);
  list.forEach((choice, index) => {
    const row = el("tr", { class: index === 0 ? "coach__row coach__row--best" : "coach__row" });
    row.append(el("th", { scope: "row" }, choice.label), el("td", {}, points(choice.expected)),
      el("td", {}, index === 0 ? "best" : `−${points(choice.loss)}`));
    body.append(row);
  });
  const more = $("coach-more");
  more.hidden = advice.choices.length <= COACH_SHOWN;
  more.textContent = coachShowsAll ? "Show the best few" : `Show all ${advice.choices.length} choices`;
  more.setAttribute("aria-expanded", String(coachShowsAll));
}

const points = (value) => value.toFixed(2);

function renderRollOff() {
  const list = $("roll-off-rounds");
  list.replaceChildren();
  state.roll_off.rounds.forEach((throws, index) => {
    const best = Math.max(...throws.map(([, faces]) => sum(faces)));
    const round = el("li", { class: "roll-off__round" });
    if (state.roll_off.rounds.length > 1) round.append(el("p", { class: "roll-off__label" }, `Round ${index + 1}`));
    for (const [seat, faces] of throws) {
      const total = sum(faces);
      const row = el("div", { class: `roll-off__throw${total === best ? " roll-off__throw--best" : ""}` });
      row.append(el("span", { class: "roll-off__name" }, nameOf(seat)), diceRow(faces, "small"),
        el("span", { class: "roll-off__sum" }, String(total)));
      round.append(row);
    }
    list.append(round);
  });
  const winner = state.roll_off.winner;
  if (winner !== null && winner !== undefined) {
    list.append(el("li", { class: "roll-off__result" }, `${nameOf(winner)} goes first.`));
  }
}

function renderCards() {
  const table = $("scorecard");
  const players = state.players;
  const turnSeat = state.turn ? state.turn.seat : null;
  const options = state.turn && state.turn.dice ? state.turn.options : null;
  const winners = new Set(state.winners || []);
  table.replaceChildren();
  table.style.setProperty("--players", players.length);
  table.dataset.players = String(players.length);
  table.append(el("caption", { class: "visually-hidden" }, "Every player's scorecard"));

  const head = el("tr");
  head.append(el("th", { scope: "col", class: "scorecard__corner" }, "Box"));
  players.forEach((player) => {
    const classes = ["scorecard__player"];
    if (player.seat === turnSeat) classes.push("scorecard__player--turn");
    if (player.left) classes.push("scorecard__player--left");
    if (winners.has(player.seat)) classes.push("scorecard__player--winner");
    const th = el("th", { scope: "col", class: classes.join(" "), "data-seat": player.seat });
    th.append(el("span", { class: "scorecard__name", title: player.name },
      el("span", { class: `presence-dot${player.connected ? " presence-dot--on" : ""}`, "aria-hidden": "true" }), player.name));
    if (you() && you().seat === player.seat) th.append(el("span", { class: "badge badge--you" }, "you"));
    if (player.bot) th.append(el("span", { class: "badge badge--bot", title: `${player.bot} bot` }, "bot"));
    th.append(...seatMarks(player).map(markBadge));
    if (player.seat === turnSeat) th.append(el("span", { class: "visually-hidden" }, " (on turn)"));
    if (player.seat === turnSeat && shownClock()) {
      // Its time is written by tickClock.
      th.append(el("span", { class: "seat-clock" }, el("span", { class: "seat-clock__time" }),
        el("span", { class: "visually-hidden" }, " left")));
    }
    if (player.left) th.append(el("span", { class: "badge" }, "left"));
    if (winners.has(player.seat)) th.append(el("span", { class: "badge badge--win" }, "winner"));
    head.append(th);
  });
  const thead = el("thead", {}, head);
  const odds = winChances.headRow(state, players, el);
  if (odds) thead.append(odds);
  table.append(thead);

  const body = el("tbody");
  const row = (label, cells, className = "") => {
    const tr = el("tr", className ? { class: className } : {});
    tr.append(el("th", { scope: "row" }, ...rowLabel(label)), ...cells);
    body.append(tr);
  };
  const boxRow = (category) => row(category.label, players.map((player) => boxCell(player, category, turnSeat, options)),
    `scorecard__box scorecard__box--${category.id}`);

  categories.filter((c) => c.upper).forEach(boxRow);
  row("Upper total", players.map((p) => upperCell(p.card)), "scorecard__sum");
  row(`Bonus (${config.upperBonus})`, players.map((p) => el("td", {}, p.card.upper_bonus ? String(p.card.upper_bonus) : "")), "scorecard__sum");
  categories.filter((c) => !c.upper).forEach(boxRow);
  // Yatzy's card has no Yahtzee bonus, so no row for one.
  if (config.yahtzeeBonus) row("Yahtzee bonus", players.map((p) => yahtzeeBonusCell(p.card)), "scorecard__sum");
  row("Lower total", players.map((p) => el("td", {}, String(p.card.lower_total))), "scorecard__sum");
  table.append(body);

  const foot = el("tr");
  foot.append(el("th", { scope: "row" }, ...rowLabel("Grand total")),
    ...players.map((p) => el("td", { class: "scorecard__total", "data-seat": p.seat }, String(p.card.total))));
  table.append(el("tfoot", {}, foot));
}

// The longer labels are shortened on a phone, so six cards fit beside them; screen
// readers keep the whole label.
const SHORT_LABELS = {
  "Three of a kind": "3 of a kind", "Four of a kind": "4 of a kind", "Small straight": "Sm straight",
  "Large straight": "Lg straight", "Yahtzee bonus": "Yahtzee +", "Upper total": "Upper", "Lower total": "Lower",
  "Grand total": "Total",
};

function rowLabel(label) {
  const short = SHORT_LABELS[label] || (label.startsWith("Bonus") ? "Bonus" : null);
  if (!short) return [label];
  return [el("span", { class: "scorecard__full" }, label), el("span", { class: "scorecard__short", "aria-hidden": "true" }, short)];
}

function boxCell(player, category, turnSeat, options) {
  const points = player.card.boxes[category.id];
  const td = el("td", { "data-seat": player.seat, "data-box": category.id });
  if (points !== null) {
    td.className = "scorecard__filled";
    td.textContent = String(points);
    return td;
  }
  if (player.seat !== turnSeat || !options) return td;
  if (!(category.id in options)) {
    // Only the forced Joker rule shuts an open box for a roll.
    td.className = "scorecard__closed";
    td.append(el("span", { "aria-hidden": "true" }, "–"),
      el("span", { class: "visually-hidden" }, "not allowed for this Yahtzee"));
    return td;
  }
  const value = options[category.id];
  if (myTurn() && player.seat === you().seat) {
    const button = el("button", {
      type: "button",
      class: `box-option${value ? "" : " box-option--zero"}`,
      "data-focus": `box-${category.id}`,
      "aria-label": `Score ${value} in ${category.label}`,
    }, String(value));
    button.disabled = Boolean(pending);
    button.addEventListener("click", () => score(category.id));
    td.append(button);
  } else {
    td.className = "scorecard__preview";
    td.append(el("span", { "aria-label": `${category.label} would score ${value}` }, String(value)));
  }
  return td;
}

function upperCell(card) {
  const td = el("td", { class: "upper-progress" });
  const ratio = Math.min(1, card.upper_total / config.upperBonusThreshold);
  td.append(el("span", {}, `${card.upper_total}`),
    el("span", { class: "upper-progress__goal" }, ` / ${config.upperBonusThreshold}`));
  const bar = el("span", { class: "upper-progress__bar", role: "img", "aria-label": `${card.upper_total} of ${config.upperBonusThreshold} toward the bonus` });
  const fill = el("span", { class: "upper-progress__fill" });
  // Through the CSSOM: the Content-Security-Policy refuses style attributes.
  fill.style.width = `${Math.round(ratio * 100)}%`;
  bar.append(fill);
  td.append(bar);
  return td;
}

function yahtzeeBonusCell(card) {
  const td = el("td", {});
  if (card.yahtzee_bonus_count) {
    td.append(el("span", { class: "checks", "aria-label": `${card.yahtzee_bonus_count} bonus checks` }, "✓".repeat(card.yahtzee_bonus_count)),
      ` ${card.yahtzee_bonus}`);
  }
  return td;
}

function renderFinish() {
  const abandoned = state.game.status === "abandoned";
  const finished = state.game.status === "finished";
  $("finish").hidden = !(finished || abandoned);
  if (abandoned) {
    // Ended unfinished: the cards as they stood, and nothing to do.
    $("finish-heading").textContent = "Game abandoned";
    $("finish-headline").textContent = "The game ended unfinished: nobody played for a long while.";
    $("ranking").replaceChildren();
    for (const id of ["rematch-button", "rematch-link", "finish-note"]) $(id).hidden = true;
    return;
  }
  if (!finished) return;
  if (config.daily) {
    // One game a day on the day's dice: its place and the engine's score are on the board.
    for (const id of ["rematch-button", "rematch-link", "finish-note"]) $(id).hidden = true;
    const total = state.players[0] ? state.players[0].card.total : 0;
    $("finish-headline").textContent = `${you() ? "You scored" : `${nameOf(0)} scored`} ${total} on today's dice.`;
    $("ranking").replaceChildren();
    return;
  }
  $("rematch-button").hidden = Boolean(!you() || state.rematch);
  $("rematch-button").disabled = pending === "rematch";
  $("rematch-link").hidden = !state.rematch;
  if (state.rematch) $("rematch-link").href = `/g/${encodeURIComponent(state.rematch)}/`;
  const winners = state.winners || [];
  const names = winners.map(nameOf);
  const best = winners.length ? state.players[winners[0]].card.total : 0;
  const mine = you() && winners.includes(you().seat);
  let headline;
  if (!names.length) headline = "Everybody left: nobody won.";
  else if (names.length === 1) headline = `${mine ? "You win" : `${names[0]} wins`} with ${best} points!`;
  else headline = `${names.join(" and ")} share the win with ${best} points.`;
  $("finish-headline").textContent = headline;
  renderRanking(winners);
}

// The places are the server's (the rules' outcome): ties share one, a seat that left has none.
function renderRanking(winners) {
  const unplaced = (p) => (p.place === null || p.place === undefined ? Infinity : p.place);
  const ranking = [...state.players].sort((a, b) => (unplaced(a) - unplaced(b)) || (a.seat - b.seat));
  const list = $("ranking");
  list.replaceChildren();
  ranking.forEach((player) => {
    const item = el("li", { class: `ranking__item${winners.includes(player.seat) ? " ranking__item--winner" : ""}` });
    const place = unplaced(player) === Infinity ? "–" : ordinal(player.place);
    item.append(el("span", { class: "ranking__place" }, place),
      el("span", { class: "ranking__name" }, player.name + (player.left ? " (left)" : "")),
      el("span", { class: "ranking__total" }, String(player.card.total)));
    list.append(item);
  });
}

function renderChat() {
  const seated = Boolean(you()) && !handed(); // The server refuses a handed seat's every command.
  $("chat-form").hidden = !seated;
  $("chat-watching").hidden = seated;
}

// ---------------------------------------------------------------------------
// Dice and their animation

function setFace(button, face) {
  const die = button.querySelector(".die");
  die.className = face ? `die die--${face}` : "die die--blank";
}

let rollAnimation = 0; // Which animation is current: a newer roll takes the dice over.

// The thrown dice tumble through random faces, then land on what the server threw.
function animateRoll({ held }) {
  if (reduceMotion) return;
  const animation = ++rollAnimation;
  const buttons = [...document.querySelectorAll(".die-button")];
  const thrown = buttons.filter((b) => !held.includes(Number(b.dataset.position)));
  buttons.forEach((b) => b.classList.toggle("die-button--rolling", thrown.includes(b)));
  const started = performance.now();
  const turn = state.turn;
  const tumble = () => {
    if (animation !== rollAnimation) return;
    // The turn ended meanwhile (the clock or a bot plays a whole turn at once): land now,
    // or the next player's tray would show dice tumbling that nobody threw.
    const turnGoesOn = state.turn === turn && turn.dice;
    if (turnGoesOn && performance.now() - started < ROLL_ANIMATION_MS) {
      thrown.forEach((b) => setFace(b, 1 + Math.floor(Math.random() * 6)));
      setTimeout(tumble, 80);
      return;
    }
    // Land on the dice as they are now: the turn may have moved on meanwhile.
    const dice = state.turn && state.turn.dice;
    buttons.forEach((b) => {
      b.classList.remove("die-button--rolling");
      setFace(b, dice ? dice[Number(b.dataset.position)] : null);
    });
  };
  tumble();
}

function diceRow(faces, size) {
  const row = el("span", { class: `mini-dice mini-dice--${size}`, role: "img", "aria-label": faces.join(" ") });
  faces.forEach((face) => {
    const die = el("span", { class: `die die--${face}`, "aria-hidden": "true" });
    for (let i = 0; i < 9; i += 1) die.append(el("span", { class: "die__pip" }));
    row.append(die);
  });
  return row;
}

// ---------------------------------------------------------------------------
// The feed, the chat and the command line

function rebuildFeed() {
  $("feed").replaceChildren();
  for (const message of state.recent) addToFeed(message, false);
}

function addToFeed(message, scroll = true) {
  const feed = $("feed");
  if (message.kind === "chat") {
    const item = el("li", { class: "feed__item feed__item--chat" });
    item.append(el("strong", {}, `${message.data.name}: `), document.createTextNode(message.data.text));
    feed.append(item);
  } else {
    for (const line of describe(message, state.players, labels)) {
      feed.append(el("li", { class: `feed__item feed__item--${message.kind}` }, line));
    }
  }
  while (feed.children.length > 200) feed.firstElementChild.remove();
  if (scroll) feed.scrollTop = feed.scrollHeight;
  else requestAnimationFrame(() => (feed.scrollTop = feed.scrollHeight));
}

let toastTimer = null;

// A message for this player: in the command line's output, and for a refusal
// also in a toast that shows wherever they are on the page.
function say(text, kind = "info") {
  const output = $("console-output");
  output.textContent = text;
  output.dataset.kind = kind;
  if (kind === "info") return; // Errors and notices also pop up wherever the player is.
  const toast = $("toast");
  toast.textContent = text;
  toast.dataset.kind = kind;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), 4000);
}

// A typed command that went to the server (`sent` true) is echoed when its event comes.
function typing(kind, sent) {
  typed = sent === true ? { kind, at: performance.now() } : null;
}

function runCommand(line) {
  const command = parse(line, categories);
  if (command.error) return say(command.error, "error");
  switch (command.action) {
    case "help":
      return say(HELP);
    case "roll":
      say("");
      return typing("rolled", roll(command.throw));
    case "hold":
      say("");
      return typing("held", setHeld(command.hold));
    case "score":
      say("");
      return typing("scored", score(command.category, { sure: command.sure, fromConsole: true }));
    case "yes":
      say("");
      return typing("scored", confirmScore());
    case "chat":
      if (!you()) return say("Only players write in this chat; watchers talk in the watchers' chat.", "error");
      return typing("chat", send("chat", { text: command.text }));
    case "back":
      return comeBack();
    case "leave":
      return leaveFromConsole(command.sure);
    case "remove_player":
    case "hand_to_bot":
      return hostFromConsole(command);
    default: // The parts' own: the bots' pace, the chances, the watchers' chat.
      return partCommand(parts.map((part) => part.command && part.command(command, state)).find(Boolean));
  }
}

function partCommand(answer) {
  if (!answer) return undefined;
  if (answer.error) return say(answer.error, "error");
  say(answer.sent && answer.text ? answer.text : "");
  return answer.expect ? typing(answer.expect, answer.sent) : answer.sent;
}

// ---------------------------------------------------------------------------
// Away, leaving, and the host's care of away seats

function comeBack() {
  if (!you()) return say("You are watching: only a player can come back.", "error");
  if (handed()) return say("The host handed your seat to a bot for the rest of the game.", "error");
  if (!away()) return say("You are not away: nothing to come back from.", "error");
  say("");
  return send("back");
}

function leaveGame() {
  ask({
    title: "Leave this game?",
    text: "Your score stands, but you cannot come back to your seat: you will watch the rest of the game.",
    yes: "Leave the game",
  }, () => send("leave"));
}

function leaveFromConsole(sure) {
  if (!you()) return say("You are watching: you have no seat to leave.", "error");
  const status = state.game.status;
  if (status !== "playing" && status !== "lobby") return say("The game is over: there is nothing to leave.", "error");
  if (!sure && !consoleAsks.check("leave", performance.now())) return say(confirmPrompt("leave"));
  say("");
  return send("leave");
}

const HOST_ACTIONS = {
  remove_player: {
    title: (name) => `Remove ${name}?`,
    text: (name) => `${name} leaves the game for good; their score stands and their turns are skipped.`,
    yes: "Remove",
  },
  hand_to_bot: {
    title: (name) => `Let a bot play for ${name}?`,
    text: (name) => `A bot plays ${name}'s seat for the rest of the game; ${name} cannot take it back.`,
    yes: "Let a bot play",
  },
};

function askHost(action, seat) {
  const name = nameOf(seat);
  const words = HOST_ACTIONS[action];
  ask({ title: words.title(name), text: words.text(name), yes: words.yes }, () => send(action, { seat }));
}

// Why the host may not do `action` to `seat` now, or null when they may.
function hostRefusal(action, seat) {
  if (!you() || !you().host) return "Only the host can do that.";
  if (!playing()) return "Only during the game.";
  if (seat === you().seat) return "That is your own seat: type leave to leave the game.";
  const player = state.players[seat];
  if (player.bot) return `${player.name} is a computer player.`;
  if (player.left) return `${player.name} has left the game already.`;
  const allowed = hostActions(state).find((a) => a.seat === seat);
  if (!allowed) return `${player.name} is here and playing: only an away or offline player can be removed or handed to a bot.`;
  if (action === "hand_to_bot" && !allowed.hand) return `A bot plays ${player.name}'s seat already.`;
  return null;
}

function hostFromConsole({ action, who, sure }) {
  const found = findSeat(who, state.players);
  if (found.error) return say(found.error, "error");
  const why = hostRefusal(action, found.seat);
  if (why) return say(why, "error");
  if (!sure && !consoleAsks.check(`${action}-${found.seat}`, performance.now())) {
    return say(confirmPrompt(action, nameOf(found.seat)));
  }
  say("");
  return send(action, { seat: found.seat });
}

// The one confirmation dialog: a native <dialog>, so the focus stays inside, Escape
// cancels and the safe choice has the focus first.
let confirmed = null;

function ask({ title, text, yes }, then) {
  const dialog = $("confirm-dialog");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  confirmed = then;
  dialog.returnValue = "";
  dialog.showModal();
}

$("confirm-dialog").addEventListener("close", () => {
  const then = confirmed;
  confirmed = null;
  if (then && $("confirm-dialog").returnValue === "confirm") then();
});

// ---------------------------------------------------------------------------
// Connection status

let countdown = null;

function showConnection({ state: connection, retryAt }) {
  const box = $("connection");
  const text = box.querySelector(".connection__text");
  const retry = box.querySelector(".connection__retry");
  box.dataset.state = connection;
  clearInterval(countdown);
  retry.hidden = connection !== "waiting";
  if (connection === "open") text.textContent = "Live";
  else if (connection === "connecting") text.textContent = "Connecting…";
  else if (connection === "reconnecting") text.textContent = "Reconnecting…";
  else if (connection === "gone") {
    text.textContent = "Closed";
    $("room-lost").hidden = false;
    $("table").hidden = true;
  } else if (connection === "waiting") {
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
      text.textContent = `Connection lost. Reconnecting in ${seconds} s…`;
    };
    tick();
    countdown = setInterval(tick, 500);
  }
}

// ---------------------------------------------------------------------------
// Small helpers

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

const sum = (faces) => faces.reduce((a, b) => a + b, 0);
const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function ordinal(n) {
  return { 1: "1st", 2: "2nd", 3: "3rd" }[n] || `${n}th`;
}

// Redrawing replaces the card's buttons; keyboard users keep their place.
function rememberFocus() {
  const active = document.activeElement;
  return active && active.dataset ? active.dataset.focus : undefined;
}

function restoreFocus(key) {
  if (!key) return;
  const again = document.querySelector(`[data-focus="${key}"]`);
  // The same control drawn again in the same place: no scroll (one may be under way).
  if (again && !again.disabled) again.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------
// Wiring

document.querySelectorAll(".die-button").forEach((button) => {
  button.addEventListener("click", () => toggleHold(Number(button.dataset.position)));
});
$("roll-button").addEventListener("click", () => roll());
$("start-button").addEventListener("click", () => sendPlay("start", {}));
$("rematch-button").addEventListener("click", () => {
  if (!pending && send("rematch")) {
    waitFor("rematch");
    render();
  }
});
$("coach-toggle").addEventListener("change", (event) => {
  const on = event.target.checked;
  if (send("coach", { on })) coachAsked.choose(on);
  else event.target.checked = !on;
});
document.querySelectorAll("[data-bot]").forEach((button) => {
  button.addEventListener("click", () => send("add_bot", { level: button.dataset.bot }));
});
$("coach-more").addEventListener("click", () => {
  coachShowsAll = !coachShowsAll;
  renderCoach();
});
$("leave-button").addEventListener("click", () => {
  if (confirm("Give up your seat?")) send("leave");
});
$("leave-game-button").addEventListener("click", leaveGame);
$("back-button").addEventListener("click", comeBack);
$("sound-toggle").addEventListener("change", (event) => {
  alerts.soundOn = event.target.checked;
});
$("notify-button").addEventListener("click", async () => {
  await Notification.requestPermission();
  if (Notification.permission === "denied") say("Notifications are off for this site: the tab's title still says when it is your turn.", "notice");
  render();
});
setInterval(tickClock, 250);
addEventListener("resize", () => state && fitCards()); // A phone turned on its side, say.
$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send("join", { name: $("join-name").value });
});
$("join-name").value = localStorage.getItem("yahtzee.name") || "";
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-input");
  if (input.value.trim() && send("chat", { text: input.value })) input.value = "";
});
$("console-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("console-input");
  if (input.value.trim()) runCommand(input.value);
  input.value = "";
});
$("copy-button").addEventListener("click", async () => {
  const url = $("invite-url").value;
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    $("invite-url").select(); // No clipboard (plain http on another host): let them copy it.
    document.execCommand("copy");
  }
  $("copy-status").textContent = "Link copied.";
  setTimeout(() => ($("copy-status").textContent = ""), 3000);
});
$("invite-button").addEventListener("click", () => $("invite-dialog").showModal());
$("share-button").addEventListener("click", async () => {
  try {
    await navigator.share({ title: document.title, text: "Come to my Yahtzee table:", url: $("invite-url").value });
  } catch {
    // Closed without sharing, or refused: the link and the QR code are still there.
  }
});
$("connection").querySelector(".connection__retry").addEventListener("click", () => socket.retryNow());

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target.closest("input, textarea, select, [contenteditable], dialog")) return;
  if (!state || state.game.status !== "playing") return;
  if (/^[1-5]$/.test(event.key)) {
    event.preventDefault();
    toggleHold(Number(event.key) - 1);
  } else if (event.key === "r" || event.key === "R") {
    event.preventDefault();
    roll();
  } else if (event.key === " " && (you() || !target.closest("button, a, summary"))) {
    // A player's Space rolls wherever the focus is, on a die just clicked too (Enter
    // still presses a focused button); a watcher's Space keeps its usual work.
    event.preventDefault();
    roll();
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
  get advice() { return advice; },
  get turnScrolling() { return turnScrolling; },
  socket,
};

socket.connect();
