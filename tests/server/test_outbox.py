"""Where a command's database work runs, and how its news leaves."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from games.live import bots, outbox
from games.models import room_group


@pytest.fixture
def three_threads(settings):  # type: ignore[no-untyped-def]
    settings.DATABASE_THREADS = 3
    yield
    outbox._threads.clear()


def test_a_game_always_goes_to_the_same_database_thread(three_threads: None) -> None:
    codes = [f"game-{n}" for n in range(60)]
    first = [outbox._thread_of(code) for code in codes]
    assert [outbox._thread_of(code) for code in codes] == first
    assert len(set(map(id, first))) == 3  # Sixty games spread over the three threads.


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)  # Channels closes old connections around the call.
async def test_a_command_runs_on_its_game_s_thread_and_one_at_a_time(three_threads: None) -> None:
    def where(code: str) -> str:
        return threading.current_thread().name

    names = {await outbox.run(where, "game-7") for _ in range(5)}
    assert len(names) == 1
    (name,) = names
    assert name.startswith("database-")
    assert outbox._thread_of("game-7")._thread_name_prefix in name  # type: ignore[attr-defined]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_with_one_database_thread_commands_go_to_channels_own(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DATABASE_THREADS = 1

    def where(code: str) -> str:
        return threading.current_thread().name

    assert not (await outbox.run(where, "game-7")).startswith("database-")


class FlakyLayer:
    """A channel layer whose Redis is away for the first ``failures`` sends."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent: list[tuple[str, dict[str, object]]] = []

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        if self.failures:
            self.failures -= 1
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")
        self.sent.append((group, message))


@pytest.mark.asyncio
async def test_news_of_a_committed_change_waits_for_redis_to_come_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    layer = FlakyLayer(failures=3)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(outbox, "SEND_RETRY", 0.01)

    await outbox.send("abc", "game.event", [{"version": 7}])

    assert layer.sent == [
        (room_group("abc"), {"type": "game.event", "versions": [7], "texts": ['{"version":7}']})
    ]


@pytest.mark.asyncio
async def test_past_its_patience_the_sender_hears_of_the_outage(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    layer = FlakyLayer(failures=1000)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(outbox, "SEND_RETRY", 0.01)
    monkeypatch.setattr(outbox, "SEND_PATIENCE", 0.05)

    with pytest.raises(RedisConnectionError):
        await outbox.send("abc", "game.event", [{"version": 7}])
    assert layer.sent == []


@pytest.mark.asyncio
async def test_a_command_whose_news_cannot_go_out_still_succeeds_and_its_bot_starts(  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    layer = FlakyLayer(failures=1000)
    kicked: list[str] = []
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(outbox, "SEND_RETRY", 0.01)
    monkeypatch.setattr(outbox, "SEND_PATIENCE", 0.05)
    # The driver apps.ready() registered (bots.kick), as the outbox holds it.
    monkeypatch.setattr(outbox, "_start_bot", kicked.append)
    box = outbox.Outbox(sends=[("abc", "game.event", [{"version": 7}])], bots=["abc"])

    await box.deliver()  # Raises nothing: the change was committed.

    assert (layer.sent, kicked) == ([], ["abc"])


@pytest.mark.asyncio
@pytest.mark.parametrize(("watchers", "every"), [(3, 0.2), (49, 0.2), (50, 1.0), (1000, 1.0)])
async def test_presence_is_coalesced_and_a_crowd_s_at_most_once_a_second(  # type: ignore[no-untyped-def]
    monkeypatch, watchers: int, every: float
) -> None:
    """Issue 28: each presence message goes to every socket of the room; a crowd joining
    is told its count once a second, the last one."""
    layer = FlakyLayer(failures=0)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    loop = asyncio.get_running_loop()
    timers: list[tuple[float, Callable[[], object]]] = []
    monkeypatch.setattr(loop, "call_later", lambda delay, call: timers.append((delay, call)))

    for count in range(watchers, watchers + 5):  # Five joins in a row.
        outbox.tell_presence_soon("abc", {"type": "presence", "players": [], "watchers": count})
    assert [delay for delay, _ in timers] == [every]  # One timer for the five.
    timers[0][1]()
    # This loop's sends: a task of an earlier test's loop, closed before its done-callback
    # ran, may still be in the set.
    await asyncio.gather(*(task for task in outbox._sending if task.get_loop() is loop))

    last = {"type": "presence", "players": [], "watchers": watchers + 4}
    assert layer.sent == [
        (
            room_group("abc"),
            {
                "type": "game.presence",
                "versions": [None],
                "texts": [json.dumps(last, separators=(",", ":"))],
            },
        )
    ]


@pytest.mark.asyncio
async def test_while_arrivals_wait_for_their_turn_every_room_s_presence_waits_a_second(  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    """Issue 28: in a burst, a small room's presence goes out at a crowd's pace (the longer
    the burst, the more 0.2 s windows it would have gone out in); once nobody waits, at
    the usual pace again."""
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: FlakyLayer(failures=0))
    loop = asyncio.get_running_loop()
    timers: list[float] = []
    monkeypatch.setattr(loop, "call_later", lambda delay, call: timers.append(delay))
    turns = outbox.arrival_turns()
    monkeypatch.setattr(turns, "slots", asyncio.Semaphore(1))

    async def arrive() -> None:
        async with turns.turn():
            pass

    async with turns.turn():  # One arrival on the database thread,
        waiting = asyncio.ensure_future(arrive())  # and one that waits for its turn
        await asyncio.sleep(0)  # (its first step takes it to the semaphore).
        assert turns.waiting == 1
        outbox.tell_presence_soon("burst", {"type": "presence", "players": [], "watchers": 3})
    await waiting
    assert turns.waiting == 0
    outbox.tell_presence_soon("after", {"type": "presence", "players": [], "watchers": 3})

    assert timers == [outbox.PRESENCE_EVERY_CROWD, outbox.PRESENCE_EVERY]
    outbox._presence_due.clear()  # Their timers were never set.


def test_the_app_hands_the_bots_driver_to_the_outbox_at_start_up() -> None:
    # The outbox cannot import the bots (they post to it through the services).
    assert outbox._start_bot is bots.kick


class SilentLayer(FlakyLayer):
    """A channel layer whose Redis never answers the first ``silent`` sends (they wait
    forever), and that says when a send went out."""

    def __init__(self, silent: int) -> None:
        super().__init__(failures=0)
        self.silent = silent
        self.went_out: asyncio.Event | None = None

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        if self.silent:
            self.silent -= 1
            await asyncio.get_running_loop().create_future()  # Never answered.
        await super().group_send(group, message)
        if self.went_out is not None:
            self.went_out.set()


def test_a_send_left_holding_a_room_s_lock_on_a_closed_event_loop_holds_up_no_later_one(  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    """A test's event loop closed while one send to a room held the room's lock and a
    second waited for it (tasks left pending, never to end: as leaving's release was in
    CI's run). A later loop's send to that room waited for the lock forever, or raised
    that it is bound to a different event loop; it goes out."""
    layer = SilentLayer(silent=1)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    earlier, later = asyncio.new_event_loop(), asyncio.new_event_loop()
    left: list[asyncio.Task[None]] = []
    try:

        async def two_sends() -> None:
            left.append(asyncio.ensure_future(outbox.send("left", "game.event", [{"version": 6}])))
            left.append(asyncio.ensure_future(outbox.send("left", "game.event", [{"version": 7}])))
            while layer.silent:  # Until the first holds the lock, sending.
                await asyncio.sleep(0)
            await asyncio.sleep(0)  # And the second has run up to the lock.

        earlier.run_until_complete(two_sends())
        assert not any(task.done() for task in left)

        async def a_later_send() -> None:
            layer.went_out = asyncio.Event()
            await asyncio.wait_for(outbox.send("left", "game.event", [{"version": 8}]), 10)

        later.run_until_complete(a_later_send())
        assert [message["versions"] for _, message in layer.sent] == [[8]]
    finally:
        for task in left:
            task.cancel()
        earlier.run_until_complete(asyncio.gather(*left, return_exceptions=True))
        earlier.close()
        later.close()


def test_a_presence_message_left_waiting_on_a_closed_event_loop_holds_up_no_later_one(  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    """A test's event loop closed before its timer sent a room's presence: the message
    waited for it forever, and a later loop's presence messages for that room, taken for
    coalesced into it, were never sent. The later one goes out."""
    layer = SilentLayer(silent=0)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    earlier, later = asyncio.new_event_loop(), asyncio.new_event_loop()
    try:

        async def told(watchers: int) -> None:
            outbox.tell_presence_soon(
                "left", {"type": "presence", "players": [], "watchers": watchers}
            )

        earlier.run_until_complete(told(1))  # Its timer is due in PRESENCE_EVERY seconds.
        earlier.close()  # And never fires.

        async def told_later() -> None:
            layer.went_out = asyncio.Event()
            await told(2)
            await asyncio.wait_for(layer.went_out.wait(), 10)

        later.run_until_complete(told_later())
        last = {"type": "presence", "players": [], "watchers": 2}
        assert layer.sent == [
            (
                room_group("left"),
                {
                    "type": "game.presence",
                    "versions": [None],
                    "texts": [json.dumps(last, separators=(",", ":"))],
                },
            )
        ]
    finally:
        earlier.close()
        later.close()
