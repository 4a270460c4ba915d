// When the room's page calls its socket again after it closed. Pure, so that the
// schedule is read and tested on its own (tests/js/backoff.test.mjs).
//
// After a connection that dropped or could not be made, it waits a random time up
// to a limit that doubles with each failure in a row: up to 1 s, then 2, 4, 8, 16,
// and 20 s at most ("full jitter": a room full of browsers that lost their server at
// the same instant comes back spread out, not all at once). A server that closes
// with a reason saying when, "... come back in A-B s" (a process stopping, 1012, or
// one that cannot serve the room now, 1013: games/live/closing.py), is taken at its
// word: a random time between A and B seconds.

export const FIRST_MS = 1000;
export const MOST_MS = 20_000;
export const NO_SUCH_ROOM = 4404;
export const SERVICE_RESTART = 1012;
export const TRY_AGAIN_LATER = 1013;
// A server stopping that says nothing of when: within a second.
const RESTART_SPREAD_MS = 1000;

const COME_BACK = /come back in (\d+(?:\.\d+)?)-(\d+(?:\.\d+)?) s$/;

// The [earliest, latest] milliseconds a close's reason asks for, or null if it says none.
export function comeBackIn(reason) {
  const found = COME_BACK.exec(reason || "");
  if (!found) return null;
  const [earliest, latest] = [Number(found[1]) * 1000, Number(found[2]) * 1000];
  return earliest <= latest ? [earliest, latest] : null;
}

// The milliseconds to wait before calling again after a close ({code, reason}) that
// came after `failures` failed tries in a row; null when there is nothing to call
// (the room does not exist). `random` gives a number in [0, 1), as Math.random.
export function retryDelay({ code, reason = "" }, failures, random = Math.random) {
  if (code === NO_SUCH_ROOM) return null;
  const asked = comeBackIn(reason) ?? (code === SERVICE_RESTART ? [0, RESTART_SPREAD_MS] : null);
  if (asked) return Math.round(asked[0] + random() * (asked[1] - asked[0]));
  return Math.round(random() * Math.min(MOST_MS, FIRST_MS * 2 ** failures));
}
