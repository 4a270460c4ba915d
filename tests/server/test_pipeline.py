"""The one command pipeline (games/live/pipeline.py) and its one statement (games/live/store.py)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.engine import events
from games.live import pipeline, services, store
from games.models import Game, Player
from tests.server.helpers import Table, play_out, told_events

ALICE_FIRST = (6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # Roll-off throws: alice (seat 0), then bob.

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_database_saves_the_fields_the_list_names() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's statement is written from the list each time it is sent")
    with connection.cursor() as cursor:
        cursor.execute("SELECT type, sql FROM sqlite_master WHERE name LIKE 'games_move%'")
        installed = dict(cursor.fetchall())
    assert installed == {"view": store.sqlite_view(), "trigger": store.sqlite_trigger()}


def test_a_saved_field_changed_by_any_command_reaches_the_row(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("alice", "bob")
    services.set_bot_pace(table.code, table.id("alice"), "quick")  # Once apart from the moves.
    services.set_coach(table.code, table.id("alice"), True)
    fixed_dice.load(*ALICE_FIRST, 1, 2, 3, 4, 6)
    table.start()
    services.set_show_odds(table.code, table.id("alice"), True)
    table.roll("alice")
    game = table.game
    assert (game.bot_pace, game.coach, game.show_odds, game.status) == (
        "quick",
        True,
        True,
        "playing",
    )
    row = Game.objects.values(*store.SAVED_FIELDS).get(code=table.code)
    copy = pipeline.copies.get(table.code)
    assert {name: getattr(copy.game, name) for name in store.SAVED_FIELDS} == row


def test_a_seat_taken_on_an_out_of_date_copy_is_taken_again_on_the_saved_game() -> None:
    table = Table("alice")
    stale = pipeline.copies.get(table.code)
    table.join("bob")  # Another process's command, say:
    pipeline.copies.put(table.code, stale)  # this process has not seen it.
    cat = table.join("cat")
    assert (cat.seat, cat.name) == (2, "cat")
    assert list(
        Player.objects.filter(game__code=table.code).values_list("seat", "name", "is_host")
    ) == [(0, "alice", True), (1, "bob", False), (2, "cat", False)]
    assert [e.seq for e in told_events(table.code)] == list(range(1, table.version + 1))


def test_a_seat_freed_on_a_copy_moves_the_copy_s_seats_only_once_saved() -> None:
    table = Table("alice", "bob", "cat")
    kept = pipeline.copies.get(table.code)
    table.leave("alice")
    assert [p.seat for p in kept.players] == [0, 1, 2]  # The copy it was made on is untouched.
    assert [(p.name, p.seat, p.is_host) for p in pipeline.copies.get(table.code).players] == [
        ("bob", 0, True),
        ("cat", 1, False),
    ]
    assert table.seats() == {"bob": 0, "cat": 1}


def test_the_room_is_built_once_per_game_read_and_not_at_all_from_a_copy(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    table = Table("alice", "bob")
    fixed_dice.load(*ALICE_FIRST, 1, 2, 3, 4, 6, 1, 2, 3, 4, 6)
    table.start()
    built: list[str] = []
    room_of = pipeline.room_of

    def counted(game: Game, players: list[Player]) -> pipeline.Room:
        built.append(game.code)
        return room_of(game, players)

    monkeypatch.setattr(pipeline, "room_of", counted)
    table.roll("alice")  # From this process's copy.
    assert built == []
    pipeline.copies.clear()
    table.roll("alice", [0])
    assert built == [table.code]


def test_a_rematch_whose_seat_0_is_a_bot_has_the_first_person_as_host() -> None:
    table = Table("kim", seats=3, turn_seconds=None)
    services.add_bot(table.code, table.id("kim"), "optimal")
    table.join("lee")
    table.start("kim")
    table.leave("kim")  # The host leaves: the rematch's seat 0 is the bot.
    play_out(table.code)  # One roll a turn, each seat (the bot's too) through the services.
    new = services.rematch(table.code, table.id("lee"))
    seats = list(Player.objects.filter(game=new).order_by("seat"))
    assert [(p.name, p.is_host, p.bot) for p in seats] == [
        ("Optimal bot", False, "optimal"),
        ("lee", True, ""),
    ]
    services.start_game(new.code, seats[1].pk, version=Game.objects.get(pk=new.pk).version)
    assert Game.objects.get(pk=new.pk).status == Game.Status.PLAYING


def test_two_wakers_of_one_game_act_once(fake_clock, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("alice", "bob", turn_seconds=30)
    fixed_dice.load(*ALICE_FIRST)
    table.start()
    fake_clock.advance(25 * 60 * 60)  # Nobody played for a day: the game is abandoned.
    stale = pipeline.load(table.code)  # A second process read the game before the first woke it.
    services.wake(table.code)
    played = table.version
    assert played > stale.game.version
    assert not pipeline.save(_clock_played(stale))  # Its save is refused: the version moved.
    services.wake(table.code)  # And woken again it finds nothing due.
    assert table.version == played
    assert table.kinds()[-1] == "abandoned"


def _clock_played(table: pipeline.Table) -> pipeline.Table:
    position = table.in_play().position()
    assert position is not None
    table.decide(lambda room: room.roll(position.seat, [1, 2, 3, 4, 5], by=events.BY_CLOCK))
    return table
