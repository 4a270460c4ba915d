"""The in-memory channel layer (one process, no Redis), made fit for a crowd in one room.

Channels' :class:`~channels.layers.InMemoryChannelLayer` looks for expired messages
over every channel of the process on every ``receive``: when a room of 1,000 sockets
is sent one message, each of the 1,000 consumers then reads its copy and goes through
all 1,000 channels first, a million steps for one roll (measured: a roll reached 500
watchers in 0.2 s and 1,000 in 2.4 s, ``benchmarks/crowd.py``). Here that clean-up runs
at most once in :data:`CLEAN_EVERY` seconds: a message expires after a minute unread
(Channels' ``expiry``), so a second more or less changes nothing.
"""

from __future__ import annotations

import time
from typing import Final

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

#: The least time between two clean-ups of expired messages, in seconds.
CLEAN_EVERY: Final = 1.0


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):  # type: ignore[misc]
    """Channels' in-memory layer, with its clean-up of expired messages done once a second."""

    _cleaned_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < CLEAN_EVERY:
            return
        self._cleaned_at = now
        super()._clean_expired()
