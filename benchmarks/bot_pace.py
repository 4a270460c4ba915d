"""How long a bot's turn takes at each pace (issue 19): figures, nothing asserted.

Run it from the project's root with the project's virtualenv::

    .venv/bin/python benchmarks/bot_pace.py                # 500 modelled games, 6 live turns
    .venv/bin/python benchmarks/bot_pace.py --live-turns 3 # a quicker live part

It prints:

1. **Modelled.** ``--games`` solitaire games of each bot (Optimal, Casual) played
   with the rules engine and seeded dice; each move is planned as the server plans
   it (:func:`games.live.bots._plan`) and its wait is :func:`games.live.bots.pause` with a
   seeded variation: the seconds of waiting per turn at each pace, and at the old
   fixed 0.9 s before every move. Nothing is slept.
2. **Live.** A room of Ana and an Optimal bot on a fresh SQLite file; the real driver
   (:func:`games.live.bots.kick`, real ``asyncio.sleep``) plays ``--live-turns`` of the
   bot's turns at each pace, Ana's turns played at once between them: the wall-clock
   seconds from the driver's start to its return (the bot's whole turn, its waits,
   choices and database work included).

The page adds its own time on top (a roll's animation, 650 ms), during the waits
that follow a roll: at the natural pace every roll is followed by a wait longer
than the animation.
"""

from __future__ import annotations

import argparse
import asyncio
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

PACES = ["instant", "quick", "natural"]
OLD_PAUSE = 0.9  # Seconds before every move, whatever the move, until issue 19.


def set_up_django(directory: Path) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"sqlite:///{directory / 'bots.sqlite3'}",
            "LOG_LEVEL": "WARNING",
            "YAHTZEE_CLOCK_WATCH": "false",
        }
    )
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("YAHTZEE_BOT_PAUSE_MS", None)  # The pace decides.
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def summary(values: list[float]) -> str:
    return (
        f"mean {statistics.fmean(values):5.2f} s, median {statistics.median(values):5.2f} s, "
        f"p5 {statistics.quantiles(values, n=20)[0]:5.2f} s, "
        f"p95 {statistics.quantiles(values, n=20)[-1]:5.2f} s"
    )


def modelled(games: int, seed: int) -> None:
    from games.engine import rules
    from games.live import bots
    from games.models import Player

    print(f"== Modelled: {games} solitaire games of each bot, seed {seed} (waits only)")
    for level in (Player.Bot.OPTIMAL, Player.Bot.CASUAL):
        dice = random.Random(seed)
        variation = random.Random(seed + 1)
        per_turn: dict[str, list[float]] = {pace: [] for pace in [*PACES, "old 0.9 s"]}
        moves_per_turn: list[int] = []
        for _ in range(games):
            game = rules.Game.new(1, rules.OFFICIAL)
            for _ in rules.OFFICIAL.boxes:
                waits = dict.fromkeys(per_turn, 0.0)
                moves = 0
                while True:
                    position = game.position()
                    assert position is not None
                    on_turn = bots._OnTurn("", 0, level, 0, position, None, "natural")
                    plan = bots._plan(on_turn)
                    moves += 1
                    for pace in PACES:
                        plan_at = bots.Plan(**{**plan.__dict__, "pace": pace})
                        waits[pace] += bots.pause(plan_at, variation)
                    waits["old 0.9 s"] += OLD_PAUSE
                    move = plan.move
                    if move.category is not None:
                        game = game.score(0, move.category).game
                        break
                    if plan.show_hold:
                        game = game.hold(0, move.hold).game
                        continue
                    fresh = [dice.randint(1, 6) for _ in range(game.turn.to_throw(move.hold))]
                    game = game.roll(0, fresh, move.hold).game
                for pace, seconds in waits.items():
                    per_turn[pace].append(seconds)
                moves_per_turn.append(moves)
        print(
            f"{level} bot: {statistics.fmean(moves_per_turn):.2f} moves a turn "
            f"(rolls, holds shown and the score)"
        )
        for pace, values in per_turn.items():
            print(f"  {pace:10} {summary(values)} of waiting per turn")


def live(turns: int, paces: list[str]) -> None:
    from asgiref.sync import sync_to_async

    from games.live import bots, services
    from games.models import Game

    print(f"== Live: {turns} turns of an Optimal bot at each pace (SQLite, real sleeps)")

    def new_room(pace: str) -> tuple[str, int]:
        room, host = services.create_game(
            seats=2, host_name="Ana", session_key="bench", bot_pace=pace, turn_seconds=None
        )
        assert host is not None
        services.add_bot(room.code, host.pk, "optimal")
        services.start_game(room.code, host.pk, version=Game.objects.get(code=room.code).version)
        return room.code, host.pk

    def ana_plays(code: str, host: int) -> None:
        row = Game.objects.get(code=code)
        if row.status != Game.Status.PLAYING or bots.next_plan(code) is not None:
            return
        services.roll(code, host, version=row.version)
        _, _, state = services.rules_state(code)
        assert state is not None
        assert state.turn.dice is not None
        options = state.cards[0].options(state.turn.dice)
        best = max(options, key=lambda box: options[box])
        services.score(code, host, best.value, version=Game.objects.get(code=code).version)

    async def run() -> None:
        for pace in paces:
            code, host = await sync_to_async(new_room)(pace)
            seconds: list[float] = []
            while len(seconds) < turns:
                await sync_to_async(ana_plays)(code, host)
                started = time.perf_counter()
                bots.kick(code)  # As the server starts a driver (it is the one driver).
                await bots.settle()
                seconds.append(time.perf_counter() - started)
            shown = ", ".join(f"{s:.2f}" for s in seconds)
            print(f"  {pace:8} mean {statistics.fmean(seconds):5.2f} s a turn ({shown})")

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="modelled games per bot")
    parser.add_argument("--live-turns", type=int, default=6, help="live bot turns per pace")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--paces", nargs="+", choices=PACES, default=PACES, help="the paces played live"
    )
    args = quick.parse_args(parser, {"games": 20, "live_turns": 1, "paces": ["instant"]})
    with tempfile.TemporaryDirectory(prefix="bot-pace-bench-") as directory:
        set_up_django(Path(directory))
        modelled(args.games, args.seed)
        live(args.live_turns, args.paces)


if __name__ == "__main__":
    main()
