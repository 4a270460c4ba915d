// A room for one panel's node tests: the page's markup (page.mjs) and what room.js gives
// every panel (the state, the commands sent, the messages said), with the commands and
// the sayings kept for the test to read.
import { applyEvent } from "../../static/js/state.js";
import { Play } from "../../static/js/play.js";
import { CATEGORIES, LABELS } from "./messages.mjs";
import { roomPage } from "./page.mjs";

export const CONFIG = {
  categories: CATEGORIES, upperBonus: 35, upperBonusThreshold: 63, yahtzeeBonus: true, daily: false,
};

// `state` a snapshot (messages.mjs); `pending` the command waiting for its answer.
export function openRoom(state, { pending = null, touch = false, config = {}, page = {} } = {}) {
  const { window, document, close } = roomPage(page);
  const sent = [];
  const said = [];
  const asked = [];
  const changes = [];
  const room = {
    config: { ...CONFIG, ...config },
    categories: CATEGORIES,
    labels: LABELS,
    state,
    pending,
    reduceMotion: true,
    clockShown: null,
    touchScreen: () => touch,
    send: (type, fields = {}) => (sent.push([type, fields]), true),
    sendPlay(type, fields) {
      if (room.pending) return false;
      sent.push([type, { ...fields, version: room.state.version }]);
      room.pending = type;
      return true;
    },
    sendRematch: () => sent.push(["rematch", {}]),
    say: (text, kind = "info") => said.push([text, kind]),
    ask: (words, then) => asked.push({ words, then }),
    clock: () => room.clockShown,
    changed: (kind) => changes.push(kind),
  };
  room.play = new Play(room);
  return { window, document, room, sent, said, asked, changes, close };
}

// Apply an event to the room's state, as room.js does before it tells the panels.
export function apply(room, message) {
  applyEvent(room.state, message, CATEGORIES);
  return message;
}
