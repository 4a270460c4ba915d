// The result: who won and the places at the end (or the game abandoned), the rematch,
// the review; the moment the game ends the result comes into view, with a short burst of
// confetti for everyone who has not asked their system for less motion. A rematch takes
// everyone in the room, watchers too, to its new room.

import { gettext, interpolate, listed, ngettext, pgettext } from "../i18n.js";
import { seatName } from "../state.js";
import { maker, setDisabled, setHidden, setText } from "./dom.js";

const CELEBRATION_MS = 2600;
const REMATCH_DELAY_MS = 800; // Long enough to read where you are going.
const ENDS = ["rematch-button", "rematch-link", "finish-note"];

// A place in the ranking: "1st", "2nd" in English, "1.", "2." in German (as games/words.py).
function ordinal(place) {
  const last = place < 20 ? place : place % 10;
  let format = pgettext("a place in a ranking, as 4th 11th", "%(place)sth");
  if (last === 1) format = pgettext("a place in a ranking, as 1st 21st", "%(place)sst");
  else if (last === 2) format = pgettext("a place in a ranking, as 2nd 22nd", "%(place)snd");
  else if (last === 3) format = pgettext("a place in a ranking, as 3rd 23rd", "%(place)srd");
  return interpolate(format, { place }, true);
}

export class FinishPanel {
  follows = new Set(["finished", "abandoned", "rematch", "pending"]);

  constructor(room, doc = document) {
    this.room = room;
    this.doc = doc;
    this.el = maker(doc);
    const $ = (id) => doc.getElementById(id);
    this.section = $("finish");
    this.heading = $("finish-heading");
    this.headline = $("finish-headline");
    this.ranking = $("ranking");
    this.rematchButton = $("rematch-button");
    this.rematchLink = $("rematch-link");
    this.parts = Object.fromEntries(ENDS.map((id) => [id, $(id)]));
    this.rematchButton.addEventListener("click", () => room.sendRematch());
  }

  draw() {
    const { state, config } = this.room;
    const abandoned = state.game.status === "abandoned";
    const finished = state.game.status === "finished";
    setHidden(this.section, !(finished || abandoned));
    if (abandoned) {
      // Ended unfinished: the cards as they stood, and nothing to do.
      setText(this.heading, gettext("Game abandoned"));
      setText(this.headline, gettext("The game ended unfinished: nobody played for a long while."));
      this.ranking.replaceChildren();
      for (const part of Object.values(this.parts)) setHidden(part, true);
      return;
    }
    if (!finished) return;
    if (config.daily) {
      // One game a day on the day's dice: its place and the engine's score are on the board.
      for (const part of Object.values(this.parts)) setHidden(part, true);
      const total = state.players[0] ? state.players[0].card.total : 0;
      const words = state.you
        ? ngettext("You scored %(points)s on today's dice.", "You scored %(points)s on today's dice.", total)
        : ngettext("%(name)s scored %(points)s on today's dice.", "%(name)s scored %(points)s on today's dice.", total);
      setText(this.headline, interpolate(words, { name: seatName(state, 0), points: total }, true));
      this.ranking.replaceChildren();
      return;
    }
    setHidden(this.rematchButton, Boolean(!state.you || state.rematch));
    setDisabled(this.rematchButton, this.room.pending === "rematch");
    setHidden(this.rematchLink, !state.rematch);
    if (state.rematch) this.rematchLink.href = `/g/${encodeURIComponent(state.rematch)}/`;
    const winners = state.winners || [];
    const names = winners.map((seat) => seatName(state, seat));
    const best = winners.length ? state.players[winners[0]].card.total : 0;
    const mine = state.you && winners.includes(state.you.seat);
    let headline;
    if (!names.length) headline = gettext("Everybody left: nobody won.");
    else if (state.players.length === 1) {
      headline = mine
        ? ngettext("You scored %(points)s point.", "You scored %(points)s points.", best)
        : ngettext("%(name)s scored %(points)s point.", "%(name)s scored %(points)s points.", best);
    } else if (names.length === 1) {
      headline = mine
        ? ngettext("You win with %(points)s point!", "You win with %(points)s points!", best)
        : ngettext("%(name)s wins with %(points)s point!", "%(name)s wins with %(points)s points!", best);
    } else headline = ngettext("%(names)s share the win with %(points)s point.", "%(names)s share the win with %(points)s points.", best);
    setText(this.headline, interpolate(headline, { name: names[0], names: listed(names), points: best }, true));
    this.drawRanking(winners);
  }

  update(message) {
    if (message.kind === "pending") { // A rematch asked for, or answered.
      setDisabled(this.rematchButton, this.room.pending === "rematch");
      return;
    }
    this.draw();
    if (message.kind === "finished") this.celebrate();
    if (message.kind === "rematch") this.goToRematch(message.data);
  }

  // The places are the server's (the rules' outcome): ties share one, a seat that left has none.
  drawRanking(winners) {
    const el = this.el;
    const unplaced = (p) => (p.place === null || p.place === undefined ? Infinity : p.place);
    const ranking = [...this.room.state.players].sort((a, b) => (unplaced(a) - unplaced(b)) || (a.seat - b.seat));
    this.ranking.replaceChildren(...ranking.map((player) => {
      const item = el("li", { class: `ranking__item${winners.includes(player.seat) ? " ranking__item--winner" : ""}` });
      const place = unplaced(player) === Infinity ? "–" : ordinal(player.place);
      item.append(el("span", { class: "ranking__place" }, place),
        el("span", { class: "ranking__name" }, player.left ? interpolate(gettext("%(name)s (left)"), player, true) : player.name),
        el("span", { class: "ranking__total" }, String(player.card.total)));
      return item;
    }));
  }

  // The game just ended: the result comes into view, with confetti unless asked for less motion.
  celebrate() {
    const reduceMotion = this.room.reduceMotion;
    this.section.scrollIntoView({ block: "start", behavior: reduceMotion ? "auto" : "smooth" });
    if (reduceMotion) return;
    const el = this.el;
    const burst = el("div", { class: "celebration", "aria-hidden": "true" });
    for (let i = 0; i < 28; i += 1) {
      const piece = el("span", { class: `celebration__piece celebration__piece--${i % 4}` });
      // Spread over the width and a little in time, the same way each time (through the
      // CSSOM: the Content-Security-Policy refuses style attributes).
      piece.style.left = `${(i * 37) % 100}%`;
      piece.style.animationDelay = `${(i % 7) * 90}ms`;
      piece.style.setProperty("--drift", `${((i * 53) % 60) - 30}px`);
      burst.append(piece);
    }
    this.section.append(burst);
    setTimeout(() => burst.remove(), CELEBRATION_MS);
  }

  goToRematch({ code, name }) {
    this.room.say(interpolate(gettext("%(name)s started a rematch: taking you to the new room…"), { name }, true), "notice");
    setTimeout(() => this.doc.defaultView.location.assign(`/g/${encodeURIComponent(code)}/`), REMATCH_DELAY_MS);
  }
}
