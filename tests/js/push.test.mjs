// The room's Web Push opt-ins (static/js/push.js): what the panel sends and says.
import assert from "node:assert/strict";
import { test } from "node:test";

import { KINDS, keyBytes, statusOf, supported, wantedOf } from "../../static/js/push.js";

test("the server's key becomes the 65 bytes of a P-256 point", () => {
  // The tests' VAPID public key (tests/settings.py's private key), as the room gives it.
  const key = "BEOTbak9q2gUok1MTt52OY0r0IA2g1eHAGeR7JHku8seHWAcqmdTOPoWDsmidVaAtVlIjzOJT13nv4lOFFjpF1U";
  const bytes = keyBytes(key);
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 4); // Uncompressed.
  assert.equal(Buffer.from(bytes).toString("base64url"), key);
});

test("a key whose length needs padding is read all the same", () => {
  assert.deepEqual([...keyBytes("-_8")], [0xfb, 0xff]);
});

test("the boxes ticked are what is asked for, each true or false", () => {
  const boxes = { turns: { checked: true }, starts: { checked: false }, rematches: { checked: true } };
  assert.deepEqual(wantedOf(boxes), { turns: true, starts: false, rematches: true });
  assert.deepEqual(wantedOf({}), { turns: false, starts: false, rematches: false });
  assert.deepEqual(KINDS, ["turns", "starts", "rematches"]);
});

test("the panel says what is on, or that all is off", () => {
  assert.equal(statusOf({}), "Off: this browser is told nothing while the room is closed.");
  assert.equal(statusOf({ turns: true, rematches: true }), "On for your turn, a rematch, in this browser.");
});

test("a browser without service workers or Push is not offered the panel", () => {
  const full = { navigator: { serviceWorker: {} }, PushManager: class {}, Notification: class {} };
  assert.equal(supported(full), true);
  const { PushManager, ...withoutPush } = full;
  assert.equal(supported(withoutPush), false);
  assert.equal(supported({ ...full, navigator: {} }), false);
});
