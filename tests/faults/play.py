"""Games played through the front door as browsers play them, whatever the server goes through.

A :class:`Seat` plays one person's seat against an Optimal bot, with a watcher
looking on (:class:`Watcher`). Both behave as the room's page does: when the
socket closes they open a new one (after a 1012 or 1013, the server's "come back
in A-B s", at a random moment in that window; else after a short pause), show
the seat's token again (``resume``), and carry on from the snapshot. A refused
command (``stale``, or ``unavailable`` while a service is away) is answered with a
fresh snapshot. Every event either of them is sent is kept, to be checked against
the game's export.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import websockets
from websockets.typing import Origin

if TYPE_CHECKING:
    from tests.faults.stack import Stack

Message = dict[str, Any]

#: Errors a command may meet while services come and go; any other is a failure.
EXPECTED_ERRORS = {"stale", "unavailable", "not_your_turn"}
#: The id of the command that seats the bot; sent again when the room does not show the bot
#: 3 s later (lost to a fault, or a busy machine), it may find the seats full.
ADD_BOT = "add_bot"
#: The page's own limit is 30 messages at once and 10 a second per socket.
RATE_PER_SECOND = 8.0
#: Seconds (0.5 to 1.5 times this) before asking again after an ``unavailable``. Sent at
#: the rate above, the requests piled up in the socket while the server's one database
#: thread waited for a connection, and went over the server's limit when read at once.
UNAVAILABLE_PAUSE = 0.3


def post_json(url: str, body: Message) -> Message:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Origin": url.split("/api/")[0]},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(json.loads(response.read()))


def get_json(url: str) -> Message:
    with urllib.request.urlopen(url, timeout=30) as response:
        return dict(json.loads(response.read()))


@dataclass
class Record:
    """What one client lived through."""

    #: Every event it was sent, by version (an event sent twice must be the same event).
    events: dict[int, Message] = field(default_factory=dict)
    #: When each event first came (``time.monotonic()``), by version.
    arrived: dict[int, float] = field(default_factory=dict)
    #: The same version sent with two different contents: must stay empty.
    conflicts: list[tuple[Message, Message]] = field(default_factory=list)
    #: How its sockets ended (close codes), and how its attempts to open one were refused.
    closes: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    #: Errors answered to its commands, by code.
    errors: Counter[str] = field(default_factory=Counter)
    #: Seconds from losing a socket to holding a snapshot again, one per reconnection.
    reconnects: list[float] = field(default_factory=list)
    #: When each of those reconnections got its snapshot (``time.monotonic()``).
    reconnected_at: list[float] = field(default_factory=list)
    #: Seconds from starting to open a socket to its first snapshot, one per socket that
    #: got one (the handshake and the server's first answer).
    handshakes: list[float] = field(default_factory=list)
    #: Commands whose socket closed before their answer came: the server may or may not
    #: have applied them, and the snapshot after the reconnection says which.
    in_doubt: int = 0

    def keep(self, event: Message) -> None:
        fact = {"kind": event["kind"], "data": event["data"]}
        self.arrived.setdefault(event["version"], time.monotonic())
        earlier = self.events.setdefault(event["version"], fact)
        if earlier != fact:
            self.conflicts.append((earlier, fact))


_COME_BACK = re.compile(r"come back in (\d+(?:\.\d+)?)-(\d+(?:\.\d+)?) s$")


def come_back_window(reason: str) -> tuple[float, float] | None:
    """The window a close's reason gives (``games.live.closing.come_back``): ``(A, B)`` for
    "... come back in A-B s", ``None`` when it gives none."""
    found = _COME_BACK.search(reason)
    if found is None:
        return None
    earliest, latest = float(found[1]), float(found[2])
    return (earliest, latest) if earliest <= latest else None


class Client:
    """One socket at a time to a room, opened again whenever it closes, until :meth:`stop`."""

    def __init__(self, url: str, code: str, token: str | None = None) -> None:
        self.url = url
        self.code = code
        self.token = token
        self.record = Record()
        self.ws: websockets.ClientConnection | None = None
        self.version = 0  # The newest version this client has seen.
        self.stopping = False
        self.connected = asyncio.Event()
        self._tokens = 20.0
        self._refilled = time.monotonic()
        self._lost_at: float | None = None
        self._opening_at: float | None = None

    async def run(self) -> None:
        """Keep a socket open and handle what comes, until stopped."""
        ws_url = "ws" + self.url.removeprefix("http") + f"/ws/games/{self.code}/"
        pause = 0.0
        while not self.stopping:
            await asyncio.sleep(pause)
            self._opening_at = time.monotonic()
            try:
                ws = await websockets.connect(ws_url, origin=Origin(self.url), open_timeout=10)
            except websockets.InvalidStatus as error:
                self.record.refusals[f"HTTP {error.response.status_code}"] += 1
                pause = 0.2 if error.response.status_code == 503 else 1.0
                continue
            except (OSError, TimeoutError, websockets.InvalidHandshake) as error:
                self.record.refusals[type(error).__name__] += 1
                pause = 0.5
                continue
            if self.stopping:  # Stopped while it was opening: it never stays.
                await ws.close()
                break
            self.ws = ws
            try:
                if self.token:
                    await self.send(type="resume", token=self.token)
                async for text in ws:
                    await self.handle(json.loads(text))
                code, reason = ws.close_code, ws.close_reason or ""
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                reason = closed.rcvd.reason if closed.rcvd else ""
            finally:
                self.ws = None
                self.connected.clear()
                self.forget()
                # Closed however this ended: cancelled (the soak's last watchers) or failed
                # in a handler, a socket left open would keep its presence row, rightly,
                # while the soak counted it as nobody's.
                ws.transport.abort()
            if self.stopping:
                break
            self.record.closes[str(code)] += 1
            self._lost_at = time.monotonic()
            # As the page does (static/js/backoff.js): when the server says to come back
            # (1012, 1013: "come back in A-B s"), at a random moment in that window; else soon.
            window = come_back_window(reason) if code in (1012, 1013) else None
            pause = random.uniform(*window) if window else 0.3 + random.random() * 0.4

    async def stop(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()

    async def send(self, **message: Any) -> bool:
        """Send one message (at the page's pace); ``False`` if the socket is gone."""
        now = time.monotonic()
        self._tokens = min(20.0, self._tokens + (now - self._refilled) * RATE_PER_SECOND)
        self._refilled = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / RATE_PER_SECOND)
            self._tokens = 1
        self._tokens -= 1
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            return False
        return True

    async def handle(self, message: Message) -> None:
        kind = message["type"]
        if kind == "snapshot":
            if self._opening_at is not None:
                self.record.handshakes.append(time.monotonic() - self._opening_at)
                self._opening_at = None
            if self._lost_at is not None:
                self.record.reconnects.append(time.monotonic() - self._lost_at)
                self.record.reconnected_at.append(time.monotonic())
                self._lost_at = None
            self.version = message["version"]
            self.connected.set()
            await self.on_snapshot(message)
        elif kind == "event":
            self.record.keep(message)
            if message["version"] != self.version + 1:
                await self.send(type="snapshot")  # A gap: catch up from a snapshot.
            self.version = max(self.version, message["version"])
            await self.on_event(message)
        elif kind == "error":
            if message.get("id") == ADD_BOT and message.get("code") == "game_full":
                return  # Asked again while the first was on its way: the bot is seated.
            self.record.errors[message.get("code", "?")] += 1
            self.forget()
            if message.get("code") == "unavailable":
                # A person tries again in a moment, not as fast as the answers come: the
                # server answers at once while the database is away (yahtzee_site/db).
                await asyncio.sleep(UNAVAILABLE_PAUSE * (0.5 + random.random()))
            await self.send(type="snapshot")

    def forget(self) -> None:
        """A command of this client's may not have been applied: act again from the snapshot."""

    async def on_snapshot(self, snapshot: Message) -> None:
        """A watcher only looks."""

    async def on_event(self, event: Message) -> None:
        """A watcher only looks."""


class Watcher(Client):
    """Looks on, without a seat."""


class Seat(Client):
    """A person's seat: rolls up to three times, keeping the most common face, and scores
    the box that gives most, a little after each news, as a quick player does."""

    def __init__(self, url: str, code: str, token: str, seat: int, think: float) -> None:
        super().__init__(url, code, token)
        self.seat = seat
        self.think = think
        self.finished = asyncio.Event()
        self._acted_at = -1  # The version of the play this seat last acted on.

    def forget(self) -> None:
        self._acted_at = -1

    async def on_snapshot(self, snapshot: Message) -> None:
        if snapshot["game"]["status"] != "playing":
            if snapshot["game"]["status"] in ("finished", "abandoned"):
                self.finished.set()
            return
        turn = snapshot["turn"]
        if turn is not None and turn["seat"] == self.seat:
            await self.act(snapshot["version"], turn["rolls_left"], turn["dice"], turn["options"])

    async def on_event(self, event: Message) -> None:
        data = event["data"]
        if event["kind"] == "finished":
            self.finished.set()
        elif event["kind"] == "scored" and data["next"] == self.seat:
            await self.act(event["version"], 3, None, {})
        elif event["kind"] == "rolled" and data["seat"] == self.seat:
            await self.act(event["version"], data["rolls_left"], data["dice"], data["options"])
        elif event["kind"] in ("roll_off", "started", "back", "away"):
            await self.send(type="snapshot")  # Whose turn it is now: the snapshot says.

    async def act(
        self, version: int, rolls_left: int, dice: list[int] | None, options: dict[str, int]
    ) -> None:
        if version <= self._acted_at or version < self.version:
            return  # Acted on this play already, or it is not the newest.
        self._acted_at = version
        await asyncio.sleep(self.think * (0.5 + random.random()))
        if dice is None or (rolls_left > 0 and max(options.values(), default=0) < 25):
            keep = most_common(dice) if dice is not None else []
            sent = await self.send(type="roll", hold=keep, version=version)
        else:
            best = max(options, key=lambda box: options[box])
            sent = await self.send(type="score", category=best, version=version)
        if not sent:
            self.record.in_doubt += 1


def most_common(dice: list[int]) -> list[int]:
    """The positions of the dice showing the most common face (the highest on a tie)."""
    face = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))[0]
    return [i for i, die in enumerate(dice) if die == face][:4]


@dataclass(eq=False)  # Each room is itself: kept in sets by the soak.
class Game:
    """One room: a person's seat against an Optimal bot, and a watcher."""

    code: str
    seat: Seat
    watcher: Watcher
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


async def open_game(url: str, number: int, think: float) -> Game:
    """Open a room through the API, seat an Optimal bot, start it, and put a watcher in;
    as a person would, asking again while the server answers 503 (a service is away)."""
    created = await patiently(
        post_json, f"{url}/api/games/", {"name": f"Player {number}", "seats": 2}
    )
    code = created["code"]
    seat = Seat(url, code, created["token"], created["seat"], think)
    watcher = Watcher(url, code)
    game = Game(code, seat, watcher)
    game.tasks = [asyncio.create_task(seat.run()), asyncio.create_task(watcher.run())]
    await asyncio.wait_for(seat.connected.wait(), 60)
    asked, asked_at = "", 0.0
    while True:  # Until it has started; a command lost to a fault is sent again.
        snapshot = await patiently(get_json, f"{url}/api/games/{code}/")
        if snapshot["game"]["status"] != "lobby":
            break
        wanted = "add_bot" if len(snapshot["players"]) < 2 else "start"
        if wanted != asked or time.monotonic() - asked_at > 3:
            if wanted == "add_bot":
                await seat.send(type="add_bot", level="optimal", id=ADD_BOT)
            else:
                await seat.send(type="start", version=snapshot["version"], id="start")
            asked, asked_at = wanted, time.monotonic()
        await asyncio.sleep(0.1)
    await asyncio.wait_for(watcher.connected.wait(), 60)
    return game


#: HTTP requests answered 503 (or not at all) and asked again, by what happened.
http_refusals: Counter[str] = Counter()


async def patiently(request: Callable[..., Message], *args: Any) -> Message:
    """``request(*args)`` in a thread, asked again for up to a minute while the server
    answers 502 or 503 or does not answer (counted in :data:`http_refusals`)."""
    give_up_at = time.monotonic() + 60
    while True:
        try:
            return await asyncio.to_thread(request, *args)
        except urllib.error.HTTPError as error:
            if error.code not in (502, 503) or time.monotonic() > give_up_at:
                raise
            http_refusals[f"HTTP {error.code}"] += 1
        except urllib.error.URLError as error:
            if time.monotonic() > give_up_at:
                raise
            http_refusals[type(error.reason).__name__] += 1
        await asyncio.sleep(0.5)


async def close_game(game: Game) -> None:
    for client in (game.seat, game.watcher):
        await client.stop()
    await asyncio.gather(*game.tasks, return_exceptions=True)


def export(url: str, code: str) -> Message:
    return get_json(f"{url}/g/{code}/export.json")


def lost_or_changed(game: Game, exported: Message) -> list[str]:
    """The events the seat or the watcher was sent that the game's log does not hold as sent."""
    logged = {e["seq"]: {"kind": e["kind"], "data": e["data"]} for e in exported["events"]}
    problems = []
    for client in (game.seat, game.watcher):
        for version, fact in sorted(client.record.events.items()):
            if (entry := logged.get(version)) != fact:
                problems.append(f"{game.code} v{version}: sent {fact}, logged {entry}")
        problems += [
            f"{game.code}: one version, two events: {a} / {b}" for a, b in client.record.conflicts
        ]
    return problems


class Report:
    """What the browsers lived through, added up over the games."""

    def __init__(self, games: list[Game], fault_ended: float | None = None) -> None:
        clients = [c for g in games for c in (g.seat, g.watcher)]
        #: Seconds from the end of the fault to the first event after it, in the slowest
        #: room: how soon play resumed everywhere.
        self.resumed: float | None = None
        if fault_ended is not None:
            firsts = [
                min(
                    (
                        t
                        for c in (g.seat, g.watcher)
                        for t in c.record.arrived.values()
                        if t > fault_ended
                    ),
                    default=float("inf"),
                )
                for g in games
            ]
            self.resumed = max(firsts) - fault_ended
        self.closes: Counter[str] = sum((c.record.closes for c in clients), Counter())
        self.refusals: Counter[str] = sum((c.record.refusals for c in clients), Counter())
        self.errors: Counter[str] = sum((c.record.errors for c in clients), Counter())
        self.reconnects = sorted(r for c in clients for r in c.record.reconnects)
        self.in_doubt = sum(c.record.in_doubt for c in clients)

    def __str__(self) -> str:
        return (
            f"closes {dict(self.closes)}, refusals {dict(self.refusals)}, errors "
            f"{dict(self.errors)}, {len(self.reconnects)} reconnections "
            f"(p50 {self.reconnect(0.5)} s, p99 {self.reconnect(0.99)} s, "
            f"max {self.reconnect(1.0)} s), {self.in_doubt} commands in doubt, HTTP requests "
            f"asked again {dict(http_refusals)}"
            + (
                ""
                if self.resumed is None
                else f"; play resumed in every room within "
                f"{self.resumed:.2f} s of the end of the fault"
            )
        )

    __repr__ = __str__  # What an assertion about a report shows.

    def reconnect(self, quantile: float) -> str:
        """The time from losing a socket to a snapshot on a new one, at ``quantile``."""
        times = self.reconnects
        if not times:
            return "-"
        return f"{times[min(len(times) - 1, int(quantile * len(times)))]:.2f}"


def quantiles(times: list[float]) -> str:
    """``times`` (seconds) as their p50, p99 and max."""
    if not times:
        return "-"
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return f"p50 {at(0.5):.2f} s, p99 {at(0.99):.2f} s, max {ordered[-1]:.2f} s"


@dataclass
class Findings:
    """What the record and the rooms say once everything has settled."""

    #: Games whose log does not replay to their tables, or that did not finish.
    unsound: list[str]
    #: Events a browser was sent that the log does not hold as sent.
    lost: list[str]
    #: Rooms whose presence was still wrong when the wait for it ran out.
    wrong_presence: list[Message]
    #: Seconds from settling to every room's presence being right (``None``: never).
    presence_after: float | None


async def settle_and_check(
    site: Stack, games: list[Game], *, within: float, open_: bool = True
) -> Findings:
    """Once every game has finished and every socket is back (``open_``) or closed: wait
    up to ``within`` seconds for each room to show its person's seat connected and one
    watcher (or, closed, only the bot and nobody watching), then audit the logs
    (``manage.py audit_games``) and compare every event sent with the export."""
    codes = [game.code for game in games]
    expected = ([True, True], 1) if open_ else ([False, True], 0)
    settled = time.monotonic()
    while True:
        audits = await asyncio.to_thread(site.audit, codes)
        wrong = [a for a in audits if (a["connected"], a["watchers"]) != expected]
        waited = time.monotonic() - settled
        if not wrong or waited > within:
            break
        await asyncio.sleep(1)
    unsound = [
        f"{a['code']}: {a['status']}, {a['problems']}"
        for a in audits
        if a["problems"] or a["status"] != "finished"
    ]
    lost = []
    for game in games:
        lost += lost_or_changed(game, await asyncio.to_thread(export, site.url, game.code))
    return Findings(unsound, lost, wrong, None if wrong else waited)


async def watchers_shown(url: str, codes: list[str]) -> list[int]:
    """How many watchers each room says it has (``GET /api/games/<code>/``, as a page's
    first snapshot reads it)."""
    return [watchers for _, watchers in await presence_shown(url, codes)]


async def presence_shown(url: str, codes: list[str]) -> list[tuple[list[bool], int]]:
    """Who each room says is here: each seat connected or not, and how many watch."""
    rooms = await asyncio.gather(
        *(patiently(get_json, f"{url}/api/games/{code}/") for code in codes)
    )
    return [([p["connected"] for p in room["players"]], int(room["watchers"])) for room in rooms]


async def until_presence_true(
    url: str, games: list[Game], since: float, cap: float
) -> float | None:
    """Poll the rooms until each shows its person's seat connected and one watcher, as
    their clients are (each with a socket open, or on its way back to one), and no ghost;
    the seconds from ``since`` (``time.monotonic()``) to then, ``None`` if not within ``cap``."""
    codes = [game.code for game in games]
    while time.monotonic() - since <= cap:
        shown = await presence_shown(url, codes)
        clients = [c for g in games for c in (g.seat, g.watcher)]
        if all(c.connected.is_set() for c in clients) and shown == [([True, True], 1)] * len(codes):
            return time.monotonic() - since
        await asyncio.sleep(0.1)
    return None


async def until_watchers(
    url: str, codes: list[str], expected: Callable[[], list[int]], *, cap: float
) -> tuple[float | None, list[int]]:
    """Poll the rooms until each shows the watchers ``expected()`` says (read again at every
    poll: clients come and go), at most ``cap`` seconds. The seconds it took (``None``: not
    within the cap) and the last counts read."""
    started = time.monotonic()
    while True:
        shown = await watchers_shown(url, codes)
        if shown == expected():
            return time.monotonic() - started, shown
        if time.monotonic() - started > cap:
            return None, shown
        await asyncio.sleep(0.1)
