// static/js/clock.js in German: the time in words (plurals by the language's rules), the
// room's clock setting and what the screen reader hears, from the real catalog
// (locale/de/LC_MESSAGES/djangojs.po).
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { speak } from "./catalog.mjs";

speak("de");
const { ClockAnnouncer, describeTurnClock, formatLeft, spokenLeft } = await import("../../static/js/clock.js");

describe("the clock in German", () => {
  test("the time in words, one and many", () => {
    assert.equal(spokenLeft(1_000), "1 Sekunde");
    assert.equal(spokenLeft(53_210), "54 Sekunden");
    assert.equal(spokenLeft(60_000), "1 Minute");
    assert.equal(spokenLeft(90_000), "1 Minute und 30 Sekunden");
    assert.equal(spokenLeft(3_661_000), "1 Stunde und 1 Minute");
    assert.equal(spokenLeft(86_340_000), "23 Stunden und 59 Minuten");
  });

  test("the room's setting and a correspondence clock's time", () => {
    assert.equal(describeTurnClock(30), "30 s pro Zug");
    assert.equal(describeTurnClock(120), "2 Min. pro Zug");
    assert.equal(describeTurnClock(7200), "2 Std. pro Zug");
    assert.equal(describeTurnClock(86400), "24 Std. pro Zug (Fernspiel)");
    assert.equal(describeTurnClock(null), "Keine Zuguhr");
    assert.equal(formatLeft(86_340_000), "23 Std. 59 Min.");
    assert.equal(formatLeft(75_000), "1:15");
  });

  test("what the screen reader hears on the player's own turn", () => {
    const announcer = new ClockAnnouncer();
    const clock = { seat: 0, deadline: "2026-11-26T20:00:00Z" };
    assert.equal(announcer.next(clock, true, 60_000), "Du bist dran: 1 Minute auf der Uhr.");
    assert.equal(announcer.next(clock, true, 30_000), "Noch 30 Sekunden.");
    assert.equal(announcer.next(clock, true, 0), "Die Zeit ist um: Die Uhr spielt den Rest deines Zugs.");
  });
});
