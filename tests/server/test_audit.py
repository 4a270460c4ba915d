"""``manage.py audit_games``: every game's log replays to its tables, or it says which not."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.live import services
from games.models import GameEvent
from tests.server.helpers import Table, on_turn

pytestmark = pytest.mark.django_db(transaction=True)


def played() -> Table:
    """Ana and Ben, one turn in: whoever went first rolled once and scored Chance."""
    table = Table("ana", "ben")
    table.start("ana")
    first = on_turn(table)
    table.roll(first)
    table.score(first, "chance")
    return table


def test_it_finds_every_game_sound() -> None:
    played()
    Table("cy")  # A lobby.
    out = StringIO()

    call_command("audit_games", stdout=out)

    assert out.getvalue() == "2 games replay to their tables\n"


def test_it_reports_a_lost_move() -> None:
    table = played()
    GameEvent.objects.filter(game__code=table.code, kind="scored").delete()  # The last event.
    out = StringIO()

    with pytest.raises(CommandError, match="1 of 1 games do not replay"):
        # An invite code may start with "-": after "--" argparse reads it as a code.
        call_command("audit_games", "--", table.code, stdout=out)

    report = out.getvalue()
    assert f"{table.code} (playing, version" in report
    assert "its log at" in report
    assert "game: the log replays to" in report


def test_it_reports_a_hole_in_the_log() -> None:
    table = played()
    GameEvent.objects.filter(game__code=table.code, kind="rolled").delete()
    out = StringIO()

    with pytest.raises(CommandError):
        call_command("audit_games", stdout=out)

    assert "the log's numbers are not 1 to" in out.getvalue()
    assert "the log does not replay" in out.getvalue()


def test_it_says_who_is_connected_in_json() -> None:
    table = played()
    services.arrive(table.code, session_key="session-ben")
    services.arrive(table.code)
    out = StringIO()

    call_command("audit_games", "--json", stdout=out)

    found = json.loads(out.getvalue())
    assert found["code"] == table.code
    assert found["problems"] == []
    assert (found["connected"], found["watchers"]) == ([False, True], 1)
    assert found["status"] == "playing"
