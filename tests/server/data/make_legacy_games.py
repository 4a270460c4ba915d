"""Write ``legacy_games.json``: games stored by the schema before the saved record (0004).

Run once, at commit ddeea25 (the last commit whose services wrote the mirror tables)::

    DATABASE_URL=sqlite:////tmp/legacy.sqlite3 DJANGO_SETTINGS_MODULE=tests.settings \
        .venv/bin/python tests/server/data/make_legacy_games.py

It plays a handful of games through that commit's services with seeded dice:
solo and multi-player, both presets, a roll-off tie, holds, chat, the coach
switch, bots, players leaving the lobby and the game, a rematch, a game still
in play and one still in its lobby. It writes every row those games left in the
``games`` tables, and what the site showed of each then (the export, the review's
moments, the history's totals and winners), so that
``tests/server/test_record_migration.py`` can load the rows into the old schema,
migrate, and check that every game still opens, reviews and exports the same.
The script is kept for the record; it does not run against later code.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import RequestFactory  # noqa: E402

_rng = random.Random(20261124)


def seeded_roll(count: int) -> list[int]:
    return [_rng.randint(1, 6) for _ in range(count)]


def main() -> None:
    settings.YAHTZEE_DICE = "__main__.seeded_roll"
    call_command("migrate", verbosity=0)

    from games.insight import review
    from games.live import services
    from games.models import FilledBox, Game, GameEvent, Player
    from games.web import history, views
    from tests.server.helpers import Table, play_out

    codes: list[str] = []

    # 1. A solo game to the end, three rolls a turn, with holds between them.
    solo = Table("ana")
    solo.start()
    for _ in range(13):
        solo.roll("ana")
        solo.hold("ana", [0, 1])
        solo.roll("ana", [0, 1])
        solo.roll("ana", [0])
        state = solo.state()
        options = state.cards[0].options(state.turn.dice or ())
        solo.score("ana", max(options, key=lambda box: options[box]).value)
    codes.append(solo.code)

    # 2. Three players, free Joker; chat, the coach on and off, one leaves mid-game,
    #    the others play to the end, and a rematch is opened.
    three = Table("ben", "cat", "dan", preset="free_joker")
    services.set_coach(three.code, three.id("ben"), True)
    services.chat(three.code, three.id("cat"), "good luck!")
    three.start("ben")
    play_out(three.code, rolls=lambda: _rng.randint(1, 3), turns_left=25)
    three.leave("dan")
    services.set_coach(three.code, three.id("ben"), False)
    play_out(three.code, rolls=lambda: _rng.randint(1, 3))
    services.chat(three.code, three.id("ben"), "gg")
    services.rematch(three.code, three.id("cat"))
    codes.append(three.code)
    codes.append(Game.objects.get(rematch_of__code=three.code).code)  # Its lobby.

    # 3. A person and two bots, played to the end through the services.
    bots = Table("eve", seats=3)
    for level in ("optimal", "casual"):
        bot = services.add_bot(bots.code, bots.id("eve"), level)
        bots.players[bot.name] = bot
    bots.start("eve")
    play_out(bots.code, rolls=lambda: _rng.randint(1, 3))
    codes.append(bots.code)

    # 4. Two players in the middle of a turn, dice held.
    mid = Table("fay", "gus")
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

    # 6. Four players where all but one leave: the last plays alone to the end.
    last = Table("kim", "lee", "max", "ned")
    last.start("kim")
    play_out(last.code, turns_left=45)
    for name in ("lee", "max", "ned"):
        last.leave(name)
    play_out(last.code, rolls=lambda: 3)
    codes.append(last.code)

    # 7. Everyone leaves a game in play: it ends with no winner.
    gone = Table("oli", "pat")
    gone.start("oli")
    play_out(gone.code, turns_left=20)
    gone.leave("oli")
    gone.leave("pat")
    codes.append(gone.code)

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
        del snapshot["recent"]  # Events as the log stored them; the export has them all.
        entry["snapshot"] = snapshot
        if game.status != Game.Status.LOBBY:
            response = views.export(factory.get(f"/g/{code}/export.json"), code)
            entry["export"] = json.loads(response.content)
            entry["review"] = review.build(services.replay_events(code)).moments_json()
        expected[code] = entry

    def rows(model: type) -> list[dict[str, object]]:
        return list(model.objects.order_by("pk").values())

    data = {
        "made_at": "ddeea25",
        "codes": codes,
        "rows": {
            "game": rows(Game),
            "player": rows(Player),
            "filledbox": rows(FilledBox),
            "gameevent": rows(GameEvent),
        },
        "expected": expected,
    }
    out = Path(__file__).with_name("legacy_games.json")
    out.write_text(json.dumps(data, sort_keys=True, default=str, separators=(",", ":")) + "\n")
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(codes)} games)")


if __name__ == "__main__":
    main()
