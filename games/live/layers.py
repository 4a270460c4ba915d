"""channels-redis's pub/sub layer, telling this process's sockets when Redis comes back.

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
from typing import Any, Final

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

logger = logging.getLogger(__name__)

#: The message every channel of this process gets when the layer is back from an outage.
RECONNECTED: Final = "layer.reconnected"
#: Seconds between attempts to read again while Redis is away.
RETRY_SECONDS: Final = 0.5


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
