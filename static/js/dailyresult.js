// A daily game's result in the room's end panel (issue 29): once the game is over, its
// place on the day's board, the engine's score on the same dice and the points given away
// against it, as the day's page shows them, without a click. The server works them out
// (`GET /g/<code>/daily/`, games/web/daily.py `game_result`); this tab asks once, when it
// first sees the game over.
//
// `figures` is tested in node (tests/js/dailyresult.test.mjs); DailyResult draws it into
// the list `#daily-result` of templates/games/room.html.

// "2 of 5", "12.3": the figures as (id, label, value) rows; an attempt that was not
// finished has no place and nothing given away that compares (its empty boxes were never played).
export function figures(result) {
  const ranked = result.finished;
  return [
    ["daily-result-place", "Your place on today's board", ranked ? `${result.place} of ${result.ranked}` : "not ranked: not finished"],
    ["daily-result-engine", "The engine's score on the same dice", String(result.engine)],
    ["daily-result-given", "Points given away against the engine", ranked ? result.given_away.toFixed(1) : "not counted"],
  ];
}

// What the panel says of an attempt that was not finished (null for one that was).
export function unfinishedNote(result) {
  if (result.finished) return null;
  return `Not finished: ${result.score} after ${result.boxes} of 13 boxes. It was your attempt for today, listed under the board without a place.`;
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
