"""Stopping a server process cleanly on SIGTERM: sockets told to come back, out in 5 s.

A deployment stops a process with SIGTERM (a restart, a new release, a scale
down). Left to Daphne, its sockets would be cut without a word (the browsers see
an abnormal close and back off), and the process could hang on a thread still
waiting for work. Here SIGTERM:

1. stops taking sockets: a new one is closed at once with code 1012, "service
   restart", which the room's page answers by reconnecting (to another process,
   behind the proxy) within the seconds the close's reason says (:mod:`games.live.closing`);
2. closes every open socket with 1012, spread over a second per
   :data:`SPREAD_PER_SECOND` sockets, and waits up to :data:`GRACE` seconds for
   their connections to go (each one's row is removed, so presence is right at
   once);
3. releases the sockets still held (their browsers are on their way elsewhere): their
   rows are deleted in one statement and their rooms told (:mod:`games.live.leaving`),
   so no room shows a ghost of this process;
4. stops the reactor (Daphne cancels what is left), and if anything still holds
   the process :data:`DEADLINE` seconds after the signal, leaves at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
import time
import weakref
from typing import Any, Final

from games.live import closing, leaving

logger = logging.getLogger(__name__)

#: The websocket close code for "the server is restarting: come back".
SERVICE_RESTART: Final = 1012
#: How long the sockets have to close, in seconds.
GRACE: Final = 2.0
#: The process is gone this long after SIGTERM, whatever still runs, in seconds.
DEADLINE: Final = 4.5


#: Sockets told to come back (1012) are spread over a second for each this many of them:
#: about what a process takes in a second at a load of 8 (issue 28: 500 sockets back on the
#: other process after a kill took 60 s, each trying 3 to 6 times).
SPREAD_PER_SECOND: Final = 200
#: The longest spread, in seconds.
SPREAD_MOST: Final = 10.0

#: This process's open sockets (their consumers), to close on SIGTERM.
sockets: weakref.WeakSet[Any] = weakref.WeakSet()
#: Set once SIGTERM came: no new socket is taken.
stopping = threading.Event()


def come_back_reason(count: int) -> str:
    """The reason a socket is closed with 1012, when this process holds ``count`` sockets:
    come back within a second for each :data:`SPREAD_PER_SECOND` of them (at least one,
    at most :data:`SPREAD_MOST`), so the other processes take them in a stream, not at
    once."""
    spread = min(SPREAD_MOST, max(1.0, count / SPREAD_PER_SECOND))
    return closing.come_back("service restart", 0, spread)


async def stop_serving(reactor: Any) -> None:
    """Close every socket with 1012, give them :data:`GRACE` to go, then stop the reactor."""
    open_sockets = list(sockets)
    logger.info("SIGTERM: closing %d sockets with 1012, then stopping", len(open_sockets))
    reason = come_back_reason(len(open_sockets))
    closes = [socket.close(code=SERVICE_RESTART, reason=reason) for socket in open_sockets]
    await asyncio.gather(*closes, return_exceptions=True)
    started = time.monotonic()
    while len(sockets) and time.monotonic() - started < GRACE:
        await asyncio.sleep(0.05)
    for socket in list(sockets):
        socket.ended()
    try:  # Rows and rooms, before the process goes (it leaves at DEADLINE whatever happens).
        await asyncio.wait_for(leaving.settled(), DEADLINE - GRACE - 0.5)
    except TimeoutError:
        logger.warning("SIGTERM: the closed sockets' rows were not all deleted; they expire")
    reactor.stop()


def _leave_now() -> None:
    logger.warning("still running %.1f s after SIGTERM: leaving now", DEADLINE)
    logging.shutdown()
    os._exit(0)


def install() -> None:
    """Handle SIGTERM as above in this Daphne process (call once its reactor runs)."""
    closing.let_daphne_say_why()
    reactor: Any = sys.modules["twisted.internet.reactor"]
    loop = asyncio.get_running_loop()

    def on_sigterm(signum: int, frame: object) -> None:
        if stopping.is_set():
            return
        stopping.set()
        timer = threading.Timer(DEADLINE, _leave_now)
        timer.daemon = True
        timer.start()
        loop.call_soon_threadsafe(lambda: loop.create_task(stop_serving(reactor)))

    signal.signal(signal.SIGTERM, on_sigterm)
