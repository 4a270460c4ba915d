"""Presence that heals itself: connections are rows that expire unless their process beats."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from django.db import OperationalError

from games.live import heartbeat, outbox, services, watch
from games.models import Connection, Game
from tests.server.helpers import Table

pytestmark = pytest.mark.django_db(transaction=True)


def seen(code: str) -> list[bool]:
    """Whether each seat is connected, as a snapshot says."""
    return [p["connected"] for p in services.snapshot(code)["players"]]


@pytest.fixture(autouse=True)
def no_sockets_left() -> Iterator[None]:
    """This process's list holds only this test's sockets (an earlier test may have left
    one: a consumer of a closed event loop never ends)."""
    heartbeat.sockets.clear()
    yield
    heartbeat.sockets.clear()
    heartbeat.untold.clear()


def arrive(code: str, session_key: str = "") -> tuple[int | None, int]:
    """A socket arriving in room ``code`` (:func:`services.arrive`): the seat it acts for, and
    its row's id."""
    arrival = services.arrive(code, session_key=session_key)
    return arrival.player_id, arrival.connection_id


def socket(code: str, connection_id: int, player_id: int | None) -> heartbeat.Socket:
    """One of this process's open sockets, as its consumer keeps it."""
    heartbeat.sockets[connection_id] = heartbeat.Socket(connection_id, code, player_id)
    return heartbeat.sockets[connection_id]


def test_a_socket_that_closed_during_a_beat_is_not_written_back(fake_clock) -> None:  # type: ignore[no-untyped-def]
    """The heartbeat read the process's sockets; one closed (forgotten, then its row
    deleted) before the beat reached the database: no ghost comes back."""
    table = Table("ana", "ben")
    ana, row = arrive(table.code, session_key="session-ana")
    alive = [socket(table.code, row, ana)]
    heartbeat.sockets.pop(row)  # As leaving.release does, first...
    services.release([row])  # ...then its row.

    assert heartbeat.beat(alive) == []
    assert not Connection.objects.exists()
    assert seen(table.code) == [False, False]


def test_a_connection_counts_while_its_process_beats(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    ana, ana_row = arrive(table.code, session_key="session-ana")
    _, watcher_row = arrive(table.code)
    assert seen(table.code) == [True, False]
    assert services.snapshot(table.code)["watchers"] == 1

    for _ in range(30):  # A minute of beats: still here.
        fake_clock.advance(heartbeat.HEARTBEAT.total_seconds())
        heartbeat.beat([socket(table.code, ana_row, ana), socket(table.code, watcher_row, None)])
    assert seen(table.code) == [True, False]
    assert services.snapshot(table.code)["watchers"] == 1


def test_the_connections_of_a_killed_process_vanish_and_the_rooms_are_told(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    ana, ana_row = arrive(table.code, session_key="session-ana")
    arrive(table.code, session_key="session-ben")  # Its process dies.
    assert seen(table.code) == [True, True]

    fake_clock.advance(heartbeat.EXPIRY.total_seconds() - 1)
    heartbeat.beat([socket(table.code, ana_row, ana)])  # Only ana's process still beats.
    assert heartbeat.sweep() == []
    assert seen(table.code) == [True, True]
    fake_clock.advance(2)

    assert seen(table.code) == [True, False]  # No longer counted, swept or not.
    assert heartbeat.sweep() == [table.code]
    assert list(Connection.objects.values_list("pk", flat=True)) == [ana_row]
    with outbox.collecting() as sent:
        services.tell_presence(table.code)
    assert sent.sends == [
        (
            table.code,
            "game.presence",
            [
                {
                    "type": "presence",
                    "players": [{"seat": 0, "connected": True}, {"seat": 1, "connected": False}],
                    "watchers": 0,
                }
            ],
        )
    ]


def test_a_process_cut_off_for_long_writes_its_connections_back(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    ana, ana_row = arrive(table.code, session_key="session-ana")
    _, watcher_row = arrive(table.code)
    alive = [socket(table.code, ana_row, ana), socket(table.code, watcher_row, None)]
    fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 10)  # The database was away.
    assert heartbeat.sweep() == [table.code]  # Another process swept them meanwhile.
    assert seen(table.code) == [False, False]

    assert heartbeat.beat(alive) == [table.code]

    assert seen(table.code) == [True, False]
    assert services.snapshot(table.code)["watchers"] == 1
    assert heartbeat.beat(alive) == []  # Written back once.


def test_a_socket_whose_lobby_seat_was_freed_is_written_back_as_a_watcher(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    ben, ben_row = arrive(table.code, session_key="session-ben")
    fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 1)
    heartbeat.sweep()
    table.leave("ben")  # Ben's seat is gone from the lobby.

    heartbeat.beat([socket(table.code, ben_row, ben)])

    assert Connection.objects.get(pk=ben_row).player_id is None
    assert services.snapshot(table.code)["watchers"] == 1


def test_leaving_and_closing_move_and_remove_the_row(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    ben, row = arrive(table.code, session_key="session-ben")
    assert ben is not None

    services.move_connection(table.code, row, None)  # Ben gave up his seat: he watches.
    assert (seen(table.code), services.snapshot(table.code)["watchers"]) == ([False, False], 1)
    services.release([row])
    assert not Connection.objects.exists()
    assert services.snapshot(table.code)["watchers"] == 0


def test_a_bot_is_always_here() -> None:
    table = Table("ana")
    services.add_bot(table.code, table.id("ana"), "optimal")

    assert seen(table.code) == [False, True]


def test_a_socket_of_a_deleted_room_tells_nobody(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    ana, row = arrive(table.code, session_key="session-ana")
    Game.objects.filter(code=table.code).delete()  # Its rows go with it.

    assert heartbeat.beat([socket(table.code, row, ana)]) == []
    assert not Connection.objects.exists()


class Stop(Exception):
    """Ends the heartbeat's endless loop in a test."""


def test_the_heartbeat_tells_every_room_and_retries_the_ones_it_could_not_tell(
    fake_clock,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A room that is gone, or that cannot be told this beat, holds up no other room; the
    one that could not be told is told on the next beat (its rows are swept by then)."""
    gone, failing, fine = Table("ana", "ben"), Table("cy", "di"), Table("ed", "flo")
    for table in (failing, fine):
        arrive(table.code, session_key=f"session-{next(iter(table.players))}")
    ana, ana_row = arrive(gone.code, session_key="session-ana")
    Game.objects.filter(code=gone.code).delete()
    fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 1)  # Cy's and Ed's process died.

    told: list[str] = []
    failed_once: list[str] = []
    real_run = outbox.run

    async def run(command, code):  # type: ignore[no-untyped-def]
        if code == failing.code and not failed_once:
            failed_once.append(code)
            raise OperationalError("the database went away")
        await real_run(command, code)
        told.append(code)

    beats = 0

    async def sleep(seconds: float) -> None:
        nonlocal beats
        beats += 1
        if beats == 2:
            raise Stop

    monkeypatch.setattr(outbox, "run", run)
    monkeypatch.setattr(watch.asyncio, "sleep", sleep)
    monkeypatch.setitem(heartbeat.sockets, ana_row, socket(gone.code, ana_row, ana))

    with pytest.raises(Stop):
        asyncio.run(watch.keep_alive())

    assert sorted(told) == sorted([fine.code, failing.code])
    assert told[-1] == failing.code  # On the second beat.
    assert seen(failing.code) == [False, False]


def test_a_busy_process_never_sweeps_the_rows_of_its_own_sockets(  # type: ignore[no-untyped-def]
    fake_clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watcher's page said "There is no game at this link." as it opened, at a load of 40:
    its row was swept between its arrival and its name in the watchers' chat. The heartbeat
    read its list of sockets before the socket was in it, and its sweep came more than
    :data:`heartbeat.EXPIRY` after the row was written (a process that busy lags), so it
    took the row of its own open socket for a dead process's. A row that the process holds
    when it sweeps, or that was written after its beat began, is not swept; a dead
    process's rows still are, and their room is told."""
    table, dead = Table("ana"), Table("ben")
    arrive(dead.code)  # Its process died: nobody beats for it.
    _, early = arrive(table.code)  # Written, not yet held: the process lags...
    fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 1)
    _, held = arrive(table.code)
    socket(table.code, held, None)
    late: list[int] = []
    real_beat = heartbeat.beat

    def beat_then_lag(alive: list[heartbeat.Socket]) -> list[str]:
        assert [s.id for s in alive] == [held]
        changed = real_beat(alive)
        late.append(arrive(table.code)[1])  # Written once the beat read its list.
        fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 1)  # The process lags again,
        socket(table.code, early, None)  # ... and holds the early socket at last.
        return changed

    told: list[str] = []

    async def tell(command, code):  # type: ignore[no-untyped-def]
        told.append(code)

    async def sleep(seconds: float) -> None:
        raise Stop

    monkeypatch.setattr(heartbeat, "beat", beat_then_lag)
    monkeypatch.setattr(outbox, "run", tell)
    monkeypatch.setattr(watch.asyncio, "sleep", sleep)
    with pytest.raises(Stop):
        asyncio.run(watch.keep_alive())

    assert told == [dead.code]
    assert not Connection.objects.filter(game__code=dead.code).exists()
    assert set(Connection.objects.filter(game__code=table.code).values_list("pk", flat=True)) == {
        early,
        held,
        *late,
    }
    socket(table.code, late[0], None)  # Held by the next beat, which finds every row there.
    assert real_beat(list(heartbeat.sockets.values())) == []
    assert services.watcher_name(table.code, early) == "Watcher 1"
    assert services.watcher_name(table.code, late[0]) == "Watcher 2"


def test_a_watch_left_on_a_closed_event_loop_keeps_no_later_loop_from_watching(  # type: ignore[no-untyped-def]
    monkeypatch, settings
) -> None:
    """A process that runs one event loop after another (each test its own) leaves the
    watch's tasks of a closed loop pending, never done: they were taken for a watch still
    running, and the later loop had no clock and no heartbeat. The later loop starts its own."""
    settings.YAHTZEE_CLOCK_WATCH = True
    monkeypatch.setattr(watch, "_tasks", [])
    started: list[tuple[str, asyncio.AbstractEventLoop]] = []
    both_started: list[asyncio.Event] = []

    def runs_forever(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            started.append((name, asyncio.get_running_loop()))
            if sum(loop is asyncio.get_running_loop() for _, loop in started) == 2:
                both_started[-1].set()
            await asyncio.get_running_loop().create_future()

        return run

    monkeypatch.setattr(watch, "keep_watch", runs_forever("watch"))
    monkeypatch.setattr(watch, "keep_alive", runs_forever("heartbeat"))

    async def watching() -> list[asyncio.Task[None]]:
        both_started.append(asyncio.Event())
        watch.ensure_watching()
        watch.ensure_watching()  # Once per loop, however often asked.
        await asyncio.wait_for(both_started[-1].wait(), 10)
        return list(watch._tasks)

    earlier, later = asyncio.new_event_loop(), asyncio.new_event_loop()
    tasks: list[asyncio.Task[None]] = []
    try:
        tasks += earlier.run_until_complete(watching())  # Left pending: never done.
        tasks += later.run_until_complete(watching())
        assert sorted((name, loop is later) for name, loop in started) == [
            ("heartbeat", False),
            ("heartbeat", True),
            ("watch", False),
            ("watch", True),
        ]
        assert not any(task.done() for task in tasks)  # The earlier loop's were not cancelled.
    finally:
        for loop in (earlier, later):
            mine = [task for task in tasks if task.get_loop() is loop]
            for task in mine:
                task.cancel()
            if mine:
                loop.run_until_complete(asyncio.gather(*mine, return_exceptions=True))
            loop.close()
