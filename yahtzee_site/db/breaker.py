"""A circuit breaker: once the database is found away, stop waiting for it.

Without it, every command during a PostgreSQL outage waited for the connection
pool's 3 s timeout before it was answered ``unavailable``, and with one database
thread the commands queued behind each other's 3 s. The breaker remembers that an
attempt failed and refuses the attempts that follow at once, for a short window that
grows while the database stays away. When the window has passed, one caller (and only
one: the others are still refused) is let through as a *probe*; if it connects, the
breaker closes and everyone goes through again; if not, the window grows.

    closed ──a connection fails──▶ open ──the window passes──▶ half-open
      ▲                              ▲                            │
      └──────── the probe connects ──┼──── the probe fails ───────┘

Pure Python and thread-safe (the database threads, the HTTP requests' threads and the
clock's watch share one breaker per process); the clock is injected so the tests can
walk it through its states without sleeping (``tests/test_breaker.py``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

logger = logging.getLogger(__name__)

#: The first window after a failure, in seconds: short, so a blip costs almost nothing.
FIRST_WINDOW: Final = 0.1
#: Each failed probe doubles the window, up to this: a probe a second costs the database
#: nothing, and play resumes within about a second of its return.
LONGEST_WINDOW: Final = 1.0
#: A probe that has not reported back after this long is taken for lost (its thread
#: stuck), and another may go: the breaker never stays half-open for good.
PROBE_PATIENCE: Final = 5.0


class State(Enum):
    CLOSED = "closed"  # Every attempt goes through.
    OPEN = "open"  # Attempts are refused at once until the window has passed.
    HALF_OPEN = "half-open"  # One probe is on its way; the others are refused.


class Refused(Exception):
    """The breaker refused an attempt: the database was found away, and is not tried again
    for ``retry_in`` seconds."""

    def __init__(self, retry_in: float) -> None:
        super().__init__(f"the database is away: not trying again for {retry_in:.2f} s")
        #: Seconds until the next probe may go (0 while a probe is on its way).
        self.retry_in = retry_in


@dataclass
class Breaker:
    """Whether to try the database now. Call :meth:`admit` before an attempt; it raises
    :class:`Refused` or returns whether this attempt is the probe; then report the
    outcome with :meth:`succeeded` or :meth:`failed`."""

    clock: Callable[[], float] = time.monotonic
    first_window: float = FIRST_WINDOW
    longest_window: float = LONGEST_WINDOW
    probe_patience: float = PROBE_PATIENCE
    state: State = State.CLOSED
    #: The current window's length, and when it ends (``clock()``'s time); half-open,
    #: when the probe is taken for lost.
    window: float = 0.0
    reopens_at: float = 0.0
    #: How many times it opened since it was last closed (the outage's failed probes + 1).
    failures: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def admit(self) -> bool:
        """Let an attempt go, or raise :class:`Refused`. ``True``: this attempt is the
        probe, and must report back (whatever happens, even an unexpected error)."""
        with self._lock:
            if self.state is State.CLOSED:
                return False
            now = self.clock()
            if now < self.reopens_at:
                raise Refused(self.reopens_at - now if self.state is State.OPEN else 0.0)
            self.state = State.HALF_OPEN
            self.reopens_at = now + self.probe_patience
            return True

    def succeeded(self) -> None:
        """An attempt connected: the database is back."""
        with self._lock:
            if self.state is not State.CLOSED:
                logger.warning("the database is back (%d failed attempts)", self.failures)
            self.state = State.CLOSED
            self.failures = 0
            self.window = 0.0

    def failed(self, probe: bool) -> None:
        """An attempt failed for the database being away: open for :attr:`first_window`,
        and for twice as long each time the probe finds it still away. An attempt let
        through before the breaker opened (``probe`` false) that fails after it did
        changes nothing: that failure was counted already."""
        with self._lock:
            if self.state is State.CLOSED:
                logger.warning("the database is away: attempts are refused until it is back")
                self.window = self.first_window
            elif probe:
                self.window = min(self.longest_window, self.window * 2)
            else:
                return
            self.failures += 1
            self.state = State.OPEN
            self.reopens_at = self.clock() + self.window

    def retry_in(self) -> float:
        """Seconds until an attempt may go again (0 when closed or probing)."""
        with self._lock:
            if self.state is not State.OPEN:
                return 0.0
            return max(0.0, self.reopens_at - self.clock())
