"""How long the chances to win take (issue 18): live after a move, and over a whole game.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/win_chances.py               # 2 and 6 seats, 5 games each
    .venv/bin/python benchmarks/win_chances.py --games 2 --seats 2 3 4 6

Each game is played by bots with the rules engine on seeded dice (Optimal and Casual
seats in turn, so the chances move as a real table's do), written as the event log
the server would keep, then:

1. **Over the game.** The review is built from the log (:func:`games.insight.review.build`)
   and every moment's chances and every swing are worked out
   (:func:`games.insight.chances.over_the_game`), with the odds table already loaded and
   its memory of turn-start states emptied first, as in a fresh server process that
   has answered nothing yet: the seconds it takes, the moments and the distinct
   positions.
2. **Live.** :func:`games.insight.chances.odds_message` for each moment of the game in
   turn, from the same fresh start: the median and the slowest, in milliseconds.
   What one ``odds`` request costs the first socket that asks (the others are
   answered from memory).

The odds table is loaded (or built, about 20 s, the first time) before anything is timed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from games.engine import events, rules  # noqa: E402
from games.insight import chances, review  # noqa: E402
from games.strategy import load, odds, policies  # noqa: E402


def played_log(seats: int, seed: int) -> list[events.AnyEvent]:
    """The log of a whole game of ``seats``: its host, who plays as the Optimal bot would,
    and bots (Casual, Optimal, Casual, ...). A bot is never a room's host."""
    rng = random.Random(seed)
    optimal, casual = events.BotLevel.OPTIMAL, events.BotLevel.CASUAL
    levels = [optimal if s % 2 == 0 else casual for s in range(seats)]
    names = ("Host 1", *(f"{levels[s].title()} {s + 1}" for s in range(1, seats)))
    log: list[events.AnyEvent] = [events.Created(rules.OFFICIAL.name, seats, False)]
    log += [events.Joined(s, n, s == 0, levels[s] if s else None) for s, n in enumerate(names)]
    game = rules.Game.new(seats)
    log.append(events.Started(names, game.current))
    while game.current is None:
        throws = {s: [rng.randint(1, 6) for _ in range(5)] for s in game.roll_off.contenders}
        progress = game.throw_roll_off(throws)
        game = progress.game
        log += progress.events
    while not game.is_over:
        position = game.position()
        assert position is not None
        move = policies.choose(levels[position.seat], position)
        if move.category is not None:
            progress = game.score(position.seat, move.category)
        else:
            fresh = [rng.randint(1, 6) for _ in range(5 - len(move.hold))]
            progress = game.roll(position.seat, fresh, move.hold)
        game = progress.game
        log += progress.events
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 6])
    args = quick.parse_args(parser, {"games": 1, "seats": [2]})
    started = time.perf_counter()
    table = odds.load(rules.OFFICIAL)
    load(rules.OFFICIAL)
    print(f"odds table ready in {time.perf_counter() - started:.1f} s (cpus: {os.cpu_count()})")
    for seats in args.seats:
        whole, live, moments, positions = [], [], [], []
        for seed in range(args.games):
            log = played_log(seats, seed)
            told = review.build(log)
            table._memo.clear()  # A fresh process: no turn-start state known yet.
            for moment in told.moments:  # In order, as a room asks after each move.
                assert moment.game is not None
                t = time.perf_counter()
                chances.odds_message(moment.game, moment.seq, table)
                live.append((time.perf_counter() - t) * 1000)
            table._memo.clear()
            t = time.perf_counter()
            over = chances.over_the_game(told, table)
            whole.append(time.perf_counter() - t)
            moments.append(len(told.moments))
            positions.append(len({chances._key(m.game) for m in told.moments if m.game}))
            assert len(over.chances) == len(told.moments)
        print(
            f"{seats} seats: over the game {statistics.median(whole):.2f} s median, "
            f"{max(whole):.2f} s at most ({statistics.median(moments):.0f} moments, "
            f"{statistics.median(positions):.0f} positions); live {statistics.median(live):.1f} ms "
            f"median, {max(live):.1f} ms at most ({len(live)} positions)"
        )


if __name__ == "__main__":
    main()
