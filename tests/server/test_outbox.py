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


def test_the_app_hands_the_bots_driver_to_the_outbox_at_start_up() -> None:
    # The outbox cannot import the bots (they post to it through the services).
    assert outbox._start_bot is bots.kick
