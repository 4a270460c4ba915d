"""A socket's presence ends when its connection ends, whatever its consumer's clean-up does.

Who is here is a row per open socket (:mod:`games.live.heartbeat`). Before, a row was
deleted by the consumer's ``disconnect`` handler, an ``await`` among others: in a mass close
Daphne killed consumers that took too long to shut down, channels-redis's unsubscribe was
cancelled or raised, and the rows stayed. Worse, the socket stayed in its process's list,
so the process went on confirming the row of a socket it no longer held: ghosts for as
long as the process lived. How it is guaranteed now:

1. **Ended at once, without awaiting.** :func:`release` is synchronous: it takes the socket
   out of the process's list (:data:`heartbeat.sockets`, what the heartbeat confirms) and
   queues its row for deletion. Nothing can cancel it halfway, and no lock, Redis or
   database is waited for.
2. **Called whenever the connection ends.** The consumer calls it as soon as the server
   reads the socket's close (``websocket.disconnect``), before any handler runs, even if
   the one running now is stuck; and again in a ``finally`` around the consumer's whole
   life, which Python runs however the consumer ends: returned, raised, cancelled (Daphne's
   kill of a slow consumer is a cancellation), or collected. A socket whose row was still
   being written when its consumer was stopped has it released once it is written
   (:meth:`games.live.consumers.GameConsumer.arrive`). A process stopped with SIGTERM
   releases every socket it still holds before it exits (:mod:`games.live.shutdown`).
3. **Confirmed only while held.** The heartbeat refreshes only the rows of
   :data:`heartbeat.sockets`, and a released socket never goes back in it (the consumer
   adds it only while its connection is open). So a row that the deletion below missed
   (the database away) is no longer refreshed, expires after :data:`heartbeat.EXPIRY`, and
   is swept by any process, which tells its room.
4. **Rooms are told.** The rows queued here are deleted by one task of the process, in one
   statement for all that closed meanwhile (1,000 sockets closed at once are a few
   statements, not 1,000 transactions), then each room is told who is here now, under its
   lock (:func:`games.live.presence.tell_presence`).
5. **Never behind the rooms' work.** The deletions, like the heartbeat's beats and sweeps, run
   on the process's presence thread (:func:`games.live.outbox.on_presence_thread`), not
   queued on the rooms' database thread behind a burst of arrivals or commands.

What only the expiry can end: the sockets of a process killed with SIGKILL (or of a
machine gone), within :data:`heartbeat.EXPIRY` and a beat.
"""

from __future__ import annotations

import asyncio
import logging

from games.live import heartbeat, outbox, services
from games.live.loops import runs_here

logger = logging.getLogger(__name__)

#: Rows of this process's sockets that ended and are still to be deleted: id → room code.
_ended: dict[int, str] = {}
#: The task deleting them and telling their rooms (one per process, started on demand).
_releasing: asyncio.Task[None] | None = None


def release(connection_id: int, code: str) -> None:
    """The socket of row ``connection_id`` in room ``code`` has ended: it stops counting.

    Call from the event loop. Synchronous on purpose (point 1 above): it cannot be
    cancelled halfway, so it may be called from a cancelled task's ``finally``.
    """
    global _releasing
    heartbeat.sockets.pop(connection_id, None)
    _ended[connection_id] = code
    if not runs_here(_releasing):  # One of an earlier, closed loop counts as gone.
        _releasing = asyncio.get_running_loop().create_task(_release_ended())
        # A server's event loop lives as long as its process (and SIGTERM waits for the
        # releases); only a test's loop closes with a release still running, whose rows then
        # expire. asyncio would log that task as an error when it is collected, in whatever
        # test runs then: it is not one.
        _releasing._log_destroy_pending = False  # type: ignore[attr-defined]


async def settled() -> None:
    """Return once every socket released so far has its row deleted and its room told (or
    the attempt failed, and the rows are left to expire).

    Only a release of this event loop is waited for (:mod:`games.live.loops`): one left on an
    earlier test's closed loop never ends, and its rows are taken by this loop's next release.
    """
    while runs_here(_releasing):
        await asyncio.shield(_releasing)


async def _release_ended() -> None:
    """Delete the rows of the sockets that ended, as many as are queued at a time, then
    tell their rooms; until none is left."""
    while _ended:
        batch = dict(_ended)
        try:
            await outbox.on_presence_thread(services.release)(list(batch))
        except Exception as error:  # The database is away: the rows expire by themselves.
            logger.warning("%d closed sockets' rows were not deleted (%s)", len(batch), error)
            continue
        finally:
            for connection_id in batch:
                _ended.pop(connection_id, None)
        for code in sorted(set(batch.values())):
            try:
                await outbox.run(services.tell_presence, code)
            except services.CommandError:  # The room is gone: nobody to tell.
                pass
            except Exception as error:  # Away: the heartbeat tells it on a later beat.
                logger.warning("room %s was not told who left (%s)", code, error)
                heartbeat.untold.add(code)
