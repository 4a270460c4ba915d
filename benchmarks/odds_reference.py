"""The Monte Carlo reference for the odds: 50 positions, 100,000 games each, Optimal bots.

Run it from the project's root with the project's virtualenv (a few minutes)::

    .venv/bin/python benchmarks/odds_reference.py            # writes the reference file
    .venv/bin/python benchmarks/odds_reference.py --games 10000 --out /tmp/ref.json

It makes the 50 positions (seeded; described by kind below) and, for each,
plays every seat's remaining game ``--games`` times with random dice, each seat
by the expected-score policy (the Optimal bot: :mod:`games.strategy.simulate`,
whose choices ``tests/strategy/test_odds.py`` checks against
:meth:`Strategy.best`). Game ``i`` of a position pairs the ``i``-th play-out of
every seat; the seat with the highest final total wins it, ties shared. The
file keeps each position (cards, dice, rolls left, final scores of seats that
left), each seat's share of wins and mean final total:
``tests/strategy/data/win_reference.json``, which ``tests/strategy/test_odds.py``
compares :func:`games.strategy.odds.win_probabilities` with.

Kinds: ``start`` (empty cards; sometimes the first roll on the table),
``mid`` (rounds 3 to 9), ``late`` (rounds 10 to 13), ``tie`` (two seats level
on points with as many boxes left), ``bonus`` (upper bonuses still to play for,
close to the line), ``left`` (a seat left the game with its score). One
position in six is played under the free-Joker preset. Cards come from games
of the Optimal bot on random dice (``--pool`` a preset, 300 by default), chosen
so that the seats are close (their expected final totals within 30 points): the
positions where the odds matter.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from games.engine.rules import Category, Rules, Scorecard  # noqa: E402
from games.strategy import Strategy, load  # noqa: E402
from games.strategy.dice import ROLL_INDEX  # noqa: E402
from games.strategy.simulate import play_out  # noqa: E402
from games.strategy.solver import flat_index  # noqa: E402

OUT = ROOT / "tests" / "strategy" / "data" / "win_reference.json"
KINDS = ["start"] * 4 + ["mid"] * 15 + ["late"] * 12 + ["tie"] * 6 + ["bonus"] * 9 + ["left"] * 4


def trajectory(strategy: Strategy, rng: random.Random) -> list[Scorecard]:
    """The cards of one game of the Optimal bot after 0, 1, ... 13 turns."""
    card = Scorecard(strategy.rules)
    cards = [card]
    for _ in strategy.rules.boxes:
        dice = [rng.randint(1, 6) for _ in range(5)]
        left = 2
        while True:
            best = strategy.best(card, dice, left)
            if best.category is not None:
                card = card.score(best.category, dice)
                break
            dice = [dice[i] for i in best.hold] + [
                rng.randint(1, 6) for _ in range(5 - len(best.hold))
            ]
            left -= 1
        cards.append(card)
    return cards


def mid_turn(strategy: Strategy, card: Scorecard, rng: random.Random) -> tuple[list[int], int]:
    """Dice on the table part way through the turn of ``card`` (played as the bot plays)."""
    dice = [rng.randint(1, 6) for _ in range(5)]
    left = 2
    stop = rng.choice([2, 1, 0])
    while left > stop:
        best = strategy.best(card, dice, left)
        if best.category is not None:
            break
        dice = [dice[i] for i in best.hold] + [rng.randint(1, 6) for _ in range(5 - len(best.hold))]
        left -= 1
    return dice, left


def make_positions(seed: int, pool_games: int = 300) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    strategies = {name: load(name) for name in ("official", "free_joker")}
    pools = {
        name: [trajectory(s, rng) for _ in range(pool_games)] for name, s in strategies.items()
    }
    positions = []
    for number, kind in enumerate(KINDS):
        preset = "free_joker" if number % 6 == 5 else "official"
        strategy = strategies[preset]
        pool = pools[preset]
        for _attempt in range(100_000):
            position = _try(kind, strategy, pool, rng)
            if position is not None:
                break
        else:
            raise RuntimeError(f"no {kind} position found")
        position.update(name=f"{number:02d}-{kind}", kind=kind, preset=preset)
        positions.append(position)
    return positions


def _try(
    kind: str, strategy: Strategy, pool: list[list[Scorecard]], rng: random.Random
) -> dict[str, Any] | None:
    seats = rng.choice([2, 2, 2, 3, 3, 4])
    if kind == "start":
        done = 0
    elif kind == "mid":
        done = rng.randint(3, 8)
    elif kind == "late":
        done = rng.randint(9, 12)
    elif kind == "bonus":
        done = rng.randint(7, 11)
    else:
        done = rng.randint(4, 12)
    on_turn = rng.randrange(seats)
    games = rng.sample(pool, seats)
    cards = [game[done + 1 if s < on_turn else done] for s, game in enumerate(games)]
    if kind == "tie":
        # Two seats level: the seat after the one on turn copies another game's total.
        if seats < 2 or (on_turn == seats - 1 and seats == 2):
            return None
        a, b = (on_turn, on_turn + 1) if on_turn + 1 < seats else (0, 1)
        if cards[a].total != cards[b].total or len(cards[a].filled) != len(cards[b].filled):
            return None
    values = [strategy.value(card) for card in cards]
    if max(values) - min(values) > 30:
        return None
    if kind == "bonus":
        racing = [
            c
            for c in cards
            if not c.is_complete
            and any(c[cat] is None for cat in Category if cat.is_upper)
            and 0 < 63 - c.upper_total <= 20
        ]
        if len(racing) < 1 or (not any(c.upper_total >= 63 for c in cards) and len(racing) < 2):
            return None
    described: list[dict[str, Any]] = [{"boxes": list(card.boxes)} for card in cards]
    for seat, card in zip(described, cards, strict=True):
        seat["yahtzee_bonus_count"] = card.yahtzee_bonus_count
    if kind == "left":
        gone = rng.choice([s for s in range(seats) if s != on_turn])
        described[gone] = {"final": round(values[gone] + rng.uniform(-15, 15))}
    if not cards[on_turn].is_complete and (kind == "start" or rng.random() < 0.4):
        dice, left = mid_turn(strategy, cards[on_turn], rng)
        described[on_turn].update(dice=dice, rolls_left=left)
    return {"on_turn": on_turn, "seats": described}


def card_of(rules: Rules, seat: dict[str, Any]) -> Scorecard:
    return Scorecard(rules, tuple(seat["boxes"]), seat.get("yahtzee_bonus_count", 0))


def simulate(job: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    position, games, seed = job
    strategy = load(position["preset"])
    rng = np.random.default_rng(seed)
    finals = []
    for seat in position["seats"]:
        if "final" in seat:
            finals.append(np.full(games, seat["final"]))
            continue
        card = card_of(strategy.rules, seat)
        if card.is_complete:
            finals.append(np.full(games, card.total))
            continue
        mask, up, y = strategy._state(card)
        flat = int(flat_index(np.array([mask]), np.array([up]), np.array([y]))[0])
        roll = None
        if seat.get("dice") is not None:
            roll = np.full(games, ROLL_INDEX[tuple(sorted(seat["dice"]))])
        finals.append(
            play_out(
                strategy,
                np.full(games, flat),
                np.full(games, card.total),
                rng,
                roll=roll,
                rolls_left=seat.get("rolls_left", 3),
            )
        )
    totals = np.stack(finals)
    best = totals.max(axis=0)
    first = totals == best
    shares = (first / first.sum(axis=0)).mean(axis=1)
    return {
        **position,
        "win": [round(float(s), 5) for s in shares],
        "mean": [round(float(t.mean()), 3) for t in totals],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--pool",
        type=int,
        default=300,
        help="games of the Optimal bot per preset that the positions' cards are drawn from",
    )
    parser.add_argument(
        "--out", default=str(OUT), help=f"the file written, or - for none (default {OUT})"
    )
    args = quick.parse_args(parser, {"games": 5, "processes": 1, "out": "-", "pool": 20})
    started, cpu = time.perf_counter(), time.process_time()
    positions = make_positions(args.seed, args.pool)
    print(f"{len(positions)} positions made in {time.perf_counter() - started:.1f} s")
    jobs = [(p, args.games, args.seed * 1000 + i) for i, p in enumerate(positions)]
    with multiprocessing.Pool(args.processes) as pool:
        done = pool.map(simulate, jobs, chunksize=1)
    took = time.perf_counter() - started
    reference = {
        "games": args.games,
        "seed": args.seed,
        "made_by": "benchmarks/odds_reference.py",
        "positions": done,
    }
    if args.out != "-":
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(reference, indent=1) + "\n")
    for p in done:
        print(f"{p['name']:12} {p['preset']:10} win {p['win']}")
    print(
        f"{len(done)} positions x {args.games:,} games in {took:.0f} s "
        f"(parent CPU {time.process_time() - cpu:.0f} s); "
        + ("no file written" if args.out == "-" else f"wrote {args.out}")
    )


if __name__ == "__main__":
    main()
