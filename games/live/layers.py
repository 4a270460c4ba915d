"""The channel layers: in memory for one process, channels-redis's pub/sub for several.

**In memory** (no ``REDIS_URL``): Channels' own :class:`channels.layers.InMemoryChannelLayer`
with its cost per message taken out. The stock layer scans every channel and every
group's members for expired entries on each ``receive`` and each ``group_send`` (with
300 sockets, 600 entries looked at for every message a socket reads: 13 % of a loaded
server's CPU, issue 25), builds a new queue object for every message sent and read,
and starts a task and takes a deep copy of the message for each member of a group.
:class:`InMemoryChannelLayer` keeps the same rules (a message unread for ``expiry``
seconds is dropped and its channel leaves its groups; a membership lasts
``group_expiry`` seconds; a full channel drops the message) but looks for what expired
at most once every :data:`SWEEP_SECONDS`, and a group message is copied once for the
whole group and put on each member's queue at once. The consumers only read the
messages they are given, so the members share that copy.

**Redis, pub/sub**: channels-redis's layer, telling this process's sockets when Redis
comes back.

With Redis PUBLISH/SUBSCRIBE a message published while a subscriber is cut off
is gone: nothing keeps it. When Redis restarts, redis-py reconnects on the next
read and subscribes again to every channel and group, without a word to the
consumers, so a browser would sit on a room that moved on without it until the
next event showed it a gap (and at the end of a turn there may be none: the
player on turn was never told it is their turn).

This layer notices the outage in its reading task and, once a read succeeds
again, puts a :data:`RECONNECTED` message on every channel of this process: each
consumer sends its socket a fresh snapshot
(:meth:`games.live.consumers.GameConsumer.layer_reconnected`).
Everything committed meanwhile is in the database, so the snapshot has it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from copy import deepcopy
from typing import Any, Final

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

logger = logging.getLogger(__name__)

#: The message every channel of this process gets when the layer is back from an outage.
RECONNECTED: Final = "layer.reconnected"
#: Seconds between attempts to read again while Redis is away.
RETRY_SECONDS: Final = 0.5
#: The in-memory layer looks for expired messages and memberships at most this often.
SWEEP_SECONDS: Final = 1.0


class InMemoryChannelLayer(StockInMemoryChannelLayer):  # type: ignore[misc]
    """Channels' in-memory layer, with expiry swept once a second instead of on every message."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.swept_at = 0.0

    def _queue(self, channel: str) -> asyncio.Queue[tuple[float, Any]]:
        queue: asyncio.Queue[tuple[float, Any]] | None = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self.swept_at >= SWEEP_SECONDS:
            self.swept_at = now
            super()._clean_expired()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self._queue(channel)
        if queue.full():
            raise ChannelFull(channel)
        queue.put_nowait((time.time() + self.expiry, deepcopy(message)))

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        finally:
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
        result: dict[str, Any] = message
        return result

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        members = self.groups.get(group)
        if not members:
            return
        shared, expires = deepcopy(message), time.time() + self.expiry
        for channel in list(members):
            queue = self._queue(channel)
            if not queue.full():  # As Channels' layer: a full member misses it.
                queue.put_nowait((expires, shared))


class _ReconnectingShard(RedisSingleShardConnection):  # type: ignore[misc]
    """A shard connection whose reading task says when it is back from an outage."""

    async def _do_receiving(self) -> None:
        # channels-redis's own loop, with the outage noticed (its loop only logs it).
        cut_off = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if cut_off:  # Read again: redis-py has reconnected and resubscribed.
                        cut_off = False
                        logger.warning("Redis is back: telling every socket to catch up")
                        self._tell_every_channel()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as error:
                if not cut_off:
                    logger.warning("the channel layer lost Redis (%s); reading again", error)
                cut_off = True
                await asyncio.sleep(RETRY_SECONDS)

    def _tell_every_channel(self) -> None:
        text = self.channel_layer.channel_layer.serialize({"type": RECONNECTED})
        for queue in self.channel_layer.channels.values():
            queue.put_nowait(text)


class PubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels-redis's :class:`RedisPubSubChannelLayer`, with :data:`RECONNECTED` news."""

    def _get_layer(self) -> Any:
        layer = super()._get_layer()
        if not getattr(layer, "tells_reconnections", False):
            # Made just now, not yet connected: its shards can be replaced by ours.
            layer._shards = [_ReconnectingShard(shard.host, layer) for shard in layer._shards]
            layer.tells_reconnections = True
        return layer
