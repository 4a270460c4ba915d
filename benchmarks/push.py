"""The Web Push round trip: from a turn's start to the push service's receipt of its notice.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/push.py            # 200 turns
    .venv/bin/python benchmarks/push.py --quick    # 4 turns

A fresh SQLite file, a VAPID key made for the run, and a push service on 127.0.0.1
(``tests/pushservice.py``, the one the tests use). Games of two players without a clock,
each seat's browser subscribed to its turns with keys of its own. Each turn is played
through the services (a roll, then a score, which starts the next player's turn), and
the script waits for the next player's notice at the push service, decrypts it with that
browser's keys (RFC 8291) and checks the game and the seat in it. It prints, over the
turns, the median, p95 and worst time:

* from the score's call to the receipt (what a player waits, on one machine);
* from the turn's start as the server saved it (the notice's ``at``) to the receipt;
* the score command itself, with Web Push on and with it off (no VAPID key), turn and
  turn about: sending happens on the sender thread after commit, and must not slow the
  command.

It asserts nothing; the load average at the end says how busy the machine was.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import quick  # noqa: E402


def configure(database: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric import ec

    from tests.pushservice import b64url

    key = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"sqlite:///{database}",
            "LOG_LEVEL": "WARNING",
            "YAHTZEE_CLOCK_WATCH": "false",
            "VAPID_PRIVATE_KEY": b64url(key.to_bytes(32, "big")),
            "VAPID_SUBJECT": "mailto:bench@example.org",
        }
    )
    for name in ("REDIS_URL", "YAHTZEE_BOT_PAUSE_MS"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   "
        f"worst {ordered[-1] * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200, help="turns timed with push on")
    args = quick.parse_args(parser, {"turns": 4})

    with tempfile.TemporaryDirectory() as directory:
        configure(Path(directory) / "push.sqlite3")
        run(args.turns)


def run(turns: int) -> None:
    from django.conf import settings

    from games.live import push, services
    from games.models import Game, PushSubscription
    from tests.pushservice import Browser, PushService

    def new_game() -> tuple[str, dict[int, Browser]]:
        """A started game of two, each seat's browser subscribed to its turns."""
        ana, bob = f"ana-{secrets.token_hex(4)}", f"bob-{secrets.token_hex(4)}"
        game, host = services.create_game(host_name="ana", session_key=ana, turn_seconds=None)
        assert host is not None
        services.join_game(game.code, "bob", session_key=bob)
        browsers = {}
        for seat, key in enumerate((ana, bob)):
            browser = browsers[seat] = Browser()
            keys = browser.subscription("")["keys"]
            PushSubscription.objects.create(
                endpoint=service.endpoint(key), session_key=key, turns=True, **keys
            )
        services.start_game(game.code, host.pk, version=Game.objects.get(code=game.code).version)
        if push.enabled():  # The first turn's notice: not one of those timed.
            push.Sender.running().wait_until_sent()
            while not service.received.empty():
                service.received.get()
        return game.code, browsers

    def play_turn(code: str) -> tuple[int, float, float]:
        """Roll and score for the seat on turn: the next seat, the score's start and its time."""
        _, players, state = services.rules_state(code)
        assert state is not None
        player = next(p for p in players if p.seat == state.current)
        services.roll(code, player.pk, [], version=Game.objects.get(code=code).version)
        box = state.cards[player.seat].empty[0].value
        version = Game.objects.get(code=code).version
        started = time.time()
        services.score(code, player.pk, box, version=version)
        took = time.time() - started
        _, _, state = services.rules_state(code)
        assert state is not None
        return state.current, started, took

    with PushService() as service:
        key = settings.VAPID_PRIVATE_KEY
        code, browsers = new_game()
        to_receipt, from_start, command_on, command_off = [], [], [], []
        while len(to_receipt) < turns or len(command_off) < turns:
            state = services.rules_state(code)[2]
            assert state is not None
            if sum(len(card.empty) for card in state.cards) <= 1:  # The last turn: no next one.
                settings.VAPID_PRIVATE_KEY = key
                code, browsers = new_game()
                continue
            # Turn by turn, Web Push on, then off (the site without a VAPID key), so that
            # both are timed under the same load.
            on = len(command_on) <= len(command_off)
            settings.VAPID_PRIVATE_KEY = key if on else ""
            seat, started, took = play_turn(code)
            if not on:
                command_off.append(took)
                continue
            received = service.next()
            notice = browsers[seat].decrypt(received.body)
            assert (notice["game"], notice["seat"], notice["kind"]) == (code, seat, push.TURN)
            to_receipt.append(received.at - started)
            from_start.append(received.at - datetime.fromisoformat(notice["at"]).timestamp())
            command_on.append(took)

    print(f"== Web Push round trip, {turns} turns, games of 2 without a clock")
    print(f"score's call to receipt:     {percentiles(to_receipt)}")
    print(f"turn start to receipt:       {percentiles(from_start)}")
    print(f"score command, push on:      {percentiles(command_on)}")
    print(f"score command, push off:     {percentiles(command_off)}")
    print("(SQLite; one process; the push service on 127.0.0.1, over plain HTTP)")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
