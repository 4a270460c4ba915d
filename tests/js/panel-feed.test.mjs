// static/js/panels/feed.js: the feed's lines from the room's recent events and each new
// one, the players' chat, and who may write in it.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { FeedPanel } from "../../static/js/panels/feed.js";
import { event, lobby, playing } from "./messages.mjs";
import { watch } from "./page.mjs";
import { apply, openRoom } from "./table.mjs";

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function feed(state) {
  const page = openRoom(state);
  pages.push(page);
  const panel = new FeedPanel(page.room, page.document);
  panel.draw();
  const lines = () => [...page.document.querySelectorAll("#feed li")].map((li) => li.textContent);
  return { ...page, panel, lines, $: (id) => page.document.getElementById(id) };
}

test("a snapshot's recent events are the feed's lines", () => {
  const { lines } = feed(lobby(["Ana", "Bob"], { you: 1 }));
  assert.deepEqual(lines(), ["The room was opened.", "Ana took a seat as host.", "Bob took a seat."]);
});

test("an event adds its lines at the foot, and changes nothing above them", async () => {
  const { window, room, panel, lines, $ } = feed(lobby(["Ana"], { you: 0 }));
  const changes = watch(window, $("feed"));
  panel.update(apply(room, event(3, "joined", { seat: 1, name: "Bob", host: false })));
  const { records, replaced } = await changes.taken();
  assert.equal(lines().at(-1), "Bob took a seat.");
  assert.equal(replaced, 1); // One line added.
  assert.equal(records.filter((r) => r.type === "childList").length, 1);
});

test("a chat line names who said it", () => {
  const { room, panel, document } = feed(playing(["Ana", "Bob"], { you: 0 }));
  panel.update(apply(room, event(21, "chat", { seat: 1, name: "Bob", text: "good luck" })));
  const line = document.querySelector("#feed .feed__item--chat");
  assert.equal(line.textContent, "Bob: good luck");
  assert.equal(line.querySelector("strong").textContent, "Bob: ");
});

test("the feed keeps the last 200 lines", () => {
  const { room, panel, document } = feed(playing(["Ana", "Bob"], { you: 0 }));
  for (let i = 0; i < 210; i += 1) panel.update(apply(room, event(21 + i, "chat", { seat: 0, name: "Ana", text: `line ${i}` })));
  const items = document.querySelectorAll("#feed li");
  assert.equal(items.length, 200);
  assert.equal(items[0].textContent, "Ana: line 10");
});

test("players write here; a watcher is pointed to the watchers' chat", () => {
  const player = feed(playing(["Ana", "Bob"], { you: 0 }));
  assert.equal(player.$("chat-form").hidden, false);
  assert.equal(player.$("chat-watching").hidden, true);
  player.$("chat-input").value = "hello";
  player.$("chat-form").dispatchEvent(new player.window.Event("submit", { cancelable: true }));
  assert.deepEqual(player.sent, [["chat", { text: "hello" }]]);
  assert.equal(player.$("chat-input").value, "");
  const watcher = feed(playing(["Ana", "Bob"]));
  assert.equal(watcher.$("chat-form").hidden, true);
  assert.equal(watcher.$("chat-watching").hidden, false);
});
