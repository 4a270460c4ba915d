"""How the server closes a socket: a close code, and a reason that says when to come back.

A close the client can read beats a dropped connection (code 1006, "abnormal"),
which says nothing: the room's page (``static/js/backoff.js``) backs off further
each time, where a 1012 or a 1013 with a reason says how long to wait. The reason
of a socket to call back ends in ``come back in A-B s``: the client waits a random
time between A and B seconds, so a crowd told at once does not come back at once.

Daphne would send none of this (4.2): it passes no reason on, sends a close code
only through autobahn's ``sendClose``, which refuses every code but 1000 and
3000-4999 (its reading of RFC 6455 from before IANA registered 1012 and 1013 in
2012), and autobahn drops the connection without a close frame when a message is
over Daphne's 1 MiB limit. :func:`let_daphne_say_why` mends the three, in Daphne's
own process (:func:`games.live.shutdown.install`).
"""

from __future__ import annotations

import math
from typing import Any, Final

#: "Message Too Big": a message over the server's limit (Daphne's, 1 MiB) is not read.
MESSAGE_TOO_BIG: Final = 1009
#: What a socket closed with 1009 is told.
TOO_BIG_REASON: Final = "message over 1 MiB: not read (a message is 16 KiB at most)"


def come_back(why: str, earliest: float, latest: float) -> str:
    """A close reason that says why, and when to call again: between ``earliest`` and
    ``latest`` seconds from now (whole seconds, rounded out; at most 123 bytes).

    >>> come_back("service restart", 0, 2.5)
    'service restart: come back in 0-3 s'
    """
    reason = f"{why}: come back in {math.floor(earliest)}-{math.ceil(latest)} s"
    assert len(reason.encode()) <= 123, reason  # A close frame's reason, by RFC 6455.
    return reason


def let_daphne_say_why() -> None:
    """Let Daphne close a socket with any code and the application's reason, and close one
    that sent a message over its limit with 1009 (instead of dropping it: the client
    sees 1006). Once per process; the patches are Daphne's protocol class's."""
    from autobahn.util import encode_truncate
    from daphne.ws_protocol import WebSocketProtocol

    if getattr(WebSocketProtocol, "says_why", False):
        return
    handle_reply = WebSocketProtocol.handle_reply

    def close_saying_why(self: Any, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.close" and self.state != self.STATE_CONNECTING:
            reason = message.get("reason") or None
            self.sendCloseFrame(
                code=message.get("code") or 1000,
                reasonUtf8=encode_truncate(reason, 123) if reason else None,
                isReply=False,
            )
        else:
            handle_reply(self, message)

    def too_big(self: Any, size: int, limit: int, reason: str) -> None:
        self.failByDrop = False  # A close frame with a reason, not a dropped connection.
        self._fail_connection(MESSAGE_TOO_BIG, TOO_BIG_REASON)

    WebSocketProtocol.handle_reply = close_saying_why
    WebSocketProtocol._max_message_size_exceeded = too_big
    WebSocketProtocol.says_why = True
