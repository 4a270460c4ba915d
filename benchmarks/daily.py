"""The time to compute a day's engine score: the Optimal bot playing the day's grid.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/daily.py               # 365 days
    .venv/bin/python benchmarks/daily.py --days 30

It prints, for ``--days`` days from day 1 (:data:`games.live.daily.FIRST_DAY`), each day's
grid drawn from a fixed secret as the server draws it (:func:`games.engine.grid.daily_seed`):

1. the time to load the official strategy table from the cache (once per process: the
   first daily score of a process pays it, as :func:`games.live.daily.engine_of` does);
2. the time to play one grid as the Optimal bot (:func:`games.insight.duplicate.engine_game`):
   median, 95th percentile and the slowest, then the engine's scores (mean, lowest, highest).

No database: the server keeps each day's score once computed (``DailyEngine``), so this
is the whole cost of a day. The strategy tables load from the usual cache
(``var/strategy/`` or ``$YAHTZEE_STRATEGY_CACHE``), computed first if missing.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from games.engine.grid import Grid, daily_seed  # noqa: E402
from games.engine.rules import OFFICIAL  # noqa: E402
from games.insight.duplicate import engine_game  # noqa: E402
from games.strategy import load  # noqa: E402

FIRST_DAY = datetime.date(2026, 11, 26)  # As games.live.daily has it (that module needs Django).


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365, help="how many days' grids to play")
    args = quick.parse_args(parser, {"days": 5})
    started = time.perf_counter()
    strategy = load(OFFICIAL)
    loaded = time.perf_counter() - started
    print(f"loading the official strategy: {loaded * 1000:.0f} ms (once per process)")

    timings, scores = [], []
    for n in range(args.days):
        day = FIRST_DAY + datetime.timedelta(days=n)
        grid = Grid.from_seed(daily_seed("benchmark secret", day.isoformat()))
        started = time.perf_counter()
        game = engine_game(grid, OFFICIAL, strategy)
        timings.append(time.perf_counter() - started)
        scores.append(game.cards[0].total)
    timings.sort()
    median = statistics.median(timings)
    p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
    print(
        f"engine score of a day, {args.days} days: median {median * 1000:.1f} ms,"
        f" p95 {p95 * 1000:.1f} ms, slowest {timings[-1] * 1000:.1f} ms"
    )
    print(
        f"engine scores: mean {statistics.mean(scores):.1f}, lowest {min(scores)}, "
        f"highest {max(scores)}"
    )


if __name__ == "__main__":
    main()
