"""Who is here: each open websocket is a row that lives only as long as its process beats.

A room's presence (which seats have a browser open, how many watch) used to be
counters on the rows, raised on connect and lowered on disconnect. A killed
process never lowered them, nor did a close lost in an outage, and nothing
repaired them: players waited for people who were gone.

Now every open socket is a :class:`~games.models.Connection` row, and presence is
*derived*: the rows seen within :data:`EXPIRY`. Each server process refreshes
the rows of its own sockets every :data:`HEARTBEAT` in one statement
(:func:`beat`, on a database thread of its own, :func:`games.live.outbox.on_presence_thread`,
so that no queue of the rooms' work holds it back), so the rows of a killed process stop
being refreshed, stop counting :data:`EXPIRY` later, and are swept away by any process
(:func:`sweep`), which tells their rooms. A process whose rows were swept while it was cut off
from the database (an outage longer than :data:`EXPIRY`) writes them back on its
next beat and tells the rooms too. So no close, crash or outage leaves presence
wrong for longer than :data:`EXPIRY` and a beat. A socket that closes has its row deleted
at once, whatever becomes of its consumer (:mod:`games.live.leaving`).

The rows are written by :mod:`games.live.arrivals` and :mod:`games.live.presence` (``arrive``,
``move_connection``, ``release``, ``presence``); this module keeps the process's own list of
its sockets and its heartbeat's steps; the loop that runs them and tells the rooms (it calls
the services, which read :func:`fresh_since` here) is :func:`games.live.watch.keep_alive`,
beside the clock's watch.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from games.engine import names
from games.live import clock

#: How often a process refreshes its sockets' rows (one statement for all of them).
HEARTBEAT: Final = timedelta(seconds=2)
#: A row not refreshed for this long is a socket whose process is gone: three beats, so a
#: beat or two late (a busy process) is not taken for a death. The sockets of a process
#: killed with SIGKILL stop counting within this and a beat (another process's sweep).
EXPIRY: Final = timedelta(seconds=6)


@dataclass(frozen=True)
class Socket:
    """One of this process's open sockets: its row's id, its room, the seat it acts for, and
    the name it goes by in the watchers' chat (empty: none yet)."""

    id: int
    code: str
    player_id: int | None
    name: str = ""


#: This process's open sockets, by row id (kept on the event loop's thread only): the
#: rows its heartbeat confirms. A socket is in it only while its connection is open
#: (:mod:`games.live.leaving` says how that is guaranteed).
sockets: dict[int, Socket] = {}
#: Rooms whose presence changed and that could not be told yet (the database away): the
#: heartbeat tells them on a later beat (:func:`games.live.watch.keep_alive`).
untold: set[str] = set()


def fresh_since(at: datetime | None = None) -> datetime:
    """Rows seen since this moment count as connected."""
    return (at or clock.now()) - EXPIRY


def beat(alive: list[Socket]) -> list[str]:
    """Refresh the rows of this process's sockets ``alive``; write back any that were swept
    (the process was cut off for a while). Returns the rooms whose presence that changed."""
    from games.models import Connection, Game, Player

    now = clock.now()
    ids = [socket.id for socket in alive]
    if Connection.objects.filter(pk__in=ids).update(seen_at=now) == len(ids):
        return []  # Every row was there: the usual beat, one statement.
    kept = set(Connection.objects.filter(pk__in=ids).values_list("pk", flat=True))
    # A socket that closed since ``alive`` was read had its row deleted on purpose: it is
    # gone from :data:`sockets` first (:func:`games.live.leaving.release` forgets it before
    # its row is deleted), so it is not written back as a ghost.
    lost = [socket for socket in alive if socket.id not in kept and socket.id in sockets]
    if not lost:
        return []
    games = dict(Game.objects.filter(code__in={s.code for s in lost}).values_list("code", "pk"))
    seats = set(
        Player.objects.filter(pk__in={s.player_id for s in lost}).values_list("pk", flat=True)
    )
    Connection.objects.bulk_create(
        [
            # A seat freed meanwhile (in the lobby): the socket watches, as after a leave.
            Connection(
                id=s.id,
                game_id=games[s.code],
                player_id=s.player_id if s.player_id in seats else None,
                seen_at=now,
                name=s.name,
                number=names.watcher_number(s.name),
            )
            for s in lost
            if s.code in games  # A deleted room has nobody to tell.
        ],
        ignore_conflicts=True,  # Another beat of this process wrote it back first.
    )
    return sorted({s.code for s in lost if s.code in games})


def sweep(since: datetime | None = None, keep: Collection[int] = ()) -> list[str]:
    """Delete the rows no process has refreshed within :data:`EXPIRY` (seen before ``since``,
    by default :func:`fresh_since` now), but those of ``keep``; the rooms they were in.

    A process sweeps right after its beat, with ``since`` read when the beat began and its
    sockets held since then in ``keep`` (:func:`games.live.watch.keep_alive`): however
    late a busy process's sweep comes, it never takes the row of a socket it holds, or of
    one arriving meanwhile, for a dead process's. (It did at a load of 40: a watcher's row
    went between its arrival and its name in the watchers' chat, and its page was told
    there was no game at this link.)
    """
    from games.models import Connection

    expired = Connection.objects.filter(seen_at__lt=since or fresh_since()).exclude(pk__in=keep)
    codes = sorted(set(expired.values_list("game__code", flat=True)))
    if codes:
        expired.delete()
    return codes
