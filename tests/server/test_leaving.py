"""A socket's presence ends with its connection, whatever its consumer's clean-up does
(``games/live/leaving.py``): an unsubscribe that raises or is cancelled, a consumer killed
for taking too long to stop, a consumer stopped while its row was being written.

Each test closes a watcher's socket in a way that went wrong before, then checks what the
room and the process say: the room is told nobody watches, no row is left, the process no
longer confirms the socket, and a sweep after the rows' expiry finds nothing to remove.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.live import consumers, heartbeat, leaving, outbox, services
from tests.server.test_consumer import Client, count_rows, new_game, rows, seat

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def still_time(fake_clock):  # type: ignore[no-untyped-def]
    return fake_clock


@pytest.fixture(autouse=True)
def no_sockets_left() -> Iterator[None]:
    """This process's list holds only this test's sockets (an earlier test's consumer left
    on a closed event loop never ended)."""
    heartbeat.sockets.clear()
    yield
    heartbeat.sockets.clear()
    heartbeat.untold.clear()


async def until(holds: Callable[[], Awaitable[bool]], failure: str) -> None:
    """Check ``holds`` every 50 ms until it does (30 s bound a failure, never decide one)."""
    deadline = asyncio.get_running_loop().time() + 30
    while not await holds():
        assert asyncio.get_running_loop().time() < deadline, failure
        await asyncio.sleep(0.05)


@database_sync_to_async
def watchers(code: str) -> int:
    return int(services.snapshot(code)["watchers"])


def beat_and_sweep(fake_clock) -> list[str]:  # type: ignore[no-untyped-def]
    """The heartbeat once every row it did not confirm has expired: what the sweep removes."""
    fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 1)
    heartbeat.beat(list(heartbeat.sockets.values()))
    return heartbeat.sweep()


async def told_nobody_watches(player: Client) -> None:
    """The player hears the room's presence until it says nobody watches."""
    while (await player.expect("presence"))["watchers"] != 0:
        pass


async def room_with_a_watcher() -> tuple[str, Client, Client]:
    code = await new_game()
    ana = await seat(code, "Ana")
    watcher = await Client(code).connect()
    assert await watchers(code) == 1
    return code, ana, watcher


async def check_gone(code: str, ana: Client, fake_clock) -> None:  # type: ignore[no-untyped-def]
    """Only Ana's row is left, and only her socket is confirmed by the process; after the
    expiry, the heartbeat's sweep finds no ghost."""
    await leaving.settled()
    assert await rows(code) == 1
    held = [s for s in heartbeat.sockets.values() if s.code == code]
    assert [s.player_id is not None for s in held] == [True]
    assert await database_sync_to_async(beat_and_sweep)(fake_clock) == []
    assert (await rows(code), await watchers(code)) == (1, 0)


@pytest.mark.parametrize("failure", [RuntimeError("cleaning-up failed"), asyncio.CancelledError()])
async def test_an_unsubscribe_that_fails_or_is_cancelled_leaves_no_presence(  # type: ignore[no-untyped-def]
    failure: BaseException, monkeypatch: pytest.MonkeyPatch, fake_clock
) -> None:
    """channels-redis's "Unexpected exception while cleaning-up channel": the unsubscribe
    raised, or was cancelled while it waited on a lock."""
    code, ana, watcher = await room_with_a_watcher()

    async def group_discard(group: str, channel: str) -> None:
        raise failure

    with monkeypatch.context() as patched:
        patched.setattr(consumers.get_channel_layer(), "group_discard", group_discard)
        with contextlib.suppress(RuntimeError):  # Out of the consumer, as from channels-redis.
            await watcher.close()
    future = watcher.communicator.future
    assert future.cancelled() or isinstance(future.exception(), RuntimeError)
    await told_nobody_watches(ana)

    await check_gone(code, ana, fake_clock)
    await ana.close()


async def test_a_consumer_killed_for_taking_too_long_to_stop_leaves_no_presence(  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch, fake_clock
) -> None:
    """The socket closes while its consumer is stuck in a handler; the server gives up on the
    consumer and cancels it (Daphne: "took too long to shut down and was killed"). The
    presence ends when the close is read, before the handler is done."""
    code, ana, watcher = await room_with_a_watcher()
    stuck = asyncio.Event()

    async def do_ping(self: consumers.GameConsumer, message: Any) -> None:
        stuck.set()
        await asyncio.Event().wait()  # Forever.

    monkeypatch.setitem(consumers.GameConsumer.commands, consumers.protocol.Ping, do_ping)
    await watcher.send(type="ping", id="stuck")
    await stuck.wait()

    await watcher.communicator.send_input({"type": "websocket.disconnect", "code": 1001})
    await told_nobody_watches(ana)  # While the consumer is still stuck.
    assert not watcher.communicator.future.done()
    await watcher.communicator.wait(timeout=0.1)  # Killed, as Daphne does.
    assert watcher.communicator.future.cancelled()

    await check_gone(code, ana, fake_clock)
    await ana.close()


async def test_a_consumer_stopped_while_its_row_is_written_leaves_no_presence(  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch, fake_clock
) -> None:
    """The consumer is cancelled while the database writes its row: the row is deleted
    once written, though nobody is left to receive its id."""
    code, ana, watcher = await room_with_a_watcher()
    await watcher.close()
    await told_nobody_watches(ana)
    writing, go_on, written = threading.Event(), threading.Event(), threading.Event()
    arrive = services.arrive_from

    def slow_arrive(*args: Any, **kwargs: Any) -> Any:
        writing.set()
        assert go_on.wait(30)
        try:
            return arrive(*args, **kwargs)
        finally:
            written.set()

    monkeypatch.setattr(services, "arrive_from", slow_arrive)
    late = Client(code)
    connected, _ = await late.communicator.connect(timeout=10)
    assert connected
    await asyncio.to_thread(writing.wait, 30)
    await late.communicator.wait(timeout=0.1)  # Stopped mid-arrival.
    assert late.communicator.future.cancelled()
    go_on.set()
    assert await asyncio.to_thread(written.wait, 30)

    async def one_row() -> bool:  # The late row written, then deleted.
        return await rows(code) == 1

    await until(one_row, "the late row stayed")
    await check_gone(code, ana, fake_clock)
    await ana.close()


async def test_a_release_left_on_an_earlier_event_loop_is_not_waited_for(  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch, fake_clock
) -> None:
    """A test's event loop closed while its release still ran (CI's run: each later socket's
    close raised "attached to a different loop" in ``settled``). It is not waited for; the
    release of this loop is started beside it, deletes the row and tells the room."""
    earlier = asyncio.new_event_loop()
    try:
        never_ends = earlier.create_future()  # Its loop is not running: it cannot end.
        monkeypatch.setattr(leaving, "_releasing", never_ends)
        await leaving.settled()  # A socket closed before its row was written waits for this.

        code, ana, watcher = await room_with_a_watcher()

        await watcher.close()
        await told_nobody_watches(ana)
        await check_gone(code, ana, fake_clock)
        assert leaving._releasing is not never_ends
        await ana.close()
    finally:
        earlier.close()


async def test_a_socket_s_row_goes_and_its_process_beats_while_the_rooms_thread_is_busy(  # type: ignore[no-untyped-def]
    fake_clock,
) -> None:
    """Presence is kept on a database thread of its own (:func:`outbox.on_presence_thread`).
    On the rooms' thread, a burst of arrivals could hold a process's beats back past the
    rows' expiry, and the other process would sweep its sockets' rows as a dead one's.
    Here the rooms' thread is held: the process still beats, and a closed socket's row
    still goes; its room is told once the rooms' thread is free."""
    code, ana, watcher = await room_with_a_watcher()
    await ana.drain()
    busy, free = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        assert free.wait(30)

    holding = asyncio.ensure_future(database_sync_to_async(hold)())
    assert await asyncio.to_thread(busy.wait, 30)

    held = list(heartbeat.sockets.values())
    assert len(held) == 2
    assert await outbox.on_presence_thread(heartbeat.beat)(held) == []  # Beaten, every row there.
    await watcher.communicator.send_input({"type": "websocket.disconnect", "code": 1001})

    async def watcher_gone() -> bool:  # Its row deleted, read on the presence thread too.
        return await outbox.on_presence_thread(count_rows)(code) == 1

    await until(watcher_gone, "the row waited for the rooms' thread")
    assert not holding.done()  # All of it while the rooms' thread was held.

    free.set()
    await holding
    await told_nobody_watches(ana)
    await check_gone(code, ana, fake_clock)
    await ana.close()


async def test_a_burst_of_arrivals_takes_turns_and_a_game_s_command_goes_between(  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch, fake_clock
) -> None:
    """A burst of sockets arrives :data:`outbox.ARRIVALS_AT_ONCE` at a time: the rest wait
    their turn on the event loop, not in the database thread's queue, so a command from a
    player of another room runs after the arrivals already on the thread, not after the
    whole burst."""
    monkeypatch.setattr(outbox, "ARRIVALS_AT_ONCE", 1)
    _, ana, _ = await room_with_a_watcher()
    await ana.drain()
    crowd = await new_game()
    ran: list[str] = []
    first_in, go_on = threading.Event(), threading.Event()
    arrive, snapshot = services.arrive_from, services.snapshot

    def arrive_in_order(room: str, session_key: str) -> Any:
        if not first_in.is_set():
            first_in.set()
            assert go_on.wait(30)  # The first of the burst holds the database thread.
        ran.append("arrival")
        return arrive(room, session_key)

    def snapshot_in_order(room: str, *args: Any) -> Any:
        ran.append("command")
        return snapshot(room, *args)

    # Ana's command is on the database thread's queue once its call has taken its first step.
    on_database_thread, queued = outbox.on_database_thread, asyncio.Event()

    def spied(function: Any, game: str | None = None) -> Any:
        call = on_database_thread(function, game)
        if function is not snapshot_in_order:
            return call

        async def queue(*args: Any) -> Any:
            running = asyncio.ensure_future(call(*args))
            await asyncio.sleep(0)  # Its first step, which hands it to the thread, runs first.
            queued.set()
            return await running

        return queue

    monkeypatch.setattr(services, "arrive_from", arrive_in_order)
    monkeypatch.setattr(services, "snapshot", snapshot_in_order)
    monkeypatch.setattr(outbox, "on_database_thread", spied)
    burst = [Client(crowd) for _ in range(5)]
    connecting = [asyncio.ensure_future(client.connect()) for client in burst]
    assert await asyncio.to_thread(first_in.wait, 30)
    turns = outbox.arrival_turns()

    async def the_rest_wait() -> bool:  # Every other socket of the burst waits for its turn.
        return turns.waiting == 4

    await until(the_rest_wait, "the burst did not wait for its turns")

    await ana.send(type="snapshot")
    await asyncio.wait_for(queued.wait(), 30)
    go_on.set()
    await ana.expect("snapshot")
    await asyncio.gather(*connecting)

    assert ran == ["arrival", "command", "arrival", "arrival", "arrival", "arrival"]
    for client in (ana, *burst):
        await client.close()
