// A daily game's result in the room's end panel (issue 29): once the game is over, its
// place on the day's board, the engine's score on the same dice and the points given away
// against it, as the day's page shows them, without a click. The server works them out
// (`GET /g/<code>/daily/`, games/web/daily.py `game_result`); this tab asks once, when it
// first sees the game over.
//
// `figures` is tested in node (tests/js/dailyresult.test.mjs); DailyResult draws it into
// the list `#daily-result` of templates/games/room.html.

import { gettext, interpolate, lang } from "./i18n.js";

// "2 of 5", "12.3": the figures as (id, label, value) rows; an attempt that was not
// finished has no place and nothing given away that compares (its empty boxes were never played).
export function figures(result) {
  const ranked = result.finished;
  const place = ranked
    ? interpolate(gettext("%(place)s of %(ranked)s"), { place: result.place, ranked: result.ranked }, true)
    : gettext("not ranked: not finished");
  const tenths = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return [
    ["daily-result-place", gettext("Your place on today's board"), place],
    ["daily-result-engine", gettext("The engine's score on the same dice"), String(result.engine)],
    ["daily-result-given", gettext("Points given away against the engine"), ranked ? tenths.format(result.given_away) : gettext("not counted")],
  ];
}

// What the panel says of an attempt that was not finished (null for one that was).
export function unfinishedNote(result) {
  if (result.finished) return null;
  return interpolate(
    gettext("Not finished: %(score)s after %(boxes)s of 13 boxes. It was your attempt for today, listed under the board without a place."),
    { score: result.score, boxes: result.boxes },
    true,
  );
}

export class DailyResult {
  // `code`: the room's; `fetcher`: window.fetch, or a test's.
  constructor(code, { root = document, fetcher = (...args) => fetch(...args) } = {}) {
    this.url = `/g/${encodeURIComponent(code)}/daily/`;
    this.fetcher = fetcher;
    this.list = root.getElementById("daily-result");
    this.note = root.getElementById("daily-result-note");
    this.root = root;
    this.asked = false;
    this.shown = null; // The result drawn, once the server has said.
  }

  // Every message the room receives passes here; only the end of the game concerns it.
  receive(message, state) {
    if (this.asked || !state || !["finished", "abandoned"].includes(state.game.status)) return;
    this.asked = true;
    this.load();
  }

  async load() {
    let response;
    try {
      response = await this.fetcher(this.url, { headers: { Accept: "application/json" } });
    } catch {
      this.asked = false; // No network: the next message (a new socket's snapshot) asks again.
      return;
    }
    if (!response.ok) return; // The board's link stays: the result is there.
    this.show(await response.json());
  }

  show(result) {
    this.shown = result;
    const rows = figures(result).map(([id, label, value]) => {
      const row = this.root.createElement("div");
      const term = this.root.createElement("dt");
      const detail = this.root.createElement("dd");
      term.textContent = label;
      detail.textContent = value;
      detail.id = id;
      row.append(term, detail);
      return row;
    });
    this.list.replaceChildren(...rows);
    this.list.hidden = false;
    const note = unfinishedNote(result);
    this.note.textContent = note || "";
    this.note.hidden = !note;
  }
}
