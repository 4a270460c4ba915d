"""How fast the strategy engine is: figures to read, not a test (nothing is asserted).

    .venv/bin/python benchmarks/solver.py [--presets official free_joker] [--threads N]
                                          [--cache-dir DIR] [--calls N]

For each preset: the time to compute the whole table (reading the scores off
the rules engine, then solving; wall-clock time, and the CPU time of all
threads, which other work on the machine disturbs less), the size of the
cached file, the time to load it, the time of one ``advise`` call on random
mid-game positions, and the expected score. Tables are computed into a temporary directory unless
``--cache-dir`` is given, so the figures are always those of a fresh computation.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import quick
from games.engine.rules import PRESETS, Rules, Scorecard
from games.strategy import Strategy, forget_loaded, load
from games.strategy import cache as strategy_cache
from games.strategy.solver import Model, solve
from games.strategy.tables import ScoreTables

_FRESH_LOAD = """
import sys, time
started = time.perf_counter()
import numpy
imported = time.perf_counter()
import games.strategy
games.strategy.load(sys.argv[1], cache_dir=sys.argv[2])
done = time.perf_counter()
numpy_ms = (imported - started) * 1000
print(f"{(done - imported) * 1000:.1f} ms (and numpy's own import: {numpy_ms:.1f} ms)")
"""


def mid_game_positions(
    rules: Rules, count: int, rng: random.Random
) -> list[tuple[Scorecard, list[int], int]]:
    """Cards with 3 to 10 boxes filled from random rolls, each with a roll and rolls left."""
    positions = []
    for _ in range(count):
        card = Scorecard(rules)
        for _ in range(rng.randint(3, 10)):
            dice = [rng.randint(1, 6) for _ in range(5)]
            card = card.score(rng.choice(list(card.options(dice))), dice)
        dice = [rng.randint(1, 6) for _ in range(5)]
        positions.append((card, dice, rng.randint(0, 2)))
    return positions


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def bench(rules: Rules, directory: Path, threads: int | None, calls: int) -> None:
    print(f"== {rules.name}")
    started, cpu_started = time.perf_counter(), time.process_time()
    model = Model.build(ScoreTables.build(rules))
    tables_done = time.perf_counter()
    table = solve(model, threads=threads)
    solved, cpu = time.perf_counter(), time.process_time() - cpu_started
    strategy = Strategy(rules, model, table)
    print(
        f"compute: {solved - started:.2f} s (score tables from the rules"
        f" {tables_done - started:.2f} s, solve {solved - tables_done:.2f} s;"
        f" {cpu:.2f} s of CPU time)"
    )

    path = strategy_cache.write(rules, directory, strategy.arrays())
    assert path is not None, f"could not write to {directory}"
    print(f"cache file: {path} ({path.stat().st_size / 1e6:.1f} MB)")

    loads = []
    for _ in range(5):
        forget_loaded()
        began = time.perf_counter()
        loaded = load(rules, cache_dir=directory)
        loads.append(time.perf_counter() - began)
    print(f"load from the cache: median {milliseconds(statistics.median(loads))} of 5")
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH_LOAD, rules.name, str(directory)],
        capture_output=True,
        text=True,
        check=True,
    )
    print(f"  in a new process, importing games.strategy and loading: {fresh.stdout.strip()}")

    positions = mid_game_positions(rules, calls, random.Random(1))
    first: list[float] = []
    again: list[float] = []
    last_roll: list[float] = []
    for card, dice, rolls_left in positions:
        began = time.perf_counter()
        loaded.advise(card, dice, rolls_left)
        took = time.perf_counter() - began
        (first if rolls_left else last_roll).append(took)
        if rolls_left:
            began = time.perf_counter()
            loaded.advise(card, dice, 3 - rolls_left)
            again.append(time.perf_counter() - began)
    print(
        f"advise, median over {len(positions)} random mid-game positions:\n"
        f"  first call in a turn (works out the turn): {milliseconds(statistics.median(first))}"
        f" (max {milliseconds(max(first))})\n"
        f"  later calls in the same turn:              {milliseconds(statistics.median(again))}\n"
        f"  after the last roll (boxes only):          {milliseconds(statistics.median(last_roll))}"
    )
    print(f"expected score: {loaded.expected_score:.8f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS))
    parser.add_argument("--threads", type=int, default=None, help="default: 2 (or 1 on 1 core)")
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--calls", type=int, default=2000, help="advise calls per preset")
    args = quick.parse_args(parser, {"presets": ["official"], "calls": 20})
    with tempfile.TemporaryDirectory(prefix="strategy-bench-") as temporary:
        directory = args.cache_dir or Path(temporary)
        for name in args.presets:
            bench(PRESETS[name], directory, args.threads, args.calls)


if __name__ == "__main__":
    main()
