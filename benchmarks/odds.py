"""The odds tables: build time, size on disk, load time, and the latency of P(win).

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/odds.py                  # both presets, a fresh cache
    .venv/bin/python benchmarks/odds.py --positions 100

It prints, per preset: the time to build the odds table (wall and CPU, two
threads), beside a floor measured in the same run, the time to solve the strategy
table it starts from (so a busy or slow machine shows in both),
the size of the file saved, the time to load it again (strategy + odds, as a
fresh process would), and the time of :func:`games.strategy.odds.win_shares`
for the positions of ``tests/strategy/data/win_reference.json`` and for random
positions of two to four seats: the first time (nothing memoised) and again.
The machine's load average is printed beside, since it is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from games.engine.rules import PRESETS, Category, Rules, Scorecard, get_rules  # noqa: E402
from games.strategy import (  # noqa: E402
    cache,
    forget_loaded,
    odds,
)
from games.strategy import load as load_strategy  # noqa: E402

REFERENCE = ROOT / "tests" / "strategy" / "data" / "win_reference.json"


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ms(seconds: list[float]) -> str:
    if len(seconds) < 2:
        return f"{seconds[0] * 1000:.1f} ms"
    p95 = statistics.quantiles(seconds, n=20, method="inclusive")[-1]
    return (
        f"median {statistics.median(seconds) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms,"
        f" max {max(seconds) * 1000:.1f} ms"
    )


def random_position(rules: object, rng: random.Random) -> list[object]:
    strategy = load_strategy(rules)  # type: ignore[arg-type]
    seats = rng.randint(2, 4)
    done = rng.randint(0, 12)
    cards = []
    for _ in range(seats):
        card = Scorecard(strategy.rules)
        for _ in range(done):
            dice = [rng.randint(1, 6) for _ in range(5)]
            card = card.score(strategy.best(card, dice, 0).category or Category.CHANCE, dice)
        cards.append(card)
    return cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS))
    parser.add_argument(
        "--reuse-cache",
        action="store_true",
        help="time the tables of the usual cache (var/strategy/ or $YAHTZEE_STRATEGY_CACHE), "
        "built there first if missing, instead of building them afresh in a temporary one",
    )
    args = quick.parse_args(parser, {"positions": 5, "presets": ["official"], "reuse_cache": True})
    with tempfile.TemporaryDirectory(prefix="odds-bench-") as temporary:
        directory = cache.cache_dir() if args.reuse_cache else Path(temporary)
        print(f"cache: {directory}; load average {load_average()}; {os.cpu_count()} CPUs")
        for name in args.presets:
            bench(get_rules(name), directory, args)


def bench(rules: Rules, directory: Path, args: argparse.Namespace) -> None:
    """Build (or find), save, load and time one preset's odds table."""
    name = rules.name
    print(f"== {name}")
    odds_path = cache.table_path(rules, directory, kind=odds.KIND)
    if args.reuse_cache and odds_path.exists():
        print(f"build: not timed, the table was in the cache ({odds_path})")
    else:
        # The floor, in the same run: solving the strategy table itself (the values the
        # odds start from), on this machine at this moment.
        floor_wall, floor_cpu = time.perf_counter(), time.process_time()
        strategy = load_strategy(rules, cache_dir=directory)
        floor_wall = time.perf_counter() - floor_wall
        floor_cpu = time.process_time() - floor_cpu
        print(f"floor, the strategy solved: {floor_wall:.2f} s wall, {floor_cpu:.2f} s CPU")
        wall, cpu = time.perf_counter(), time.process_time()
        table = odds.build(strategy)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"build: {wall:.2f} s wall, {cpu:.2f} s CPU, {wall / floor_wall:.2f}x the floor's"
            f" wall and {cpu / floor_cpu:.2f}x its CPU (load average {load_average()})"
        )
        cache.write(rules, directory, {"table": table}, odds.KIND)
    path = odds_path
    strategy_path = cache.table_path(rules, directory)
    print(
        f"cached: {path.name} {path.stat().st_size / 2**20:.1f} MiB"
        f" (the strategy's own {strategy_path.stat().st_size / 2**20:.1f} MiB)"
    )
    loads = []
    for _ in range(3):
        forget_loaded()
        odds.forget_loaded()
        started = time.perf_counter()
        loaded = odds.load(rules, cache_dir=directory)
        loads.append(time.perf_counter() - started)
    print(f"load strategy + odds from disk: {ms(loads)}")

    reference = json.loads(REFERENCE.read_text())["positions"]
    mine = [p for p in reference if p["preset"] == name]
    for label, memo in (("first time", True), ("again", False)):
        timings = []
        for position in mine:
            if memo:
                loaded._memo.clear()
                loaded._choices.clear()
            started = time.perf_counter()
            # Each seat's card (or its final score), then the seats' distributions.
            cards: list[Scorecard | int] = [
                seat["final"]
                if "final" in seat
                else Scorecard(rules, tuple(seat["boxes"]), seat["yahtzee_bonus_count"])
                for seat in position["seats"]
            ]
            loaded.prepare_seats(cards)  # As the room does.
            seats: list[odds.Seat] = [
                card
                if isinstance(card, int)
                else loaded.distribution(card, seat.get("dice"), seat.get("rolls_left", 3))
                for card, seat in zip(cards, position["seats"], strict=True)
            ]
            odds.win_shares(seats)
            timings.append(time.perf_counter() - started)
        print(f"P(win), the {len(mine)} reference positions, {label}: {ms(timings)}")

    rng = random.Random(args.seed)
    timings = []
    for _ in range(args.positions):
        cards = random_position(rules, rng)
        loaded._memo.clear()
        loaded._choices.clear()
        started = time.perf_counter()
        loaded.prepare_seats(cards)  # As the room does.
        odds.win_shares([loaded.distribution(card) for card in cards])
        timings.append(time.perf_counter() - started)
    print(
        f"P(win), {args.positions} random positions of 2-4 seats, nothing memoised: "
        f"{ms(timings)} (load average {load_average()})"
    )


if __name__ == "__main__":
    main()
