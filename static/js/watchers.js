// The watchers' chat (issue 19): people watching the room talk among themselves here,
// and a player may choose to read along (off at first, so watchers neither distract
// nor spoil the game). The server says how this tab takes part in a `watching`
// message and sends each line as a `watcher_message` (docs/protocol.md).
//
// The pure functions at the top are tested in node (tests/js/watchers.test.mjs); the
// class draws them into the partial templates/games/_watchers.html.

import { gettext } from "./i18n.js";

// What this browser chose, kept across reloads and reconnections (the server forgets).
export const NAME_KEY = "yahtzee.watcherName";
export const READ_KEY = "yahtzee.readWatchers";
// Lines kept on the page; older ones go.
export const MAX_LINES = 200;

// Which parts of the panel show, for a `watching` message (null: not told yet).
export function panelView(watching) {
  if (!watching) return { shown: false, watcher: false, lines: false, form: false, toggle: false };
  const watcher = watching.name !== null;
  return { shown: true, watcher, lines: watching.read, form: watcher, toggle: !watcher };
}

// What to ask the server again after a `watching` message that answers nothing of ours
// (a new socket, a seat taken or given up): the name this browser chose to watch under,
// and the watchers' chat read by a player who chose to. Each is [type, fields].
export function requestsAfter(watching, stored) {
  if (watching.id !== null) return [];
  if (watching.name !== null) {
    return stored.name && stored.name !== watching.name ? [["watcher_name", { name: stored.name }]] : [];
  }
  return stored.read && !watching.read ? [["read_watchers", { read: true }]] : [];
}

// Why `watchers on` (`read` true) or `watchers off` typed now would do nothing, or null.
export function readRefusal(watching, read) {
  if (!watching) return gettext("Not connected yet: try again in a moment.");
  if (watching.name !== null) return gettext("Watchers always read the watchers' chat.");
  if (watching.read === read) {
    return read ? gettext("You read the watchers' chat already.") : gettext("You do not read the watchers' chat already.");
  }
  return null;
}

// "21:03", the local time a line was said.
export function timeOf(at) {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) return "";
  return `${String(when.getHours()).padStart(2, "0")}:${String(when.getMinutes()).padStart(2, "0")}`;
}

export class WatchersChat {
  // `send(type, fields)` sends a command as the room does (with an id "<type>-<n>").
  constructor(send, { root = document, storage = localStorage } = {}) {
    this.send = send;
    this.storage = storage;
    this.watching = null;
    const $ = (id) => root.getElementById(id);
    this.panel = $("watchers-chat");
    this.lines = $("watchers-lines");
    this.empty = $("watchers-empty");
    this.form = $("watchers-form");
    this.input = $("watchers-input");
    this.toggle = $("watchers-read");
    this.toggleLabel = $("watchers-read-switch");
    this.nameForm = $("watchers-name-form");
    this.nameInput = $("watchers-name");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text && this.send("watcher_chat", { text })) this.input.value = "";
    });
    this.nameForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = this.nameInput.value.trim();
      if (name && name !== this.watching.name) this.send("watcher_name", { name });
    });
    this.toggle.addEventListener("change", () => this.read(this.toggle.checked));
  }

  read(read) {
    this.storage.setItem(READ_KEY, String(read));
    return this.send("read_watchers", { read });
  }

  // The command line's `watchers on|off` (commands.js): null when it is another command;
  // else an error to show, or whether it was sent and what to say (the answer is a
  // `watching` message, which redraws the panel).
  command(command) {
    if (command.action !== "read_watchers") return null;
    const why = readRefusal(this.watching, command.read);
    if (why) return { error: why };
    const text = command.read
      ? gettext("You read the watchers' chat now (its panel, under the feed).")
      : gettext("You no longer read the watchers' chat.");
    return { sent: this.read(command.read), text };
  }

  // Every message the room receives passes here; only the watchers' chat's concern it.
  receive(message) {
    if (message.type === "watching") this.onWatching(message);
    else if (message.type === "watcher_message") this.addLine(message);
    else if (message.type === "error" && String(message.id).startsWith("watcher_name-")) {
      // The room says why in its toast; the field shows the name this tab still has.
      this.nameInput.value = this.watching ? this.watching.name || "" : "";
    }
  }

  onWatching(watching) {
    if (watching.id !== null && typeof watching.id === "string" && watching.id.startsWith("watcher_name-")) {
      this.storage.setItem(NAME_KEY, watching.name); // Chosen, and the server took it.
    }
    const stored = { name: this.storage.getItem(NAME_KEY), read: this.storage.getItem(READ_KEY) === "true" };
    for (const [type, fields] of requestsAfter(watching, stored)) this.send(type, fields);
    this.watching = watching;
    this.render();
  }

  addLine({ name, text, at }) {
    const item = document.createElement("li");
    item.className = "watchers-chat__line";
    const who = document.createElement("strong");
    who.textContent = name;
    const time = document.createElement("time");
    time.className = "feed__time";
    time.dateTime = at;
    time.textContent = timeOf(at);
    item.append(time, " ", who, ": ", text);
    this.lines.append(item);
    while (this.lines.children.length > MAX_LINES) this.lines.firstElementChild.remove();
    this.empty.hidden = true;
    this.lines.scrollTop = this.lines.scrollHeight;
  }

  render() {
    const view = panelView(this.watching);
    this.panel.hidden = !view.shown;
    if (!view.shown) return;
    this.lines.hidden = !view.lines;
    this.empty.hidden = !view.lines || this.lines.children.length > 0;
    this.form.hidden = !view.form;
    this.nameForm.hidden = !view.watcher;
    this.toggleLabel.hidden = !view.toggle;
    this.toggle.checked = this.watching.read;
    if (view.watcher && document.activeElement !== this.nameInput) this.nameInput.value = this.watching.name;
  }
}
