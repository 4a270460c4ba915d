"""The To-win bot against the Optimal bot: two-player games, seats alternating.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/duel.py                       # 10,000 games at least
    .venv/bin/python benchmarks/duel.py --games 2000 --max-games 2000   # a quick look

Each game is two seats, seat 0 playing first every round; the To-win bot sits
in seat 0 in even games and seat 1 in odd ones. Both play by
:mod:`games.strategy.policies` choices (Optimal: the expected-score policy, as
:mod:`games.strategy.outcomes` works it out, which ``tests/strategy/test_odds.py``
checks against :meth:`Strategy.best`; To win: :func:`~games.strategy.winning.win_turn` in its last
:data:`~games.strategy.policies.LATE_BOXES` turns), with random dice drawn from
the exact chances of each keep. A tie counts half a win. Games are played in
rounds until ``--games`` are done and the 95% interval of the To-win bot's win
rate lies above or below 50%, or ``--max-games`` are played, on ``--processes``
processes.

It prints the To-win bot's win rate with its 95% interval (normal
approximation; games are independent), both bots' mean scores, and how many
games the To-win bot chose differently in at all. Each game is also replayed
with the same dice by two Optimal bots (the dice of a seat's turn are drawn
the same way whoever plays it): the difference between the two is a second,
lower-variance estimate of the same win rate (paired games; the plain one is
the figure to quote).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from games.engine.rules import OFFICIAL, get_rules  # noqa: E402
from games.strategy import odds  # noqa: E402
from games.strategy.dice import ROLL_PROBABILITY  # noqa: E402
from games.strategy.outcomes import TRANSITIONS  # noqa: E402
from games.strategy.policies import LATE_BOXES  # noqa: E402
from games.strategy.tables import UPS  # noqa: E402
from games.strategy.winning import win_turn  # noqa: E402

ROLL_CDF = np.cumsum(ROLL_PROBABILITY)
KEEP_CDF = np.cumsum(TRANSITIONS, axis=1)
_table: odds.Odds | None = None


def draw(cdf: np.ndarray, u: float) -> int:
    return min(int(np.searchsorted(cdf, u)), len(cdf) - 1)


def boxes_left(table: odds.Odds, flat: int) -> int:
    return table.layout.box_count - (flat // (2 * UPS)).bit_count()


def play(table: odds.Odds, dice: np.ndarray, win_seat: int | None, late: int) -> list[int]:
    """One game; ``dice[seat, turn]`` are the three uniforms of that turn's rolls."""
    flats, totals = [0, 0], [0, 0]
    deviated = 0
    for turn in range(table.layout.box_count):
        for seat in (0, 1):
            flat = flats[seat]
            chosen = table.choices(flat)
            keep_2, keep_1 = chosen.keep_2[:, 0], chosen.keep_1[:, 0]
            gained, after = chosen.gained[:, 0], chosen.after[:, 0]
            if seat == win_seat and boxes_left(table, flat) <= late:
                other = 1 - seat
                rest: odds.Seat = totals[other]
                if flats[other] // (2 * UPS) != table.layout.full_mask:
                    rest = odds.Distribution.after(totals[other], table.remaining(flats[other]))
                won = win_turn(table, flat, totals[seat], [rest])
                points = (keep_2, keep_1, after)
                keep_2, keep_1, gained, after = won.keep_2, won.keep_1, won.gained, won.after
            else:
                points = (keep_2, keep_1, after)
            u = dice[seat, turn]
            roll = draw(ROLL_CDF, u[0])
            # Did the choice made differ from the one for points (standing aside)?
            differs = points[0][roll] != keep_2[roll]
            roll = draw(KEEP_CDF[keep_2[roll]], u[1])
            differs |= points[1][roll] != keep_1[roll]
            roll = draw(KEEP_CDF[keep_1[roll]], u[2])
            differs |= points[2][roll] != after[roll]
            deviated |= int(differs)
            totals[seat] += int(gained[roll])
            flats[seat] = int(after[roll])
    return [*totals, deviated]


def work(job: tuple[str, int, int, int, int]) -> tuple[list[list[int]], float]:
    preset, seed, first, count, late = job
    cpu = time.process_time()
    global _table
    if _table is None:
        _table = odds.load(get_rules(preset))
    results = []
    for game in range(first, first + count):
        dice = np.random.default_rng([seed, game]).random((2, _table.layout.box_count, 3))
        win_seat = game % 2
        a, b, deviated = play(_table, dice, win_seat, late)
        c, d, _ = play(_table, dice, None, late)
        results.append([win_seat, a, b, c, d, deviated])
    return results, time.process_time() - cpu


def share(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    return np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))


def report(rows: np.ndarray, took: float, cpu: float) -> tuple[float, float]:
    seat = rows[:, 0]
    a, b, c, d, deviated = rows[:, 1], rows[:, 2], rows[:, 3], rows[:, 4], rows[:, 5]
    win_score = np.where(seat == 0, a, b)
    opt_score = np.where(seat == 0, b, a)
    wins = share(win_score, opt_score)
    # The same seat's result when two Optimal bots play the same dice.
    control = share(np.where(seat == 0, c, d), np.where(seat == 0, d, c))
    n = len(rows)
    rate = wins.mean()
    half = 1.96 * wins.std(ddof=1) / math.sqrt(n)
    paired = wins - control
    paired_rate = 0.5 + paired.mean()
    paired_half = 1.96 * paired.std(ddof=1) / math.sqrt(n)
    print(
        f"{n:,} games: To win wins {rate:.4f} (95% interval {rate - half:.4f} to "
        f"{rate + half:.4f}); ties {np.mean(win_score == opt_score):.4f}"
    )
    print(
        f"  mean scores: To win {win_score.mean():.2f}, Optimal {opt_score.mean():.2f}"
        f" (two Optimal bots on the same dice: {np.concatenate([c, d]).mean():.2f});"
        f" the To-win bot chose differently in {deviated.mean():.1%} of games"
    )
    print(
        f"  paired with the same dice played by two Optimal bots: {paired_rate:.4f}"
        f" (95% interval {paired_rate - paired_half:.4f} to {paired_rate + paired_half:.4f})"
    )
    print(
        f"  by seat: first {wins[seat == 0].mean():.4f}, second {wins[seat == 1].mean():.4f};"
        f" {took:.0f} s, {cpu:.0f} s CPU in the workers; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    return rate - half, rate + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="at least this many")
    parser.add_argument("--max-games", type=int, default=60_000)
    parser.add_argument("--round", type=int, default=2_000, help="games between reports")
    parser.add_argument("--late", type=int, default=LATE_BOXES, help="boxes left to play to win")
    parser.add_argument("--preset", default=OFFICIAL.name)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--processes", type=int, default=2)
    args = quick.parse_args(parser, {"games": 6, "max_games": 6, "round": 6, "processes": 1})
    odds.load(args.preset)  # Built and cached once before the workers start.
    print(
        f"== To win (last {args.late} turns) against Optimal, {args.preset},"
        f" seed {args.seed}, {args.processes} processes"
    )
    rows: list[Any] = []
    started, cpu = time.perf_counter(), 0.0
    chunk = 50
    with multiprocessing.Pool(args.processes) as pool:
        while len(rows) < args.max_games:
            first = len(rows)
            jobs = [
                (args.preset, args.seed, start, min(chunk, first + args.round - start), args.late)
                for start in range(first, first + args.round, chunk)
            ]
            for part, seconds in pool.map(work, jobs, chunksize=1):
                rows.extend(part)
                cpu += seconds
            low, high = report(np.array(rows), time.perf_counter() - started, cpu)
            if len(rows) >= args.games and (low > 0.5 or high < 0.5):
                break


if __name__ == "__main__":
    main()
