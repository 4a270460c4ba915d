"""How fast the pages of past games answer with many games stored.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/history.py
    .venv/bin/python benchmarks/history.py --games 100 --mine 30 --repeat 5   # a quick check

It makes a fresh SQLite file in a temporary directory, migrates it, and plays
``--games`` whole games through the services (real dice, two to four players,
each turn rolled up to three times and scored in the best box), one of them
with six players. ``--mine`` of them are played by one account, ``ana``. Then,
in-process through Django's test client with ``DEBUG=false`` (templates cached,
as deployed), it requests each page ``--repeat`` times and prints, per page,
the time to answer (p50, p95), the number of SQL queries and the size of the
response. It prints figures and asserts nothing.

The review of the six-player game is measured twice: on a first view, when its
post-game analysis (:mod:`games.insight.analysis`) is computed (the cache is cleared and
the strategy reloaded with no turn worked out before each request), and cached,
as every later view is. The analysis alone, and loading the strategy from disk,
are timed too.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402


def configure(directory: Path) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_SSL_REDIRECT": "false",
            "ALLOWED_HOSTS": "testserver",
            "DATABASE_URL": f"sqlite:///{directory / 'history.sqlite3'}",
            "LOG_LEVEL": "WARNING",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.STATIC_ROOT = directory / "static"  # The pages name hashed static files.
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)


def play(names: list[str], rng: random.Random, user_id: int | None = None) -> str:
    """One whole game through the services, with the server's real dice."""
    from games.live import services
    from games.models import Game
    from tests.server.helpers import play_out

    game, host = services.create_game(
        host_name=names[0], session_key=f"s-{names[0]}", user_id=user_id
    )
    assert host is not None
    for name in names[1:]:
        services.join_game(game.code, name, session_key=f"s-{name}-{game.pk}")
    services.start_game(game.code, host.pk, version=Game.objects.get(pk=game.pk).version)
    play_out(game.code, rolls=lambda: rng.randint(1, 3))
    return game.code


def measure(  # type: ignore[no-untyped-def]
    client, url: str, repeat: int, before: Callable[[], object] | None = None
) -> dict[str, float]:
    """Request ``url`` ``repeat`` times, calling ``before`` (untimed) ahead of each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    size = queries = 0
    for _ in range(repeat):
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
        size, queries = len(response.content), len(captured)
    times.sort()
    return {
        "p50": statistics.median(times),
        "p95": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
        "queries": queries,
        "kib": size / 1024,
    }


def first_view(preset: str) -> Callable[[], object]:
    """What makes the next review a game's first: no cached analysis, no turn worked out."""
    from django.core.cache import cache

    from games.strategy import forget_loaded, load

    def reset() -> object:
        cache.clear()
        forget_loaded()  # The strategy is read from disk again, its turn cache empty.
        return load(preset)

    return reset


def time_analysis(code: str, repeat: int) -> None:
    """The analysis of one game alone, and the strategy's load from disk, in milliseconds."""
    from games.insight import analysis
    from games.live import services
    from games.models import Game
    from games.strategy import forget_loaded, load

    game = Game.objects.get(code=code)
    events = services.replay_events(code)  # The typed events, as the review reads them.
    loads, fresh, warm = [], [], []
    decisions = 0
    for _ in range(repeat):
        forget_loaded()
        started = time.perf_counter()
        strategy = load(game.preset)
        loads.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        decisions = len(analysis.analyse(events, strategy).decisions)
        fresh.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        analysis.analyse(events, strategy)  # Every turn already worked out.
        warm.append((time.perf_counter() - started) * 1000)
    print(f"\nanalysis of the 6-player game ({decisions} decisions), p50 of {repeat}:")
    print(f"  strategy loaded from disk      {statistics.median(loads):8.1f} ms")
    print(f"  analysed, turns worked out     {statistics.median(fresh):8.1f} ms")
    print(f"  analysed again, turns known    {statistics.median(warm):8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="finished games stored")
    parser.add_argument("--mine", type=int, default=200, help="of which the account plays")
    parser.add_argument("--repeat", type=int, default=20, help="requests per page")
    parser.add_argument("--seed", type=int, default=1)
    args = quick.parse_args(parser, {"games": 2, "mine": 1, "repeat": 1})

    with tempfile.TemporaryDirectory() as directory:
        configure(Path(directory))
        from django.contrib.auth.models import User
        from django.test import Client

        from games.models import Game

        rng = random.Random(args.seed)
        user = User.objects.create_user("ana", password=secrets.token_urlsafe())
        started = time.perf_counter()
        six = play(["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"], rng)
        for number in range(args.games - 1):
            players = ["Ana", *rng.sample(["Ben", "Cat", "Dan", "Eve"], rng.randint(1, 3))]
            play(players, rng, user.pk if number < args.mine else None)
        seeding = time.perf_counter() - started
        print(f"{args.games} games played through the services in {seeding:.1f} s")

        client = Client()
        client.force_login(user)
        last_page = (args.games + 19) // 20
        pages = [
            ("history, page 1", "/games/"),
            (f"history, page {last_page}", f"/games/?page={last_page}"),
            ("my games (account)", "/games/?mine=1"),
            (f"profile ({args.mine} games)", "/players/ana/"),
            ("review, 6 players, 1st view", f"/g/{six}/review/"),
            ("review, 6 players, cached", f"/g/{six}/review/"),
            ("export, 6 players", f"/g/{six}/export.json"),
        ]
        reset = first_view(Game.objects.get(code=six).preset)
        print(f"\n{'page':<28}{'p50 ms':>9}{'p95 ms':>9}{'queries':>9}{'KiB':>9}")
        for label, url in pages:
            before = reset if label.endswith("1st view") else None
            figures = measure(client, url, args.repeat, before)
            print(
                f"{label:<28}{figures['p50']:>9.1f}{figures['p95']:>9.1f}"
                f"{figures['queries']:>9.0f}{figures['kib']:>9.1f}"
            )
        time_analysis(six, args.repeat)


if __name__ == "__main__":
    main()
