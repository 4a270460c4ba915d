// static/js/backoff.js: when the room's page calls its socket again after it closed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { comeBackIn, retryDelay } from "../../static/js/backoff.js";

const dropped = { code: 1006, reason: "" };
// The waits after `count` failures in a row, with `random` always giving the same number.
const schedule = (count, random, close = dropped) =>
  Array.from({ length: count }, (_, failures) => retryDelay(close, failures, () => random));

describe("backoff: a connection that dropped or could not be made", () => {
  test("the longest wait doubles with each failure in a row, from 1 s up to 20 s", () => {
    assert.deepEqual(schedule(8, 0.999999), [1000, 2000, 4000, 8000, 16000, 20000, 20000, 20000]);
  });

  test("the wait is a random part of the longest (full jitter)", () => {
    assert.deepEqual(schedule(7, 0.5), [500, 1000, 2000, 4000, 8000, 10000, 10000]);
    assert.deepEqual(schedule(3, 0), [0, 0, 0]);
    assert.deepEqual(schedule(3, 0.25), [250, 500, 1000]);
  });

  test("a crowd that lost its server at once comes back spread over the whole second", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647; // A fixed sequence (Park and Miller), not Math.random.
      return seed / 2147483647;
    };
    const waits = Array.from({ length: 1000 }, () => retryDelay(dropped, 0, random));
    const perTenth = Array.from({ length: 10 }, (_, n) =>
      waits.filter((wait) => wait >= n * 100 && wait < (n + 1) * 100).length,
    );
    assert.ok(waits.every((wait) => wait >= 0 && wait <= 1000));
    assert.ok(perTenth.every((count) => count > 60 && count < 140), String(perTenth));
  });
});

describe("backoff: a server that says when", () => {
  test("its reason's window is taken at its word, whatever failed before", () => {
    const restart = { code: 1012, reason: "service restart: come back in 0-4 s" };
    assert.deepEqual(schedule(3, 0.5, restart), [2000, 2000, 2000]);
    assert.equal(retryDelay(restart, 0, () => 0.999999), 4000);
    const later = { code: 1013, reason: "the database or messaging is away: come back in 1-5 s" };
    assert.deepEqual([0, 0.5, 0.999999].map((r) => retryDelay(later, 6, () => r)), [1000, 3000, 5000]);
  });

  test("a stopping server that says nothing of when: within a second", () => {
    assert.deepEqual(schedule(2, 0.5, { code: 1012 }), [500, 500]);
    assert.equal(retryDelay({ code: 1012 }, 0, () => 0.999999), 1000);
  });

  test("a 1013 without a window backs off as a failure does", () => {
    assert.deepEqual(schedule(3, 0.5, { code: 1013, reason: "" }), [500, 1000, 2000]);
  });

  test("a room that does not exist (4404) is not called again", () => {
    assert.equal(retryDelay({ code: 4404, reason: "" }, 0, () => 0.5), null);
  });

  test("only a reason that ends in a window of whole or decimal seconds counts", () => {
    assert.deepEqual(comeBackIn("service restart: come back in 0-1 s"), [0, 1000]);
    assert.deepEqual(comeBackIn("x: come back in 0.5-2.5 s"), [500, 2500]);
    for (const reason of ["", undefined, "come back in 5-1 s", "come back in 1-2 s later", "come back soon"]) {
      assert.equal(comeBackIn(reason), null, reason);
    }
  });
});
