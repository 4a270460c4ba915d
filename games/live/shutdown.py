"""Stopping a server process cleanly on SIGTERM: sockets told to come back, out in 5 s.

A deployment stops a process with SIGTERM (a restart, a new release, a scale
down). Left to Daphne, its sockets would be cut without a word (the browsers see
an abnormal close and back off), and the process could hang on a thread still
waiting for work. Here SIGTERM:

1. stops taking sockets: a new one is closed at once with code 1012, "service
   restart", which the room's page answers by reconnecting at once (to another
   process, behind the proxy);
2. closes every open socket with 1012, and waits up to :data:`GRACE` seconds for
   their connections to go (each one's row is removed, so presence is right at
   once);
3. stops the reactor (Daphne cancels what is left), and if anything still holds
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

logger = logging.getLogger(__name__)

#: The websocket close code for "the server is restarting: come back".
SERVICE_RESTART: Final = 1012
#: How long the sockets have to close, in seconds.
GRACE: Final = 2.0
#: The process is gone this long after SIGTERM, whatever still runs, in seconds.
DEADLINE: Final = 4.5


#: This process's open sockets (their consumers), to close on SIGTERM.
sockets: weakref.WeakSet[Any] = weakref.WeakSet()
#: Set once SIGTERM came: no new socket is taken.
stopping = threading.Event()


async def stop_serving(reactor: Any) -> None:
    """Close every socket with 1012, give them :data:`GRACE` to go, then stop the reactor."""
    open_sockets = list(sockets)
    logger.info("SIGTERM: closing %d sockets with 1012, then stopping", len(open_sockets))
    closing = [socket.close(code=SERVICE_RESTART) for socket in open_sockets]
    await asyncio.gather(*closing, return_exceptions=True)
    started = time.monotonic()
    while len(sockets) and time.monotonic() - started < GRACE:
        await asyncio.sleep(0.05)
    reactor.stop()


def _leave_now() -> None:
    logger.warning("still running %.1f s after SIGTERM: leaving now", DEADLINE)
    logging.shutdown()
    os._exit(0)


def _let_daphne_send_service_restart() -> None:
    """Let Daphne close a socket with 1012.

    Daphne closes a socket with autobahn's ``sendClose``, which refuses every code but
    1000 and 3000-4999 (its reading of RFC 6455 from before IANA registered 1012,
    "Service Restart", in 2012) and so never sends the close. autobahn's own
    ``sendCloseFrame`` makes the same closing handshake for any code: Daphne's
    ``serverClose`` uses it for 1012.
    """
    from daphne.ws_protocol import WebSocketProtocol

    close = WebSocketProtocol.serverClose
    if getattr(close, "sends_service_restart", False):
        return

    def server_close(self: Any, code: int | None = None) -> None:
        if code == SERVICE_RESTART:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            close(self, code)

    server_close.sends_service_restart = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverClose = server_close


def install() -> None:
    """Handle SIGTERM as above in this Daphne process (call once its reactor runs)."""
    _let_daphne_send_service_restart()
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
