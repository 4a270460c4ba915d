"""Outside clients play over real websockets against a real Daphne, knowing only the protocol.

Everything here goes through ``docs/protocol.md`` and nothing else: the room is
made with ``POST /api/games/``, players take their seats with ``resume`` and
``join``, and the game is played from what the events and snapshots say, with
the server's own (random) dice. No test here reads the database or imports the
game's code.

The last two tests run two Daphne processes that share the database and the
Redis channel layer, as a deployment with several workers does: people on
both, then a person beside bots that both processes drive. They need
``REDIS_URL`` (CI's PostgreSQL and Redis pass sets it).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets
from daphne.testing import DaphneProcess
from websockets.typing import Origin

from tests.conftest import close_connections_before_fork, make_application

#: The longest wait for any one message, in seconds.
TIMEOUT = 10
#: The longest a whole game may take, in seconds.
GAME_TIMEOUT = 60
#: The server's per-connection rate limit (docs/protocol.md, "Limits"): a burst, then a rate.
#: A script plays faster than a person, so it paces itself a little below it.
RATE_BURST = 30
RATE_PER_SECOND = 9.5

Message = dict[str, Any]


def envelope(event: Message) -> Message:
    """An event without its data, or the turn clock a live event may carry."""
    return {key: value for key, value in event.items() if key not in ("data", "clock")}


# --------------------------------------------------------------------------
# A client that knows the protocol
# --------------------------------------------------------------------------


def post_json(url: str, body: object) -> tuple[int, Message]:
    """``POST`` a JSON body and read the JSON answer, errors included."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get_json(url: str) -> tuple[int, Message]:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class Client:
    """One websocket to a room.

    A background task reads every message: it keeps each event in
    :attr:`events` (in the order they came) and queues every message for the
    script, which takes them with :meth:`next`. An error nobody asked for
    fails the test at once. :meth:`send` keeps under the server's rate limit.
    """

    def __init__(self, name: str, ws: websockets.ClientConnection) -> None:
        self.name = name
        self.ws = ws
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.events: list[Message] = []
        #: The newest version this connection has been sent (by an event or a snapshot).
        self.seen = 0
        #: The newest event version the script has taken from the inbox.
        self.taken = 0
        self.tokens = float(RATE_BURST)
        self.refilled = time.monotonic()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, name: str, base_url: str, code: str) -> tuple[Client, Message]:
        """Open the room's websocket (with the site's own Origin) and read its first snapshot."""
        url = "ws" + base_url.removeprefix("http") + f"/ws/games/{code}/"
        ws = await websockets.connect(url, origin=Origin(base_url), open_timeout=TIMEOUT)
        client = cls(name, ws)
        snapshot = await client.reply("snapshot")
        return client, snapshot

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "event":
                    self.events.append(message)
                if message["type"] in ("event", "snapshot"):
                    self.seen = max(self.seen, message["version"])
                await self.inbox.put(message)
        except websockets.ConnectionClosed:
            pass

    async def send(self, **message: Any) -> None:
        """Send one message, waiting first if it would go over the rate limit."""
        while True:
            now = time.monotonic()
            self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled) * RATE_PER_SECOND)
            self.refilled = now
            if self.tokens >= 1:
                break
            await asyncio.sleep((1 - self.tokens) / RATE_PER_SECOND)
        self.tokens -= 1
        await self.ws.send(json.dumps(message))

    async def next(
        self,
        match: Callable[[Message], bool],
        *,
        errors_ok: bool = False,
        timeout: float = TIMEOUT,
    ) -> Message:
        """The next queued message that ``match`` accepts; the ones before it are passed over."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.inbox.get()
                if message["type"] == "event":
                    self.taken = max(self.taken, message["version"])
                if message["type"] == "error" and not errors_ok:
                    raise AssertionError(f"{self.name} was refused: {message}")
                if match(message):
                    return message

    async def reply(self, kind: str) -> Message:
        """The next message of type ``kind`` (``snapshot``, ``joined``, ``pong``...)."""
        return await self.next(lambda m: m["type"] == kind)

    async def error(self) -> Message:
        return await self.next(lambda m: m["type"] == "error", errors_ok=True)

    async def event(self, kind: str) -> Message:
        """The next event of this ``kind``."""
        return await self.next(lambda m: m["type"] == "event" and m["kind"] == kind)

    async def catch_up(self, version: int) -> None:
        """Take every queued event up to ``version``, so the next one expected is newer."""
        if self.taken < version:
            await self.next(lambda m: m["type"] == "event" and m["version"] >= version)

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


def versions(client: Client) -> list[int]:
    return [event["version"] for event in client.events]


def assert_every_event(client: Client, first: int, last: int) -> None:
    """``client`` got the events ``first`` to ``last``, each once, in order: no gap."""
    assert versions(client) == list(range(first, last + 1)), f"{client.name} missed events"


def most_common_positions(dice: list[int]) -> list[int]:
    """The positions of the dice showing the most common face (the highest face on a tie)."""
    face = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))[0]
    return [i for i, die in enumerate(dice) if die == face]


async def play_to_the_end(
    players: dict[int, Client], first: int, version: int, *, reroll: bool
) -> Message:
    """Play every turn as the events say until the game ends; the ``finished`` event.

    Each turn: roll; with ``reroll``, keep the most common face and roll once
    more; ask for a snapshot and score the allowed box that scores most.
    """
    seat = first
    turns = 0
    while True:
        player = players[seat]
        await player.catch_up(version)  # It has seen the event that made it its turn.
        await player.send(type="roll", version=player.seen)
        rolled = await player.event("rolled")
        assert rolled["data"]["seat"] == seat
        assert rolled["data"]["rolls_left"] == 2
        dice = rolled["data"]["dice"]
        hold = most_common_positions(dice)
        if reroll and len(hold) < 5:
            await player.send(type="roll", hold=hold, version=rolled["version"])
            rolled = await player.event("rolled")
            assert rolled["data"]["held"] == hold
            assert [rolled["data"]["dice"][i] for i in hold] == [dice[i] for i in hold]
            assert rolled["data"]["rolls_left"] == 1
        await player.send(type="snapshot")
        snapshot = await player.reply("snapshot")
        turn = snapshot["turn"]
        assert turn["seat"] == seat
        assert turn["dice"] == rolled["data"]["dice"]
        options = turn["options"]
        category = max(options, key=lambda box: options[box])
        await player.send(type="score", category=category, version=snapshot["version"])
        scored = await player.event("scored")
        data = scored["data"]
        assert (data["seat"], data["category"], data["points"]) == (
            seat,
            category,
            options[category],
        )
        turns += 1
        version = scored["version"]
        if data["next"] is None:
            assert turns == 13 * len(players)
            return await player.event("finished")
        seat = data["next"]


async def seat_two_players(
    host_url: str, guest_url: str, watcher_url: str, **room: Any
) -> tuple[dict[int, Client], Client, Message]:
    """Ann makes a two-seat room on ``host_url``, Bob joins on ``guest_url``, a watcher looks on.

    ``room`` goes into the request that makes the room (``turn_seconds=10``). Returns the
    players by seat, the watcher, and the watcher's first snapshot.
    """
    status, created = await asyncio.to_thread(
        post_json, f"{host_url}/api/games/", {"name": "Ann", "seats": 2, **room}
    )
    assert status == 201, created
    code = created["code"]
    assert created["websocket"] == f"/ws/games/{code}/"
    assert created["seat"] == 0

    ann, snapshot = await Client.connect("Ann", host_url, code)
    assert snapshot["you"] is None  # Watching until she shows her token.
    await ann.send(type="resume", token=created["token"])
    snapshot = await ann.reply("snapshot")
    assert snapshot["you"] == {"seat": 0, "name": "Ann", "host": True}
    assert snapshot["game"]["status"] == "lobby"

    bob, _ = await Client.connect("Bob", guest_url, code)
    await bob.send(type="join", name="Bob", id="bob-joins")
    joined = await bob.reply("joined")
    assert (joined["seat"], joined["id"]) == (1, "bob-joins")
    assert joined["token"]
    joined_event = await ann.event("joined")
    assert joined_event["data"] == {"seat": 1, "name": "Bob", "host": False}

    watcher, watched = await Client.connect("Watcher", watcher_url, code)
    assert watched["you"] is None
    assert watched["version"] == joined_event["version"]
    assert [p["name"] for p in watched["players"]] == ["Ann", "Bob"]
    return {0: ann, 1: bob}, watcher, watched


async def start(host: Client, version: int) -> tuple[int, int]:
    """The host starts the game; the seat that plays first, and the version of that news."""
    await host.send(type="start", version=version, id="go")
    started = await host.event("started")
    assert started["data"] == {"players": ["Ann", "Bob"], "first": None}
    roll_off = await host.event("roll_off")
    while roll_off["data"]["first"] is None:  # A tie: the tied seats throw again.
        roll_off = await host.event("roll_off")
    first = roll_off["data"]["first"]
    assert roll_off["data"]["contenders"] == [first]
    return first, roll_off["version"]


async def finish_checks(
    players: dict[int, Client], watcher: Client, watched: Message, finished: Message
) -> None:
    """Everyone saw every event, and the watcher's final snapshot agrees with ``finished``."""
    last = finished["version"]
    for client in [*players.values(), watcher]:
        await client.catch_up(last)
    assert_every_event(watcher, watched["version"] + 1, last)
    for player in players.values():
        assert_every_event(player, player.events[0]["version"], last)
        # The events a player and the watcher both got are the very same messages.
        assert [e for e in player.events if e["version"] > watched["version"]] == watcher.events

    await watcher.send(type="snapshot")
    final = await watcher.reply("snapshot")
    assert final["version"] == last
    assert final["game"]["status"] == "finished"
    assert final["turn"] is None
    totals = [player["card"]["total"] for player in final["players"]]
    assert totals == finished["data"]["totals"]
    assert final["winners"] == finished["data"]["winners"]
    best = max(totals)
    assert finished["data"]["winners"] == [s for s, t in enumerate(totals) if t == best]
    for player in final["players"]:
        assert None not in player["card"]["boxes"].values()
    # The snapshot's recent events are the ones that were broadcast, with their facts only
    # (the snapshot itself has the cards and the turn as they are now).
    broadcast = watcher.events[-len(final["recent"]) :]
    assert [e["version"] for e in final["recent"]] == [e["version"] for e in broadcast]
    for recent, sent in zip(final["recent"], broadcast, strict=True):
        assert {key: sent["data"][key] for key in recent["data"]} == recent["data"]
        # A live event may also say how the turn clock stood after it; recent ones do not.
        assert envelope(recent) == envelope(sent)

    # A finished game refuses play, and says why.
    await players[0].send(type="roll", version=last, id="late")
    refused = await players[0].error()
    assert (refused["code"], refused["id"]) == ("game_over", "late")


# --------------------------------------------------------------------------
# One server
# --------------------------------------------------------------------------

#: The turn clock of the rooms below, and how soon after a turn's start the clock must
#: have played it (its deadline, then a few seconds for a watch to wake the game).
CLOCK_SECONDS = 10
CLOCK_PLAYED_WITHIN = 15


async def nobody_plays(
    players: dict[int, Client], watcher: Client, watched: Message, ann: Client
) -> tuple[int, Message]:
    """Ann starts the game, then nobody plays: each socket gets the clock's score for the
    seat on turn within :data:`CLOCK_PLAYED_WITHIN` seconds of the turn's start. Returns
    that seat and the score."""
    assert watched["game"]["turn_seconds"] == CLOCK_SECONDS
    await ann.send(type="start", version=ann.seen)
    first = None
    while first is None:
        roll_off = await watcher.event("roll_off")
        first = roll_off["data"]["first"]
    turn_began = time.monotonic()
    clock = roll_off["clock"]  # The event that began the turn says how long it has.
    assert clock["seat"] == first
    assert CLOCK_SECONDS * 1000 - 2000 <= clock["ms_left"] <= CLOCK_SECONDS * 1000
    scores = []
    for client in [*players.values(), watcher]:
        score = await client.next(
            lambda m: m["type"] == "event" and m["kind"] == "scored",
            timeout=CLOCK_PLAYED_WITHIN - (time.monotonic() - turn_began),
        )
        scores.append(score)
    took = time.monotonic() - turn_began
    assert CLOCK_SECONDS - 1 <= took <= CLOCK_PLAYED_WITHIN, took
    assert all(score == scores[0] for score in scores)  # The same event, to every socket.
    scored = scores[0]
    assert (scored["data"]["seat"], scored["data"]["by"]) == (first, "clock")
    assert scored["clock"]["seat"] == 1 - first  # The next turn's clock starts with it.
    rolls = [e for e in watcher.events if e["kind"] == "rolled"]
    assert rolls
    assert all(e["data"]["by"] == "clock" for e in rolls)
    return first, scored


async def play_with_the_clock(base_url: str) -> None:
    players, watcher, watched = await seat_two_players(
        base_url, base_url, base_url, turn_seconds=CLOCK_SECONDS
    )
    try:
        _, scored = await nobody_plays(players, watcher, watched, players[0])
        for client in [*players.values(), watcher]:
            await client.catch_up(scored["version"])
            assert_every_event(client, client.events[0]["version"], client.seen)
    finally:
        for client in [*players.values(), watcher]:
            await client.close()


@pytest.mark.django_db(transaction=True)
def test_a_turn_nobody_plays_is_played_by_the_clock_for_every_socket(
    live_server_url: str,
) -> None:
    """A room made with ``"turn_seconds": 10``: the player on turn sends nothing, and every
    socket in the room gets the clock's ``scored`` event within 15 s of the turn's start."""
    asyncio.run(asyncio.wait_for(play_with_the_clock(live_server_url), GAME_TIMEOUT))


async def play_a_game(base_url: str) -> None:
    players, watcher, watched = await seat_two_players(base_url, base_url, base_url)
    ann, bob = players[0], players[1]
    try:
        # Chat does not make a command stale: Ann starts with the version from before it.
        before_chat = ann.seen
        await bob.send(type="chat", text="  good luck!  ")
        chat = await ann.event("chat")
        assert chat["data"] == {"seat": 1, "name": "Bob", "text": "good luck!"}
        assert chat["version"] == before_chat + 1
        first, version = await start(ann, before_chat)

        # The player not on turn is refused, and nothing happens.
        other = players[1 - first]
        await other.catch_up(version)
        await other.send(type="roll", version=version, id="too-soon")
        refused = await other.error()
        assert (refused["code"], refused["id"]) == ("not_your_turn", "too-soon")

        finished = await play_to_the_end(players, first, version, reroll=True)
        await finish_checks(players, watcher, watched, finished)
        kinds = Counter(event["kind"] for event in watcher.events)
        assert kinds["scored"] == 26
        assert kinds["rolled"] >= 26
        assert kinds["finished"] == 1
    finally:
        for client in (ann, bob, watcher):
            await client.close()


@pytest.mark.django_db(transaction=True)
def test_outside_clients_play_a_whole_game(live_server_url: str) -> None:
    """Two players and a watcher, over real websockets, from ``POST /api/games/`` to the end."""
    status, missing = get_json(f"{live_server_url}/api/games/no-such-room/")
    assert (status, missing["error"]["code"]) == (404, "no_such_game")
    asyncio.run(asyncio.wait_for(play_a_game(live_server_url), GAME_TIMEOUT))


# --------------------------------------------------------------------------
# Two server processes
# --------------------------------------------------------------------------


async def send_too_much(base_url: str) -> None:
    status, created = await asyncio.to_thread(post_json, base_url + "/api/games/", {"seats": 2})
    assert status == 201
    client, _ = await Client.connect("big", base_url, created["code"])
    await client.ws.send("x" * (1024 * 1024 + 1))
    await asyncio.wait_for(client.reader, TIMEOUT)  # It reads until the socket closes.
    assert (client.ws.close_code, client.ws.close_reason) == (
        1009,
        "message over 1 MiB: not read (a message is 16 KiB at most)",
    )


def test_a_message_over_1_mib_closes_the_socket_with_1009_and_a_reason(
    live_server_url: str,
) -> None:
    """Issue 28: the connection was dropped without a close frame (the client saw 1006)."""
    asyncio.run(asyncio.wait_for(send_too_much(live_server_url), GAME_TIMEOUT))


@pytest.fixture
def settings(settings):  # type: ignore[no-untyped-def]
    """The servers forked here pause a little before each bot move, as deployed, so that
    two server processes chasing one bot are both waiting to move at once."""
    settings.YAHTZEE_BOT_PAUSE = 0.05
    return settings


async def stop_with_sockets_open(server: DaphneProcess, base_url: str) -> None:
    """Three sockets in a room; SIGTERM: each is told 1012, and the process is gone in 5 s."""
    players, watcher, _ = await seat_two_players(base_url, base_url, base_url)
    clients = [*players.values(), watcher]
    assert server.pid is not None
    os.kill(server.pid, signal.SIGTERM)
    signalled = time.monotonic()
    codes = []
    for client in clients:
        await asyncio.wait_for(client.reader, TIMEOUT)  # It reads until the socket closes.
        codes.append((client.ws.close_code, client.ws.close_reason))
    # With when to come back: within a second for a few sockets (games/live/shutdown.py).
    assert codes == [(1012, "service restart: come back in 0-1 s")] * 3
    await asyncio.to_thread(server.join, 5)
    assert not server.is_alive()
    assert time.monotonic() - signalled <= 5
    assert server.exitcode == 0


@pytest.mark.django_db(transaction=True)
def test_sigterm_tells_every_socket_to_come_back_and_the_process_leaves_in_5_s(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost", "127.0.0.1"]
    close_connections_before_fork()
    server = DaphneProcess("127.0.0.1", make_application)
    server.start()
    try:
        assert server.ready.wait(timeout=20), "Daphne did not start"
        url = f"http://127.0.0.1:{server.port.value}"
        asyncio.run(asyncio.wait_for(stop_with_sockets_open(server, url), GAME_TIMEOUT))
    finally:
        if server.is_alive():
            server.terminate()
        server.join(timeout=10)


@pytest.fixture
def two_server_processes(transactional_db: None, settings) -> Iterator[list[DaphneProcess]]:  # type: ignore[no-untyped-def]
    """Two Daphne processes on two ports, sharing the test database and the Redis layer."""
    assert settings.REDIS_URL, "two processes share rooms only through Redis"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost", "127.0.0.1"]
    close_connections_before_fork()  # The forked children must not share the parent's connections.
    servers = [DaphneProcess("127.0.0.1", make_application) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            if not server.ready.wait(timeout=20):
                raise RuntimeError("a Daphne process did not start")
        yield servers
    finally:
        for server in servers:
            if server.is_alive():
                server.terminate()
            server.join(timeout=10)


@pytest.fixture
def two_servers(two_server_processes: list[DaphneProcess]) -> tuple[str, str]:
    """The two processes' addresses."""
    first, second = (f"http://127.0.0.1:{server.port.value}" for server in two_server_processes)
    assert first != second
    return first, second


async def play_across(first_url: str, second_url: str) -> None:
    # Ann (the host) is on the first server; Bob and the watcher are on the second.
    players, watcher, watched = await seat_two_players(first_url, second_url, second_url)
    ann, bob = players[0], players[1]
    try:
        # Presence crosses too: Ann, on the first server, hears that Bob is connected.
        await ann.next(
            lambda m: (
                m["type"] == "presence"
                and m["players"] == [{"seat": 0, "connected": True}, {"seat": 1, "connected": True}]
            )
        )
        first, version = await start(ann, ann.seen)
        finished = await play_to_the_end(players, first, version, reroll=False)
        await finish_checks(players, watcher, watched, finished)
        # Every move Bob made on the second server reached Ann on the first, and the other way.
        for seat, player in ((1, ann), (0, bob)):
            moves = [
                e
                for e in watcher.events
                if e["kind"] in ("rolled", "scored") and e["data"]["seat"] == seat
            ]
            assert len(moves) == 26
            assert all(move in player.events for move in moves)
    finally:
        for client in (ann, bob, watcher):
            await client.close()


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="needs REDIS_URL: two server processes share events only through Redis "
    "(CI's PostgreSQL and Redis pass sets it)",
)
@pytest.mark.django_db(transaction=True)
def test_players_on_two_server_processes_see_each_other(two_servers: tuple[str, str]) -> None:
    """A player on one Daphne sees every event of a player on another, and so does a watcher."""
    asyncio.run(asyncio.wait_for(play_across(*two_servers), GAME_TIMEOUT))


async def clock_across(first_url: str, second_url: str, kill_first: Callable[[], None]) -> None:
    """Both players are on the first server, the watcher on the second. The first server is
    killed as the game starts; the second plays the expired turn, once."""
    players, watcher, watched = await seat_two_players(
        first_url, first_url, second_url, turn_seconds=CLOCK_SECONDS
    )
    ann = players[0]
    try:
        await ann.send(type="start", version=ann.seen)
        await watcher.event("started")
        kill_first()  # Every player's socket goes with it; only the watcher's process is left.
        first = None
        while first is None:
            roll_off = await watcher.event("roll_off")
            first = roll_off["data"]["first"]
        turn_began = time.monotonic()
        scored = await watcher.next(
            lambda m: m["type"] == "event" and m["kind"] == "scored",
            timeout=CLOCK_PLAYED_WITHIN + 5,  # The kill itself may take a moment.
        )
        assert (scored["data"]["seat"], scored["data"]["by"]) == (first, "clock")
        assert time.monotonic() - turn_began <= CLOCK_PLAYED_WITHIN + 5
        # Then the other seat's turn, played by the clock too: each turn exactly once.
        second = await watcher.next(
            lambda m: m["type"] == "event" and m["kind"] == "scored",
            timeout=CLOCK_SECONDS + 6,
        )
        assert (second["data"]["seat"], second["data"]["by"]) == (1 - first, "clock")
        assert_every_event(watcher, watched["version"] + 1, second["version"])
        assert [e["kind"] for e in watcher.events].count("scored") == 2
    finally:
        await watcher.close()
        for player in players.values():
            await player.ws.close()
            player.reader.cancel()


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="needs REDIS_URL: two server processes share events only through Redis",
)
@pytest.mark.django_db(transaction=True)
def test_the_clock_plays_a_turn_after_the_players_process_is_killed(
    two_servers: tuple[str, str], two_server_processes: list[DaphneProcess]
) -> None:
    """The process holding every player's socket is killed (SIGKILL) as the game starts; the
    other process's watch plays the expired turns, each exactly once."""

    kill = killer(two_server_processes[0])
    asyncio.run(asyncio.wait_for(clock_across(*two_servers, kill), GAME_TIMEOUT))


#: How soon every room forgets the sockets of a killed process (docs: within 30 s).
PRESENCE_HEALS_WITHIN = 30


async def presence_across(first_url: str, second_url: str, kill_first: Callable[[], None]) -> None:
    """Bob and a watcher are on the first server, Ann and another watcher on the second;
    the first is killed. Within 30 s the room says Bob is gone and one watcher fewer."""
    players, watcher, watched = await seat_two_players(second_url, first_url, second_url)
    ann, bob = players[0], players[1]
    extra, _ = await Client.connect("Extra watcher", first_url, watched["game"]["code"])
    seats = [{"seat": 0, "connected": True}, {"seat": 1, "connected": True}]
    try:
        await watcher.next(lambda m: m == {"type": "presence", "players": seats, "watchers": 2})
        kill_first()
        killed = time.monotonic()
        gone = {"type": "presence", "players": [seats[0], {**seats[1], "connected": False}]}
        await watcher.next(lambda m: m == {**gone, "watchers": 1}, timeout=PRESENCE_HEALS_WITHIN)
        assert time.monotonic() - killed <= PRESENCE_HEALS_WITHIN
        await ann.send(type="snapshot")
        snapshot = await ann.reply("snapshot")
        assert [p["connected"] for p in snapshot["players"]] == [True, False]
        assert snapshot["watchers"] == 1
    finally:
        for client in (ann, watcher):
            await client.close()
        for client in (bob, extra):
            client.reader.cancel()


def killer(process: DaphneProcess) -> Callable[[], None]:
    """What kills ``process`` at once, as ``kill -9`` does, and waits for it to be gone."""

    def kill() -> None:
        assert process.pid is not None
        os.kill(process.pid, signal.SIGKILL)
        process.join(timeout=5)

    return kill


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="needs REDIS_URL: two server processes share events only through Redis",
)
@pytest.mark.django_db(transaction=True)
def test_a_killed_processs_sockets_vanish_from_presence(
    two_servers: tuple[str, str], two_server_processes: list[DaphneProcess]
) -> None:
    """kill -9 of the process holding Bob's socket and a watcher's: within 30 s the room
    shows Bob gone and one watcher fewer, with nobody closing anything."""
    kill = killer(two_server_processes[0])
    asyncio.run(asyncio.wait_for(presence_across(*two_servers, kill), GAME_TIMEOUT))


def turn_after(event: Message) -> int | None:
    """The seat an event hands the turn to, if it passes the turn."""
    data = event["data"]
    if event["kind"] in ("scored", "left"):
        return data.get("next")  # type: ignore[no-any-return]
    if event["kind"] == "roll_off":
        return data["first"]  # type: ignore[no-any-return]
    return None


def bot_turns(events: list[Message], seat: int) -> list[list[Message]]:
    """The moves of ``seat``, turn by turn (each turn ends with its score)."""
    turns: list[list[Message]] = [[]]
    for event in events:
        if event["kind"] in ("rolled", "held", "scored") and event["data"]["seat"] == seat:
            turns[-1].append(event)
            if event["kind"] == "scored":
                turns.append([])
    return turns[:-1]


async def bots_across(first_url: str, second_url: str) -> None:
    """Ann plays on the first server beside two bots; both servers chase the bots' turns."""
    status, created = await asyncio.to_thread(
        post_json, f"{first_url}/api/games/", {"name": "Ann", "seats": 3}
    )
    assert status == 201, created
    code = created["code"]
    ann, _ = await Client.connect("Ann", first_url, code)
    await ann.send(type="resume", token=created["token"])
    await ann.reply("snapshot")
    await ann.send(type="add_bot", level="optimal")
    await ann.send(type="add_bot", level="casual")
    bots = [(await ann.event("joined"))["data"] for _ in range(2)]
    assert [(b["seat"], b["bot"]) for b in bots] == [(1, "optimal"), (2, "casual")]
    watcher, watched = await Client.connect("Watcher", second_url, code)
    assert [p["bot"] for p in watched["players"]] == [None, "optimal", "casual"]
    try:
        await ann.send(type="start", version=ann.seen)
        on_turn = None
        while on_turn is None:
            on_turn = turn_after(await ann.event("roll_off"))
        while True:
            if on_turn == 0:
                await ann.send(type="roll", version=ann.seen)
                await ann.event("rolled")
                await ann.send(type="snapshot")
                options = (await ann.reply("snapshot"))["turn"]["options"]
                best = max(options, key=lambda box: options[box])
                await ann.send(type="score", category=best, version=ann.seen)
            else:
                # A browser opening the room on the second server while a bot is on turn
                # starts a driver there too: two processes chase the same bot.
                poke, _ = await Client.connect("Poke", second_url, code)
                await poke.close()
            event = await ann.next(
                lambda m: m["type"] == "event" and m["kind"] in ("scored", "finished")
            )
            if event["kind"] == "finished":
                break
            on_turn = event["data"]["next"]
        finished = event
        await watcher.catch_up(finished["version"])
        # Every event once, in order, on both servers.
        assert_every_event(watcher, watched["version"] + 1, finished["version"])
        assert [e for e in ann.events if e["version"] > watched["version"]] == watcher.events
        for seat in (1, 2):
            turns = bot_turns(watcher.events, seat)
            assert len(turns) == 13
            for turn in turns:
                kinds = [e["kind"] for e in turn]
                # Roll, then (show the keep, roll again) at most twice, then score: no move twice.
                assert kinds[0] == "rolled"
                assert kinds[-1] == "scored"
                assert kinds.count("rolled") <= 3
                assert "held,held" not in ",".join(kinds)
                for before, after in itertools.pairwise(turn):
                    if before["kind"] == "held":
                        assert after["kind"] == "rolled"
                        assert after["data"]["held"] == before["data"]["held"]
        assert len(finished["data"]["totals"]) == 3
    finally:
        await ann.close()
        await watcher.close()


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="needs REDIS_URL: two server processes share events only through Redis",
)
@pytest.mark.django_db(transaction=True)
def test_bots_on_two_server_processes_move_once_each(two_servers: tuple[str, str]) -> None:
    """Both processes drive the same bots; every bot move is still made exactly once."""
    asyncio.run(asyncio.wait_for(bots_across(*two_servers), GAME_TIMEOUT))
