"""Yatzy's expected score under optimal play, checked by a second method, and its build times.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/yatzy.py                      # a million games
    .venv/bin/python benchmarks/yatzy.py --games 200000 --build

It prints the expected final total of optimal solitaire play under the ``yatzy``
preset as the solver works it out (the value of the empty card, to eight decimals),
then plays ``--games`` solitaire games with random dice by the policy the solver
chose (:func:`games.strategy.simulate.play_out`: the Optimal bot's choices for every
state, dice drawn from the exact chances of each keep) and prints their mean, its
standard error and how many standard errors it lies from the solver's value: the
two methods share the solver's policy, not its arithmetic (the Monte Carlo only
adds up the points the rules engine's tables give each choice). It also prints the
figures of the same check for the official preset, for comparison.

Then (unless ``--no-published``) it solves a variant of the preset whose Two pairs also
takes a single pair (its two dice), as the code behind the published optimum of 248.63
(Larsson & Sjöberg, 2012) scores it, and prints that variant's expected score: the
difference between the two figures is that one rule.

With ``--build`` it first computes the strategy and odds tables of both presets
from scratch in a temporary directory and prints their wall and CPU times (two
threads each), with the machine's load average; the tables used afterwards are the
usual cache's (:mod:`games.strategy.cache`).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from games.engine.rules import OFFICIAL, YATZY, Category, Dice, Rules  # noqa: E402
from games.strategy import Strategy, load, odds  # noqa: E402
from games.strategy.simulate import play_out  # noqa: E402

BATCH = 50_000
"""Games played side by side (about 1.5 GB of arrays at most for Yatzy's states)."""


def build_times(rules: Rules) -> None:
    """Compute ``rules``' strategy and odds from scratch and print the times."""
    with tempfile.TemporaryDirectory(prefix="yatzy-bench-") as directory:
        wall, cpu = time.perf_counter(), time.process_time()
        strategy = Strategy.compute(rules)
        strategy_wall, strategy_cpu = time.perf_counter() - wall, time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        table = odds.build(strategy)
        odds_wall, odds_cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = table.nbytes / 1e6
        del directory
    print(
        f"{rules.name:10} strategy {strategy_wall:6.1f} s wall {strategy_cpu:6.1f} s CPU;"
        f" odds {odds_wall:6.1f} s wall {odds_cpu:6.1f} s CPU, {size:.0f} MB"
        f" (load average {os.getloadavg()[0]:.1f})"
    )


def monte_carlo(rules: Rules, games: int, seed: int) -> None:
    """Play ``games`` games of ``rules`` by the solver's policy and compare the mean."""
    strategy = load(rules)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    total, squares, played = 0.0, 0.0, 0
    while played < games:
        n = min(BATCH, games - played)
        finals = play_out(strategy, np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), rng)
        total += float(finals.sum())
        squares += float((finals.astype(np.float64) ** 2).sum())
        played += n
        if played < games:  # So far, for a long run's reader.
            mean = total / played
            error = math.sqrt(max(squares / played - mean**2, 0.0) / played)
            print(f"{rules.name:10}   {played:,} games so far: mean {mean:.4f} +- {error:.4f}")
            sys.stdout.flush()
    mean = total / played
    sd = math.sqrt(max(squares / played - mean**2, 0.0))
    error = sd / math.sqrt(played)
    expected = strategy.expected_score
    print(f"{rules.name:10} solver's expected score  {expected:.8f}")
    print(
        f"{rules.name:10} Monte Carlo, {played:,} games: mean {mean:.4f}, sd {sd:.2f},"
        f" standard error {error:.4f}; {(mean - expected) / error:+.2f} standard errors"
        f" from the solver ({time.perf_counter() - started:.0f} s)"
    )


def two_pairs_from_one_pair(category: Category, faces: Dice) -> int:
    """Yatzy's scoring, but Two pairs also takes a single pair (its two dice)."""
    if category is Category.TWO_PAIRS:
        pairs = sorted((face for face, n in Counter(faces).items() if n >= 2), reverse=True)
        return 2 * sum(pairs[:2])
    return YATZY.scoring(category, faces)


def published_variant() -> None:
    """Solve the variant of Yatzy behind the published 248.63 and print its expected score."""
    variant = dataclasses.replace(YATZY, name="yatzy_single_pair", scoring=two_pairs_from_one_pair)
    started = time.perf_counter()
    strategy = Strategy.compute(variant)
    print(
        f"{'':10} Two pairs also from a single pair: {strategy.expected_score:.8f}"
        f" (the published 248.63; solved in {time.perf_counter() - started:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="Yatzy games to play")
    parser.add_argument("--official-games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--build", action="store_true", help="time the tables' builds first")
    parser.add_argument(
        "--published",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="solve the variant behind the published 248.63 (about 20 s)",
    )
    args = quick.parse_args(parser, {"games": 2_000, "official_games": 2_000, "published": False})
    if args.build:
        print("== Building the tables from scratch (two threads)")
        for rules in (OFFICIAL, YATZY):
            build_times(rules)
    print("== Expected score: the solver, and a Monte Carlo of its policy")
    monte_carlo(YATZY, args.games, args.seed)
    if args.published:
        published_variant()
    if args.official_games:
        monte_carlo(OFFICIAL, args.official_games, args.seed)


if __name__ == "__main__":
    main()
