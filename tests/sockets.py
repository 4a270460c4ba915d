"""Every websocket a test opens is closed when it ends, before its database is flushed.

A test may end with sockets open (a room's players need not leave). Its event loop then
closes and cancels their consumers, whose ends release their rows (:mod:`games.live.leaving`)
on the database thread, which a closing loop does not wait for. On PostgreSQL that work once
met pytest-django's flush of the tables, and the two deadlocked. So the suite keeps every
``WebsocketCommunicator`` made in its process (:data:`opened`), and each async test ends with
:func:`close_all` (the fixture ``sockets_closed``, tests/conftest.py).
"""

from __future__ import annotations

import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

#: The websockets opened since the running test began.
opened: list[WebsocketCommunicator] = []
_make = WebsocketCommunicator.__init__


def _kept(self: WebsocketCommunicator, *args: Any, **kwargs: Any) -> None:
    _make(self, *args, **kwargs)
    opened.append(self)


WebsocketCommunicator.__init__ = _kept


async def close_all() -> None:
    """Close each socket still open as a browser would, wait until every socket's presence
    is released and its room told, then for the database threads to finish what they were given."""
    from games.live import leaving, outbox

    sockets = list(opened)
    opened.clear()
    for socket in sockets:
        if socket._future is not None and not socket.future.done():
            # A consumer that failed is the test's to report, not its clean-up's.
            with contextlib.suppress(Exception):
                await socket.disconnect(timeout=10)
    if sockets:
        await leaving.settled()
        # Behind whatever is queued on the database threads.
        await database_sync_to_async(lambda: None)()
        await outbox.on_presence_thread(lambda: None)()
