"""How well the bots play, how fast they and the coach answer: figures, nothing asserted.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/bots.py                 # 2,000 games per bot
    .venv/bin/python benchmarks/bots.py --games 200     # a quick check

It prints:

1. **Strength.** ``--games`` solitaire games of each bot, played with the rules
   engine and seeded dice: the mean final score with its standard error, the
   standard deviation, and the time each bot takes to choose a move.
2. **The coach.** The time to build one ``advice`` message (every choice open,
   ranked) on random mid-game positions, and its size as JSON.
3. **Bots at a table.** Whole games of an Optimal and a Casual bot beside a
   person, played through the services on a fresh SQLite file exactly as the
   server plays them (each bot move is :func:`games.live.bots.next_plan` then
   :func:`games.live.bots.make`, with no pause): the time of one bot move, database
   included.

The strategy tables load from the usual cache (``var/strategy/`` or
``$YAHTZEE_STRATEGY_CACHE``), computed first if missing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402
from benchmarks.solver import mid_game_positions  # noqa: E402
from games.engine.rules import OFFICIAL, Game, Position  # noqa: E402
from games.strategy import load  # noqa: E402
from games.strategy.policies import casual, optimal  # noqa: E402


def strength(games: int, seed: int) -> None:
    strategy = load(OFFICIAL)
    players = {
        "Optimal": lambda position: optimal(strategy, position),
        "Casual": casual,
    }
    print(f"== Strength: {games:,} solitaire games each (official rules, seed {seed})")
    print(f"optimal expectation: {strategy.expected_score:.8f}")
    for name, choose in players.items():
        rng = random.Random(seed)
        totals, timings = [], []
        for _ in range(games):
            game = Game.new(1, OFFICIAL)
            for _ in OFFICIAL.boxes:
                game = game.roll(0, [rng.randint(1, 6) for _ in range(5)]).game
                while True:
                    position = game.position()
                    assert position is not None
                    started = time.perf_counter()
                    move = choose(position)
                    timings.append(time.perf_counter() - started)
                    if move.category is not None:
                        game = game.score(0, move.category).game
                        break
                    fresh = [rng.randint(1, 6) for _ in range(5 - len(move.hold))]
                    game = game.roll(0, fresh, move.hold).game
            totals.append(game.cards[0].total)
        mean = statistics.fmean(totals)
        error = statistics.stdev(totals) / len(totals) ** 0.5
        print(
            f"{name:8} mean {mean:7.2f} ± {error:.2f} (standard error), "
            f"sd {statistics.stdev(totals):5.1f}, min {min(totals)}, max {max(totals)}; "
            f"a move takes {statistics.median(timings) * 1000:.3f} ms "
            f"(p95 {statistics.quantiles(timings, n=20)[-1] * 1000:.3f} ms)"
        )


def coach_speed(calls: int, seed: int) -> None:
    from games.insight.coach import advice

    positions = mid_game_positions(OFFICIAL, calls, random.Random(seed))
    timings, sizes = [], []
    for card, dice, left in positions:
        position = Position(OFFICIAL, 0, card, tuple(dice), left)
        started = time.perf_counter()
        message = advice(position, 1)
        timings.append(time.perf_counter() - started)
        sizes.append(len(json.dumps(message)))
    print(f"== The coach: {calls} advice messages on random positions")
    print(
        f"build one: median {statistics.median(timings) * 1000:.3f} ms, "
        f"p95 {statistics.quantiles(timings, n=20)[-1] * 1000:.3f} ms; "
        f"size median {statistics.median(sizes) / 1024:.1f} KiB, max {max(sizes) / 1024:.1f} KiB"
    )


def at_a_table(games: int, directory: Path) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"sqlite:///{directory / 'bots.sqlite3'}",
            "LOG_LEVEL": "WARNING",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.live import bots, services
    from games.models import Game as Room

    timings: list[float] = []
    for _ in range(games):
        room, host = services.create_game(seats=3, host_name="Ana", session_key="bench")
        assert host is not None
        services.add_bot(room.code, host.pk, "optimal")
        services.add_bot(room.code, host.pk, "casual")
        services.start_game(room.code, host.pk, version=Room.objects.get(code=room.code).version)
        while True:
            started = time.perf_counter()
            plan = bots.next_plan(room.code)
            if plan is not None:
                assert bots.make(plan)
                timings.append(time.perf_counter() - started)
                continue
            row = Room.objects.get(code=room.code)
            if row.status != Room.Status.PLAYING:
                break
            services.roll(room.code, host.pk, version=row.version)
            _, _, state = services.rules_state(room.code)
            assert state is not None
            assert state.turn.dice is not None
            options = state.cards[0].options(state.turn.dice)
            best = max(options, key=lambda box: options[box])
            row = Room.objects.get(code=room.code)
            services.score(room.code, host.pk, best.value, version=row.version)
    print(f"== Bots at a table: {games} games of Ana, an Optimal and a Casual bot (SQLite)")
    print(
        f"{len(timings)} bot moves: median {statistics.median(timings) * 1000:.2f} ms, "
        f"p95 {statistics.quantiles(timings, n=20)[-1] * 1000:.2f} ms each "
        "(reading the game, choosing, and the service's transaction)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="solitaire games per bot")
    parser.add_argument("--calls", type=int, default=500, help="advice messages to time")
    parser.add_argument("--tables", type=int, default=5, help="games through the services")
    parser.add_argument("--seed", type=int, default=2026)
    args = quick.parse_args(parser, {"games": 5, "calls": 5, "tables": 1})
    strength(args.games, args.seed)
    coach_speed(args.calls, args.seed)
    with tempfile.TemporaryDirectory(prefix="bots-bench-") as directory:
        at_a_table(args.tables, Path(directory))


if __name__ == "__main__":
    main()
