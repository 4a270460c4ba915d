// static/js/panels/confirm.js: the one confirmation dialog asks, and only "yes" goes on.
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { ConfirmDialog } from "../../static/js/panels/confirm.js";
import { roomPage } from "./page.mjs";

const pages = [];
after(() => Promise.all(pages.map((page) => page.close())));

function dialogIn() {
  const page = roomPage();
  pages.push(page);
  const $ = (id) => page.document.getElementById(id);
  return { dialog: new ConfirmDialog(page.document), $ };
}

const LEAVE = { title: "Leave this game?", text: "Your score stands.", yes: "Leave the game" };

test("it asks in words of its own, and goes on when the player says yes", () => {
  const { dialog, $ } = dialogIn();
  let done = 0;
  dialog.ask(LEAVE, () => (done += 1));
  assert.equal($("confirm-dialog").open, true);
  assert.equal($("confirm-title").textContent, "Leave this game?");
  assert.equal($("confirm-yes").textContent, "Leave the game");
  $("confirm-dialog").close("confirm");
  assert.equal(done, 1);
});

test("Cancel (or Escape) does nothing, and a later question does not run the old answer", () => {
  const { dialog, $ } = dialogIn();
  let done = 0;
  dialog.ask(LEAVE, () => (done += 1));
  $("confirm-dialog").close("cancel");
  assert.equal(done, 0);
  dialog.ask(LEAVE, () => (done += 10));
  $("confirm-dialog").close("confirm");
  assert.equal(done, 10);
});
