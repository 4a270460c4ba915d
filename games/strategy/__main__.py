"""Compute (or check) the cached strategy tables: ``python -m games.strategy [presets]``.

Run it once when deploying, so the first game with a coach or a bot does not
wait the few seconds a table takes to compute.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from games.engine.rules import PRESETS

from . import cache, odds
from .engine import load


def main() -> None:
    """Load every preset named (all by default), computing and saving any not cached yet."""
    parser = argparse.ArgumentParser(prog="python -m games.strategy", description=__doc__)
    parser.add_argument("presets", nargs="*", metavar="preset", help=", ".join(PRESETS))
    parser.add_argument("--cache-dir", type=Path, default=None, help=f"default: ${cache.ENV_VAR}")
    parser.add_argument(
        "--odds",
        nargs="*",
        metavar="preset",
        default=None,
        help="the presets whose odds tables to load or compute too (default: every one named)",
    )
    args = parser.parse_args()
    unknown = [name for name in [*args.presets, *(args.odds or [])] if name not in PRESETS]
    if unknown:
        parser.error(f"unknown presets {', '.join(unknown)}; the presets are {', '.join(PRESETS)}")
    directory = cache.cache_dir(args.cache_dir)
    for name in args.presets or PRESETS:
        started = time.perf_counter()
        strategy = load(name, cache_dir=directory)
        took = time.perf_counter() - started
        path = cache.table_path(strategy.rules, directory)
        print(f"{name}: expected score {strategy.expected_score:.8f} ({took:.2f} s; {path})")
        if args.odds is not None and name not in args.odds:
            continue
        started = time.perf_counter()
        odds.load(name, cache_dir=directory)  # The To-win bot's and the coach's odds.
        took = time.perf_counter() - started
        path = cache.table_path(strategy.rules, directory, kind=odds.KIND)
        print(f"{name}: odds ({took:.2f} s; {path})")


if __name__ == "__main__":
    main()
