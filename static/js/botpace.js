// The bots' pace (issue 19): how long the room's bots take over their moves. The host
// chooses it (in the lobby or during the game) with a `bot_pace` command; everyone sees
// how it stands. Drawn into the partial templates/games/_bot_pace.html from the room's
// state (`game.bot_pace`, kept by state.js).

import { gettext, pgettext } from "./i18n.js";
import { setDisabled, setHidden } from "./panels/dom.js";
import { AskedSetting } from "./setting.js";

export const PACES = {
  natural: pgettext("the bots' pace", "Naturally"),
  quick: pgettext("the bots' pace", "Quickly"),
  instant: pgettext("the bots' pace", "Instantly"),
};

// What `pace quick` says when the bots play so already: a sentence each (the pace's word
// changes with the sentence in other languages).
const ALREADY = {
  natural: () => gettext("The bots play naturally already."),
  quick: () => gettext("The bots play quickly already."),
  instant: () => gettext("The bots play instantly already."),
};

// What the control shows for the room's state: whether at all (a room that has or may
// seat bots, not over), whether this browser may change it (the host), and the pace.
export function paceView(state) {
  if (!state || !state.game.bot_pace) return { shown: false, host: false, pace: null };
  const open = state.game.status === "lobby" || state.game.status === "playing";
  const host = Boolean(state.you && state.you.host);
  const bots = state.players.some((p) => p.bot);
  const shown = open && (bots || (host && state.game.status === "lobby"));
  return { shown, host, pace: state.game.bot_pace };
}

// Why `pace quick` typed now would do nothing, or null when it is sent.
export function paceRefusal(state, pace) {
  if (!state || !state.you || !state.you.host) return gettext("Only the host chooses how the bots play.");
  if (state.game.bot_pace === pace) return ALREADY[pace]();
  return null;
}

export class BotPaceControl {
  constructor(send, { root = document } = {}) {
    this.send = send;
    this.panel = root.getElementById("bot-pace");
    this.select = root.getElementById("bot-pace-select");
    this.note = root.getElementById("bot-pace-note");
    this.asked = new AskedSetting("bot_pace"); // As the host chose it, until the room says so.
    this.select.addEventListener("change", () => this.choose(this.select.value));
  }

  choose(pace) {
    const sent = this.send("bot_pace", { pace });
    if (sent) this.asked.choose(pace);
    return sent;
  }

  // The command line's `pace quick` (commands.js): null when it is another command; else
  // an error to show, or whether it was sent and the event that answers it.
  command(command, state) {
    if (command.action !== "bot_pace") return null;
    const why = paceRefusal(state, command.pace);
    if (why) return { error: why };
    return { sent: this.choose(command.pace), expect: "bot_pace" };
  }

  // After each message the room receives: draw the pace as the state has it now.
  receive(message, state) {
    this.asked.hear(message);
    const view = paceView(state);
    // Only what differs is written: most messages change nothing here.
    setHidden(this.panel, !view.shown);
    if (!view.shown) return;
    const pace = this.asked.shown(view.pace);
    if (this.select.value !== pace) this.select.value = pace;
    setDisabled(this.select, !view.host);
    setHidden(this.note, view.host);
  }
}
