// The feed and the players' chat: what happened at the table, a line per event (the
// last 200), and what the players say. A player writes here; a watcher is pointed to the
// watchers' chat (static/js/watchers.js).

import { describe, isHanded } from "../state.js";
import { maker, setHidden } from "./dom.js";

const KEPT = 200; // Lines kept on the page; older ones go.
// The events that change who may write here.
const SEATING = new Set(["joined", "unseated", "left", "handed"]);

export class FeedPanel {
  // Every event adds its lines (nothing of this page's own: a hold sent, a command waiting).
  follows = { has: (kind) => !["pending", "hold", "presence"].includes(kind) };

  constructor(room, doc = document) {
    this.room = room;
    this.el = maker(doc);
    this.win = doc.defaultView;
    const $ = (id) => doc.getElementById(id);
    this.feed = $("feed");
    this.form = $("chat-form");
    this.input = $("chat-input");
    this.watching = $("chat-watching");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.input.value.trim() && room.send("chat", { text: this.input.value })) this.input.value = "";
    });
  }

  // A snapshot: the room's recent events, anew.
  draw() {
    this.feed.replaceChildren();
    for (const message of this.room.state.recent) this.add(message, false);
    this.drawChat();
  }

  update(message) {
    if (message.type === "event") this.add(message);
    if (SEATING.has(message.kind)) this.drawChat();
  }

  // One event's lines at the feed's foot, scrolled into its view.
  add(message, scroll = true) {
    const el = this.el;
    const feed = this.feed;
    const state = this.room.state;
    if (message.kind === "chat") {
      const item = el("li", { class: "feed__item feed__item--chat" });
      item.append(el("strong", {}, `${message.data.name}: `), message.data.text);
      feed.append(item);
    } else {
      for (const line of describe(message, state.players, this.room.labels, { daily: this.room.config.daily })) {
        feed.append(el("li", { class: `feed__item feed__item--${message.kind}` }, line));
      }
    }
    while (feed.children.length > KEPT) feed.firstElementChild.remove();
    if (scroll) feed.scrollTop = feed.scrollHeight;
    else this.win.requestAnimationFrame(() => (feed.scrollTop = feed.scrollHeight));
  }

  drawChat() {
    const state = this.room.state;
    const seated = Boolean(state.you) && !isHanded(state); // The server refuses a handed seat's every command.
    setHidden(this.form, !seated);
    setHidden(this.watching, seated);
  }
}
