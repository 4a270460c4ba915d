// The turn clock as the page shows it. The server owns the clock: it sends the
// seat on turn, the absolute deadline and the milliseconds left. The page counts
// down from `ms_left` as measured when the message arrived (this computer's own
// clock may be wrong by minutes), never from `deadline`.

import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";

export const URGENT_MS = 10_000;
// On the player's own turn the screen reader hears the clock at these marks only.
const WARNINGS_MS = [30_000, 10_000];
// A warning right after "your turn: N seconds" says nothing new: skip it.
const WARNING_MARGIN_MS = 5_000;

// The server's `clock` (or null) as this page counts it: `endsAt` on the
// performance.now() time line, taken at the message's receipt.
export function localClock(clock, now) {
  if (!clock) return null;
  return { seat: clock.seat, deadline: clock.deadline, endsAt: now + clock.ms_left };
}

export function msLeft(clock, now) {
  return Math.max(0, clock.endsAt - now);
}

export const isUrgent = (ms) => ms <= URGENT_MS;

// Shown time: whole seconds, rounded up (0:01 until the very end). Under an
// hour "m:ss"; a correspondence clock shows "23 h 59 min".
export function formatLeft(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  if (seconds >= 3600) {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    return interpolate(gettext("%(hours)s h %(minutes)s min"), { hours, minutes: String(minutes).padStart(2, "0") }, true);
  }
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

const hours = (count) => interpolate(ngettext("%(count)s hour", "%(count)s hours", count), { count }, true);
const minutes = (count) => interpolate(ngettext("%(count)s minute", "%(count)s minutes", count), { count }, true);
const seconds = (count) => interpolate(ngettext("%(count)s second", "%(count)s seconds", count), { count }, true);
// "1 minute 30 seconds": two units, the smaller left out when it is 0.
function both(larger, smaller) {
  if (!smaller) return larger;
  return interpolate(pgettext("a time in words: hours and minutes, or minutes and seconds", "%(larger)s %(smaller)s"),
    { larger, smaller }, true);
}

// The same time in words, for the screen reader: "45 seconds", "1 minute 30 seconds", "23 hours 59 minutes".
export function spokenLeft(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  if (total >= 3600) {
    const rest = Math.floor((total % 3600) / 60);
    return both(hours(Math.floor(total / 3600)), rest ? minutes(rest) : "");
  }
  if (total >= 60) {
    const rest = total % 60;
    return both(minutes(Math.floor(total / 60)), rest ? seconds(rest) : "");
  }
  return seconds(total);
}

// The room's setting, for the room's title bar: "60 s a turn", "2 min a turn",
// "24 h a turn (correspondence)"; null when the snapshot does not say.
export function describeTurnClock(seconds) {
  if (seconds === undefined) return null;
  if (seconds === null) return gettext("No turn clock");
  if (seconds === 86400) return interpolate(gettext("%(hours)s h a turn (correspondence)"), { hours: 24 }, true);
  if (seconds >= 3600 && seconds % 3600 === 0) {
    return interpolate(gettext("%(hours)s h a turn"), { hours: seconds / 3600 }, true);
  }
  if (seconds > 60 && seconds % 60 === 0) return interpolate(gettext("%(minutes)s min a turn"), { minutes: seconds / 60 }, true);
  return interpolate(gettext("%(seconds)s s a turn"), { seconds }, true);
}

// Decides what the polite live region says about the clock, and when: when the
// player's own turn starts, at 30 and 10 seconds left, and when time runs out.
// Never every second, and nothing for other players' turns (the feed tells those).
// Call `next` on every tick and after every message; it returns a sentence or null.
export class ClockAnnouncer {
  constructor() {
    this.key = null; // Which clock was last seen: a new deadline is a new clock.
    this.startMs = 0;
    this.lastMs = 0;
  }

  next(clock, mine, ms) {
    const key = clock ? `${clock.seat}|${clock.deadline}` : null;
    const fresh = key !== this.key;
    const before = this.lastMs;
    this.key = key;
    this.lastMs = ms;
    if (!clock || !mine) return null;
    if (fresh) {
      this.startMs = ms;
      return ms > 0 ? interpolate(gettext("Your turn: %(time)s on the clock."), { time: spokenLeft(ms) }, true) : null;
    }
    if (before > 0 && ms <= 0) return gettext("Time ran out: the clock plays the rest of your turn.");
    for (const mark of WARNINGS_MS) {
      if (before > mark && ms <= mark && this.startMs - mark >= WARNING_MARGIN_MS) {
        return interpolate(gettext("%(time)s left."), { time: spokenLeft(mark) }, true);
      }
    }
    return null;
  }
}
