// The coach's words for a player, in the reader's language: each choice of the advice
// message (docs/protocol.md) as the coach lists it and as a move in a sentence, and the two
// bests when the move that wins most often is not the move worth the most points (its
// `to_win`), each with the points it leads to and its chance to win.
//
// The server's `label` is English ("Keep 4 5 6 6", "Throw all", "Chance (22)"): the words
// here come from the choice's facts (`kind`, `kept`, `category`, `points`) and the room's
// box names (`labels`, the card's names in the reader's language).
import { gettext, interpolate, lang, ngettext } from "./i18n.js";

const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });

// A choice as the coach lists it: "Keep 4 5 6 6", "Throw all", "Full house (25)".
export function choiceLabel(choice, labels) {
  if (choice.kind === "keep") {
    if (!choice.kept.length) return gettext("Throw all");
    return interpolate(gettext("Keep %(dice)s"), { dice: choice.kept.join(" ") }, true);
  }
  const box = labels[choice.category] || choice.category;
  // Translators: a box of the card and what this roll would score in it, as "Full house (25)".
  return interpolate(gettext("%(box)s (%(points)s)"), { box, points: choice.points }, true);
}

// A choice as a thing to do, after a colon in the middle of a sentence: "keep 4-5-6-6",
// "throw all five again", "score 22 in Chance".
export function actionWords(choice, labels) {
  if (choice.kind === "keep") {
    if (!choice.kept.length) return gettext("throw all five again");
    return interpolate(gettext("keep %(dice)s"), { dice: choice.kept.join("-") }, true);
  }
  const box = labels[choice.category] || choice.category;
  return interpolate(gettext("score %(points)s in %(box)s"), { box, points: choice.points }, true);
}

// A chance (0 to 1) as a player reads it: whole percents, never a "0%" or a "100%"
// for what may still happen either way.
export function chanceWords(chance) {
  if (chance <= 0) return gettext("no chance to win");
  if (chance >= 1) return gettext("sure to win");
  if (chance < 0.005) return interpolate(gettext("under %(percent)s to win"), { percent: percent.format(0.01) }, true);
  if (chance > 0.995) return interpolate(gettext("over %(percent)s to win"), { percent: percent.format(0.99) }, true);
  return interpolate(gettext("%(percent)s to win"), { percent: percent.format(chance) }, true);
}

// `best` ({ label, expected, win }) as the coach says it: the move, its points, its chance.
function said(best, choices, labels) {
  // `to_win` names its choices by their label: the facts are the same choice's in `choices`.
  const choice = choices.find((c) => c.label === best.label);
  const points = Math.round(best.expected);
  return {
    move: choice ? actionWords(choice, labels) : best.label,
    points: whole.format(points),
    count: points,
    chance: chanceWords(best.win),
  };
}

// Both lines, or null when the best for points is also the best to win (`to_win` null).
export function bothBests({ to_win: toWin, choices }, labels) {
  if (!toWin) return null;
  const points = said(toWin.points, choices, labels);
  const win = said(toWin.win, choices, labels);
  return {
    points: interpolate(
      // Translators: the coach's best move for points, as "keep 4-5-6-6", "score 22 in Chance";
      // then the final total it leads to on average, and its chance to win, as "8% to win".
      ngettext(
        "For the most points: %(move)s (about %(points)s pt, %(chance)s).",
        "For the most points: %(move)s (about %(points)s pts, %(chance)s).",
        points.count,
      ),
      points,
      true,
    ),
    win: interpolate(
      // Translators: the coach's best move to win this game, as "keep 5-6-6", "throw all five
      // again"; then the final total it leads to on average, and its chance to win.
      ngettext(
        "To win this game: %(move)s (about %(points)s pt, %(chance)s).",
        "To win this game: %(move)s (about %(points)s pts, %(chance)s).",
        win.count,
      ),
      win,
      true,
    ),
  };
}
