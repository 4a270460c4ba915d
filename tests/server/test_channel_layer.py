"""The channel layer the settings configure holds up when a process is busy (issue 15).

A ``group_send`` that finds a channel full drops the message and raises nothing,
and channels-redis bounds one sorted set per *process* (every consumer of the
process shares it), so with its default capacity of 100, a hundred messages
unread anywhere in a process were enough to lose the next event of a room.
And redis-py 8's connection pools open 100 connections at most and then raise,
so a few hundred rooms sending at once crashed consumers.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from redis.asyncio import Redis

from games.live import layers
from games.live.layers import PubSubChannelLayer

pytestmark = pytest.mark.asyncio

#: Rooms of one process with an event each that no consumer has read yet: a few
#: hundred games starting at once on a busy event loop.
ROOMS_BEHIND = 300


async def test_a_room_gets_its_event_while_hundreds_of_other_rooms_are_unread() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channels = [await layer.new_channel() for _ in range(3 * ROOMS_BEHIND)]
    for i, channel in enumerate(channels):
        await layer.group_add(f"test-behind-{i // 3}", channel)
    try:
        for room in range(ROOMS_BEHIND):
            await layer.group_send(f"test-behind-{room}", {"type": "game.event", "version": 1})
        await layer.group_send("test-behind-0", {"type": "game.event", "version": 2})

        for channel in channels[:3]:  # The first room's three sockets.
            first = await asyncio.wait_for(layer.receive(channel), 5)
            second = await asyncio.wait_for(layer.receive(channel), 5)
            assert [first["version"], second["version"]] == [1, 2]
    finally:
        if hasattr(layer, "flush"):
            await layer.flush()


async def test_hundreds_of_rooms_sending_at_once_all_get_their_event() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channels = [await layer.new_channel() for _ in range(ROOMS_BEHIND)]
    for room, channel in enumerate(channels):
        await layer.group_add(f"test-at-once-{room}", channel)
    try:
        await asyncio.gather(
            *(
                layer.group_send(f"test-at-once-{room}", {"type": "game.event", "version": 1})
                for room in range(ROOMS_BEHIND)
            )
        )
        for channel in channels:
            assert (await asyncio.wait_for(layer.receive(channel), 5))["version"] == 1
    finally:
        if hasattr(layer, "flush"):
            await layer.flush()


@pytest.mark.skipif(
    "PubSubChannelLayer" not in settings.CHANNEL_LAYERS["default"]["BACKEND"],
    reason="the pub/sub layer over Redis",
)
async def test_the_pub_sub_layer_tells_every_channel_when_its_redis_connection_comes_back() -> None:
    """Redis drops the layer's subscriber connection (as a restart does): once it reads
    again, every channel of the process gets ``layer.reconnected``, and the groups work."""
    layer = PubSubChannelLayer(hosts=[settings.REDIS_URL])
    channels = [await layer.new_channel() for _ in range(2)]
    for channel in channels:
        await layer.group_add("test-reconnected", channel)
    redis = Redis.from_url(settings.REDIS_URL)
    try:
        await layer.group_send("test-reconnected", {"type": "game.event", "version": 1})
        for channel in channels:
            assert (await asyncio.wait_for(layer.receive(channel), 5))["version"] == 1
        shard = layer._get_layer()._shards[0]
        host, port = shard._pubsub.connection._writer.get_extra_info("sockname")[:2]

        assert await redis.client_kill_filter(_id=None, addr=f"{host}:{port}") == 1

        for channel in channels:
            news = await asyncio.wait_for(layer.receive(channel), 10)
            assert news == {"type": layers.RECONNECTED}
        await layer.group_send("test-reconnected", {"type": "game.event", "version": 2})
        for channel in channels:  # Subscribed again: the room's events come as before.
            assert (await asyncio.wait_for(layer.receive(channel), 5))["version"] == 2
    finally:
        await redis.aclose()
        await layer.flush()


# -- the in-memory layer (games/live/layers.py) -----------------------------------------


async def test_the_in_memory_layer_drops_what_expired_and_its_channel_leaves_the_group() -> None:
    """Channels' rules, swept at most once a second: a message unread past ``expiry`` is
    dropped and its channel leaves its groups; the others go on getting the group's news."""
    layer = layers.InMemoryChannelLayer(expiry=-1)  # Every message has expired when sent.
    gone, here = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("test-expiry", gone)
    await layer.send(gone, {"type": "game.event", "version": 1})
    layer.swept_at = -layers.SWEEP_SECONDS  # A sweep is due.
    layer.expiry = 60
    await layer.group_add("test-expiry", here)

    await layer.group_send("test-expiry", {"type": "game.event", "version": 2})

    assert list(layer.groups["test-expiry"]) == [here]
    assert gone not in layer.channels
    assert (await asyncio.wait_for(layer.receive(here), 5))["version"] == 2


async def test_the_in_memory_layer_sweeps_at_most_once_a_second(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    layer = layers.InMemoryChannelLayer()
    sweeps: list[float] = []
    monkeypatch.setattr(
        layers.StockInMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append(1)
    )
    now = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: now[0])
    channel = await layer.new_channel()
    await layer.group_add("test-sweeps", channel)
    for _ in range(5):
        await layer.group_send("test-sweeps", {"type": "game.event"})
        await layer.receive(channel)
    assert len(sweeps) == 1
    now[0] += layers.SWEEP_SECONDS
    await layer.group_send("test-sweeps", {"type": "game.event"})
    assert len(sweeps) == 2


async def test_the_in_memory_layer_copies_a_group_message_once_and_keeps_capacity() -> None:
    """Every member gets the message as it was sent (the sender's dict changed afterwards
    changes nothing), and a member whose queue is full misses it, as in Channels' layer."""
    layer = layers.InMemoryChannelLayer(capacity=1)
    full, other = await layer.new_channel(), await layer.new_channel()
    for channel in (full, other):
        await layer.group_add("test-copy", channel)
    await layer.send(full, {"type": "game.event", "texts": ["first"]})
    message = {"type": "game.event", "texts": ["second"]}

    await layer.group_send("test-copy", message)
    message["texts"].append("changed")

    assert (await layer.receive(full))["texts"] == ["first"]
    assert (await layer.receive(other))["texts"] == ["second"]
    assert full not in layer.channels  # Read empty, its queue is gone, as in Channels' layer.
