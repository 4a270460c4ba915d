"""The clock's watch: in every server process, a task that wakes the games that are due.

Each game's row says when the server must next look at it by itself
(``wake_at``: a turn's deadline, a bot that should have moved, the time it is
abandoned; :func:`games.live.clock.schedule`). The watch reads the games whose time
has come, soonest first, and wakes each one (:func:`games.live.commands.wake`), then
sleeps until the next game is due, or :data:`POLL_SECONDS` at most, since
another process may have set a sooner time. Each look is two queries on an
index that holds only the games with a wake-up time (finished games have
none), so its cost stays the same however many finished and idle games pile up.

Every process runs a watch, so a game is woken whatever happens to the process
that served its players: a killed process, or all of them restarted (the watch
starts with the process, :func:`start_when_serving`). Two watches that wake the
same game act once between them (:func:`games.live.commands.wake` says how).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from games.engine import rules
from games.live import clock, heartbeat, outbox, services, shutdown
from games.live.loops import runs_here
from games.models import Game
from games.strategy.engine import load

logger = logging.getLogger(__name__)

#: The longest the watch sleeps, in seconds: a deadline set by another process is met
#: this late at most (a turn lasts 10 s at least).
POLL_SECONDS = 2.0
#: How many due games one look wakes before looking again.
BATCH = 50


def due_games() -> tuple[list[tuple[str, str]], float | None]:
    """The games due now (invite code and rules, soonest first), and the seconds until
    the next one after them (``None`` if none has a wake-up time)."""
    at = clock.now()
    waking = Game.objects.filter(wake_at__isnull=False).order_by("wake_at")
    due = list(waking.filter(wake_at__lte=at).values_list("code", "preset")[:BATCH])
    after = waking.filter(wake_at__gt=at).values_list("wake_at", flat=True).first()
    return due, None if after is None else (after - at).total_seconds()


async def look() -> float | None:
    """Wake every game that is due; the seconds until the next one is (``None``: none is)."""
    due, after = await outbox.on_database_thread(due_games)()
    for code, preset in due:
        # The clock may play the optimal strategy: load its table before taking the lock.
        await sync_to_async(load, thread_sensitive=False)(preset)
        try:
            await outbox.run(services.wake, code)
        except services.CommandError as error:  # The game was deleted meanwhile.
            logger.info("watch: %s: %s", code, error)
    return 0.0 if len(due) == BATCH else after


#: Tasks that must not be collected before they finish.
_background: set[asyncio.Future[None]] = set()


def load_strategies() -> None:
    """The optimal strategy's tables for every preset, from the disk (or computed once).

    A failure is logged: a look loads the table it needs again (:func:`look`).
    """
    try:
        for preset in rules.PRESETS:
            load(preset)
    except Exception:
        logger.exception("the clock's watch could not load the strategy tables")


async def keep_watch() -> None:
    """Look, then sleep until the next game is due (or :data:`POLL_SECONDS`), forever.

    The clock plays with the optimal strategy: its tables are loaded beside the first
    looks, so that they are ready before a turn runs out (computing them, the first time
    on a machine, takes seconds).
    """
    loading = asyncio.ensure_future(sync_to_async(load_strategies, thread_sensitive=False)())
    _background.add(loading)
    loading.add_done_callback(_background.discard)
    while True:
        try:
            after = await look()
        except Exception:  # The database is away, for instance: look again later.
            logger.exception("the clock's watch failed to look at the games; trying again")
            after = None
        await asyncio.sleep(POLL_SECONDS if after is None else min(max(after, 0), POLL_SECONDS))


async def keep_alive() -> None:
    """This process's heartbeat: refresh its sockets, sweep the dead, tell the rooms; forever.

    Each room is told on its own, and a room that could not be told (the database went
    away between the sweep and the telling) is told on a later beat (it stays in
    :data:`heartbeat.untold`): the rows are gone by then, so nothing else would ever tell
    it. A room deleted meanwhile is dropped.
    """
    owed = heartbeat.untold  # Rooms whose presence changed and that are still to be told.
    while True:
        try:
            # A row seen since the beat began is no dead process's, however late the sweep.
            since = heartbeat.fresh_since()
            alive = list(heartbeat.sockets.values())
            owed.update(await outbox.on_presence_thread(heartbeat.beat)(alive) if alive else [])
            beaten = {socket.id for socket in alive}
            held_since = [id for id in heartbeat.sockets if id not in beaten]
            owed.update(await outbox.on_presence_thread(heartbeat.sweep)(since, held_since))
        except Exception:  # The database is away, say: beat again later.
            logger.exception("the presence heartbeat failed; trying again")
        for code in sorted(owed):
            try:
                await outbox.run(services.tell_presence, code)
            except services.CommandError:  # The room is gone: nobody to tell.
                owed.discard(code)
            except Exception:
                logger.exception("could not tell room %s who is here; trying again", code)
            else:
                owed.discard(code)
        await asyncio.sleep(heartbeat.HEARTBEAT.total_seconds())


_tasks: list[asyncio.Task[None]] = []
_pid: int | None = None


def ensure_watching() -> None:
    """Start this process's watch on the running event loop unless it runs already, and
    its presence heartbeat (:func:`keep_alive`) beside it.

    Off when ``settings.YAHTZEE_CLOCK_WATCH`` is false (the test suite's own event
    loops; tests wake games themselves).

    Only tasks of the running event loop count (:mod:`games.live.loops`): those of a closed
    one are dropped, and this loop watches.
    """
    global _pid
    if not settings.YAHTZEE_CLOCK_WATCH:
        return
    if _pid != os.getpid():  # A forked child: its parent's tasks are not its own.
        _tasks.clear()
        _pid = os.getpid()
    loop = asyncio.get_running_loop()
    if _tasks and all(runs_here(task) for task in _tasks):
        return
    for task in _tasks:
        if task.get_loop() is loop:  # Another loop's task cannot be cancelled from here.
            task.cancel()
    _tasks[:] = [loop.create_task(keep_watch()), loop.create_task(keep_alive())]


def start_when_serving() -> None:
    """Start the watch as soon as Daphne serves, without waiting for a first visitor.

    Daphne runs on Twisted's asyncio reactor and tells the application nothing at
    start-up (it has no ASGI lifespan), so the watch is started by the reactor; the
    application also makes sure of it on every connection (:class:`KeepingWatch`).
    """
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None:
        # Once the event loop itself runs: the reactor starts up just before it does.
        reactor.callWhenRunning(reactor.callLater, 0, _serving)


def _serving() -> None:
    ensure_watching()
    shutdown.install()  # And SIGTERM stops the process cleanly.


class KeepingWatch:
    """ASGI middleware: make sure this process's watch runs, then serve as ``app`` does."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        ensure_watching()
        return await self.app(scope, receive, send)
