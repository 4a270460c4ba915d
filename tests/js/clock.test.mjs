// static/js/clock.js: the turn clock as the page counts it down, shows it and
// tells a screen reader about it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import {
  ClockAnnouncer, describeTurnClock, formatLeft, isUrgent, localClock, msLeft, spokenLeft,
} from "../../static/js/clock.js";
import { clockOf } from "./messages.mjs";

describe("localClock and msLeft: counting from receipt, not from the deadline", () => {
  test("the time left is `ms_left` less what passed on this page since the message came", () => {
    // The deadline is years away from this computer's date: it is not used.
    const clock = localClock(clockOf(1, 53_210, "2031-01-01T00:00:00+00:00"), 1_000);
    assert.deepEqual(clock, { seat: 1, deadline: "2031-01-01T00:00:00+00:00", endsAt: 54_210 });
    assert.equal(msLeft(clock, 1_000), 53_210);
    assert.equal(msLeft(clock, 11_000), 43_210);
  });

  test("it stops at zero", () => {
    assert.equal(msLeft(localClock(clockOf(0, 500), 0), 10_000), 0);
  });

  test("no clock: null, and a missing key (an older server) too", () => {
    assert.equal(localClock(null, 5), null);
    assert.equal(localClock(undefined, 5), null);
  });
});

describe("formatLeft: what the countdown shows", () => {
  const cases = [
    [60_000, "1:00"], [59_001, "1:00"], [59_000, "0:59"], [9_400, "0:10"], [9_000, "0:09"],
    [500, "0:01"], [0, "0:00"], [-300, "0:00"], [119_000, "1:59"], [3_599_000, "59:59"],
    [3_600_000, "1 h 00 min"], [86_400_000, "24 h 00 min"], [86_340_000, "23 h 59 min"], [86_399_500, "24 h 00 min"],
  ];
  for (const [ms, shown] of cases) {
    test(`${ms} ms shows ${shown}`, () => assert.equal(formatLeft(ms), shown));
  }
});

describe("spokenLeft: the same in words", () => {
  test("seconds, minutes, hours, singular and plural", () => {
    assert.equal(spokenLeft(53_210), "54 seconds");
    assert.equal(spokenLeft(1_000), "1 second");
    assert.equal(spokenLeft(60_000), "1 minute");
    assert.equal(spokenLeft(90_000), "1 minute 30 seconds");
    assert.equal(spokenLeft(120_000), "2 minutes");
    assert.equal(spokenLeft(86_400_000), "24 hours");
    assert.equal(spokenLeft(86_340_000), "23 hours 59 minutes");
    assert.equal(spokenLeft(3_661_000), "1 hour 1 minute");
  });
});

describe("isUrgent: the last ten seconds", () => {
  test("10 s and under is urgent; more is not", () => {
    assert.equal(isUrgent(10_001), false);
    assert.equal(isUrgent(10_000), true);
    assert.equal(isUrgent(0), true);
  });
});

describe("describeTurnClock: the room's setting", () => {
  test("each choice of the home form, and none", () => {
    assert.equal(describeTurnClock(30), "30 s a turn");
    assert.equal(describeTurnClock(60), "60 s a turn");
    assert.equal(describeTurnClock(120), "2 min a turn");
    assert.equal(describeTurnClock(86400), "24 h a turn (correspondence)");
    assert.equal(describeTurnClock(7200), "2 h a turn");
    assert.equal(describeTurnClock(10), "10 s a turn");
    assert.equal(describeTurnClock(null), "No turn clock");
    assert.equal(describeTurnClock(undefined), null);
  });
});

describe("ClockAnnouncer: what the screen reader hears, and when", () => {
  // Runs the announcer over a turn: `times` are the ms left at each tick; returns what it said.
  const run = (announcer, clock, mine, times) => times.map((ms) => announcer.next(clock, mine, ms)).filter(Boolean);
  const mine = localClock(clockOf(1, 60_000), 0);

  test("a one-minute turn: its start, 30 s, 10 s, time out; nothing in between", () => {
    const ticks = [];
    for (let ms = 60_000; ms >= -500; ms -= 250) ticks.push(ms);
    assert.deepEqual(run(new ClockAnnouncer(), mine, true, ticks), [
      "Your turn: 1 minute on the clock.", "30 seconds left.", "10 seconds left.",
      "Time ran out: the clock plays the rest of your turn.",
    ]);
  });

  test("someone else's turn: nothing (the feed tells what they do)", () => {
    assert.deepEqual(run(new ClockAnnouncer(), mine, false, [60_000, 30_000, 10_000, 0]), []);
  });

  test("a 30 s turn: no '30 seconds left' right after 'your turn'", () => {
    const clock = localClock(clockOf(1, 29_800), 0);
    assert.deepEqual(run(new ClockAnnouncer(), clock, true, [29_800, 29_500, 20_000, 10_100, 9_900]), [
      "Your turn: 30 seconds on the clock.", "10 seconds left.",
    ]);
  });

  test("the same clock again (a snapshot after a reconnection) is not announced twice", () => {
    const announcer = new ClockAnnouncer();
    assert.deepEqual(run(announcer, mine, true, [50_000, 49_000]), ["Your turn: 50 seconds on the clock."]);
    const again = localClock(clockOf(1, 47_000), 3_000); // Same deadline, counted afresh.
    assert.deepEqual(run(announcer, again, true, [47_000, 46_000]), []);
  });

  test("a new deadline is a new turn to announce", () => {
    const announcer = new ClockAnnouncer();
    run(announcer, mine, true, [60_000, 59_000]);
    const next = localClock(clockOf(1, 60_000, "2026-11-24T13:03:00+00:00"), 0);
    assert.deepEqual(run(announcer, next, true, [60_000]), ["Your turn: 1 minute on the clock."]);
  });

  test("the page opened with no time left says nothing, not 'your turn'", () => {
    assert.deepEqual(run(new ClockAnnouncer(), mine, true, [0, 0]), []);
  });

  test("a correspondence turn: hours, then the same warnings at the end", () => {
    const day = localClock(clockOf(1, 86_400_000), 0);
    assert.deepEqual(run(new ClockAnnouncer(), day, true, [86_400_000, 3_600_000, 30_500, 29_500, 10_500, 9_500]), [
      "Your turn: 24 hours on the clock.", "30 seconds left.", "10 seconds left.",
    ]);
  });

  test("no clock: nothing", () => {
    assert.deepEqual(run(new ClockAnnouncer(), null, true, [0, 0]), []);
  });
});
