"""Telling the room, after the database: broadcasts and bot turns leave from the event loop.

A command (:mod:`games.live.pipeline`) runs on the database thread and commits. What
it must tell the room, and whether it handed the turn to a bot, goes into an
:class:`Outbox` once the transaction has committed, so nobody is told of a
change that was rolled back. :func:`run` is how the websocket consumer and the
bots call a command: the command runs on the database thread, and the event
loop then sends its messages and starts the bot's driver. The database thread
never waits on the event loop, and the event loop never waits on the database
thread while it sends.

Called outside :func:`run` (a page's POST, a management command, a test), a
command delivers its messages itself once it commits, from its own thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
import zlib
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

import msgspec
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import InterfaceError, OperationalError
from redis.exceptions import RedisError

from games.models import room_group

logger = logging.getLogger(__name__)

#: What the database or Redis raise while they are away (a refusal, a timeout, a
#: connection gone): a moment to wait, not a fault. A socket's command is answered
#: ``unavailable`` (:mod:`games.live.consumers`), a bot waits and plays on (:mod:`games.live.bots`).
UNAVAILABLE = (OperationalError, InterfaceError, RedisError, OSError)

P = ParamSpec("P")
T = TypeVar("T")


@dataclass
class Outbox:
    """What committed commands have to tell: messages by room, and rooms with a bot on turn."""

    #: (room's invite code, the handler of the consumers, the messages), in commit order.
    sends: list[tuple[str, str, list[dict[str, Any]]]] = field(default_factory=list)
    #: Invite codes of the games where a bot is now on turn.
    bots: list[str] = field(default_factory=list)

    async def deliver(self) -> None:
        """Send every message to its room, in order, then start the bots' drivers.

        Who is here (``game.presence``) is a state, not an event: of the presence
        messages for a room within :data:`PRESENCE_EVERY` seconds, only the last is
        sent (a burst of reconnections would send a room one per socket).
        """
        for code, handler, messages in self.sends:
            if handler == PRESENCE and messages:
                tell_presence_soon(code, messages[-1])
                continue
            try:
                await send(code, handler, messages)
            except (RedisError, OSError) as error:  # The change stands: not the caller's error.
                missed(code, error)
        for code in self.bots:
            _start_bot(code)


def _no_bots(code: str) -> None:
    raise RuntimeError(f"a bot is on turn in room {code}, and no bot driver was registered")


#: Starts the driver of the bot on turn in a room. The bots call the services, which post
#: here, so this module cannot import them: :mod:`games.apps` registers
#: :func:`games.live.bots.kick` at start-up (:func:`drive_bots_with`).
_start_bot: Callable[[str], None] = _no_bots


def drive_bots_with(start: Callable[[str], None]) -> None:
    """Start each room's bot with ``start(code)`` once the messages of a command are sent."""
    global _start_bot
    _start_bot = start


_current: ContextVar[Outbox | None] = ContextVar("games_outbox", default=None)


def post(code: str, handler: str, messages: list[dict[str, Any]], *, bot: bool = False) -> None:
    """Tell room ``code`` these messages (and start its bot if ``bot``): call once committed.

    Inside :func:`run` they wait in its outbox for the event loop; anywhere else they
    are sent at once from this thread (a bot then waits for a browser to open the room).
    """
    outbox = _current.get()
    if outbox is not None:
        outbox.sends.append((code, handler, messages))
        if bot:
            outbox.bots.append(code)
    elif messages:
        try:
            async_to_sync(_group_send)(code, handler, messages)
        except (RedisError, OSError) as error:  # Committed: the request that made it stands.
            missed(code, error)


def missed(code: str, error: Exception) -> None:
    """Room ``code`` was not told of a committed change: the channel layer (Redis) is away.
    Nothing is lost: each of its sockets is sent a fresh snapshot once Redis is back
    (:meth:`games.live.consumers.GameConsumer.room_receive`), and a page opened meanwhile
    reads the game from the database."""
    logger.warning(
        "room %s missed news of a committed change (%s); its sockets catch up "
        "from the snapshot each is sent when Redis is back",
        code,
        error,
    )


@contextmanager
def collecting() -> Iterator[Outbox]:
    """Keep what the commands run in this block post, in the outbox it gives, unsent."""
    outbox = Outbox()
    token = _current.set(outbox)
    try:
        yield outbox
    finally:
        _current.reset(token)


async def run(command: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a service ``command`` on its game's database thread, then deliver what it committed.

    The game is the command's first argument (its invite code, or an object with a
    ``code``). Its messages are sent even when the command raises after a commit
    (nothing does today, but a message about a committed change must never be lost).
    """

    def collected() -> tuple[tuple[T] | Exception, Outbox]:
        # The command's result in a 1-tuple (the result may itself be None), or its error.
        with collecting() as outbox:
            try:
                return (command(*args, **kwargs),), outbox
            except Exception as error:  # Refusals; delivered below after the outbox.
                return error, outbox

    first = args[0] if args else None
    game = first if isinstance(first, str) else getattr(first, "code", None)
    outcome, outbox = await on_database_thread(collected, game)()
    await outbox.deliver()
    if isinstance(outcome, Exception):
        raise outcome
    return outcome[0]


def on_database_thread(
    function: Callable[P, T], game: str | None = None
) -> Callable[P, Coroutine[Any, Any, T]]:
    """``function`` to run on a database thread (Channels' ``database_sync_to_async``, typed).

    With several database threads (``settings.DATABASE_THREADS``), the work of game
    ``game`` always goes to the same one, so a game's commands run one at a time and in
    order, while other games' run beside them; without a game, or with one thread, it
    goes to Channels' single database thread.
    """
    if game is None or settings.DATABASE_THREADS == 1:
        wrapped: Callable[P, Coroutine[Any, Any, T]] = database_sync_to_async(function)
    else:
        wrapped = database_sync_to_async(
            function, thread_sensitive=False, executor=_thread_of(game)
        )
    return wrapped


_threads: list[ThreadPoolExecutor] = []
# A forked child (a test's server) has none of its parent's threads: it makes its own.
os.register_at_fork(after_in_child=_threads.clear)


def _thread_of(game: str) -> ThreadPoolExecutor:
    """The one-thread executor of ``game``'s database work (made on first use)."""
    if len(_threads) != settings.DATABASE_THREADS:
        _threads[:] = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"database-{n}")
            for n in range(settings.DATABASE_THREADS)
        ]
    return _threads[zlib.crc32(game.encode()) % len(_threads)]


def on_presence_thread(function: Callable[P, T]) -> Callable[P, Coroutine[Any, Any, T]]:
    """``function`` to run on this process's presence thread, a database thread of its own.

    The heartbeat's beats and sweeps and the deletion of closed sockets' rows
    (:mod:`games.live.heartbeat`, :mod:`games.live.leaving`) run there, one at a time and in
    the order given, never queued behind the rooms' work. On the shared thread a burst of
    1,000 arrivals could hold a process's beats back past the rows' expiry: the other
    process swept its rows as a dead process's, and rooms showed people gone who were
    there. The soak's 12 rooms wrong for 10.7-23.7 s in a burst at a load of 10-12 were
    most likely that (benchmarks/README.md).
    """
    if not _presence_thread:
        _presence_thread.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="presence"))
    wrapped: Callable[P, Coroutine[Any, Any, T]] = database_sync_to_async(
        function, thread_sensitive=False, executor=_presence_thread[0]
    )
    return wrapped


_presence_thread: list[ThreadPoolExecutor] = []
os.register_at_fork(after_in_child=_presence_thread.clear)


#: How many arrivals (a socket's row and snapshot: a trip to the database thread) a process
#: sends to the database thread at once (:func:`arrival_turns`).
ARRIVALS_AT_ONCE = 4


class ArrivalTurns:
    """The arrivals of one event loop, taken a few at a time.

    A burst of reconnections (every browser after a restart, 1,000 sockets in two seconds)
    waits here for its turn, not in the database thread's queue: there, every command of
    every game in play would wait behind all of the burst's arrivals, tens of seconds at a
    load of 10. Here a command waits behind :data:`ARRIVALS_AT_ONCE` at most.
    """

    def __init__(self, at_once: int) -> None:
        self.slots = asyncio.Semaphore(at_once)
        #: Arrivals waiting for a turn now.
        self.waiting = 0

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        self.waiting += 1
        try:
            await self.slots.acquire()
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self.slots.release()


_arrival_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ArrivalTurns] = (
    weakref.WeakKeyDictionary()
)


def arrival_turns() -> ArrivalTurns:
    """The running event loop's :class:`ArrivalTurns` (a test's loop has its own)."""
    loop = asyncio.get_running_loop()
    if loop not in _arrival_turns:
        _arrival_turns[loop] = ArrivalTurns(ARRIVALS_AT_ONCE)
    return _arrival_turns[loop]


PRESENCE = "game.presence"
#: Presence messages for a room are sent at most this often, in seconds (the last one).
PRESENCE_EVERY = 0.2
#: From this many watchers a room is a crowd: its presence goes out at most once in
#: :data:`PRESENCE_EVERY_CROWD` seconds, since each is a message to every socket (1,000
#: watchers joining sent a room of 1,000 five thousand messages a second).
PRESENCE_CROWD = 50
PRESENCE_EVERY_CROWD = 1.0
# So is every room's while arrivals wait for their turn (a burst): the longer a burst's
# arrivals take, the more 0.2 s windows each room's growing presence went out in. On one
# quiet Daphne, 1,000 sockets over 100 rooms taking turns were sent about 7,500 presence
# messages after their snapshots, 3,500 with this, for 7.3-7.6 ms of server CPU a socket
# instead of 7.7-8.7 (benchmarks/burst.py; benchmarks/README.md).
#: The presence message each room is waiting to be sent, by invite code, with the event loop
#: whose timer sends it.
_presence_due: dict[str, tuple[asyncio.AbstractEventLoop, dict[str, Any]]] = {}


def tell_presence_soon(code: str, message: dict[str, Any]) -> None:
    """Send room ``code`` this presence message within :data:`PRESENCE_EVERY` seconds (a
    crowd's, or any room's while arrivals wait for their turn, within
    :data:`PRESENCE_EVERY_CROWD`), unless a newer one replaces it first
    (call from the event loop).

    Only a timer of the running event loop is waited for. A server has one loop; the tests
    have one per test, and a message left waiting when an earlier test's loop closed has a
    timer that never fires: it is replaced, and this loop's timer sends the new message.
    """
    loop = asyncio.get_running_loop()
    due = _presence_due.get(code)
    waiting = due is not None and due[0] is loop
    _presence_due[code] = (loop, message)
    if not waiting:
        crowd = message.get("watchers", 0) >= PRESENCE_CROWD
        # A crowd's presence waits a second, and so does every room's while arrivals wait
        # for their turn: the longer a burst's arrivals take, the more 0.2 s windows a
        # room's presence would go out in (1,000 sockets over 100 rooms: about 7,500
        # presence messages after their snapshots against 3,500; benchmarks/README.md).
        burst = arrival_turns().waiting > 0
        loop.call_later(
            PRESENCE_EVERY_CROWD if crowd or burst else PRESENCE_EVERY,
            lambda: _background(_send_presence(code)),
        )


async def _send_presence(code: str) -> None:
    due = _presence_due.pop(code, None)
    if due is not None:
        _, message = due
        try:
            await send(code, PRESENCE, [message])
        except (RedisError, OSError) as error:  # Each socket's snapshot when Redis is back says.
            logger.warning("room %s was not told who is here (%s)", code, error)


_sending: set[asyncio.Task[None]] = set()


def _background(coroutine: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(coroutine)
    _sending.add(task)  # Kept until done, so it is not collected midway.
    task.add_done_callback(_sending.discard)


#: One lock per room in this process, so that two commands' messages to one room leave
#: in the order the commands committed (each waits here in the order it resumed); one per
#: event loop too. A server has one loop; the tests have one per test, and a send left
#: holding its room's lock when an earlier test's loop closed never lets it go (waiting
#: for it, or for a lock bound to that loop, would hang or raise).
_room_locks: weakref.WeakValueDictionary[tuple[asyncio.AbstractEventLoop, str], asyncio.Lock] = (
    weakref.WeakValueDictionary()
)


#: How long a message about a committed change waits for the channel layer to answer
#: (Redis restarting), in seconds, before the command is answered ``unavailable``.
SEND_PATIENCE = 5.0
#: Seconds between two tries.
SEND_RETRY = 0.25


async def send(code: str, handler: str, messages: list[dict[str, Any]]) -> None:
    """Send ``messages`` to everyone in room ``code``, after any this process sent it before.

    The messages tell of changes already committed: while Redis is away they are tried
    again for :data:`SEND_PATIENCE` seconds. Past that the error goes to the caller
    (:meth:`Outbox.deliver` logs it: the command was applied all the same); the
    sockets catch up from the snapshot each is sent when Redis is back
    (:mod:`games.live.layers`).
    """
    loop = asyncio.get_running_loop()
    lock = _room_locks.get((loop, code))
    if lock is None:
        lock = _room_locks[loop, code] = asyncio.Lock()
    async with lock:
        give_up_at = loop.time() + SEND_PATIENCE
        while True:
            try:
                await _group_send(code, handler, messages)
                return
            except (RedisError, OSError) as error:
                if loop.time() >= give_up_at:
                    raise
                logger.warning("could not tell room %s (%s); trying again", code, error)
            await asyncio.sleep(SEND_RETRY)


_encoder = msgspec.json.Encoder()


async def _group_send(code: str, handler: str, messages: list[dict[str, Any]]) -> None:
    """One group message for all of ``messages``: the consumers' ``handler`` gets
    ``{"versions": [...], "texts": [...]}`` and passes on each text its socket has not had.
    """
    layer = get_channel_layer()
    if layer is None or not messages:  # pragma: no cover - the settings always set a layer
        return
    # Each message is encoded once, here, for every socket of every process.
    texts = [_encoder.encode(message).decode() for message in messages]
    versions = [message.get("version") for message in messages]
    await layer.group_send(
        room_group(code), {"type": handler, "versions": versions, "texts": texts}
    )
