// Whether the players see who is likely to win (issue 27): the host chooses when the
// room opens, and at any time in the lobby or during the game, with the switch among
// the seat's tools (templates/games/_show_odds.html) or the command line's
// `chances on` and `chances off`. Watchers always see the chances (odds.js).
//
// The pure functions are tested in node (tests/js/showodds.test.mjs).

import { gettext } from "./i18n.js";
import { AskedSetting } from "./setting.js";

// What the switch shows for the room's state: to the host alone, in a room of two seats
// or more that is not over; and whether the players see the chances now.
export function choiceView(state) {
  const host = Boolean(state && state.you && state.you.host);
  const open = host && ["lobby", "playing"].includes(state.game.status);
  return { shown: open && state.game.seats > 1, show: Boolean(state && state.game.show_odds) };
}

// Why `chances on` (`show` true) or `chances off` typed now would do nothing, or null.
export function choiceRefusal(state, show) {
  if (!state || !state.you || !state.you.host) return gettext("Only the host chooses whether the players see who is likely to win.");
  if (state.game.seats < 2) return gettext("A game alone has nobody to beat: there are no chances to show.");
  if (Boolean(state.game.show_odds) === show) {
    return show
      ? gettext("The players see who is likely to win already.")
      : gettext("The players do not see who is likely to win already.");
  }
  return null;
}

export class OddsChoice {
  // `send(type, fields)` sends a command as the room does (with an id "<type>-<n>").
  constructor(send, { root = document } = {}) {
    this.send = send;
    this.switch = root.getElementById("show-odds-switch");
    this.toggle = root.getElementById("show-odds-toggle");
    this.asked = new AskedSetting("show_odds"); // As the host chose it, until the room says so.
    this.toggle.addEventListener("change", () => this.choose(this.toggle.checked));
  }

  choose(show) {
    const sent = this.send("show_odds", { show });
    if (sent) this.asked.choose(show);
    return sent;
  }

  // After each message the room receives: draw the switch as the state has it now.
  receive(message, state) {
    this.asked.hear(message);
    const view = choiceView(state);
    this.switch.hidden = !view.shown;
    if (view.shown) this.toggle.checked = this.asked.shown(view.show);
  }

  // The command line's `chances on|off` (commands.js): null when it is another command;
  // else an error to show, or whether it was sent and the event that answers it.
  command(command, state) {
    if (command.action !== "show_odds") return null;
    const why = choiceRefusal(state, command.on);
    if (why) return { error: why };
    return { sent: this.choose(command.on), expect: "show_odds" };
  }
}
