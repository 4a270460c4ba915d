// static/js/alerts.js: what the tab says when it is the player's turn, and when
// the page offers to ask for notifications.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { TURN_MARK, canAskToNotify, titleFor } from "../../static/js/alerts.js";

describe("titleFor", () => {
  test("the player's turn puts a mark before the page's own title; otherwise the title is as it was", () => {
    assert.equal(titleFor("Game room · Yahtzee Live", true), "● Your turn — Game room · Yahtzee Live");
    assert.equal(titleFor("Game room · Yahtzee Live", false), "Game room · Yahtzee Live");
    assert.ok(TURN_MARK.startsWith("●"));
  });
});

describe("canAskToNotify", () => {
  test("only while the browser has notifications and the player has not answered", () => {
    assert.equal(canAskToNotify({ permission: "default" }), true);
    assert.equal(canAskToNotify({ permission: "granted" }), false);
    assert.equal(canAskToNotify({ permission: "denied" }), false);
    assert.equal(canAskToNotify(undefined), false); // No Notification API (iOS Safari outside a home-screen app).
  });
});
