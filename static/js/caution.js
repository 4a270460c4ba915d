// No silent zero: before a box is written with 0, or with far less than another
// open box would take for the same dice, the player is asked to confirm. The
// server would accept either move (both are legal); this only guards against a
// slip of the finger, like a click on Full house with 6 5 3 2 4 while Large
// straight, worth 40, is still open.

// "Far below": at least this many points less than the best other open box.
// 15 points is more than the gap between choices players weigh on purpose (a
// Small straight instead of a Large one gives up 10; three of a face in the upper
// section is worth at most 18), and less than the fixed boxes a slip throws away:
// a made Full house (25), a straight (30, 40) or a Yahtzee (50).
import { gettext, interpolate } from "./i18n.js";

export const FAR_BELOW = 15;

// Chance is left out of the comparison: it takes any roll, so it nearly always
// offers more than an upper box, and keeping it for later is the usual reason to
// write a small score elsewhere.
const NOT_COMPARED = new Set(["chance"]);

// Whether writing these dice in `category` deserves a question, and why.
// `options` is the server's list for this roll: the open boxes it allows, each
// with its points. Returns null (go ahead) or
// { points, zero, better: { category, points } | null }, where `better` is the
// best other open box, when it would take FAR_BELOW or more points than this one.
export function scoreCaution(category, options) {
  if (!(category in options)) return null; // Not a choice for this roll: the server says why.
  const points = options[category];
  let better = null;
  for (const [other, value] of Object.entries(options)) {
    if (other === category || NOT_COMPARED.has(other)) continue;
    if (value - points >= FAR_BELOW && (!better || value > better.points)) better = { category: other, points: value };
  }
  const zero = points === 0;
  if (!zero && !better) return null;
  return { points, zero, better };
}

// The question, in words, in the reader's language: { title, text, yes } for the dialog;
// `line` for the command line, which asks to type `score!` or `yes` (commands stay English).
export function cautionWords(category, caution, labels, dice) {
  const box = labels[category];
  const values = { box, points: caution.points, roll: dice.join(" ") };
  const title = caution.zero
    ? interpolate(gettext("Write 0 in %(box)s?"), values, true)
    : interpolate(gettext("Only %(points)s in %(box)s?"), values, true);
  let text = interpolate(
    gettext("%(roll)s scores %(points)s in %(box)s, and the box is then filled for the rest of the game."),
    values,
    true,
  );
  if (caution.better) {
    const instead = { other: labels[caution.better.category], points: caution.better.points };
    text += " " + interpolate(gettext("%(other)s would take %(points)s."), instead, true);
  }
  return {
    title,
    text,
    yes: interpolate(gettext("Score %(points)s in %(box)s"), values, true),
    line:
      text +
      " " +
      interpolate(gettext("Type yes (or score! %(box)s) to write it."), { box: box.toLowerCase() }, true),
  };
}
