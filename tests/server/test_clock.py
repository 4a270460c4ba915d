"""The turn clock, away players and abandoned games, through the services, with a fake clock.

Time stands still for the services (``fake_clock``) until a test moves it on; a
test then wakes the game as a server process's watch would (:func:`services.wake`).
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from games.engine import rules
from games.engine.replay import replay
from games.live import bots, clock, outbox, services, watch
from games.live.services import CommandError
from games.models import Game, GameEvent
from games.wire import presentation
from tests.server.helpers import Table

pytestmark = pytest.mark.django_db(transaction=True)

TURN = 30


def by_clock(table: Table) -> list[tuple[str, dict[str, object]]]:
    """The events the clock made: their kinds and payloads."""
    rows = GameEvent.objects.filter(game__code=table.code).order_by("seq")
    return [(e.kind, e.payload) for e in rows if e.payload.get("by") == "clock"]


def started(*names: str, turn_seconds: int | None = TURN) -> Table:
    table = Table(*names, turn_seconds=turn_seconds)
    table.start()
    return table


def on_turn(table: Table) -> str:
    seat = table.state().on_turn
    return next(name for name, s in table.seats().items() if s == seat)


def assert_replays(table: Table) -> None:
    room = replay(services.replay_events(table.code))
    assert room.game == table.state()


# -- a room's clock -----------------------------------------------------------------


def test_a_room_with_friends_gets_a_minute_a_turn_and_a_solo_room_none() -> None:
    friends, _ = services.create_game(seats=4, host_name="Ana")
    solo, _ = services.create_game(seats=1, host_name="Ana")
    unclocked, _ = services.create_game(seats=4, host_name="Ana", turn_seconds=None)
    daily, _ = services.create_game(seats=2, host_name="Ana", turn_seconds=86400)

    assert friends.turn_seconds == clock.DEFAULT_TURN_SECONDS == 60
    assert (solo.turn_seconds, unclocked.turn_seconds, daily.turn_seconds) == (None, None, 86400)


@pytest.mark.parametrize("bad", [9, 86401, 0, -5, True, 60.0, "60", [60]])
def test_it_refuses_a_clock_out_of_range_or_not_whole(bad: object) -> None:
    with pytest.raises(CommandError) as refused:
        services.create_game(seats=2, host_name="Ana", turn_seconds=bad)

    assert refused.value.code == "invalid_turn_seconds"
    assert not Game.objects.exists()


def test_the_first_turn_gets_its_deadline_with_the_start(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")

    game = table.game
    assert game.deadline == fake_clock.at + timedelta(seconds=TURN)
    assert game.wake_at == game.deadline
    snapshot = services.snapshot(table.code)
    seat = table.state().on_turn
    assert snapshot["clock"] == {
        "seat": seat,
        "deadline": game.deadline.isoformat(),
        "ms_left": TURN * 1000,
    }
    fake_clock.advance(12.5)
    assert services.snapshot(table.code)["clock"]["ms_left"] == (TURN - 12.5) * 1000


def test_a_roll_keeps_the_deadline_and_a_score_starts_the_next_one(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    first = table.game.deadline
    player = on_turn(table)

    fake_clock.advance(10)
    table.roll(player)
    assert table.game.deadline == first  # The clock is the turn's, not the roll's.
    fake_clock.advance(5)
    table.score(player, "chance")

    assert table.game.deadline == fake_clock.at + timedelta(seconds=TURN)
    assert table.game.acted_at == fake_clock.at


def test_a_room_without_a_clock_has_no_deadline_but_is_abandoned_one_day(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben", turn_seconds=None)

    game = table.game
    assert game.deadline is None
    assert game.wake_at == fake_clock.at + clock.ABANDON_AFTER
    assert services.snapshot(table.code)["clock"] is None


# -- the time runs out ----------------------------------------------------------------


def test_when_the_time_runs_out_the_clock_plays_the_turn_once(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    late = on_turn(table)
    version = table.version

    fake_clock.advance(TURN - 1)
    services.wake(table.code)  # Not yet due: nothing happens.
    assert table.version == version
    fake_clock.until(table.game.deadline)
    services.wake(table.code)
    services.wake(table.code)  # Woken twice (by two processes, say): played once.

    made = by_clock(table)
    kinds = [kind for kind, _ in made]
    assert kinds[-1] == "scored"
    assert set(kinds[:-1]) == {"rolled"}
    assert 1 <= kinds.count("rolled") <= 3
    assert all(payload["seat"] == table.seats()[late] for _, payload in made)
    assert on_turn(table) != late
    assert table.game.deadline == fake_clock.at + timedelta(seconds=TURN)
    assert table.game.attendance == {"ran_out": {str(table.seats()[late]): 1}}
    assert_replays(table)


def test_each_event_the_clock_makes_goes_out_as_the_game_was_after_it(fake_clock) -> None:  # type: ignore[no-untyped-def]
    """The clock's rolls and score are saved at once, but each message shows the game as
    that event left it (rolls left, options), as the export replays it."""
    table = started("ana", "ben")
    fake_clock.until(table.game.deadline)

    with outbox.collecting() as sent:
        services.wake(table.code)

    told = [m for _, handler, messages in sent.sends if handler == "game.event" for m in messages]
    rolls = [m["data"] for m in told if m["kind"] == "rolled"]
    assert [roll["rolls_left"] for roll in rolls] == [2, 1, 0][: len(rolls)]
    logged = presentation.log_json(services.log(table.code))
    assert [m["data"] for m in told] == [e["data"] for e in logged[-len(told) :]]


def test_the_clock_finishes_a_turn_the_player_began(fake_clock, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", turn_seconds=TURN)
    fixed_dice.load(*[6] * 5, *[1] * 5)  # The roll-off: ana goes first.
    table.start()
    player = on_turn(table)
    fixed_dice.load(6, 6, 6, 6, 6)
    table.roll(player)

    fake_clock.until(table.game.deadline)
    services.wake(table.code)

    # Five sixes with two rolls left: the optimal strategy writes the Yahtzee at once.
    assert by_clock(table) == [
        (
            "scored",
            {
                "seat": table.seats()[player],
                "category": "yahtzee",
                "points": 50,
                "dice": [6, 6, 6, 6, 6],
                "yahtzee_bonus": False,
                "next": 1 - table.seats()[player],
                "by": "clock",
            },
        )
    ]


def test_a_players_own_score_a_moment_before_the_deadline_wins(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    player = on_turn(table)
    deadline = table.game.deadline
    table.roll(player)

    fake_clock.until(deadline - timedelta(milliseconds=2))
    table.score(player, "chance")
    fake_clock.until(deadline)
    services.wake(table.code)

    assert by_clock(table) == []
    assert table.game.wake_at > fake_clock.at


def test_a_move_made_on_the_game_before_the_clock_played_is_refused(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    player = on_turn(table)
    version = table.version  # What the player's browser saw before the time ran out.

    fake_clock.until(table.game.deadline)
    services.wake(table.code)

    with pytest.raises(CommandError) as refused:
        services.roll(table.code, table.id(player), [], version=version)
    assert refused.value.code == "stale"
    assert len([k for k, _ in by_clock(table) if k == "scored"]) == 1


def test_two_processes_racing_for_the_same_expired_turn_play_it_once(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    fake_clock.until(table.game.deadline)
    ready = threading.Barrier(4)
    failures: list[BaseException] = []

    def wake() -> None:  # A thread has its own database connection, as a process does.
        try:
            ready.wait()
            services.wake(table.code)
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=wake) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert [kind for kind, _ in by_clock(table)].count("scored") == 1
    assert_replays(table)


# -- away players ------------------------------------------------------------------


def clock_plays_turn_of(table: Table, name: str, fake_clock) -> None:  # type: ignore[no-untyped-def]
    assert on_turn(table) == name
    fake_clock.until(table.game.deadline)
    services.wake(table.code)


def on_turn_and_other(table: Table) -> tuple[str, str]:
    """In a game of two: the player on turn, and the other."""
    first = on_turn(table)
    return first, next(name for name in table.seats() if name != first)


def test_two_turns_in_a_row_played_by_the_clock_make_a_seat_away(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    late, other = on_turn_and_other(table)

    clock_plays_turn_of(table, late, fake_clock)
    table.roll(other)
    table.score(other, "chance")
    clock_plays_turn_of(table, late, fake_clock)

    seat = table.seats()[late]
    assert table.kinds()[-1] == "away"
    assert table.last_event().payload == {"seat": seat, "name": late}
    assert services.snapshot(table.code)["players"][seat]["away"] is True
    assert_replays(table)


def test_a_turn_the_player_acted_in_does_not_count_towards_away(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    late, other = on_turn_and_other(table)

    clock_plays_turn_of(table, late, fake_clock)
    table.roll(other)
    table.score(other, "chance")
    table.roll(late)  # This time they roll, then the time runs out.
    clock_plays_turn_of(table, late, fake_clock)

    assert "away" not in table.kinds()


def make_away(table: Table, fake_clock) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The player on turn lets the clock play two turns: they are away, and it is the
    other's turn. Returns (away, other)."""
    late, other = on_turn_and_other(table)
    for _ in range(2):
        clock_plays_turn_of(table, late, fake_clock)
        table.roll(other)
        table.score(other, next(iter(empty_boxes(table, other))))
    return late, other


def empty_boxes(table: Table, name: str) -> list[str]:
    card = table.state().cards[table.seats()[name]]
    return [box.value for box in card.empty]


def test_a_bot_plays_an_away_players_turns_at_once(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    away, _ = make_away(table, fake_clock)
    assert on_turn(table) == away
    assert services.table(table.code).bot_on_turn()
    assert table.game.deadline is None  # No clock: the bot does not wait.

    while on_turn(table) == away:
        plan = bots.next_plan(table.code)
        assert plan is not None
        assert plan.by == "bot"
        assert bots.make(plan)

    made = [e for e in GameEvent.objects.filter(game__code=table.code) if e.kind == "scored"]
    assert made[-1].payload["by"] == "bot"
    assert table.game.deadline == fake_clock.at + timedelta(seconds=TURN)  # The other's.
    assert_replays(table)


def test_im_back_brings_the_player_back_with_a_whole_turn(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    away, _ = make_away(table, fake_clock)
    fake_clock.advance(3)

    services.come_back(table.code, table.id(away))

    assert table.kinds()[-1] == "back"
    assert services.snapshot(table.code)["players"][table.seats()[away]]["away"] is False
    assert table.game.deadline == fake_clock.at + timedelta(seconds=TURN)
    assert not services.table(table.code).bot_on_turn()
    with pytest.raises(CommandError) as refused:
        services.come_back(table.code, table.id(away))
    assert refused.value.code == "not_away"


def test_any_command_of_an_away_player_brings_them_back(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    away, _ = make_away(table, fake_clock)

    services.chat(table.code, table.id(away), "sorry, the doorbell")

    assert table.kinds()[-2:] == ["back", "chat"]
    assert table.game.attendance == {}


def test_a_bot_stops_playing_for_a_player_who_came_back(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    away, _ = make_away(table, fake_clock)
    plan = bots.next_plan(table.code)
    assert plan is not None

    services.come_back(table.code, table.id(away))

    assert bots.make(plan) is False
    assert table.kinds()[-1] == "back"


def test_with_everyone_away_nobody_plays_and_the_game_waits(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    first, second = on_turn_and_other(table)
    for name in (first, second, first, second):
        clock_plays_turn_of(table, name, fake_clock)

    assert table.kinds().count("away") == 2
    assert not services.table(table.code).bot_on_turn()
    game = table.game
    assert game.deadline is None
    assert game.wake_at == game.acted_at + clock.ABANDON_AFTER


# -- the host and away players ---------------------------------------------------------


def test_the_host_removes_an_away_player_whose_score_stands(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben", "cy")
    while on_turn(table) == "ana":
        table.roll("ana")
        table.score("ana", "chance")
    late = on_turn(table)
    for _ in range(2):
        while on_turn(table) != late:
            name = on_turn(table)
            table.roll(name)
            table.score(name, empty_boxes(table, name)[0])
        clock_plays_turn_of(table, late, fake_clock)
    total = table.state().cards[table.seats()[late]].total

    services.remove_player(table.code, table.id("ana"), table.seats()[late])

    event = table.last_event()
    assert (event.kind, event.payload["by"], event.payload["seat"]) == (
        "left",
        "host",
        table.seats()[late],
    )
    assert table.state().cards[table.seats()[late]].total == total
    assert_replays(table)


def test_the_host_cannot_remove_a_player_who_is_here_and_playing(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben")
    services.arrive(table.code, session_key="session-ben")  # Ben's browser is open.
    version = table.version

    for command in (services.remove_player, services.hand_to_bot):
        with pytest.raises(CommandError) as refused:
            command(table.code, table.id("ana"), table.seats()["ben"])
        assert refused.value.code == "not_away"
    with pytest.raises(CommandError) as refused:
        services.remove_player(table.code, table.id("ben"), table.seats()["ana"])
    assert refused.value.code == "not_host"
    assert table.version == version


def test_the_host_hands_a_disconnected_seat_to_a_bot_for_good(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben", turn_seconds=None)  # Even without a clock.
    ben = table.seats()["ben"]

    services.hand_to_bot(table.code, table.id("ana"), ben)

    assert table.last_event().payload == {"seat": ben, "name": "ben", "host": 0}
    seat = services.snapshot(table.code)["players"][ben]
    assert (seat["away"], seat["handed"]) == (True, True)
    for attempt in (
        lambda: services.chat(table.code, table.id("ben"), "hey"),
        lambda: services.come_back(table.code, table.id("ben")),
    ):
        with pytest.raises(CommandError) as refused:
            attempt()
        assert refused.value.code == "handed_to_bot"


# -- abandoned games and the watch -----------------------------------------------------


def test_a_game_nobody_plays_for_a_day_is_abandoned(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben", turn_seconds=None)

    fake_clock.advance(clock.ABANDON_AFTER.total_seconds() - 1)
    services.wake(table.code)
    assert table.game.status == Game.Status.PLAYING
    fake_clock.advance(1)
    services.wake(table.code)

    game = table.game
    assert (game.status, game.wake_at, game.deadline) == ("abandoned", None, None)
    assert table.kinds()[-1] == "abandoned"
    assert replay(services.replay_events(table.code)).status == "abandoned"
    with pytest.raises(rules.IllegalMoveError) as refused:
        table.roll(on_turn(table))
    assert refused.value.code == "game_over"


def test_a_day_long_clock_allows_two_missed_days_before_abandoning(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = started("ana", "ben", turn_seconds=86400)
    assert table.game.wake_at == table.game.deadline
    assert clock.idle_limit(86400) == timedelta(days=2)


def test_the_watch_wakes_only_the_games_that_are_due(fake_clock, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    due = started("ana", "ben")
    started("cy", "di", turn_seconds=120)
    finished = Table("solo", seats=1)
    finished.play_out()
    fake_clock.until(due.game.deadline)

    with django_assert_num_queries(2):  # However many games there are.
        games, after = watch.due_games()

    assert games == [(due.code, "official")]
    assert after == pytest.approx(120 - TURN, abs=0.01)


@pytest.mark.asyncio
async def test_a_look_of_the_watch_plays_the_expired_turn(fake_clock) -> None:  # type: ignore[no-untyped-def]
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(started)("ana", "ben")
    game = await Game.objects.aget(code=table.code)
    fake_clock.until(game.deadline)

    await watch.look()

    scored = await GameEvent.objects.filter(game__code=table.code, kind="scored").aget()
    assert scored.payload["by"] == "clock"


def test_a_bot_whose_driver_stopped_is_started_again(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana")
    services.add_bot(table.code, table.id("ana"), "optimal")
    table.start()
    while on_turn(table) == "ana":
        table.roll("ana")
        table.score("ana", "chance")
    game = table.game
    assert game.wake_at == fake_clock.at + clock.BOT_STALL  # The bot should move by then.

    fake_clock.until(game.wake_at)
    with outbox.collecting() as sent:
        services.wake(table.code)

    assert sent.bots == [table.code]
    assert table.game.wake_at == fake_clock.at + clock.BOT_STALL
