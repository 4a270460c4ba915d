"""The channel layer's ``capacity`` and ``group_send``: when is an event dropped?

A minimal reproduction for the stalls of issue 15, with no Django and no
websockets: one process's worth of sockets (3 per room) on one channel layer,
an event for each of ``--rooms`` rooms sent while none of them has been read
yet (a busy event loop), then one more event to the first room. Run::

    .venv/bin/python benchmarks/layer_capacity.py --redis-url redis://127.0.0.1:6379/5

(the Redis database given is flushed: give it one of its own). For each layer
it prints how many of the first room's sockets got the last event. channels-redis
keeps every message for the consumers of one process in one sorted set, and its
``capacity`` (100 by default) bounds that set: with 100 events pending in the
whole process, the next ``group_send`` drops its message for every socket of
the process in that room, raising nothing (an INFO log line, "channels over
capacity"). The in-memory layer bounds each consumer's own queue, so it drops
only when one consumer has 100 messages unread.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import quick


class DropCounter(logging.Handler):
    """Counts channels-redis's INFO lines for a group send that found a channel full."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += "over capacity" in record.getMessage()

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


async def last_event_reaches(layer, rooms: int) -> int:
    """How many of room 0's three sockets get its second event."""
    channels = [await layer.new_channel() for _ in range(3 * rooms)]
    for i, channel in enumerate(channels):
        await layer.group_add(f"room{i // 3}", channel)
    for room in range(rooms):  # One event to every room; nobody has read yet.
        await layer.group_send(f"room{room}", {"type": "game.event", "version": 1})
    await layer.group_send("room0", {"type": "game.event", "version": 2})
    reached = 0
    for channel in channels[:3]:
        while True:  # Its messages in order, up to the second event or half a second of none.
            try:
                message = await asyncio.wait_for(layer.receive(channel), 0.5)
            except TimeoutError:
                break
            if message["version"] == 2:
                reached += 1
                break
    return reached


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", help="a Redis database of its own (it is flushed)")
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 99, 100, 300])
    parser.add_argument("--capacity", type=int, default=100)
    args = quick.parse_args(parser, {"rooms": [5]})
    drops = DropCounter()
    logging.getLogger("channels_redis").addHandler(drops)
    logging.getLogger("channels_redis").setLevel(logging.INFO)
    for rooms in args.rooms:
        layer = InMemoryChannelLayer(capacity=args.capacity)
        got = await last_event_reaches(layer, rooms)
        print(f"in-memory, capacity {args.capacity}, {rooms} rooms pending: {got} of 3 got it")
        if args.redis_url:
            layer = RedisChannelLayer(hosts=[args.redis_url], capacity=args.capacity)
            await layer.flush()
            got = await last_event_reaches(layer, rooms)
            await layer.flush()
            await layer.close_pools()
            print(
                f"redis,     capacity {args.capacity}, {rooms} rooms pending: {got} of 3 got it"
                f" ({drops.take()} group sends logged 'over capacity', none raised)"
            )


if __name__ == "__main__":
    asyncio.run(main())
