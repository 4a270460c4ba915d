"""What the turn clock's watch costs as finished and idle games pile up.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/clock.py                      # a fresh SQLite file
    .venv/bin/python benchmarks/clock.py --database-url postgres://postgres@127.0.0.1:5432/bench_clock

Every server process looks for due games every 2 seconds at most
(:func:`games.live.watch.due_games`: two queries on the ``wake_at`` index). This
script fills a database in steps (by default 0, 1,000, 10,000 and 100,000
games: nine finished for each one in play with a clock whose deadline is
minutes away, as a busy site's table looks) and at each step times one look
(``due_games``, nothing due) against a floor measured in the same run and on
the same connection: ``SELECT 1``, one round trip that reads no table. It
prints, per step, the median and p95 wall time of a look, its CPU time, and the
ratio to the floor, with the load average at the time. The look must stay flat:
its cost must not grow with the games stored. It asserts nothing.

On PostgreSQL it uses (and empties) the database named in the URL; make one for it
(``createdb -h 127.0.0.1 -U postgres bench_clock``), never a database you keep.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402


def configure(database_url: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "WARNING",
            "YAHTZEE_CLOCK_WATCH": "false",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)  # A PostgreSQL database run before.


def add_games(count: int) -> None:
    """``count`` more games: nine in ten finished, one in ten in play with a far deadline."""
    from django.utils import timezone

    from games.models import Game

    now = timezone.now()
    batch = []
    for n in range(count):
        playing = n % 10 == 0
        deadline = now + timedelta(minutes=5 + n % 50) if playing else None
        batch.append(
            Game(
                status=Game.Status.PLAYING if playing else Game.Status.FINISHED,
                turn_seconds=60,
                started_at=now,
                finished_at=None if playing else now,
                deadline=deadline,
                wake_at=deadline,
                acted_at=now,
            )
        )
    Game.objects.bulk_create(batch, batch_size=2000)


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Median and p95 wall time, and mean CPU time, of ``work``, in milliseconds."""
    walls = []
    cpu_start = time.process_time()
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        walls.append((time.perf_counter() - started) * 1000)
    cpu = (time.process_time() - cpu_start) * 1000 / repeat
    walls.sort()
    return statistics.median(walls), walls[int(len(walls) * 0.95) - 1], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--steps", default="0,1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=500)
    args = quick.parse_args(parser, {"steps": "0,100", "repeat": 20})
    with tempfile.TemporaryDirectory(prefix="bench-clock-") as directory:
        configure(args.database_url or f"sqlite:///{Path(directory) / 'clock.sqlite3'}")
        look_at_steps([int(step) for step in args.steps.split(",")], args.repeat)


def look_at_steps(steps: list[int], repeat: int) -> None:
    """Fill the database step by step, and time a look of the watch at each step."""
    from django.db import connection

    from games.live import watch
    from games.models import Game

    def floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    print(f"database: {connection.vendor}; load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'games':>8} {'look p50':>9} {'p95':>7} {'cpu':>7} {'floor p50':>10} {'ratio':>6}")
    stored = 0
    for step in steps:
        add_games(step - stored)
        stored = step
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE games_game")
        due, _ = watch.due_games()
        assert due == [], "nothing should be due"
        floor_p50, _, _ = timed(floor, repeat)
        look_p50, look_p95, look_cpu = timed(watch.due_games, repeat)
        print(
            f"{Game.objects.count():>8} {look_p50:>7.3f}ms {look_p95:>5.3f}ms "
            f"{look_cpu:>5.3f}ms {floor_p50:>8.3f}ms {look_p50 / floor_p50:>6.1f}"
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
