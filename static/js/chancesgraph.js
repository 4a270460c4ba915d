// The review's graph of the chances to win, by keyboard (issue 27): the graph is a
// slider over the game's moments. Its keys: Left and Right (or Down and Up) step one
// moment, Home and End go to the start and the end, Page Up and Page Down jump to the
// turning point before or after; Enter shows the replay at the moment chosen. What a
// screen reader hears as it moves is `valueText`: the moment, each seat's chance, and
// the turning point it is on. The numbered turning points are listed under the graph
// too, as links.
//
// The pure functions are tested in node (tests/js/chancesgraph.test.mjs); review.js wires
// them into the page (`keyboardGraph`).

import { gettext, interpolate } from "./i18n.js";

// The moment a key takes the graph to from moment `index` of `count`, given the moments
// of the turning points (`turns`); null for a key the graph leaves alone, or the same
// index when there is nowhere further to go.
export function graphKey(key, index, count, turns) {
  const last = count - 1;
  switch (key) {
    case "ArrowLeft":
    case "ArrowDown":
      return Math.max(0, index - 1);
    case "ArrowRight":
    case "ArrowUp":
      return Math.min(last, index + 1);
    case "Home":
      return 0;
    case "End":
      return last;
    case "PageUp":
      return [...turns].sort((a, b) => b - a).find((turn) => turn < index) ?? index;
    case "PageDown":
      return [...turns].sort((a, b) => a - b).find((turn) => turn > index) ?? index;
    default:
      return null;
  }
}

// What the slider says at a moment: "Moment 21 of 80: Ana 62%, Ben 38%; turning point 2."
// (`chances` is each seat's chance there; `turn` the turning point's number, or null).
export function valueText({ seq, lastSeq, names, chances, turn, percent }) {
  const odds = chances ? names.map((name, seat) => `${name} ${percent(chances[seat])}`).join(", ") : "";
  const values = { seq, last: lastSeq, odds, turn };
  let format;
  if (odds && turn) format = gettext("Moment %(seq)s of %(last)s: %(odds)s; turning point %(turn)s.");
  else if (odds) format = gettext("Moment %(seq)s of %(last)s: %(odds)s.");
  else if (turn) format = gettext("Moment %(seq)s of %(last)s; turning point %(turn)s.");
  else format = gettext("Moment %(seq)s of %(last)s.");
  return interpolate(format, values, true);
}

// Make `svg` (the graph) a slider over the moments. `show(index)` shows a moment,
// `current()` says which is shown, `goToReplay()` takes the view and the focus there.
export function keyboardGraph(svg, { count, show, current, goToReplay }) {
  const turns = [...svg.querySelectorAll(".chart__turn")].map((mark) => Number(mark.dataset.index));
  svg.setAttribute("role", "slider");
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("aria-valuemin", "0");
  svg.setAttribute("aria-valuemax", String(count - 1));
  svg.setAttribute("aria-orientation", "horizontal");
  const help = svg.closest("figure") && svg.closest("figure").querySelector("figcaption");
  if (help && help.id) svg.setAttribute("aria-describedby", help.id);
  svg.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      goToReplay();
      return;
    }
    const index = graphKey(event.key, current(), count, turns);
    if (index === null) return;
    event.preventDefault();
    event.stopPropagation(); // The page's own arrow keys would step again.
    show(index);
  });
}

// The slider's value at moment `index` (review.js calls it from `show`).
export function markGraph(svg, index, text) {
  svg.setAttribute("aria-valuenow", String(index));
  svg.setAttribute("aria-valuetext", text);
}
