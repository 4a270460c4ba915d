// What a player needs on the screen, and how far to scroll to show it. Pure: rectangles
// in (as getBoundingClientRect gives them, relative to the viewport), a distance out.

// Breathing room between what is brought into view and the screen's edge, in pixels.
export const MARGIN = 8;

// How far to scroll down (negative: up) when a turn starts, so that every part it needs
// (the dice, Roll, each open box: `need`, each `{ top, bottom, seen }`, `seen` when it is
// wholly on the screen and nothing covers it) shows; `head` is the top of what should
// show above them if there is room (the player's name on the card), or null; `height` the
// viewport's. Zero when everything is seen already: a player who can see the turn is not
// moved. Otherwise the smallest scroll: up to the first part (or the head) when something
// is above the screen, down just enough when something is below it (never so far that the
// first part goes off the top), and the first part to the top when everything is on the
// screen but something covers a part (on a phone, the tray stuck to the bottom over the
// card's last boxes).
export function turnScroll(need, head, height, margin = MARGIN) {
  if (need.length === 0 || need.every((part) => part.seen)) return 0;
  const top = Math.min(...need.map((part) => part.top));
  const bottom = Math.max(...need.map((part) => part.bottom));
  const first = head !== null && bottom - head <= height - 2 * margin ? Math.min(head, top) : top;
  if (first < 0) return first - margin;
  const down = first - margin;
  return bottom > height ? Math.min(bottom - height + margin, down) : down;
}
