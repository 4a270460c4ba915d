// The coach's two bests, worded for a player: when the move that wins most often is
// not the move worth the most points (the advice message's `to_win`, docs/protocol.md),
// the coach shows both, each with the points it leads to and its chance to win.

// A choice's label as the server writes it ("Keep 4 5 6 6", "Throw all",
// "Chance (22)") as a thing to do, in the middle of a sentence.
export function actionWords(label) {
  if (label === "Throw all") return "throw all five again";
  if (label.startsWith("Keep ")) return `keep ${label.slice(5).split(" ").join("-")}`;
  const box = /^(.+) \((\d+)\)$/.exec(label);
  if (box) return `score ${box[2]} in ${box[1]}`;
  return label;
}

// A chance (0 to 1) as a player reads it: whole percents, never a "0%" or a "100%"
// for what may still happen either way.
export function chanceWords(chance) {
  if (chance <= 0) return "no chance to win";
  if (chance >= 1) return "sure to win";
  if (chance < 0.005) return "under 1% to win";
  if (chance > 0.995) return "over 99% to win";
  return `${Math.round(chance * 100)}% to win`;
}

function said(choice) {
  return `${actionWords(choice.label)} (about ${Math.round(choice.expected)} pts, ${chanceWords(choice.win)})`;
}

// Both lines, or null when the best for points is also the best to win (`toWin` null).
export function bothBests(toWin) {
  if (!toWin) return null;
  return {
    points: `For the most points: ${said(toWin.points)}.`,
    win: `To win this game: ${said(toWin.win)}.`,
  };
}
