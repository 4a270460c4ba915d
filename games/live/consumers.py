"""The live room: one websocket per browser tab (or outside client) at ``/ws/games/<code>/``.

The consumer is thin. It finds the connection's seat, joins the room's group,
sends a snapshot, turns each message into a call to :mod:`games.live.services`,
and relays the events the services broadcast. Every message is read and checked
by :func:`games.wire.protocol.decode`, and every refusal, from the protocol, the
rules or the services, becomes an error for the sender alone in one place,
:meth:`GameConsumer.receive`. The messages are documented in
``docs/protocol.md`` and declared in :mod:`games.wire.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.utils import translation
from redis.exceptions import RedisError

from games.engine import rules
from games.insight import chances, coach
from games.live import closing, heartbeat, leaving, limits, outbox, refusals, services, shutdown
from games.live.services import CommandError
from games.models import room_group
from games.wire import protocol
from yahtzee_site.db import DatabaseAway

if TYPE_CHECKING:
    pass

logger = logging.getLogger(__name__)

#: The largest message a client may send, in bytes of UTF-8.
MAX_MESSAGE_BYTES = protocol.MAX_MESSAGE_BYTES
#: A command's handler; its message is of the type it is filed under in ``commands``.
Handler = Callable[["GameConsumer", Any], Awaitable[None]]
#: Close code when the invite code leads nowhere (4000-4999 are the application's own).
CLOSE_NO_SUCH_GAME = 4404
#: Close code of a socket that cannot be served now (the database or Redis is away):
#: 1013, "Try Again Later"; the room's page calls again when the reason says.
CLOSE_TRY_AGAIN_LATER = 1013
#: Why, and when to come back (:mod:`games.live.closing`): an outage of the database or
#: Redis lasts seconds (a restart, a failover).
TRY_AGAIN_REASON = closing.come_back("the database or messaging is away", 1, 5)
#: The reason for a socket whose arrival met a refusal other than ``no_such_game`` (its row
#: gone before its watcher's name was given, say): the page comes back at once.
ARRIVE_AGAIN_REASON = closing.come_back("the arrival did not complete", 0, 1)
#: How far the sockets turned away while the database is known to be away are spread
#: past the moment it is tried again, in seconds.
TRY_AGAIN_SPREAD = 2.0
#: What the database or Redis raise while they are away: a command is answered
#: ``unavailable`` and the socket stays open.
UNAVAILABLE = outbox.UNAVAILABLE
#: How long a consumer waits before asking the channel layer again after it failed.
LAYER_RETRY_SECONDS = 0.5


def try_again_reason(error: Exception) -> str:
    """The close reason for a socket that met an outage: when the database is known to be
    away (the breaker refused, :class:`~yahtzee_site.db.DatabaseAway`), come back from
    the moment it is tried again; else in 1-5 s."""
    if isinstance(error, DatabaseAway):
        return closing.come_back(
            "the database is away", error.retry_in, error.retry_in + TRY_AGAIN_SPREAD
        )
    return TRY_AGAIN_REASON


def _as_float(value: object) -> float:
    # What json.dumps took and msgspec does not: a float of a subclass (numpy's float64).
    if isinstance(value, float):
        return float(value)
    raise NotImplementedError(f"cannot send a {type(value).__name__}")


#: Every message to one socket is written by this one encoder (a snapshot: a few times
#: faster than ``json.dumps``).
_encoder = msgspec.json.Encoder(enc_hook=_as_float)


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``per_second`` on average.

    Far above what a person can send, far below what a runaway script does.
    """

    def __init__(self, burst: float = 30, per_second: float = 10) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = burst
        self.updated = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimits:
    """One socket's two buckets: what the person does, and what the page asks by itself.

    The room's page asks questions on its own (:attr:`protocol.Message.automatic`: the
    coach's advice after every roll, the chances after every move, a snapshot after a
    gap, a ping every 15 s); they are counted in a bucket of their own, so that a
    player's rolls and scores never wait behind them. Their bucket is as small as the
    person's: the page asks far less (a question or two a move), and a client that
    floods questions is refused as with anything else. A frame that is no message
    counts against the person's bucket.
    """

    def __init__(self) -> None:
        self.commands = RateLimit()
        self.questions = RateLimit()

    def allow(self, message: protocol.ClientMessage | None) -> bool:
        automatic = message is not None and message.automatic
        return (self.questions if automatic else self.commands).allow()


class SharedAnswers:
    """Answers worked out once per key in this process, however many sockets ask.

    The chances to win at one version of one game are the same for every watcher: the
    first socket to ask starts the work, the others asking meanwhile wait for the same
    answer, and later ones are answered from memory (the last ``size`` answers are
    kept). A game's play at a version never changes, so an answer never goes stale.
    An asker that goes away does not stop the work the others wait for; work that
    fails is not kept, and the next asker starts it again.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.answers: OrderedDict[Hashable, Any] = OrderedDict()
        self.running: dict[Hashable, asyncio.Future[Any]] = {}
        #: How many times work was started: for tests and benchmarks.
        self.computed = 0

    async def get(self, key: Hashable, work: Callable[[], Awaitable[Any]]) -> Any:
        if key in self.answers:
            self.answers.move_to_end(key)
            return self.answers[key]
        running = self.running.get(key)
        if running is None or running.get_loop() is not asyncio.get_running_loop():
            running = asyncio.ensure_future(work())
            self.computed += 1
            self.running[key] = running
            running.add_done_callback(lambda done: self._keep(key, done))
        return await asyncio.shield(running)

    def _keep(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        if self.running.get(key) is done:
            del self.running[key]
        if done.cancelled() or done.exception() is not None:
            return
        self.answers[key] = done.result()
        while len(self.answers) > self.size:
            self.answers.popitem(last=False)


#: The chances to win, by game and version of its play (:meth:`GameConsumer.do_odds`).
odds_answers = SharedAnswers()


# Channels has no type hints: its consumer classes are Any to mypy.
class NoRoomConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A websocket to a path that is no room: accepted, then closed with a clear code."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NO_SUCH_GAME)


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """One connection to a game room, as a seated player or as a watcher."""

    code: str
    rate_limit: RateLimits
    #: The browser's session key from its cookie ("" without one), and its account's id
    #: once it has arrived (``None``: a guest).
    session_key = ""
    user_id: int | None = None
    player_id: int | None = None
    #: The id of this connection's row (:mod:`games.live.heartbeat`), once it has arrived.
    connection_id: int | None = None
    #: The version of the last event this connection was sent; older ones are not sent again.
    version = 0
    #: The name this connection goes by in the watchers' chat while it watches (``None``
    #: until it has one, and while it holds a seat).
    watcher_name: str | None = None
    #: Whether a player chose to read the watchers' chat here (watchers always do).
    reads_watchers = False
    #: The answers to ``odds`` requests still being worked out (:meth:`send_odds`).
    odds_tasks: set[asyncio.Task[None]]
    #: The language this socket's reader reads (:func:`games.live.refusals.language_of`):
    #: its refusals are worded in it. Events carry facts; the page words them itself.
    language = "en"

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand a message to its handler, without Channels' database clean-up before each one.

        Channels closes stale database connections before every message, on the one
        thread that runs database work: a thread hop for every frame and every event
        relayed, queued behind the commands. Here the database is only reached through
        the services, wrapped in ``database_sync_to_async`` (through
        :func:`games.live.outbox.on_database_thread`), which cleans up itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    #: Whether this connection has ended (:meth:`ended`): it is never confirmed again.
    closed = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """As Channels' consumer, but a channel layer that fails (Redis away for a moment)
        is asked again, instead of taking the socket down with it; and the socket's presence
        ends with its connection, however the consumer ends (:mod:`games.live.leaving`)."""

        # The socket is read beside the handlers, not between them (as Channels does): its
        # close is seen at once even while a handler waits, for as long as it waits; and
        # each frame is read and counted as it arrives (:meth:`arrived`).
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def read_socket() -> None:
            while True:
                message: dict[str, Any] | None = await receive()
                assert message is not None
                if message["type"] == "websocket.receive":
                    message = await self.arrived(message)
                    if message is None:  # Refused, and answered already.
                        continue
                if message["type"] == "websocket.disconnect":
                    self.ended()
                inbox.put_nowait(message)  # Handled in order, as Channels would.
                if message["type"] == "websocket.disconnect":
                    return

        self.scope = scope
        self.base_send = send
        self.rate_limit = RateLimits()
        reading = asyncio.ensure_future(read_socket())
        try:
            self.channel_layer = get_channel_layer(self.channel_layer_alias)
            self.channel_name = await self._until_it_answers(self.channel_layer.new_channel)
            with contextlib.suppress(StopConsumer):  # The socket closed: the consumer is done.
                await await_many_dispatch([inbox.get, self.room_receive], self.dispatch)
        finally:  # Returned, raised or cancelled (Daphne kills a consumer slow to stop).
            self.ended()
            reading.cancel()
        # A consumer that ends well ends once its room is told (tests count on it); the
        # release does not depend on it.
        await leaving.settled()

    async def room_receive(self) -> dict[str, Any]:
        """The next message for this socket from the channel layer, however long Redis is away.

        Once Redis is back, the socket joins its room's group again (a Redis restarted
        without its data has forgotten it) and is sent a fresh snapshot, for what it
        missed meanwhile.
        """
        while True:
            try:
                message: dict[str, Any] = await self.channel_layer.receive(self.channel_name)
                return message
            except (RedisError, OSError) as error:
                logger.warning("the channel layer failed (%s); joining the room again", error)
            await asyncio.sleep(LAYER_RETRY_SECONDS)
            if self.connection_id is not None:  # It had joined the room: join it again.
                await self._until_it_answers(
                    self.channel_layer.group_add, room_group(self.code), self.channel_name
                )
                with contextlib.suppress(*UNAVAILABLE):  # The client asks again if need be.
                    await self.send_snapshot()

    @staticmethod
    async def _until_it_answers(call: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        while True:
            try:
                return await call(*args)
            except (RedisError, OSError) as error:
                logger.warning("the channel layer failed (%s); asking again", error)
                await asyncio.sleep(LAYER_RETRY_SECONDS)

    async def connect(self) -> None:
        """Accept at once, then find the seat and send the snapshot.

        The handshake does not wait for the database: in a burst of reconnections
        (every browser after a restart) the proxy and Daphne would give up on
        handshakes queued behind the others' database work. A refusal comes as a
        close code the page understands, after the handshake (before it, a client
        would only see a bare HTTP 403).
        """
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.session_key = services.session_key_of(self.scope.get("cookies") or {})
        self.odds_tasks = set()
        self.language = refusals.language_of(self.scope)
        await self.accept()
        if shutdown.stopping.is_set():  # This process is stopping: come back, to another.
            await self.close(code=shutdown.SERVICE_RESTART, reason=shutdown.come_back_reason(1))
            return
        try:
            await self.arrive()
        except CommandError as error:
            if error.code == "no_such_game":
                await self.close(code=CLOSE_NO_SUCH_GAME)
            else:  # The room is there: its page must not say it is not. Another arrival.
                logger.warning("a socket to %s did not arrive: %s", self.code, error.code)
                await self.close(code=CLOSE_TRY_AGAIN_LATER, reason=ARRIVE_AGAIN_REASON)
        except UNAVAILABLE as error:
            logger.warning("a socket to %s could not be served: %s", self.code, error)
            await self.close(code=CLOSE_TRY_AGAIN_LATER, reason=try_again_reason(error))

    async def arrive(self) -> None:
        """Join the room's group, take this connection's seat, and send the snapshot."""
        # Join the group before reading the snapshot, so no event falls between the two.
        await self.channel_layer.group_add(room_group(self.code), self.channel_name)
        arriving = asyncio.ensure_future(self._arrive_in_turn())
        try:
            arrival = await asyncio.shield(arriving)
        except asyncio.CancelledError:
            # Stopped while its row was being written: the row goes once it is written.
            arriving.add_done_callback(self._release_arrival)
            raise
        if arrival is None:  # The socket closed before its turn came: nothing was written.
            return
        self.user_id, self.player_id = arrival.user_id, arrival.player_id
        self.connection_id = arrival.connection_id
        self.watcher_name = arrival.watcher_name or None
        if self.closed:  # The socket closed while it arrived.
            leaving.release(arrival.connection_id, self.code)
            return
        self.beat()
        shutdown.sockets.add(self)
        self.version = max(self.version, arrival.snapshot["version"])
        await self.send_json(arrival.snapshot)
        await self.send_watching()

    async def _arrive_in_turn(self) -> services.Arrival | None:
        """Write this socket's row and read its snapshot, when its turn comes
        (:class:`~games.live.outbox.ArrivalTurns`); ``None`` if the socket closed while it
        waited."""
        async with outbox.arrival_turns().turn():
            if self.closed:
                return None
            return await outbox.run(services.arrive_from, self.code, self.session_key)

    def _release_arrival(self, arriving: asyncio.Future[services.Arrival | None]) -> None:
        if arriving.cancelled() or arriving.exception() is not None:
            return
        arrival = arriving.result()
        if arrival is not None:
            leaving.release(arrival.connection_id, self.code)

    def identity(self) -> tuple[str, int | None]:
        """This connection's browser session key, and its account's id when logged in
        (read on arrival, :func:`services.arrive_from`)."""
        return self.session_key, self.user_id

    def beat(self) -> None:
        """Keep this connection's row alive, acting for its seat, in this process's heartbeat
        (never once the connection has ended)."""
        assert self.connection_id is not None
        if self.closed:
            return
        heartbeat.sockets[self.connection_id] = heartbeat.Socket(
            self.connection_id, self.code, self.player_id, self.watcher_name or ""
        )

    async def take_seat(self, player_id: int | None) -> None:
        """This connection acts for the seat ``player_id`` now (``None``: it watches)."""
        assert self.connection_id is not None
        await outbox.run(services.move_connection, self.code, self.connection_id, player_id)
        self.player_id = player_id
        self.beat()
        await self.send_watching()

    def ended(self) -> None:
        """The connection has ended: it stops counting at once (:func:`leaving.release`).

        Synchronous, so that it runs whole wherever it is called from, a cancelled task's
        ``finally`` included; called again, it does nothing.
        """
        if self.closed:
            return
        self.closed = True
        shutdown.sockets.discard(self)
        # Nobody to answer now (the work other sockets wait for goes on).
        for task in list(getattr(self, "odds_tasks", ())):
            task.cancel()
        if self.connection_id is not None:
            leaving.release(self.connection_id, self.code)

    async def disconnect(self, code: int) -> None:
        """Leave the room's group. Presence ended already (:meth:`ended`), whatever happens
        here: channels-redis's unsubscribe may fail or be cancelled in a mass close."""
        self.ended()
        with contextlib.suppress(*UNAVAILABLE):  # Redis forgets the channel by itself.
            await self.channel_layer.group_discard(room_group(self.code), self.channel_name)

    # -- from the client ----------------------------------------------------

    async def arrived(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """Read a frame as it arrives: the message to queue for its handler, or ``None``
        when it is refused, and answered at once, to this socket alone.

        The rate limit counts a frame when it arrives, not when its turn comes: a flood
        sent behind a slow command (one waiting for the database) is refused as it comes,
        instead of queueing whole and being counted only once the command is done, when
        the bucket has filled again meanwhile. So is a frame that is no message. The
        messages admitted are handled in order; a refusal may overtake the answers to
        messages still queued (each answer names its message's id when it can be read).
        """
        try:
            message = protocol.decode(
                frame.get("text", frame.get("bytes")), admit=self.rate_limit.allow
            )
        except protocol.ProtocolError as error:
            try:
                await self.send_error(error.code, str(error), error.id)
            except Exception:  # Closing already: the socket must go on being read all the same.
                logger.debug("a refusal could not be sent to %s", self.code, exc_info=True)
            return None
        return {"type": "websocket.command", "message": message}

    async def websocket_command(self, event: dict[str, Any]) -> None:
        """Run a client message read by :meth:`arrived`, and answer a refusal to the sender only."""
        message: protocol.ClientMessage = event["message"]
        try:
            await self.commands[type(message)](self, message)
        except (CommandError, rules.RuleError) as error:
            await self.send_error(error.code, str(error), message.id)
        except UNAVAILABLE as error:
            # Refused by the breaker, it was not even tried: the breaker logged the outage.
            away = isinstance(error, DatabaseAway)
            logger.log(
                logging.DEBUG if away else logging.WARNING,
                "a command in %s met an outage: %s",
                self.code,
                error,
            )
            await self.send_error(
                "unavailable",
                "the game's database or messaging is away for a moment; nothing was done: "
                "try again",
                message.id,
            )

    async def send_error(self, code: str, message: str, request_id: protocol.RequestId) -> None:
        """Refuse a message: its ``code`` stays English, ``message`` is in the reader's language."""
        with translation.override(self.language):
            worded = refusals.worded(code, message)
        await self.send_json({"type": "error", "code": code, "message": worded, "id": request_id})

    async def do_join(self, message: protocol.Join) -> None:
        if self.player_id is not None:
            raise CommandError("already_seated", "you already have a seat in this game")
        session_key, user_id = self.identity()
        player = await outbox.run(
            services.join_game,
            self.code,
            message.name,
            session_key=session_key,
            user_id=user_id,
        )
        await self.take_seat(player.pk)
        await self.send_json(
            {"type": "joined", "seat": player.seat, "token": player.token, "id": message.id}
        )

    async def do_resume(self, message: protocol.Resume) -> None:
        assert self.connection_id is not None
        self.player_id = await outbox.run(
            services.resume, self.code, message.token, connection_id=self.connection_id
        )
        self.beat()
        await self.send_snapshot()
        await self.send_watching()

    async def do_leave(self, message: protocol.Leave) -> None:
        await self.call(services.leave_game, message)
        await self.take_seat(None)

    async def do_start(self, message: protocol.Start) -> None:
        await self.call(services.start_game, message, version=message.version)

    async def do_roll(self, message: protocol.Roll) -> None:
        hold = message.hold
        await self.call(services.roll, message, hold, version=message.version)

    async def do_hold(self, message: protocol.Hold) -> None:
        # No version: a hold changes nobody's choices, so quick clicks must never be stale.
        await self.call(services.hold, message, message.hold)

    async def do_score(self, message: protocol.Score) -> None:
        await self.call(services.score, message, message.category, version=message.version)

    async def do_chat(self, message: protocol.Chat) -> None:
        await self.call(services.chat, message, message.text)

    async def do_watcher_chat(self, message: protocol.WatcherChat) -> None:
        assert self.connection_id is not None
        self.not_acting_for_a_seat(message)
        name = await outbox.run(
            services.watcher_chat,
            self.code,
            self.connection_id,
            message.text,
            sender=self.identity()[0],
            address=limits.socket_address(self.scope),
        )
        if name != self.watcher_name:  # A player sat down under a name like this watcher's.
            self.watcher_name = name
            self.beat()
            await self.send_watching()

    async def do_watcher_name(self, message: protocol.WatcherName) -> None:
        assert self.connection_id is not None
        self.not_acting_for_a_seat(message)
        self.watcher_name = await outbox.run(
            services.watcher_name, self.code, self.connection_id, message.name
        )
        self.beat()
        await self.send_watching(message.id)

    async def do_read_watchers(self, message: protocol.ReadWatchers) -> None:
        if self.player_id is None:
            raise CommandError(
                "not_a_player", "watchers always read the watchers' chat; players choose to"
            )
        if message.seat is not None:  # As every command of a seat: its own seat only.
            await outbox.on_database_thread(services.check_seat, self.code)(
                self.code, self.player_id, message.seat
            )
        self.reads_watchers = message.read
        await self.send_watching(message.id)

    def not_acting_for_a_seat(self, message: protocol.Message) -> None:
        """A watcher's command names no seat: a watcher acts for nobody."""
        if message.seat is not None:
            raise CommandError("not_your_seat", "a watcher acts for no seat")

    async def do_rematch(self, message: protocol.Rematch) -> None:
        # The rematch event reaches everyone in the room, the asker too, with the new room.
        await outbox.run(services.rematch, self.code, self.player_id, as_seat=message.seat)

    async def do_coach(self, message: protocol.Coach) -> None:
        await self.call(services.set_coach, message, message.on)

    async def do_bot_pace(self, message: protocol.BotPace) -> None:
        await self.call(services.set_bot_pace, message, message.pace)

    async def do_show_odds(self, message: protocol.ShowOdds) -> None:
        await self.call(services.set_show_odds, message, message.show)

    async def do_add_bot(self, message: protocol.AddBot) -> None:
        await self.call(services.add_bot, message, message.level)

    async def do_remove_bot(self, message: protocol.RemoveBot) -> None:
        await self.call(services.remove_bot, message, message.bot)

    async def do_back(self, message: protocol.Back) -> None:
        await self.call(services.come_back, message)

    async def do_remove_player(self, message: protocol.RemovePlayer) -> None:
        await self.call(services.remove_player, message, message.player)

    async def do_hand_to_bot(self, message: protocol.HandToBot) -> None:
        await self.call(services.hand_to_bot, message, message.player)

    async def do_advice(self, message: protocol.Advice) -> None:
        """The coach's advice for the player on turn, to this connection alone."""
        position, version, cards, left = await outbox.on_database_thread(
            services.coach_view, self.code
        )(self.code, self.player_id, as_seat=message.seat)
        # A table may load from disk (or compute) first: off the database thread.
        advice = await sync_to_async(coach.advice, thread_sensitive=False)(
            position, version, cards, left
        )
        await self.send_json({**advice, "id": message.id})

    async def do_odds(self, message: protocol.Odds) -> None:
        """Each seat's chance to win, to this connection alone (watchers, and players in a room
        that shows them): worked out once per version of the play in this process, off the
        event loop and off the database thread.

        The request is checked here (a refusal is answered at once); the answer is sent
        by a task of its own, so the room's events go on reaching this socket meanwhile
        (the first answer in a process may load the odds table from disk, or build it).
        The page drops an answer that a newer move overtook.
        """
        game, version = await outbox.on_database_thread(services.odds_game, self.code)(
            self.code, self.player_id, message.version, as_seat=message.seat
        )
        task = asyncio.ensure_future(self.send_odds(game, version, message))
        self.odds_tasks.add(task)
        task.add_done_callback(self.odds_tasks.discard)

    async def send_odds(self, game: rules.Game, version: int, message: protocol.Odds) -> None:
        work = sync_to_async(chances.odds_message, thread_sensitive=False)
        try:
            answer = await odds_answers.get((self.code, version), lambda: work(game, version))
        except Exception:  # A fault of ours: the asker is told, and may ask again.
            logger.exception("the chances to win in %s at %s failed", self.code, version)
            await self.send_error(
                "unavailable", "the chances to win could not be worked out: ask again", message.id
            )
            return
        await self.send_json({**answer, "version": message.version, "id": message.id})

    async def do_snapshot(self, message: protocol.SnapshotRequest) -> None:
        await self.send_snapshot()

    async def do_ping(self, message: protocol.Ping) -> None:
        await self.send_json({"type": "pong", "id": message.id})

    #: The handler of each message type; every type of :data:`protocol.ClientMessage` has one.
    commands: ClassVar[dict[type[protocol.Message], Handler]] = {
        protocol.Join: do_join,
        protocol.Resume: do_resume,
        protocol.Leave: do_leave,
        protocol.Start: do_start,
        protocol.Roll: do_roll,
        protocol.Hold: do_hold,
        protocol.Score: do_score,
        protocol.Chat: do_chat,
        protocol.WatcherChat: do_watcher_chat,
        protocol.WatcherName: do_watcher_name,
        protocol.ReadWatchers: do_read_watchers,
        protocol.Rematch: do_rematch,
        protocol.Coach: do_coach,
        protocol.BotPace: do_bot_pace,
        protocol.ShowOdds: do_show_odds,
        protocol.AddBot: do_add_bot,
        protocol.RemoveBot: do_remove_bot,
        protocol.Back: do_back,
        protocol.RemovePlayer: do_remove_player,
        protocol.HandToBot: do_hand_to_bot,
        protocol.Advice: do_advice,
        protocol.Odds: do_odds,
        protocol.SnapshotRequest: do_snapshot,
        protocol.Ping: do_ping,
    }

    async def call(
        self, service: Callable[..., Any], message: protocol.Message, *args: Any, **kw: Any
    ) -> Any:
        """Run a command of this connection's seat and return what it returns; its events
        come back through the group."""
        return await outbox.run(
            service, self.code, self.player_id, *args, as_seat=message.seat, **kw
        )

    # -- to the client ------------------------------------------------------

    async def send_snapshot(self) -> dict[str, Any]:
        snapshot = await outbox.on_database_thread(services.snapshot, self.code)(
            self.code, self.player_id
        )
        self.version = max(self.version, snapshot["version"])
        await self.send_json(snapshot)
        return snapshot

    async def send_watching(self, request_id: protocol.RequestId = None) -> None:
        """Tell this connection how it takes part in the watchers' chat: as a watcher, under
        its name (a watcher arrives with one; one that gave up its seat is given the first
        free ``Watcher N`` here), or as a player who reads it or not."""
        if self.player_id is None and self.watcher_name is None:
            assert self.connection_id is not None
            self.watcher_name = await outbox.run(
                services.watcher_name, self.code, self.connection_id
            )
            self.beat()
        watching = self.player_id is None
        await self.send_json(
            {
                "type": "watching",
                "name": self.watcher_name if watching else None,
                "read": watching or self.reads_watchers,
                "id": request_id,
            }
        )

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=_encoder.encode(content).decode())

    async def game_event(self, message: dict[str, Any]) -> None:
        """Events from the room's group (:func:`games.live.outbox.send`): each sent on unless this
        connection has it already."""
        for version, text in zip(message["versions"], message["texts"], strict=True):
            if version > self.version:
                self.version = version
                await self.send(text_data=text)

    async def layer_reconnected(self, message: dict[str, Any]) -> None:
        """Redis is back after an outage (:mod:`games.live.layers`): what this socket missed
        meanwhile is in a fresh snapshot."""
        if self.connection_id is not None:  # It had arrived: it has a room to catch up on.
            with contextlib.suppress(*UNAVAILABLE):  # The client asks again if need be.
                await self.send_snapshot()

    async def game_watcher_chat(self, message: dict[str, Any]) -> None:
        """A line of the watchers' chat (:func:`games.live.services.watcher_chat`): to watchers,
        and to players who chose to read it."""
        if self.player_id is None or self.reads_watchers:
            for text in message["texts"]:
                await self.send(text_data=text)

    async def game_presence(self, message: dict[str, Any]) -> None:
        for text in message["texts"]:
            await self.send(text_data=text)
