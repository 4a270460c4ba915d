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


async def test_the_in_memory_layer_looks_for_expired_messages_once_a_second(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: Channels' own looked over every channel on every receive, a million steps
    for one message to a room of 1,000 sockets."""
    from games.live import inmemory

    moment = [1000.0]
    monkeypatch.setattr(inmemory.time, "monotonic", lambda: moment[0])
    layer = inmemory.InMemoryChannelLayer(expiry=60)
    looked: list[float] = []
    clean = inmemory.ChannelsInMemoryChannelLayer._clean_expired
    monkeypatch.setattr(
        inmemory.ChannelsInMemoryChannelLayer,
        "_clean_expired",
        lambda self: (looked.append(moment[0]), clean(self))[1],
    )
    channels = [await layer.new_channel() for _ in range(50)]
    for channel in channels:
        await layer.group_add("room", channel)

    await layer.group_send("room", {"type": "game.event", "texts": ["roll"]})
    received = [await layer.receive(channel) for channel in channels]

    assert [message["texts"] for message in received] == [["roll"]] * 50
    assert looked == [1000.0]  # Once for the send and the fifty receives.
    moment[0] += inmemory.CLEAN_EVERY
    await layer.group_send("room", {"type": "game.event", "texts": ["score"]})
    assert looked == [1000.0, 1001.0]  # A second later: again.
