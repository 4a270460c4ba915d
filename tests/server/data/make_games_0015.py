"""Write ``games_0015.json``: games stored by the schema of migration 0015 (the saved record,
the turn clock, the bots' pace, the odds setting, events from their classes).

Run once, at commit 7665e36 (the last commit before the command pipeline was rewritten)::

    DATABASE_URL=sqlite:////tmp/games-0015.sqlite3 DJANGO_SETTINGS_MODULE=tests.settings \
        .venv/bin/python tests/server/data/make_games_0015.py

It plays games through that commit's services with seeded dice and a clock of its own:
a solo game, players with chat, the coach, the bots' pace and a rematch, bots, a lobby
left (``unseated``), a game in play with a clock running, a game where the clock plays,
a seat is away, comes back, is handed to a bot and removed and the game is abandoned,
and a rematch whose seat 0 is a bot. It writes every row those games left in the
``games`` tables and what the site showed of each then (the snapshot, the export, the
review's moments, the history), so that ``tests/server/test_games_0015.py`` can load
the rows, migrate, and check that every game opens, replays, reviews and exports the same.
The script is kept for the record; it does not run against later code.
"""

from __future__ import annotations

import json
import os
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import RequestFactory  # noqa: E402

_rng = random.Random(20261126)


def seeded_roll(count: int) -> list[int]:
    return [_rng.randint(1, 6) for _ in range(count)]


class Clock:
    """The services' time: fixed, moved on by hand (so the rows are the same every run)."""

    def __init__(self) -> None:
        self.at = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.at += timedelta(milliseconds=250)
        return self.at

    def until(self, moment: datetime | None) -> None:
        assert moment is not None
        self.at = max(self.at, moment + timedelta(microseconds=1))


def main() -> None:
    settings.YAHTZEE_DICE = "__main__.seeded_roll"
    settings.YAHTZEE_RATE_LIMITS = False
    call_command("migrate", verbosity=0)

    from games.insight import review
    from games.live import bots, clock, services
    from games.models import Game, GameEvent, Player
    from games.web import history, views
    from tests.server.helpers import Table, abandoned_with_stand_ins, play_out

    fake = Clock()
    clock.now = fake  # type: ignore[assignment]
    codes: list[str] = []

    # 1. A solo game to the end, with holds.
    solo = Table("ana", turn_seconds=None)
    solo.start()
    for _ in range(13):
        solo.roll("ana")
        solo.hold("ana", [0, 1])
        solo.roll("ana", [0, 1])
        state = solo.state()
        options = state.cards[0].options(state.turn.dice or ())
        solo.score("ana", max(options, key=lambda box: options[box]).value)
    codes.append(solo.code)

    # 2. Three players, free Joker, a 2-minute clock: chat, the coach and the bots' pace
    #    switched, one leaves mid-game, the rest play to the end, and a rematch.
    three = Table("ben", "cat", "dan", preset="free_joker", turn_seconds=120)
    services.set_coach(three.code, three.id("ben"), True)
    services.set_bot_pace(three.code, three.id("ben"), "quick")
    services.chat(three.code, three.id("cat"), "good luck!")
    three.start("ben")
    play_out(three.code, rolls=lambda: _rng.randint(1, 3), turns_left=25)
    three.leave("dan")
    services.set_coach(three.code, three.id("ben"), False)
    play_out(three.code, rolls=lambda: _rng.randint(1, 3))
    services.rematch(three.code, three.id("cat"))
    codes.append(three.code)
    codes.append(Game.objects.get(rematch_of__code=three.code).code)  # Its lobby.

    # 3. A person and two bots (one to win), the odds shown, played to the end.
    game, eve = services.create_game(
        seats=3, host_name="eve", session_key="session-eve", show_odds=True, bot_pace="instant"
    )
    assert eve is not None
    optimal = services.add_bot(game.code, eve.pk, "optimal")
    services.add_bot(game.code, eve.pk, "win")
    services.remove_bot(game.code, eve.pk, optimal.seat)
    services.add_bot(game.code, eve.pk, "casual")
    services.start_game(game.code, eve.pk, version=Game.objects.get(code=game.code).version)
    while Game.objects.get(code=game.code).status == Game.Status.PLAYING:
        plan = bots.next_plan(game.code)
        if plan is not None:
            assert bots.make(plan)
        else:
            _person_turn(game.code)
    codes.append(game.code)

    # 4. Two players in the middle of a turn, dice held, the clock running.
    mid = Table("fay", "gus", turn_seconds=60)
    mid.start("fay")
    play_out(mid.code, rolls=lambda: 2, turns_left=11)
    on_turn = next(n for n, p in mid.players.items() if p.seat == mid.state().current)
    mid.roll(on_turn)
    mid.hold(on_turn, [1, 3])
    codes.append(mid.code)

    # 5. A lobby someone left: the seats moved up and the host passed on.
    lobby = Table("hal", "ivy", "jon")
    lobby.leave("hal")
    codes.append(lobby.code)

    # 6. The clock plays, a seat is away, comes back, is handed to a bot, one is removed,
    #    and nobody plays: the game is abandoned.
    abandoned = abandoned_with_stand_ins(fake)
    codes.append(abandoned.code)

    # 7. A rematch whose seat 0 is a bot: the host left the game before its end.
    first = Table("kim", seats=3, turn_seconds=None)
    bot = services.add_bot(first.code, first.id("kim"), "optimal")
    first.join("lee")
    first.start("kim")
    first.leave("kim")
    while Game.objects.get(code=first.code).status == Game.Status.PLAYING:
        plan = bots.next_plan(first.code)
        if plan is not None:
            assert bots.make(plan)
        else:
            _person_turn(first.code)
    assert bot.seat == 1
    services.rematch(first.code, first.id("lee"))
    codes.append(first.code)
    codes.append(Game.objects.get(rematch_of__code=first.code).code)

    factory = RequestFactory(HTTP_HOST="localhost")
    expected = {}
    for code in codes:
        game = Game.objects.get(code=code)
        entry: dict[str, object] = {"status": game.status}
        summary = history.summary(game)
        entry["history"] = {
            "names": [s.name for s in summary.seats],
            "totals": [s.total for s in summary.seats],
            "winners": [s.player.seat for s in summary.winners],
        }
        snapshot = services.snapshot(code)
        entry["snapshot"] = snapshot
        if game.status != Game.Status.LOBBY:
            response = views.export(factory.get(f"/g/{code}/export.json"), code)
            entry["export"] = json.loads(response.content)
            entry["review"] = review.build(services.replay_events(code)).moments_json()
        expected[code] = entry

    def rows(model: type) -> list[dict[str, object]]:
        return list(model.objects.order_by("pk").values())

    data = {
        "made_at": "7665e36",
        "codes": codes,
        "rows": {"game": rows(Game), "player": rows(Player), "gameevent": rows(GameEvent)},
        "expected": expected,
    }
    out = Path(__file__).with_name("games_0015.json")
    out.write_text(json.dumps(data, sort_keys=True, default=str, separators=(",", ":")) + "\n")
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(codes)} games)")


def _person_turn(code: str) -> None:
    """The person on turn rolls once and takes the box worth the most."""
    from games.live import services
    from games.models import Game

    _, players, state = services.rules_state(code)
    assert state is not None
    player = next(p for p in players if p.seat == state.current)
    services.roll(code, player.pk, [], version=Game.objects.get(code=code).version)
    _, _, state = services.rules_state(code)
    assert state is not None
    options = state.cards[player.seat].options(state.turn.dice or ())
    best = max(options, key=lambda box: options[box])
    services.score(code, player.pk, best.value, version=Game.objects.get(code=code).version)


if __name__ == "__main__":
    main()
