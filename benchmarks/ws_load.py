"""Load benchmark of the live rooms: real games over real websockets against a real Daphne.

Run it from the project's root, with the project's virtualenv::

    .venv/bin/python benchmarks/ws_load.py --games 10 100 300 --duration 30
    .venv/bin/python benchmarks/ws_load.py --mode game --games 10 --think 0   # throughput
    .venv/bin/python benchmarks/ws_load.py --games 100 --processes 2 \
        --database-url postgres://postgres@127.0.0.1:5432/bench_pg --redis-url redis://127.0.0.1:6379/5
    .venv/bin/python benchmarks/ws_load.py --mode game --url http://127.0.0.1:8000 --games 10

What it does
------------
Unless given ``--url``, it starts the server for each N and mode itself, the
way it is deployed: ``manage.py migrate``, then ``--processes`` ``daphne``
processes with ``DEBUG=false``, a generated ``SECRET_KEY``,
``SECURE_SSL_REDIRECT=false`` (plain http on the loopback),
``YAHTZEE_RATE_LIMITS=false`` (every room comes from one address) and
``LOG_LEVEL=WARNING``, on a fresh SQLite file in a temporary directory (or
``--database-url``) and the in-memory channel layer (or channels-redis on
``--redis-url``, which several processes need; each room's sockets are then
spread over the processes).

Two modes (``--mode both``, the default, runs each N in both and compares
them): ``game``, the site; and ``floor``, the bare relay of
``benchmarks/relay.py`` (no database) served the same way with the same
channel layer, driven by the same players, who make the events up themselves
and send them for the relay to pass to the room's three sockets. The floor
says what Daphne, Channels and the channel layer cost; the table at the end
gives the game's CPU per command and p99 as multiples of the floor's.

It then sets up N rooms, each with three sockets: the host (the game is made
with ``POST /api/games/`` and the host takes the seat with its token), a second
player who sits down with ``join``, and a watcher. When every room is ready,
the games play at once: scripted players roll, roll again holding the most
common face, and score the box worth the most among those the rules allow
(the client keeps each card with :class:`games.engine.rules.Scorecard`, so the forced
Joker is obeyed, and checks its totals against the server's). Between actions
a player "thinks" for a random 0.3 to 1.0 s (``--think``), as a person would,
so that many games make a realistic load; ``--think 0`` plays as fast as the
server's per-connection rate limit lets it, to measure throughput. Games are
played to the end (13 rounds), or until ``--duration`` seconds have passed.

``--whole-games`` times whole games instead of a play phase: each room is a solo
game (one seat) created over the API, its player and two watchers connected, 13
turns played and its sockets closed, each room on its own from a common start;
the server's CPU over all of it is divided by the commands played, against the
floor doing the same connections and relaying one message per command.

What it measures, and why
-------------------------
* **Command to broadcast**: for every command (start, roll, score), the time
  from sending it to its event reaching *every* socket in the room (all three).
  That is what a player feels: the moment everyone at the table sees the dice.
  p50, p99 and max.
* **The floor**: in the same run, on the same kind of socket, each watcher
  sends a ``ping`` now and then and times the ``pong``. That is a bare round
  trip through Daphne and the consumer, with no service call and no channel
  layer, under the same load. The ratio command/ping (at p50 and at p99) says
  how much the game's own work (a transaction on SQLite and the group send)
  adds to the cost of merely talking to the server. (Channels' stock
  ``dispatch`` runs ``close_old_connections`` on the one database thread
  before every handler, the ping's too: unless the consumer skips that, a
  loaded database queue delays the floor as well, and the ratio looks better
  than the game's own cost is.)
* **Commands per second** over the play phase (with think time this is the
  offered load; with ``--think 0`` it is the throughput).
* **Server memory**: the Daphne process's RSS (``VmRSS`` in ``/proc``) when
  idle, at its peak and at the end of play; and the server's CPU use during
  play (``/proc/<pid>/stat``), which shows when one process is saturated, with
  the share of its main thread (the event loop: Twisted, Channels, consumers);
  the rest is mostly the thread ``database_sync_to_async`` runs services on.
* **The client's own health**: its CPU use and its event-loop lag. The client
  shares the machine with the server; if its CPU nears 100 % or its loop lags,
  the figures measure the client, not the server: split it with ``--clients K``.

The issue's targets: at 100 games, p99 under 50 ms and a ratio under 3. The
script prints figures and never asserts them. It exits non-zero only when
something went wrong: an ``error`` message from the server (which means this
script sent something wrong), a missing or out-of-order event, a timeout, or a
total that differs from the client's own card.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import queue
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.typing import Origin  # noqa: E402

from benchmarks import quick  # noqa: E402
from games.engine import rules  # noqa: E402  (pure Python: imports nothing from Django)
from games.wire.presentation import card_json  # noqa: E402  (pure too)

SOCKETS_PER_ROOM = 3
#: The sockets of a room by role, seats first: two players and a watcher, or (whole
#: games, ``True``) a player alone and two watchers.
SHAPES = {False: ("host", "guest", "watcher"), True: ("host", "watcher", "watcher 2")}
#: Events each socket keeps by version, for a driver that looks for one after more came.
KEEP_EVENTS = 64
#: The server's per-connection rate limit (games/live/consumers.py RateLimit) is 30 at once,
#: then 10 a second; the players stay a little under it.
RATE_BURST = 20
RATE_PER_SECOND = 9.0


# --------------------------------------------------------------------------
# Settings of a run
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """What one client process needs to play its share of the games."""

    mode: str  # "game" (the site) or "floor" (benchmarks/relay.py)
    #: Whole solo games: one player and two watchers a room, each game timed from its
    #: creation to its sockets' close (see :func:`run_client`); else two players and a
    #: watcher, and the play phase alone.
    whole: bool
    http_url: str
    #: One per server process; a room's sockets are spread over them, as a proxy would.
    ws_urls: tuple[str, ...]
    think_min: float
    think_max: float
    ping_interval: float
    duration: float | None
    timeout: float
    #: Seconds without an awaited event before a socket asks for a snapshot; 0: never.
    resync: float
    setup_concurrency: int
    seed: int | None


# --------------------------------------------------------------------------
# Figures collected by one client process
# --------------------------------------------------------------------------


@dataclass
class Stats:
    """Raw figures of one client process; the parent merges them (see :func:`merge`)."""

    #: (kind, seconds to the last of the room's sockets, seconds to the first).
    broadcasts: list[tuple[str, float, float]] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    setup_seconds: float = 0.0
    play_seconds: float = 0.0
    cpu_seconds: float = 0.0
    throttled: int = 0
    #: Snapshots asked for because an awaited event did not come (or came after a gap),
    #: and the events found in their ``recent`` list that had never reached the socket.
    resyncs: int = 0
    recovered: int = 0
    #: Commands whose event had not reached all three sockets when their game ended.
    undelivered: int = 0

    def error(self, text: str) -> None:
        self.errors.append(text)


# --------------------------------------------------------------------------
# One socket and one room
# --------------------------------------------------------------------------


class Pacer:
    """Keeps one socket under the server's rate limit (a token bucket, like the server's)."""

    def __init__(self) -> None:
        self.tokens = float(RATE_BURST)
        self.updated = time.monotonic()

    def delay(self) -> float:
        """Take a token; the seconds to wait first (0 when one is at hand)."""
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.updated) * RATE_PER_SECOND)
        self.updated = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / RATE_PER_SECOND


class Pending:
    """A command in flight: when it was sent, and how many of the room's sockets await its event."""

    __slots__ = ("first", "kind", "remaining", "sent", "version")

    def __init__(self, kind: str, version: int) -> None:
        self.kind = kind
        self.version = version
        self.remaining = SOCKETS_PER_ROOM
        self.sent = 0.0
        self.first: float | None = None

    def stamp(self, sent: float) -> None:
        self.sent = sent

    def arrived(self, now: float, room: Room) -> None:
        """Its event reached one more socket; at the last one, the figure is taken."""
        if self.first is None:
            self.first = now
        self.remaining -= 1
        if self.remaining == 0:
            del room.pending[self.version]
            if not room.pending:
                room.delivered.set()
            if room.measuring:
                room.stats.broadcasts.append((self.kind, now - self.sent, self.first - self.sent))


class Conn:
    """One websocket in a room: it reads every message, times events and answers waiters."""

    def __init__(self, room: Room, role: str, ws: ClientConnection) -> None:
        self.room = room
        self.role = role
        self.ws = ws
        self.version = 0
        #: The events this socket received, by version (the last ``KEEP_EVENTS``).
        self.events: dict[int, dict[str, Any]] = {}
        self.pacer = Pacer()
        #: A driver waiting for this socket to reach a version: (version, future).
        self.waiter: tuple[int, asyncio.Future[dict[str, Any]]] | None = None
        self.kind_waiter: tuple[str, asyncio.Future[dict[str, Any]]] | None = None
        self.pings: dict[int, float] = {}
        self.reader: asyncio.Task[None] | None = None
        self.resyncing = False

    async def send(
        self, message: dict[str, Any], stamp: Callable[[float], None] | None = None
    ) -> None:
        """Send a message, after a pause if the rate limit needs one.

        ``stamp`` gets the time it leaves, before the send (whose answer may come
        back before the send returns), so the pause is not counted.
        """
        wait = self.pacer.delay()
        if wait:
            self.room.stats.throttled += 1
            await asyncio.sleep(wait)
        text = json.dumps(message)
        if stamp is not None:
            stamp(time.perf_counter())
        await self.ws.send(text)

    # -- receiving --------------------------------------------------------

    async def read_forever(self) -> None:
        try:
            async for raw in self.ws:
                self.handle(raw, time.perf_counter())
        except Exception as exc:  # A socket the server dropped.
            if not self.room.closing:
                self.room.fail(f"{self.role} socket closed: {exc!r}")
            return
        if not self.room.closing:
            self.room.fail(f"{self.role} socket closed by the server")

    def handle(self, raw: str | bytes, now: float) -> None:
        """One message, as cheaply as possible: one json.loads and a few lookups."""
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "event":
            self.on_event(message, now)
        elif kind == "pong":
            sent = self.pings.pop(message.get("id"), None)
            if sent is not None and self.room.measuring:
                self.room.stats.pings.append(now - sent)
        elif kind == "snapshot":
            if self.resyncing:
                self.catch_up(message, now)
            else:
                self.version = max(self.version, message["version"])
        elif kind == "error":
            self.room.fail(f"{self.role}: error {message.get('code')}: {message.get('message')}")
        if self.kind_waiter is not None and self.kind_waiter[0] == kind:
            future = self.kind_waiter[1]
            self.kind_waiter = None
            if not future.done():
                future.set_result(message)

    def on_event(self, message: dict[str, Any], now: float) -> None:
        version = message["version"]
        if self.version and version <= self.version and self.room.opts.resync:
            return  # Old news: already taken from a snapshot.
        if self.version and version != self.version + 1:
            if self.room.opts.resync:  # As the room page does: ask for the room again.
                self.resync()
                return
            self.room.fail(f"{self.role}: event {version} after {self.version} (a gap)")
        self.version = max(self.version, version)
        self.events[version] = message
        self.events.pop(version - KEEP_EVENTS, None)
        pending = self.room.pending.get(version)
        if pending is not None:
            pending.arrived(now, self.room)
        if self.waiter is not None and version >= self.waiter[0]:
            awaited, future = self.waiter
            self.waiter = None
            if not future.done():
                future.set_result(self.events.get(awaited, message))

    # -- resyncing --------------------------------------------------------

    def resync(self) -> None:
        """Ask for a snapshot: its ``recent`` events bring this socket up to date."""
        if not self.resyncing:
            self.resyncing = True
            self.room.stats.resyncs += 1
            task = asyncio.get_running_loop().create_task(self.ws.send('{"type": "snapshot"}'))
            self.room.background.add(task)
            task.add_done_callback(self.room.background.discard)

    def catch_up(self, snapshot: dict[str, Any], now: float) -> None:
        """Take the events this socket missed from a snapshot's ``recent`` list, in order."""
        self.resyncing = False
        for message in snapshot.get("recent", []):
            if message.get("type") == "event" and message["version"] > self.version:
                self.room.stats.recovered += 1
                self.on_event(message, now)
        if self.version < snapshot["version"]:
            self.room.fail(f"{self.role}: a snapshot at {snapshot['version']} left a gap")

    # -- waiting ----------------------------------------------------------

    async def reach(self, version: int, timeout: float) -> dict[str, Any] | None:
        """Wait until this socket has seen event ``version``, and return that event.

        It may have come already, with others after it: several events often arrive
        in one read (the start and its roll-off, a score and the end), and are all
        handled before the waiting driver runs again.
        """
        if self.version >= version:
            return self.events.get(version)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiter = (version, future)
        self.room.waiting.add(future)
        resync = self.room.opts.resync
        try:
            if resync and resync < timeout:
                # What a client must do never to stay stalled: an event that never comes
                # leaves no gap to see, so after a while without it, ask for the room.
                done, _ = await asyncio.wait({future}, timeout=resync)
                if not done:
                    self.resync()
                    timeout -= resync
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            # A stall: say which event never came, and what the room's sockets had seen.
            seen = ", ".join(f"{c.role} {c.version}" for c in self.room.conns)
            raise RuntimeError(
                f"{self.role}: no event {version} in {timeout:.0f} s (sockets at: {seen})"
            ) from None
        finally:
            self.room.waiting.discard(future)

    async def expect(self, kind: str, timeout: float) -> dict[str, Any]:
        """Wait for the next message of type ``kind`` (setup only)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.kind_waiter = (kind, future)
        self.room.waiting.add(future)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self.room.waiting.discard(future)


class Room:
    """One game: its three sockets, and the scripted players who play it."""

    def __init__(self, number: int, opts: Options, stats: Stats, rng: random.Random) -> None:
        self.number = number
        self.opts = opts
        self.stats = stats
        self.rng = rng
        self.code = ""
        self.conns: list[Conn] = []
        self.players: list[Conn] = []  # By seat.
        self.watcher: Conn | None = None  # The one that pings.
        #: Commands in flight, by the version their event will carry.
        self.pending: dict[int, Pending] = {}
        #: Set while no command is in flight: every event reached every socket.
        self.delivered = asyncio.Event()
        self.delivered.set()
        self.waiting: set[asyncio.Future[dict[str, Any]]] = set()
        self.background: set[asyncio.Task[None]] = set()
        self.seats = 1 if opts.whole else 2
        self.cards = [rules.Scorecard(rules.OFFICIAL) for _ in range(self.seats)]
        #: In floor mode the client makes the events up itself: the relay has no game.
        self.table = FloorTable(self) if opts.mode == "floor" else None
        self.version = 0
        self.measuring = False
        self.closing = False
        self.failed = False

    def fail(self, text: str) -> None:
        """Record an error, and stop this room's driver (its waits fail at once)."""
        self.stats.error(f"game {self.number} ({self.code}): {text}")
        self.failed = True
        for future in list(self.waiting):
            if not future.done():
                future.set_exception(RuntimeError(text))

    # -- setup --------------------------------------------------------------

    async def open(self, role: str) -> Conn:
        urls = self.opts.ws_urls
        base = urls[(SOCKETS_PER_ROOM * self.number + len(self.conns)) % len(urls)]
        path = f"relay/{self.code}" if self.table is not None else f"games/{self.code}"
        ws = await connect(
            f"{base}/ws/{path}/",
            # The page a browser opens this socket from was served by the same process
            # (ws -> http, wss -> https): each process accepts its own origin only.
            origin=Origin("http" + base.removeprefix("ws")),
            compression=None,  # Keep the client's per-message work small.
            proxy=None,
            open_timeout=self.opts.timeout,
            max_size=2**20,
        )
        conn = Conn(self, role, ws)
        self.conns.append(conn)
        conn.reader = asyncio.create_task(conn.read_forever())
        return conn

    async def set_up(self) -> None:
        """Create the game, seat the host and a second player, and add a watcher (whole
        games: seat the host alone, and add two watchers)."""
        timeout = self.opts.timeout
        if self.table is not None:  # The floor: three sockets in a room of the relay.
            self.code = f"r{self.number}-{secrets.token_hex(4)}"
            for role in SHAPES[self.opts.whole]:
                conn = await self.open(role)
                await conn.expect("snapshot", timeout)
            self.players, self.watcher = self.conns[: self.seats], self.conns[self.seats]
            return
        body = {"name": f"Host {self.number}", "preset": rules.OFFICIAL.name, "seats": self.seats}
        created = await asyncio.to_thread(post_json, f"{self.opts.http_url}/api/games/", body)
        self.code = created["code"]

        host = await self.open("host")
        await host.expect("snapshot", timeout)
        await host.send({"type": "resume", "token": created["token"], "id": 1})
        snap = await host.expect("snapshot", timeout)
        if (snap.get("you") or {}).get("seat") != 0:
            raise RuntimeError(f"resume did not give the host seat 0: {snap.get('you')}")
        self.players = [host]

        if self.seats == 2:
            guest = await self.open("guest")
            await guest.expect("snapshot", timeout)
            await guest.send({"type": "join", "name": f"Guest {self.number}", "id": 1})
            joined = await guest.expect("joined", timeout)
            if joined.get("seat") != 1:
                raise RuntimeError(f"join gave seat {joined.get('seat')}, not 1")
            self.players.append(guest)

        for role in SHAPES[self.opts.whole][self.seats :]:
            watcher = await self.open(role)
            await watcher.expect("snapshot", timeout)
        self.watcher = self.conns[self.seats]
        # Every socket must have seen the join before play starts.
        self.version = max(c.version for c in self.conns)
        for conn in self.conns:
            await conn.reach(self.version, timeout)

    # -- play ---------------------------------------------------------------

    async def think(self) -> None:
        if self.opts.think_max > 0:
            await asyncio.sleep(self.rng.uniform(self.opts.think_min, self.opts.think_max))

    async def command(self, conn: Conn, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send a command and wait for its first event on the sender's socket."""
        expected = self.version + 1
        message["version"] = self.version
        if self.table is not None:  # The relay sends the room what it is sent.
            seat = self.players.index(conn)
            data = self.table.event(kind, message, seat)
            message = {"type": "event", "version": expected, "kind": kind, "data": data}
        pending = self.pending[expected] = Pending(kind, expected)
        self.delivered.clear()
        await conn.send(message, pending.stamp)
        event = await conn.reach(expected, self.opts.timeout)
        if event is None or event["version"] != expected:
            raise RuntimeError(f"{kind}: expected event {expected}, got {event}")
        return event

    async def play(self, deadline: float | None) -> bool:
        """Play the game to its end (True), or until ``deadline`` (False)."""
        timeout = self.opts.timeout
        await asyncio.sleep(self.rng.uniform(0, self.opts.think_max))  # Rooms start apart.
        host = self.players[0]
        event = await self.command(host, "start", {"type": "start"})
        # The roll-off follows the start in the same batch; the last one names the first seat.
        # Each is awaited by its own version: waiting for "the host's version + 1" skipped
        # the deciding one when it came in one read with a tied throw before it, and then
        # waited for an event only this driver's next roll would cause (issue 15's stalls).
        while event is None or event["data"].get("first") is None:
            version = host.version + 1 if event is None else event["version"] + 1
            event = await host.reach(version, timeout)
        self.version = event["version"]
        seat: int | None = event["data"]["first"]

        while seat is not None:
            if deadline is not None and time.perf_counter() >= deadline:
                return False
            conn = self.players[seat]
            await conn.reach(self.version, timeout)  # The player sees it is their turn.
            await self.think()
            event = await self.command(conn, "roll", {"type": "roll", "hold": []})
            self.version = event["version"]
            while event["data"]["rolls_left"] > 0:
                hold = choose_hold(event["data"]["dice"])
                if hold is None or self.rng.random() < 0.2:
                    break
                await self.think()
                event = await self.command(conn, "roll", {"type": "roll", "hold": hold})
                self.version = event["version"]
            dice = event["data"]["dice"]
            category = choose_box(self.cards[seat], dice)
            await self.think()
            event = await self.command(conn, "score", {"type": "score", "category": category})
            self.version = event["version"]
            data = event["data"]
            self.cards[seat] = self.cards[seat].score(data["category"], data["dice"])
            if data["category"] != category or data["total"] != self.cards[seat].total:
                self.fail(f"scored {data} but the client's card says {self.cards[seat].total}")
            seat = data["next"]
        self.stats.finished += 1
        return True

    async def all_delivered(self, within: float) -> None:
        """Wait until every command's event reached all the room's sockets, at most ``within``
        seconds (the events still missing then are counted as never delivered)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.delivered.wait(), within)

    async def ping_loop(self) -> None:
        """The floor: the watcher pings now and then and times the pong."""
        assert self.watcher is not None
        number = 0
        while True:
            await asyncio.sleep(self.opts.ping_interval * self.rng.uniform(0.5, 1.5))
            number += 1
            await self.watcher.send(
                {"type": "ping", "id": number}, partial(self.watcher.pings.__setitem__, number)
            )

    async def close(self) -> None:
        self.closing = True
        for conn in self.conns:
            await conn.ws.close()
            if conn.reader is not None:
                conn.reader.cancel()


class FloorTable:
    """The floor's stand-in for the server's game: the events a game would broadcast,
    made up by the client (the same kinds, fields and sizes), for the relay to pass on."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.dice: list[int] = []
        self.rolls_left = 3

    def event(self, kind: str, message: dict[str, Any], seat: int) -> dict[str, Any]:
        rng, room = self.room.rng, self.room
        if kind == "start":
            names = ["Host", "Guest"][: room.seats]
            return {"players": names, "first": rng.randrange(room.seats)}
        if kind == "roll":
            hold = message["hold"]
            self.dice = [
                self.dice[i] if i in hold else rng.randint(1, 6) for i in range(rules.DICE_COUNT)
            ]
            self.rolls_left -= 1
            options = room.cards[seat].options(self.dice)
            return {
                "seat": seat,
                "dice": self.dice,
                "held": sorted(hold),
                "rolls_left": self.rolls_left,
                "options": {c.value: points for c, points in options.items()},
            }
        before = room.cards[seat]
        card = before.score(message["category"], self.dice)
        others = [c for number, c in enumerate(room.cards) if number != seat]
        over = card.is_complete and all(other.is_complete for other in others)
        data = {
            "seat": seat,
            "category": message["category"],
            "points": card[rules.Category(message["category"])],
            "dice": self.dice,
            "yahtzee_bonus": card.yahtzee_bonus_count > before.yahtzee_bonus_count,
            "total": card.total,
            "next": None if over else (seat + 1) % room.seats,
            "round": len(card.filled),
            "card": card_json(card),
        }
        self.dice, self.rolls_left = [], 3
        return data


def choose_hold(dice: list[int]) -> list[int] | None:
    """Keep the most common face (the higher on a tie); ``None`` to stop on a good hand."""
    counts = Counter(dice)
    if len(counts) == 1 or sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return None
    face = max(counts, key=lambda f: (counts[f], f))
    return [i for i, f in enumerate(dice) if f == face]


def choose_box(card: rules.Scorecard, dice: list[int]) -> str:
    """The allowed box worth the most (the forced Joker may allow only one)."""
    options = card.options(dice)
    best = max(options, key=lambda c: options[c])
    return best.value


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a JSON body (no proxies) and return the JSON answer."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with opener.open(request, timeout=30) as response:
        return json.loads(response.read())


# --------------------------------------------------------------------------
# One client process
# --------------------------------------------------------------------------


async def loop_lag_monitor(stats: Stats, running: asyncio.Event) -> None:
    """How late the client's event loop wakes up: if it lags, the client is the bottleneck."""
    interval = 0.05
    while True:
        start = time.perf_counter()
        await asyncio.sleep(interval)
        if running.is_set():
            stats.loop_lags.append(time.perf_counter() - start - interval)


async def run_client(first: int, count: int, opts: Options, gate: Any, report: Any) -> None:
    """Play ``count`` rooms, waiting at the gate for every client, and report the figures.

    By default every room is set up first, then the gate, then all play at once; the
    figures are reported before the sockets close, since closing hundreds of sockets
    is load of its own (each one is a write and a presence broadcast). With whole
    games (``opts.whole``) the gate comes first, and each room then lives its whole
    life on its own: created, its sockets connected, played and closed, all timed.
    """
    stats = Stats(games=count)
    rng = random.Random(None if opts.seed is None else opts.seed + first)
    rooms = [Room(first + i, opts, stats, random.Random(rng.random())) for i in range(count)]
    limit = asyncio.Semaphore(opts.setup_concurrency)

    async def set_up(room: Room) -> None:
        async with limit:
            try:
                await room.set_up()
            except Exception as exc:
                room.fail(f"setup failed: {exc!r}")

    async def play(room: Room, deadline: float | None) -> None:
        try:
            await room.play(deadline)
        except Exception as exc:
            if not room.failed:
                room.fail(f"play stopped: {exc!r}")

    async def whole_game(room: Room) -> None:
        await set_up(room)
        stats.setup_seconds = max(stats.setup_seconds, time.perf_counter() - started)
        if room.failed:
            return
        room.measuring = True
        pings = asyncio.create_task(room.ping_loop()) if opts.ping_interval > 0 else None
        await play(room, None)
        await room.all_delivered(2)
        stats.undelivered += len(room.pending)
        room.measuring = False
        if pings is not None:
            pings.cancel()
        await room.close()

    measuring = asyncio.Event()
    lag = asyncio.create_task(loop_lag_monitor(stats, measuring))
    try:
        if opts.whole:
            await asyncio.to_thread(gate)
            measuring.set()
            started = time.perf_counter()
            cpu_start = time.process_time()
            await asyncio.gather(*(whole_game(room) for room in rooms))
            stats.play_seconds = time.perf_counter() - started
            stats.cpu_seconds = time.process_time() - cpu_start
            report(stats)
            return

        started = time.perf_counter()
        await asyncio.gather(*(set_up(room) for room in rooms))
        stats.setup_seconds = time.perf_counter() - started
        await asyncio.to_thread(gate)
        measuring.set()
        ready = [room for room in rooms if not room.failed]
        for room in ready:
            room.measuring = True
        pinging = ready if opts.ping_interval > 0 else []
        pings = [asyncio.create_task(room.ping_loop()) for room in pinging]
        cpu_start = time.process_time()
        play_start = time.perf_counter()
        deadline = None if opts.duration is None else play_start + opts.duration
        await asyncio.gather(*(play(room, deadline) for room in ready))
        stats.play_seconds = time.perf_counter() - play_start
        stats.cpu_seconds = time.process_time() - cpu_start
        # The last events may still be on their way; what has not come in 2 s never will.
        await asyncio.gather(*(room.all_delivered(2) for room in ready))
        stats.undelivered = sum(len(room.pending) for room in ready)
        for room in rooms:
            room.measuring = False
        for task in pings:
            task.cancel()
        await asyncio.gather(*pings, return_exceptions=True)
        report(stats)
    finally:
        measuring.clear()
        lag.cancel()
        await asyncio.gather(lag, return_exceptions=True)
        await asyncio.gather(*(room.close() for room in rooms), return_exceptions=True)


def client_process(first: int, count: int, opts: Options, messages: Any, go: Any) -> None:
    """One client process: its share of the games.

    It tells the parent ``("ready", first)`` once its rooms are set up (whole
    games: before it sets any up), waits for ``go``, plays, and sends
    ``("stats", Stats)``.
    """
    reported = False

    def gate() -> None:
        messages.put(("ready", first))
        go.wait()

    def report(stats: Stats) -> None:
        nonlocal reported
        reported = True
        messages.put(("stats", stats))

    try:
        asyncio.run(run_client(first, count, opts, gate, report))
    except BaseException as exc:
        if not reported:
            error = f"client for games {first}+: {exc!r}"
            messages.put(("stats", Stats(games=count, errors=[error])))


# --------------------------------------------------------------------------
# The server under test
# --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


APPS = {"game": "yahtzee_site.asgi:application", "floor": "benchmarks.relay:application"}
#: How long the servers may take to answer /health/ after they start, in seconds: a bound on
#: a failure, not a measure. 30 s ran out for five quick runs of the suite at a load of 40-56
#: (Daphne imports Django and the site, and loads the strategy tables, on a starved CPU).
START_PATIENCE = 120.0


class Server:
    """The server under test, configured as a deployed site: ``processes`` Daphne
    processes serving ``app`` ("game", the site, or "floor", the bare relay of
    ``benchmarks/relay.py``) on one database and one channel layer.

    With no ``database_url``, a fresh SQLite file in a temporary directory; with no
    ``redis_url``, the in-memory channel layer (one process only). A Redis database
    given is flushed first: give it one of its own.
    """

    def __init__(
        self,
        app: str = "game",
        database_url: str | None = None,
        redis_url: str | None = None,
        processes: int = 1,
        log_level: str = "WARNING",
        cpu_quota: float | None = None,
    ) -> None:
        if processes > 1 and not redis_url:
            raise ValueError("several processes share rooms only through Redis: give --redis-url")
        self.app = APPS[app]
        self.redis_url = redis_url
        self.workdir = Path(tempfile.mkdtemp(prefix="yahtzee-bench-"))
        self.ports = [free_port() for _ in range(processes)]
        self.urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.url = self.urls[0]
        self.processes: list[subprocess.Popen[bytes]] = []
        self.cpu_quota = cpu_quota
        self.cgroups: list[Path] = []
        self.log_path = self.workdir / "daphne.log"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DATABASE_URL": database_url or f"sqlite:///{self.workdir}/bench.sqlite3",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "false",
            "SECURE_SSL_REDIRECT": "false",  # Plain http on the loopback.
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": log_level,
            # Hundreds of rooms from one address: over the limit on opening rooms.
            "YAHTZEE_RATE_LIMITS": "false",
        }
        if redis_url:
            self.env["REDIS_URL"] = redis_url
        else:
            self.env.pop("REDIS_URL", None)  # The in-memory channel layer: one process.

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def start(self) -> None:
        python = sys.executable
        if self.app == APPS["game"]:  # The relay keeps nothing in the database.
            subprocess.run(
                [python, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
                cwd=ROOT,
                env=self.env,
                check=True,
            )
        if self.redis_url:
            import redis  # channels-redis's client

            redis.Redis.from_url(self.redis_url).flushdb()
        daphne = Path(python).with_name("daphne")
        daphne_command = [str(daphne)] if daphne.exists() else [shutil.which("daphne") or "daphne"]
        with open(self.log_path, "ab") as log:
            for port in self.ports:
                command = [*daphne_command, "-b", "127.0.0.1", "-p", str(port), self.app]
                self.processes.append(
                    subprocess.Popen(
                        command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
                    )
                )
                if self.cpu_quota is not None:
                    self.cgroups.append(cap_cpu(self.processes[-1].pid, self.cpu_quota))
        try:
            self.wait_until_ready()
        except BaseException:  # Its servers go with it: left running, they loaded the machine.
            self.stop()
            raise

    def wait_until_ready(self) -> None:
        """Return once every server answers /health/ (:data:`START_PATIENCE` at most)."""
        deadline = time.monotonic() + START_PATIENCE
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for url in self.urls:
            while True:
                if any(process.poll() is not None for process in self.processes):
                    raise RuntimeError(f"daphne exited at start:\n{self.log_tail()}")
                try:
                    with opener.open(f"{url}/health/", timeout=2) as response:
                        if response.status == 200:
                            break
                except (urllib.error.URLError, OSError):
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"daphne did not answer /health/ in {START_PATIENCE:.0f} s:\n"
                        f"{self.log_tail()}"
                    )
                time.sleep(0.1)

    def log_count(self, text: str) -> int:
        """How many lines of the servers' log contain ``text``."""
        try:
            return sum(
                text in line for line in self.log_path.read_text(errors="replace").splitlines()
            )
        except OSError:
            return 0

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for group in self.cgroups:
            group.rmdir()  # Empty now: its process has exited.
        shutil.rmtree(self.workdir, ignore_errors=True)


#: The cgroup (v1) CPU controller, where :func:`cap_cpu` makes a group for each process.
CPU_CGROUPS = Path("/sys/fs/cgroup/cpu")


def cap_cpu(pid: int, share: float) -> Path:
    """Let process ``pid`` (all its threads, and those it starts later) use at most
    ``share`` of one core, through a cgroup of its own (root only; cgroup v1's CPU
    controller). Each Daphne capped alike, a second process can be compared with the
    first on a machine whose cores the client, PostgreSQL and Redis share: at
    saturation, each process gets its share and no more, whatever the others do."""
    if not (CPU_CGROUPS / "cpu.cfs_quota_us").exists():
        raise SystemExit(f"--cpu-quota needs cgroup v1's CPU controller at {CPU_CGROUPS}")
    group = CPU_CGROUPS / f"yahtzee-bench-{pid}"
    group.mkdir()
    period = int((group / "cpu.cfs_period_us").read_text())
    (group / "cpu.cfs_quota_us").write_text(str(round(share * period)))
    (group / "cgroup.procs").write_text(str(pid))
    return group


def read_rss_mb(pids: list[int]) -> float | None:
    """The resident memory of the server's processes, from ``/proc/<pid>/status``
    (VmRSS), added up, in MB."""
    total = None
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total = (total or 0.0) + int(line.split()[1]) / 1024
        except OSError:
            return None
    return total


def _stat_cpu_seconds(path: str) -> float | None:
    try:
        with open(path) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # After the command name: utime and stime are fields 14 and 15 of stat(5).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def read_cpu_seconds(pids: list[int]) -> tuple[float, float] | None:
    """CPU time (user + system) of the server's processes, added up: (all threads,
    the main threads), from /proc.

    The main thread runs the event loop (Twisted, Channels, the consumers); the
    others are mostly the one thread that ``database_sync_to_async`` runs the
    services on.
    """
    if not pids:
        return None
    total = main = 0.0
    for pid in pids:
        process = _stat_cpu_seconds(f"/proc/{pid}/stat")
        thread = _stat_cpu_seconds(f"/proc/{pid}/task/{pid}/stat")
        if process is None or thread is None:
            return None
        total, main = total + process, main + thread
    return total, main


class InboxSampler(threading.Thread):
    """With channels-redis: the longest inbox of a server process, sampled every 0.1 s.

    channels-redis keeps the messages for every consumer of one process in one
    sorted set (``asgi:specific.<process>!``), and its ``capacity`` (100 by
    default) bounds that set, not each consumer: a ``group_send`` that finds it
    full drops the message for every socket of that process in the group, with
    only an INFO log line ("channels over capacity").
    """

    def __init__(self, redis_url: str) -> None:
        super().__init__(daemon=True)
        import redis  # channels-redis's client

        self.client = redis.Redis.from_url(redis_url)
        self.peak = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(0.1):
            try:
                keys = list(self.client.scan_iter(match="*specific.*!", count=1000))
                sizes = [self.client.zcard(key) for key in keys]
            except Exception:  # The server is being stopped: no figure this time.
                continue
            self.peak = max(self.peak, *sizes, 0)

    def stop(self) -> int:
        self.halt.set()
        self.join()
        return self.peak


class RssSampler(threading.Thread):
    """Samples the server's RSS every 0.2 s in the background and keeps the peak."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.peak = read_rss_mb(pids)
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(0.2):
            rss = read_rss_mb(self.pids)
            if rss is not None and (self.peak is None or rss > self.peak):
                self.peak = rss

    def stop(self) -> float | None:
        self.halt.set()
        self.join()
        return self.peak


# --------------------------------------------------------------------------
# One run: N games against one server
# --------------------------------------------------------------------------


@dataclass
class Result:
    """The merged figures of one N in one mode."""

    mode: str
    games: int
    clients: int
    stats: Stats
    rss_idle: float | None = None
    rss_peak: float | None = None
    rss_end: float | None = None
    #: The server's CPU time over the measured phase (every process, every thread), and
    #: the same in % of one core, all threads and the main threads (the event loops).
    server_cpu_seconds: float | None = None
    server_cpu: float | None = None
    server_cpu_main: float | None = None
    client_cpu: float = 0.0
    load: tuple[float, float] = (0.0, 0.0)
    #: With channels-redis: the longest inbox of a process, and the group sends it
    #: logged as dropped (only seen with --server-log-level INFO).
    inbox_peak: int | None = None
    layer_drops: int | None = None


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def merge(parts: list[Stats]) -> Stats:
    merged = Stats()
    for part in parts:
        merged.broadcasts += part.broadcasts
        merged.pings += part.pings
        merged.loop_lags += part.loop_lags
        merged.errors += part.errors
        merged.games += part.games
        merged.finished += part.finished
        merged.throttled += part.throttled
        merged.resyncs += part.resyncs
        merged.recovered += part.recovered
        merged.undelivered += part.undelivered
        merged.setup_seconds = max(merged.setup_seconds, part.setup_seconds)
        merged.play_seconds = max(merged.play_seconds, part.play_seconds)
        merged.cpu_seconds = max(merged.cpu_seconds, part.cpu_seconds)
    return merged


def next_message(messages: Any, processes: list[Any]) -> tuple[str, Any] | None:
    """The next message from the clients; None once they have all exited with nothing left."""
    while True:
        try:
            return messages.get(timeout=1)
        except queue.Empty:
            if not any(p.is_alive() for p in processes):
                try:
                    return messages.get(timeout=1)
                except queue.Empty:
                    return None


def run_games(games: int, mode: str, args: argparse.Namespace) -> Result:
    server: Server | None = None
    if args.url:
        urls = [url.rstrip("/") for url in args.url]
        pids = args.server_pid or []
    else:
        server = Server(
            mode,
            args.database_url,
            args.redis_url,
            args.processes,
            args.server_log_level,
            cpu_quota=args.cpu_quota,
        )
        server.start()
        urls, pids = server.urls, server.pids
    try:
        parts = urlsplit(urls[0])
        ws_scheme = "wss" if parts.scheme == "https" else "ws"
        opts = Options(
            mode=mode,
            whole=args.whole_games,
            http_url=urls[0],
            ws_urls=tuple(f"{ws_scheme}://{urlsplit(url).netloc}" for url in urls),
            think_min=args.think[0],
            think_max=args.think[-1],
            ping_interval=args.ping_interval,
            duration=args.duration,
            timeout=args.timeout,
            resync=args.resync if mode == "game" else 0.0,  # The relay keeps no room.
            setup_concurrency=args.setup_concurrency,
            seed=args.seed,
        )
        clients = max(1, min(args.clients, games))
        result = Result(mode=mode, games=games, clients=clients, stats=Stats())
        time.sleep(0.5)
        result.rss_idle = read_rss_mb(pids)
        sampler = RssSampler(pids)
        sampler.start()
        inboxes = InboxSampler(args.redis_url) if args.redis_url and not args.url else None
        if inboxes is not None:
            inboxes.start()
        load_before = os.getloadavg()[0]

        context = mp.get_context("spawn")
        messages, go = context.Queue(), context.Event()
        processes = []
        first = 0
        for size in split(games, clients):
            process = context.Process(
                target=client_process, args=(first, size, opts, messages, go), daemon=True
            )
            process.start()
            processes.append(process)
            first += size
        # Every client sets its rooms up, then all start playing at once.
        collected: list[Stats] = []
        ready = 0
        deadline = time.monotonic() + args.setup_timeout
        while ready + len(collected) < clients and time.monotonic() < deadline:
            message = next_message(messages, processes)
            if message is None:
                break
            if message[0] == "ready":
                ready += 1
            else:
                collected.append(message[1])
        go.set()
        cpu_start, play_start = read_cpu_seconds(pids), time.perf_counter()
        while len(collected) < clients:
            message = next_message(messages, processes)
            if message is None:
                missing = clients - len(collected)
                collected.append(Stats(errors=[f"{missing} client(s) died without figures"]))
                break
            if message[0] == "stats":
                collected.append(message[1])
        cpu_end, play_end = read_cpu_seconds(pids), time.perf_counter()
        result.rss_end = read_rss_mb(pids)
        result.load = (load_before, os.getloadavg()[0])
        for process in processes:
            process.join(timeout=60)
            if process.is_alive():
                process.terminate()
        result.rss_peak = sampler.stop()
        if inboxes is not None:
            result.inbox_peak = inboxes.stop()
        if server is not None and args.redis_url:
            result.layer_drops = server.log_count("channels over capacity")
        if cpu_start is not None and cpu_end is not None:
            seconds = max(play_end - play_start, 1e-9)
            result.server_cpu_seconds = cpu_end[0] - cpu_start[0]
            result.server_cpu = 100 * (cpu_end[0] - cpu_start[0]) / seconds
            result.server_cpu_main = 100 * (cpu_end[1] - cpu_start[1]) / seconds
        result.stats = merge(collected)
        if result.stats.play_seconds:
            result.client_cpu = 100 * result.stats.cpu_seconds / result.stats.play_seconds
        return result
    finally:
        if server is not None:
            if args.show_server_log:
                print(server.log_tail(), file=sys.stderr)
            server.stop()


# --------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float | None:
    """The nearest-rank percentile (p in 0..100) of ``values``, or None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil
    return ordered[int(rank) - 1]


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.1f}"


def mb(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def ratio(a: float | None, b: float | None, digits: int = 1) -> str:
    return "-" if a is None or not b else f"{a / b:.{digits}f}"


def cpu_ms_per_command(result: Result) -> float | None:
    """The server's CPU time (every process, every thread) over the play phase (whole
    games: over their whole lives), per command."""
    commands = len(result.stats.broadcasts)
    if result.server_cpu_seconds is None or not commands:
        return None
    return result.server_cpu_seconds / commands


def rows_for(result: Result) -> dict[str, str]:
    """The table's column for one N."""
    s = result.stats
    everyone = [b[1] for b in s.broadcasts]
    first = [b[2] for b in s.broadcasts]
    by_kind = {k: [b[1] for b in s.broadcasts if b[0] == k] for k in ("roll", "score")}
    b50, b99 = percentile(everyone, 50), percentile(everyone, 99)
    p50, p99 = percentile(s.pings, 50), percentile(s.pings, 99)
    rate = len(everyone) / s.play_seconds if s.play_seconds else 0.0
    cpu = cpu_ms_per_command(result)
    return {
        "games (finished)": f"{result.games} ({s.finished})",
        "sockets": str(result.games * SOCKETS_PER_ROOM),
        "client processes": str(result.clients),
        "setup / play s": f"{s.setup_seconds:.1f} / {s.play_seconds:.1f}",
        "commands": str(len(everyone)),
        "commands/s": f"{rate:.0f}",
        "cmd->all 3 p50 ms": ms(b50),
        "cmd->all 3 p99 ms": ms(b99),
        "cmd->all 3 max ms": ms(max(everyone, default=None)),
        "cmd->1st sock p50/p99": f"{ms(percentile(first, 50))} / {ms(percentile(first, 99))}",
        "roll p50/p99 ms": " / ".join(ms(percentile(by_kind["roll"], p)) for p in (50, 99)),
        "score p50/p99 ms": " / ".join(ms(percentile(by_kind["score"], p)) for p in (50, 99)),
        "pings": str(len(s.pings)),
        "ping p50 ms": ms(p50),
        "ping p99 ms": ms(p99),
        "ratio p50": ratio(b50, p50),
        "ratio p99": ratio(b99, p99),
        "server RSS idle MB": mb(result.rss_idle),
        "server RSS peak MB": mb(result.rss_peak),
        "server RSS end MB": mb(result.rss_end),
        "server CPU % (1 core)": "-" if result.server_cpu is None else f"{result.server_cpu:.0f}",
        "  of which event loop %": (
            "-" if result.server_cpu_main is None else f"{result.server_cpu_main:.0f}"
        ),
        "server CPU ms/command": "-" if cpu is None else f"{cpu * 1000:.2f}",
        "client CPU % (busiest)": f"{result.client_cpu:.0f}",
        "client loop lag p99 ms": ms(percentile(s.loop_lags, 99)),
        "client throttled sends": str(s.throttled),
        "events never at all 3 sockets": str(s.undelivered),
        "resyncs / events recovered": f"{s.resyncs} / {s.recovered}",
        "Redis inbox peak (cap 100)": "-" if result.inbox_peak is None else str(result.inbox_peak),
        "layer drops logged": "-" if result.layer_drops is None else str(result.layer_drops),
        "load avg before/after": f"{result.load[0]:.1f} / {result.load[1]:.1f}",
        "errors": str(len(s.errors)),
    }


def print_table(results: list[Result]) -> None:
    """Figures as rows, one column per N."""
    columns = [rows_for(r) for r in results]
    heads = [f"{r.mode} N={r.games}" for r in results]
    width = max(len(k) for k in columns[0])
    pairs = zip(heads, columns, strict=True)
    cells = [max(len(h), *(len(v) for v in c.values())) for h, c in pairs]
    header = " " * width + "".join(f"  {h:>{w}}" for h, w in zip(heads, cells, strict=True))
    print(header)
    print("-" * len(header))
    for key in columns[0]:
        values = (f"  {c[key]:>{w}}" for c, w in zip(columns, cells, strict=True))
        print(f"{key:<{width}}" + "".join(values))


def print_comparison(results: list[Result], whole: bool = False) -> None:
    """The game against the floor, one line per mode and N, with the ratios game/floor."""
    floors = {r.games: r for r in results if r.mode == "floor"}
    head = (
        f"{'mode':<6} {'games':>5} {'fin':>4} {'cmds':>6} {'cmd/s':>6} {'p50 ms':>7} "
        f"{'p99 ms':>7} {'CPU ms/cmd':>10} {'CPU %':>6} {'CPU x':>6} {'p99 x':>6} "
        f"{'load':>9}  errors"
    )
    print(head)
    print("-" * len(head))
    for result in results:
        s = result.stats
        everyone = [b[1] for b in s.broadcasts]
        rate = len(everyone) / s.play_seconds if s.play_seconds else 0.0
        cpu = cpu_ms_per_command(result)
        p99 = percentile(everyone, 99)
        floor = floors.get(result.games) if result.mode == "game" else None
        cpu_x = p99_x = "-"
        if floor is not None:
            floor_cpu = cpu_ms_per_command(floor)
            floor_p99 = percentile([b[1] for b in floor.stats.broadcasts], 99)
            cpu_x = ratio(cpu, floor_cpu, 2)
            p99_x = ratio(p99, floor_p99, 2)
        server_cpu = "-" if result.server_cpu is None else f"{result.server_cpu:.0f}"
        print(
            f"{result.mode:<6} {result.games:>5} {s.finished:>4} {len(everyone):>6} {rate:>6.0f} "
            f"{ms(percentile(everyone, 50)):>7} {ms(p99):>7} "
            f"{'-' if cpu is None else f'{cpu * 1000:.2f}':>10} {server_cpu:>6} "
            f"{cpu_x:>6} {p99_x:>6} {result.load[0]:>4.1f}/{result.load[1]:<4.1f}  {len(s.errors)}"
        )
    phase = "the games' whole lives (setup, play, close)" if whole else "the play phase"
    print(
        f"CPU ms/cmd: the server's CPU time (all its processes and threads) over {phase} "
        "per command (game) or per message relayed to a room of three sockets (floor). "
        "CPU %: of one core. CPU x, p99 x: game / floor at the same N (targets: CPU x <= 1.67, "
        "p99 x <= 2 at 100 games). load: the 1-minute load average before/after."
    )


def print_errors(result: Result, limit: int = 10) -> None:
    errors = result.stats.errors
    if errors:
        print(
            f"\n{len(errors)} error(s) with {result.games} games ({result.mode}); "
            f"the first {limit}:"
        )
        for text in errors[:limit]:
            print(f"  {text}")


# --------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", type=int, nargs="+", default=[10, 100, 300], help="N: concurrent games per run"
    )
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.3, 1.0],
        metavar="S",
        help="a player's think time between actions: MIN MAX seconds, or one value; 0 plays "
        "as fast as the server's rate limit allows (default 0.3 1.0)",
    )
    parser.add_argument(
        "--duration", type=float, help="stop after this many seconds of play (default: full games)"
    )
    parser.add_argument(
        "--ping-interval",
        type=float,
        help="seconds between a watcher's pings; 0: none. Default 2, but 0 with --mode both: "
        "pings cost the server CPU too, and would blur the CPU per command of both modes",
    )
    parser.add_argument(
        "--clients", type=int, default=1, help="client processes to split the games across"
    )
    parser.add_argument(
        "--mode",
        choices=["game", "floor", "both"],
        default="both",
        help="game: the site; floor: the bare relay of benchmarks/relay.py, no database; "
        "both (the default): the floor then the game for each N, with their ratios",
    )
    parser.add_argument(
        "--database-url",
        help="the server's DATABASE_URL (default: a fresh SQLite file per run); e.g. "
        "postgres://postgres@127.0.0.1:5432/bench_pg, a database of the benchmark's own",
    )
    parser.add_argument(
        "--redis-url",
        help="the server's REDIS_URL (default: the in-memory channel layer); a Redis database "
        "of the benchmark's own, e.g. redis://127.0.0.1:6379/5: it is flushed before each run",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="Daphne processes (more than 1 needs --redis-url)"
    )
    parser.add_argument(
        "--cpu-quota",
        type=float,
        default=None,
        help="cap each Daphne process at this share of one core, e.g. 0.4 (root, cgroup v1): "
        "with the client, PostgreSQL and Redis on the same cores, what a second process "
        "adds is then measured with each process held to the same CPU",
    )
    parser.add_argument(
        "--url",
        nargs="+",
        help="running server process(es) (http://host:port) instead of our own; one --mode",
    )
    parser.add_argument(
        "--server-pid", type=int, nargs="+", help="with --url: their pids, to read RSS and CPU"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="longest wait for an event")
    parser.add_argument(
        "--resync",
        type=float,
        default=0.0,
        metavar="S",
        help="after S seconds without an awaited event, or on a gap, a socket asks for a "
        "snapshot and takes the events it missed from its recent list, as a client must "
        "(default 0: never; a missing event is then a stall, reported as an error)",
    )
    parser.add_argument(
        "--setup-timeout", type=float, default=600.0, help="longest wait for all rooms to be set up"
    )
    parser.add_argument(
        "--setup-concurrency", type=int, default=10, help="rooms set up at once per client"
    )
    parser.add_argument("--seed", type=int, help="seed the players' choices (not the dice)")
    parser.add_argument("--show-server-log", action="store_true", help="print Daphne's log tail")
    parser.add_argument(
        "--server-log-level",
        default="WARNING",
        help="the server's LOG_LEVEL (INFO shows channels-redis's 'over capacity' drops)",
    )
    parser.add_argument(
        "--whole-games",
        action="store_true",
        help="whole solo games: each created over the API with one seat, its player and two "
        "watchers connected, 13 turns played, its sockets closed; the server's CPU over all of "
        "it per command (the floor: the same connections, one relayed message per command)",
    )
    args = quick.parse_args(parser, {"games": [1], "think": [0.0]}, argv)
    if args.whole_games and args.duration is not None:
        parser.error("--whole-games plays every game to its end: no --duration")
    if len(args.think) > 2 or min(args.think) < 0 or args.think[0] > args.think[-1]:
        parser.error("--think takes MIN MAX (or one value), 0 or more")
    if args.processes > 1 and not args.redis_url:
        parser.error("--processes above 1 needs --redis-url (rooms span processes through Redis)")
    if args.ping_interval is None:
        args.ping_interval = 0.0 if args.mode == "both" else 2.0
    if args.url and args.mode == "both":
        parser.error("--url serves one mode: give --mode game or --mode floor")
    return args


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # A plain kill still stops our Daphne and removes its temporary directory.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    think = "none" if args.think[-1] == 0 else f"{args.think[0]}-{args.think[-1]} s"
    if args.whole_games:
        played = "whole solo games (a player and two watchers, timed from creation to close)"
    else:
        played = "full games" if args.duration is None else f"{args.duration} s of play"
    print(
        f"Yahtzee Live websocket load: games {args.games}, think {think}, {played}, "
        f"{f'ping every ~{args.ping_interval} s per watcher' if args.ping_interval else 'no pings'}"
        f", {args.clients} client process(es)."
    )
    database = "PostgreSQL" if (args.database_url or "").startswith("postgres") else "SQLite"
    layer = "Redis" if args.redis_url else "in-memory channel layer"
    server = f"{args.processes} Daphne process(es), {database}, {layer}"
    print(
        f"Server: {' '.join(args.url) if args.url else server}. "
        f"Machine: {os.cpu_count()} CPUs, load average {load_average()}; "
        "the client shares them with the server."
    )
    modes = ["floor", "game"] if args.mode == "both" else [args.mode]
    results: list[Result] = []
    for games in args.games:
        for mode in modes:
            print(f"\n... {mode}, {games} games (load average {load_average()})", flush=True)
            result = run_games(games, mode, args)
            results.append(result)
            print_table([result])
            print_errors(result)
    if len(results) > 1:
        print("\nAll runs")
        print_table(results)
    shape = "whole solo games" if args.whole_games else "two players and a watcher a game"
    print(f"\nGame against floor ({server}; {shape}; load average now {load_average()})")
    print_comparison(results, args.whole_games)
    print(
        "\nTarget (issue 3): at 100 games, cmd->all 3 p99 under 50 ms and ratio under 3. "
        "If the busiest client's CPU nears 100 % or its loop lag grows, the client is the "
        "bottleneck: rerun with --clients 2."
    )
    return 1 if any(r.stats.errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
