"""The websocket room, through the whole ASGI stack, with ``WebsocketCommunicator``.

Two players and a watcher play; every refusal goes to the sender alone and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.core import RedisChannelLayer
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from games.engine import rules
from games.live import bots, consumers, layers, outbox, services, shutdown, watchers
from games.models import Connection, Game, room_group
from games.strategy.engine import load
from tests import sockets
from tests.server.helpers import SOLO, fingerprint
from yahtzee_site.asgi import application
from yahtzee_site.db import DatabaseAway

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # The site's own origin: a real server always sends a Host.
#: Seconds a read waits before the test fails: it only bounds a failure (nothing is decided
#: by a read that times out), so it is generous for a loaded machine.
TIMEOUT = 10


@pytest.fixture(autouse=True)
def still_time(fake_clock):  # type: ignore[no-untyped-def]
    """Time stands still, so a snapshot's turn clock is the same whenever it is read."""
    return fake_clock


@pytest.fixture
def script_speed(monkeypatch):  # type: ignore[no-untyped-def]
    """No rate limit on the sockets: a test plays a whole game in a fraction of a second,
    past the burst a person could send (the limit has its own test, below)."""
    monkeypatch.setattr(consumers.RateLimit, "allow", lambda self: True)


class Client:
    """One websocket to a room, with the messages it has been sent so far."""

    def __init__(self, code: str, session_key: str | None = None, address: str = "") -> None:
        self.code = code
        self.session_key = session_key
        headers = [ORIGIN, HOST]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.communicator = WebsocketCommunicator(
            application, f"/ws/games/{code}/", headers=headers
        )
        if address:  # Where the socket comes from, as Daphne says.
            self.communicator.scope["client"] = [address, 50000]
        self.snapshot: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.version = 0  # The last version this client was told of.
        self.errors: list[dict[str, Any]] = []
        self.watching: dict[str, Any] = {}
        self.pings = 0  # Markers sent so far: each barrier's ping has an id of its own.

    async def connect(self) -> Client:
        connected, _ = await self.communicator.connect(timeout=TIMEOUT)
        assert connected
        self.snapshot = await self.expect("snapshot")
        # Then how it takes part in the watchers' chat (a watcher, under its name, or a player).
        self.watching = await self.expect("watching")
        return self

    async def send(self, **message: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.communicator.receive_from(timeout=TIMEOUT))
        if message["type"] == "event":
            self.events.append(message)
            self.version = message["version"]
        if message["type"] == "snapshot":
            self.snapshot = message
            self.version = message["version"]
        if message["type"] == "error":
            self.errors.append(message)
        return message

    async def expect(self, kind: str) -> dict[str, Any]:
        """The next message of type (or event kind) ``kind``, reading past others but errors."""
        while True:
            message = await self.receive()
            if kind in (message["type"], message.get("kind")):
                return message
            assert message["type"] != "error" or kind == "scored", message

    async def expect_error(self, code: str) -> dict[str, Any]:
        message = await self.expect("error")
        assert message["code"] == code, message
        assert message["message"]
        return message

    async def until_pong(self) -> list[dict[str, Any]]:
        """Every message the server sent this socket before it answered a ping sent now, but
        who is here (``presence``: sent on a timer of its own whenever someone comes or goes).

        A barrier, not a quiet window: the server handles a socket's messages one at a time,
        in order, so what came before the pong is what it had sent, and nothing else was. A
        room's event reaches every socket of the room at once, so an event another socket
        has received is among these; one sent after the ping, or while this socket still had
        older events to pass on, may come after the pong: wait for a message you expect with
        :meth:`expect`, and use this to show that nothing else came.
        """
        self.pings += 1
        marker = f"barrier-{self.pings}"
        await self.send(type="ping", id=marker)
        before = []
        while (message := await self.receive()) != {"type": "pong", "id": marker}:
            assert message.get("code") != "rate_limited", "a barrier past the rate limit"
            if message["type"] != "presence":
                before.append(message)
        return before

    async def drain(self) -> None:
        """Read what the server has sent this socket so far: every event up to the version
        stored now (over Redis an event may still be on its way when a pong is not), then up
        to a barrier (:meth:`until_pong`)."""
        await self.catch_up()
        await self.until_pong()

    async def catch_up(self, version: int | None = None) -> None:
        """Read on until this socket has been told of the room's ``version`` (by default the
        version stored now): a command it sends next is not stale for want of news that was
        still on its way (over Redis, a moment after the command that caused it was answered).
        """
        if version is None:
            version = await stored_version(self.code)
        while self.version < version:
            await self.receive()

    async def close(self) -> None:
        await self.communicator.disconnect()


@database_sync_to_async
def new_session() -> str:
    session = SessionStore()
    session.create()
    return session.session_key  # type: ignore[return-value]


@database_sync_to_async
def new_game(**kwargs: Any) -> str:
    game, _ = services.create_game(**kwargs)
    return game.code


@database_sync_to_async
def stored(code: str) -> tuple[object, ...]:
    return fingerprint(code)


def count_rows(code: str) -> int:
    """How many sockets room ``code`` counts as here (its connection rows)."""
    return Connection.objects.filter(game__code=code).count()


rows = database_sync_to_async(count_rows)


@database_sync_to_async
def stored_version(code: str) -> int:
    """The version of room ``code``: that of its last event."""
    return Game.objects.values_list("version", flat=True).get(code=code)


@database_sync_to_async
def snapshot(code: str, player_id: int | None = None) -> dict[str, Any]:
    return services.snapshot(code, player_id)


async def seat(code: str, name: str) -> Client:
    """A browser (with its session) that connects and sits down as ``name``."""
    client = await Client(code, await new_session()).connect()
    await client.send(type="join", name=name)
    joined = await client.expect("joined")
    assert joined["token"]
    return client


async def started_table(fixed_dice) -> tuple[str, Client, Client, Client]:  # type: ignore[no-untyped-def]
    """Alice (host, seat 0) and Bob seated, a watcher, the game started with Alice on turn."""
    code = await new_game()
    alice = await seat(code, "Alice")
    bob = await seat(code, "Bob")
    watcher = await Client(code).connect()
    fixed_dice.load(*[6] * 5, *[1] * 5)
    await alice.catch_up()
    await alice.send(type="start", version=alice.version)
    first = (await alice.expect("roll_off"))["data"]["first"]
    assert first == 0
    for client in (alice, bob, watcher):
        await client.drain()
        client.events.clear()
    return code, alice, bob, watcher


# The target dice of Alice's turns (first roll keeps three, second throws the last two) and
# the boxes she fills: 63 in the upper section, so the bonus, and every lower box.
ALICE = [
    ("ones", [1, 1, 1, 2, 3], 3),
    ("twos", [2, 2, 2, 1, 1], 6),
    ("threes", [3, 3, 3, 1, 1], 9),
    ("fours", [4, 4, 4, 1, 1], 12),
    ("fives", [5, 5, 5, 1, 1], 15),
    ("sixes", [6, 6, 6, 1, 1], 18),
    ("three_of_a_kind", [6, 6, 6, 1, 2], 21),
    ("four_of_a_kind", [5, 5, 5, 5, 1], 21),
    ("full_house", [2, 2, 3, 3, 3], 25),
    ("small_straight", [1, 2, 3, 4, 6], 30),
    ("large_straight", [2, 3, 4, 5, 6], 40),
    ("yahtzee", [4, 4, 4, 4, 4], 50),
    ("chance", [6, 6, 6, 6, 5], 29),
]
ALICE_TOTAL = 63 + 35 + 21 + 21 + 25 + 30 + 40 + 50 + 29  # 314
# Bob rolls 1 2 3 4 6 once each turn and fills the boxes in card order.
BOB_POINTS = [1, 2, 3, 4, 0, 6, 0, 0, 0, 30, 0, 0, 16]
BOB_TOTAL = sum(BOB_POINTS)  # 62


async def test_two_players_and_a_watcher_play_a_whole_game(fixed_dice, script_speed) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_table(fixed_dice)
    seen_from = watcher.version
    for (box, target, points), bob_box, bob_points in zip(
        ALICE, rules.YAHTZEE_BOXES, BOB_POINTS, strict=True
    ):
        fixed_dice.load(*target[:3], 6, 6)
        await alice.send(type="roll", version=alice.version)
        await alice.expect("rolled")
        fixed_dice.load(*target[3:])
        await alice.send(type="roll", hold=[0, 1, 2], version=alice.version)
        rolled = await alice.expect("rolled")
        assert (rolled["data"]["dice"], rolled["data"]["rolls_left"]) == (target, 1)
        await alice.send(type="score", category=box, version=alice.version)
        assert (await alice.expect("scored"))["data"]["points"] == points

        await bob.catch_up(alice.version)
        fixed_dice.load(1, 2, 3, 4, 6)
        await bob.send(type="roll", version=bob.version)
        await bob.expect("rolled")
        await bob.send(type="score", category=bob_box.value, version=bob.version)
        assert (await bob.expect("scored"))["data"]["points"] == bob_points
        await alice.catch_up(bob.version)

    finished = await bob.expect("finished")
    assert finished["data"] == {
        "winners": [0],
        "totals": [ALICE_TOTAL, BOB_TOTAL],
        "places": [1, 2],
    }
    await watcher.catch_up(bob.version)
    assert await watcher.until_pong() == []  # Nothing after the end.
    # The watcher saw every event, in order, with no gap: 13 rounds of two rolls and a
    # score for Alice, a roll and a score for Bob, then the end.
    versions = [e["version"] for e in watcher.events]
    assert versions == list(range(seen_from + 1, seen_from + 1 + 13 * 5 + 1))
    kinds = [e["kind"] for e in watcher.events]
    assert kinds == ["rolled", "rolled", "scored", "rolled", "scored"] * 13 + ["finished"]
    assert [e["data"] for e in watcher.events] == [e["data"] for e in bob.events[-66:]]
    # What the watcher was told is what the server stores.
    await watcher.send(type="snapshot")
    final = await watcher.expect("snapshot")
    assert final == {
        **await snapshot(code),
        "watchers": final["watchers"],
        "players": final["players"],
    }
    assert [p["card"]["total"] for p in final["players"]] == [ALICE_TOTAL, BOB_TOTAL]
    assert final["game"]["status"] == "finished"
    assert final["winners"] == [0]
    for client in (alice, bob, watcher):
        await client.close()


async def test_a_reconnecting_player_gets_their_seat_and_the_turn_back(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_table(fixed_dice)
    fixed_dice.load(2, 2, 5, 5, 5)
    await alice.send(type="roll", version=alice.version)
    await alice.expect("rolled")
    await alice.close()
    await bob.drain()

    again = await Client(code, alice.session_key).connect()
    game = await database_sync_to_async(Game.objects.get)(code=code)
    assert again.snapshot == await snapshot(
        code, again.snapshot["you"] and await _player_id(code, 0)
    )
    assert again.snapshot["you"] == {"seat": 0, "name": "Alice", "host": True}
    assert again.snapshot["version"] == game.version
    assert again.snapshot["turn"]["dice"] == [2, 2, 5, 5, 5]
    assert again.snapshot["turn"]["rolls_left"] == 2
    assert again.snapshot["turn"]["options"]["full_house"] == 25
    # And can play on from where the turn was.
    await again.send(type="score", category="full_house", version=again.version)
    assert (await again.expect("scored"))["data"]["points"] == 25
    for client in (again, bob, watcher):
        await client.close()


async def test_a_hold_reaches_the_other_player_and_the_watcher(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_table(fixed_dice)
    fixed_dice.load(2, 6, 2, 5, 1)
    await alice.send(type="roll", version=alice.version)
    rolled = (await alice.expect("rolled"))["data"]
    assert rolled["options"] == {
        **{"ones": 1, "twos": 4, "threes": 0, "fours": 0, "fives": 5, "sixes": 6},
        **{"three_of_a_kind": 0, "four_of_a_kind": 0, "full_house": 0},
        **{"small_straight": 0, "large_straight": 0, "yahtzee": 0, "chance": 16},
    }
    seen = alice.version
    for hold in ([0], [2, 0]):  # Die by die, with no version: clicks are never stale.
        await alice.send(type="hold", hold=hold, id="h")
        for client in (alice, bob, watcher):
            held = await client.expect("held")
            assert held["data"] == {"seat": 0, "held": sorted(hold)}
    assert alice.errors == []
    # The watcher and a socket that connects now both see the dice held.
    late = await Client(code).connect()
    assert late.snapshot["turn"]["held"] == [0, 2]
    assert late.snapshot["recent"][-1] == watcher.events[-1]
    # A roll sent with the version from before the holds is not stale.
    fixed_dice.load(2, 2, 2)
    await alice.send(type="roll", hold=[0, 2], version=seen)
    rolled = (await alice.expect("rolled"))["data"]
    assert (rolled["dice"], rolled["held"]) == ([2, 2, 2, 2, 2], [0, 2])
    assert rolled["options"]["yahtzee"] == 50
    await alice.send(type="score", category="yahtzee", version=alice.version)
    scored = (await alice.expect("scored"))["data"]
    assert (scored["total"], scored["next"], scored["round"]) == (50, 1, 1)
    assert scored["card"]["boxes"]["yahtzee"] == 50
    for client in (bob, watcher):
        await client.drain()
    assert [e["kind"] for e in watcher.events] == ["rolled", "held", "held", "rolled", "scored"]
    assert [e["data"] for e in watcher.events] == [e["data"] for e in bob.events]
    for client in (alice, bob, watcher, late):
        await client.close()


@database_sync_to_async
def _player_id(code: str, seat: int) -> int:
    return Game.objects.get(code=code).players.get(seat=seat).pk


# -- refusals ---------------------------------------------------------------------------


def text(**message: Any) -> str:
    return json.dumps(message)


BAD_INPUTS = [
    # (name, rolls Alice makes first, who sends, the raw message or None for binary, code)
    ("malformed JSON", 0, "alice", '{"type": "roll"', "invalid_json"),
    ("not an object", 0, "alice", "[1, 2]", "invalid_message"),
    ("binary frame", 0, "alice", None, "invalid_message"),
    ("unknown type", 0, "alice", text(type="fly"), "unknown_type"),
    ("no type", 0, "alice", text(category="chance"), "unknown_type"),
    ("wrong turn", 0, "bob", text(type="roll", version="V"), "not_your_turn"),
    ("another seat", 0, "alice", text(type="roll", seat=1, version="V"), "not_your_seat"),
    ("seat not a number", 0, "alice", text(type="roll", seat="0", version="V"), "invalid_message"),
    ("watcher rolls", 0, "watcher", text(type="roll", version="V"), "not_a_player"),
    ("hold first roll", 0, "alice", text(type="roll", hold=[0], version="V"), "hold_before_roll"),
    ("hold out of range", 1, "alice", text(type="roll", hold=[5], version="V"), "invalid_hold"),
    ("hold negative", 1, "alice", text(type="roll", hold=[-1], version="V"), "invalid_hold"),
    ("hold not a list", 1, "alice", text(type="roll", hold="0 1", version="V"), "invalid_hold"),
    ("fourth roll", 3, "alice", text(type="roll", version="V"), "no_rolls_left"),
    ("hold before roll", 0, "alice", text(type="hold", hold=[0]), "hold_before_roll"),
    ("hold off turn", 1, "bob", text(type="hold", hold=[0]), "not_your_turn"),
    ("watcher holds", 1, "watcher", text(type="hold", hold=[0]), "not_a_player"),
    ("hold for another seat", 1, "alice", text(type="hold", hold=[0], seat=1), "not_your_seat"),
    ("hold all five", 1, "alice", text(type="hold", hold=[0, 1, 2, 3, 4]), "invalid_hold"),
    ("hold a repeat", 1, "alice", text(type="hold", hold=[2, 2]), "invalid_hold"),
    ("hold no list", 1, "alice", text(type="hold"), "invalid_hold"),
    ("hold after last roll", 3, "alice", text(type="hold", hold=[0]), "no_rolls_left"),
    (
        "score before roll",
        0,
        "alice",
        text(type="score", category="chance", version="V"),
        "not_rolled",
    ),
    (
        "unknown box",
        1,
        "alice",
        text(type="score", category="sevens", version="V"),
        "unknown_category",
    ),
    ("stale version", 1, "alice", text(type="score", category="chance", version=2), "stale"),
    ("no version", 1, "alice", text(type="score", category="chance"), "invalid_message"),
    ("start again", 0, "alice", text(type="start", version="V"), "already_started"),
    ("not the host", 0, "bob", text(type="start", version="V"), "not_host"),
    ("join twice", 0, "alice", text(type="join", name="Alicia"), "already_seated"),
    ("join a started game", 0, "watcher", text(type="join", name="Carol"), "game_started"),
    ("bad token", 0, "watcher", text(type="resume", token="guess"), "invalid_token"),
    ("chat too long", 0, "bob", text(type="chat", text="x" * 501), "chat_too_long"),
    ("watcher chats", 0, "watcher", text(type="chat", text="hi"), "not_a_player"),
    ("over 16 KiB", 0, "bob", text(type="chat", text="x" * 16_400), "too_large"),
    # Each of these used to close the socket with 1011 and a traceback.
    ("type an array", 0, "alice", '{"type": []}', "unknown_type"),
    ("type an object", 0, "alice", '{"type": {"a": 1}}', "unknown_type"),
    ("type a list of a type", 0, "alice", '{"type": ["roll"]}', "unknown_type"),
    ("an array 5,000 deep", 0, "alice", "[" * 5000 + "]" * 5000, "invalid_message"),
    (
        "hold 5,000 deep",
        1,
        "alice",
        '{"type": "roll", "version": "V", "hold": ' + "[" * 5000 + "]" * 5000 + "}",
        "invalid_hold",
    ),
    (
        "chat 3,000 deep",
        0,
        "alice",
        '{"type": "chat", "text": ' + '{"":' * 3000 + "1" + "}" * 3000 + "}",
        "invalid_message",
    ),
    ("version a boolean", 1, "alice", text(type="roll", version=True), "invalid_message"),
    ("back when not away", 0, "alice", text(type="back"), "not_away"),
    (
        "a watcher removes a player",
        0,
        "watcher",
        text(type="remove_player", player=1),
        "not_a_player",
    ),
    ("a guest removes the host", 0, "bob", text(type="remove_player", player=0), "not_host"),
    ("removing a player who is here", 0, "alice", text(type="remove_player", player=1), "not_away"),
    (
        "handing over a player who is here",
        0,
        "alice",
        text(type="hand_to_bot", player=1),
        "not_away",
    ),
    ("handing over nobody", 0, "alice", text(type="hand_to_bot"), "invalid_message"),
]


@pytest.mark.parametrize(
    ("rolls", "sender", "raw", "code"),
    [case[1:] for case in BAD_INPUTS],
    ids=[case[0] for case in BAD_INPUTS],
)
async def test_a_bad_message_gets_an_error_and_changes_nothing(  # type: ignore[no-untyped-def]
    fixed_dice, rolls: int, sender: str, raw: str | None, code: str
) -> None:
    game_code, alice, bob, watcher = await started_table(fixed_dice)
    for _ in range(rolls):
        fixed_dice.load(3, 3, 3, 3, 3)
        await alice.send(type="roll", version=alice.version)
        await alice.expect("rolled")
    clients = {"alice": alice, "bob": bob, "watcher": watcher}
    for client in clients.values():
        await client.drain()
    before = await stored(game_code)

    sending = clients[sender]
    if raw is None:
        await sending.communicator.send_to(bytes_data=b"\x00\x01")
    else:
        await sending.communicator.send_to(text_data=raw.replace('"V"', str(sending.version)))
    await sending.expect_error(code)

    assert await stored(game_code) == before
    for name, client in clients.items():  # Not even the sender, but for its error.
        assert await client.until_pong() == [], name
    # The connection is still open and works.
    await sending.send(type="ping", id="still there")
    assert await sending.expect("pong") == {"type": "pong", "id": "still there"}
    for client in clients.values():
        await client.close()


async def test_the_host_hands_a_gone_players_seat_to_a_bot_that_plays_it(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    await asyncio.to_thread(load)  # The bot's strategy, before its turn comes (seconds, once).
    _, alice, bob, watcher = await started_table(fixed_dice)
    await bob.close()  # Bob's browser is gone.
    await alice.drain()

    await alice.send(type="hand_to_bot", player=1)
    handed = await watcher.expect("handed")
    assert handed["data"] == {"seat": 1, "name": "Bob", "host": 0}
    fixed_dice.load(1, 2, 3, 4, 6)
    await alice.send(type="roll", version=alice.version)
    await alice.expect("rolled")
    await alice.send(type="score", category="chance", version=alice.version)
    await alice.expect("scored")

    # Bob's turn: the bot plays it at once, through the same path, and says so.
    fixed_dice.load(*[5] * 15)
    scored = await watcher.expect("scored")
    while scored["data"]["seat"] != 1:
        scored = await watcher.expect("scored")
    assert scored["data"]["by"] == "bot"
    await bots.settle()
    for client in (alice, watcher):
        await client.close()


async def test_a_filled_box_is_refused(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_table(fixed_dice)
    for client, box in ((alice, "chance"), (bob, "chance")):
        fixed_dice.load(1, 2, 3, 4, 6)
        await client.drain()
        await client.send(type="roll", version=client.version)
        await client.expect("rolled")
        await client.send(type="score", category=box, version=client.version)
        await client.expect("scored")
    await alice.drain()
    fixed_dice.load(1, 2, 3, 4, 6)
    await alice.send(type="roll", version=alice.version)
    await alice.expect("rolled")
    before = await stored(code)
    await alice.send(type="score", category="chance", version=alice.version, id=7)
    error = await alice.expect_error("box_filled")
    assert error["id"] == 7
    assert await stored(code) == before
    for client in (alice, bob, watcher):
        await client.close()


async def test_a_repeated_command_is_applied_once(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    _, alice, bob, watcher = await started_table(fixed_dice)
    fixed_dice.load(1, 2, 3, 4, 5, 6, 6, 6, 6, 6)
    command = text(type="roll", version=alice.version)
    await alice.communicator.send_to(text_data=command)
    await alice.expect("rolled")
    await alice.communicator.send_to(text_data=command)
    await alice.expect_error("stale")
    await watcher.drain()
    assert [e["kind"] for e in watcher.events] == ["rolled"]
    for client in (alice, bob, watcher):
        await client.close()


async def test_two_sockets_of_one_player_scoring_at_once_score_once(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_table(fixed_dice)
    fixed_dice.load(6, 6, 6, 6, 6)
    await alice.send(type="roll", version=alice.version)
    await alice.expect("rolled")
    other_tab = await Client(code, alice.session_key).connect()
    assert other_tab.snapshot["you"]["seat"] == 0
    await alice.drain()

    command = text(type="score", category="yahtzee", version=alice.version)
    await asyncio.gather(
        alice.communicator.send_to(text_data=command),
        other_tab.communicator.send_to(text_data=command),
    )
    for tab in (alice, other_tab):
        await tab.expect("scored")  # Both tabs see the one score...
        await tab.drain()
    # ...and exactly one of them was told its copy came too late.
    assert sorted(len(tab.errors) for tab in (alice, other_tab)) == [0, 1]
    assert [e["code"] for tab in (alice, other_tab) for e in tab.errors] == ["stale"]
    game = await database_sync_to_async(Game.objects.get)(code=code)
    assert game.state is not None
    assert [len(card.filled) for card in game.state.cards] == [1, 0]
    await watcher.drain()
    assert [e["kind"] for e in watcher.events] == ["rolled", "scored"]
    for client in (alice, other_tab, bob, watcher):
        await client.close()


def frozen_rate_clock(monkeypatch) -> list[float]:  # type: ignore[no-untyped-def]
    """The buckets' clock stands still from now (past every bucket's last reading, so all
    are full) and moves on when the test says so: the counts are exact, however fast or
    slow the machine sends."""
    now = [time.monotonic() + 1000.0]
    monkeypatch.setattr(consumers, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


async def replies_to(client: Client, count: int) -> list[dict[str, Any]]:
    """The next ``count`` messages to ``client``, but who is here (sent on a timer of its own)."""
    replies: list[dict[str, Any]] = []
    while len(replies) < count:
        reply = await client.receive()
        if reply["type"] != "presence":
            replies.append(reply)
    return replies


async def test_a_flood_of_messages_is_rate_limited(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    code = await new_game()
    watcher = await Client(code).connect()
    now = frozen_rate_clock(monkeypatch)
    for n in range(60):
        await watcher.send(type="ping", id=n)
    replies = await replies_to(watcher, 60)
    pongs = [r for r in replies if r["type"] == "pong"]
    limited = [r for r in replies if r.get("code") == "rate_limited"]
    assert [r["id"] for r in pongs] == list(range(30))  # A burst a person could send goes
    assert [r["id"] for r in limited] == list(range(30, 60))  # through, a script's flood does not,
    now[0] += 0.15  # and the connection recovers, at ten messages a second.
    await watcher.send(type="ping", id="later")
    assert (await watcher.expect("pong"))["id"] == "later"
    await watcher.send(type="ping", id="too soon")
    assert (await watcher.expect("error"))["code"] == "rate_limited"
    # The person's own bucket is as small: 60 commands (refused here for their missing
    # version), then the same. A frame that is no message counts there too.
    for n in range(59):
        await watcher.send(type="roll", id=f"roll-{n}")
    await watcher.communicator.send_to(text_data="not json")
    replies = await replies_to(watcher, 60)
    assert [r["code"] for r in replies] == ["invalid_message"] * 30 + ["rate_limited"] * 30
    await watcher.close()


async def test_a_flood_behind_a_slow_command_is_counted_as_it_arrives(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A command that waits (for the database, say) and sixty messages sent behind it. They
    # are counted as they arrive, not when their turn comes: the burst the bucket holds is
    # queued, the rest refused at once, each by its id, while the command still waits. Had
    # they been counted when handled, the bucket would have filled again meanwhile.
    code = await new_game()
    watcher = await Client(code).connect()
    now = frozen_rate_clock(monkeypatch)
    slow, released = asyncio.Event(), asyncio.Event()

    async def slow_ping(consumer: consumers.GameConsumer, message: Any) -> None:
        if message.id == "slow":
            slow.set()
            await released.wait()
        await consumers.GameConsumer.do_ping(consumer, message)

    commands = {**consumers.GameConsumer.commands, consumers.protocol.Ping: slow_ping}
    monkeypatch.setattr(consumers.GameConsumer, "commands", commands)
    await watcher.send(type="ping", id="slow")
    await slow.wait()  # The command is being handled, and waits.
    for n in range(60):
        await watcher.send(type="ping", id=n)
    refused = await replies_to(watcher, 31)  # Answered while the command still waits:
    assert not released.is_set()
    assert [(r["code"], r["id"]) for r in refused] == [("rate_limited", n) for n in range(29, 60)]
    assert all(r["message"] for r in refused)  # each with words for people.
    now[0] += 10  # The command took ten seconds: the bucket is full again,
    released.set()
    answered = await replies_to(watcher, 30)  # but the flood was counted already.
    assert [(r["type"], r["id"]) for r in answered] == [("pong", "slow")] + [
        ("pong", n) for n in range(29)
    ]
    assert await watcher.until_pong() == []  # And nothing else came.
    await watcher.close()


async def test_the_pages_own_questions_do_not_spend_the_players_rate_limit(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    # The page asks by itself: the coach's advice after each roll, the chances after each
    # move, a snapshot after a gap, a ping every 15 s. Here 40 of them at once, more than
    # their bucket holds, and then Alice rolls and scores: her moves go through.
    code, alice, bob, watcher = await started_table(fixed_dice)
    frozen_rate_clock(monkeypatch)
    for n in range(20):
        await alice.send(type="snapshot", id=f"snapshot-{n}")
        await alice.send(type="ping", id=f"ping-{n}")
    fixed_dice.load(2, 3, 3, 5, 6)
    await alice.send(type="roll", id="roll-1", version=await stored_version(code))
    replies = await replies_to(alice, 41)
    answered = [r for r in replies if r["type"] != "error"]
    assert answered[-1]["kind"] == "rolled"
    assert [r["type"] for r in answered[:30]] == ["snapshot", "pong"] * 15  # The questions' burst,
    # the others each refused, by its id (at once, as they arrived: before the burst's answers):
    refused = [(r["code"], r["id"]) for r in replies if r["type"] == "error"]
    asked = [f"{kind}-{n}" for n in range(15, 20) for kind in ("snapshot", "ping")]
    assert refused == [("rate_limited", request_id) for request_id in asked]
    await alice.send(type="score", id="score-1", category="chance", version=alice.version)
    assert (await alice.expect("scored"))["data"]["points"] == 19
    assert len(alice.errors) == 10  # The refused questions, and nothing else.
    # The exemption floods nothing: the questions stay refused while the clock stands still.
    await alice.send(type="snapshot", id="snapshot-more")
    assert (await alice.expect_error("rate_limited"))["id"] == "snapshot-more"
    for client in (alice, bob, watcher):
        await client.close()


# -- connecting -------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/ws/games/nosuchgame123/", "/ws/games/a.b/c/", "/ws/other/"])
async def test_a_socket_to_no_room_is_closed_with_4404(path: str) -> None:
    communicator = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST])
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected  # Accepted, so that a real client gets the close code, not a bare 403.
    assert await communicator.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": 4404,
    }


async def test_a_process_that_is_stopping_sends_a_new_socket_elsewhere_with_1012() -> None:
    code = await new_game()
    shutdown.stopping.set()
    try:
        communicator = WebsocketCommunicator(
            application, f"/ws/games/{code}/", headers=[ORIGIN, HOST]
        )
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        assert await communicator.receive_output(timeout=TIMEOUT) == {
            "type": "websocket.close",
            "code": 1012,
            "reason": "service restart: come back in 0-1 s",  # static/js/backoff.js reads it.
        }
    finally:
        shutdown.stopping.clear()


async def test_a_socket_whose_arrival_is_refused_in_a_room_that_is_there_comes_back(  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    """Any refusal while a socket arrived closed it with 4404, and its page said "There is no
    game at this link." (test_clock's watcher, at a load of 40: its row was swept before
    it had its watcher's name). Only a room that is not there says so; another refusal asks
    the page to come back at once, and its next socket arrives."""
    code = await new_game()

    def refused(*args: object) -> int:
        raise services.CommandError("not_a_watcher", "the watchers' chat is for watchers")

    monkeypatch.setattr(watchers, "default_number", refused)  # In the arrival's trip.
    communicator = WebsocketCommunicator(application, f"/ws/games/{code}/", headers=[ORIGIN, HOST])
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    assert await communicator.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": 1013,
        "reason": "the arrival did not complete: come back in 0-1 s",  # backoff.js reads it.
    }
    assert await rows(code) == 0  # Its row went with the refused arrival.

    monkeypatch.undo()
    again = await Client(code).connect()
    assert again.watching["name"] == "Watcher 1"
    await again.close()


async def test_a_command_during_an_outage_is_answered_unavailable_and_the_socket_stays(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    code, alice, bob, watcher = await started_table(fixed_dice)
    before = await stored(code)

    def database_away(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    monkeypatch.setattr(services, "roll", database_away)
    await alice.send(type="roll", version=alice.version, id="r1")
    refused = await alice.expect_error("unavailable")
    assert refused["id"] == "r1"
    assert await stored(code) == before
    monkeypatch.undo()  # The database is back: the same command goes through.
    fixed_dice.load(1, 2, 3, 4, 5)
    await alice.send(type="roll", version=alice.version)
    assert (await watcher.expect("rolled"))["data"]["dice"] == [1, 2, 3, 4, 5]
    for client in (alice, bob, watcher):
        await client.close()


async def test_a_socket_outlives_a_channel_layer_that_fails_for_a_moment(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    _, alice, bob, watcher = await started_table(fixed_dice)
    layer = get_channel_layer()
    receive = layer.receive
    failures = {"left": 3}

    async def redis_blips(channel: str) -> dict[str, Any]:
        if failures["left"]:
            failures["left"] -= 1
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")
        return await receive(channel)

    async def hears(client: Client, text: str) -> None:
        """``text`` reaches ``client`` as a chat event, or in the snapshot a consumer back
        from the failure is sent for what it missed (its recent lines)."""
        while True:
            heard = await client.receive()
            if heard["type"] == "snapshot":
                if text in [line["data"].get("text") for line in heard.get("recent", [])]:
                    return
            elif heard.get("kind") == "chat" and heard["data"]["text"] == text:
                return

    monkeypatch.setattr(consumers, "LAYER_RETRY_SECONDS", 0.01)
    monkeypatch.setattr(layer, "receive", redis_blips)
    # A consumer's pending read takes "one", unless a message came first (presence is
    # sent a moment later, coalesced): then its next read fails and "one" comes in the
    # snapshot after it. Either way, the next reads fail, then recover.
    await alice.send(type="chat", text="one")
    await hears(watcher, "one")
    await alice.send(type="chat", text="two")
    await hears(watcher, "two")
    assert failures["left"] == 0
    for client in (alice, bob, watcher):
        await client.close()


async def test_when_redis_is_back_every_socket_gets_a_snapshot_of_what_it_missed(  # type: ignore[no-untyped-def]
    fixed_dice,
) -> None:
    """Events published while Redis was away are lost to pub/sub; the layer says it is
    back (games.live.layers) and each socket is sent the room as it is now."""
    code, alice, bob, watcher = await started_table(fixed_dice)
    now = await snapshot(code)
    layer = get_channel_layer()

    await layer.group_send(room_group(code), {"type": layers.RECONNECTED})

    for client, seat in ((alice, 0), (bob, 1), (watcher, None)):
        caught_up = await client.expect("snapshot")
        assert caught_up["version"] == now["version"]
        assert (caught_up["you"] or {}).get("seat") == seat
    for client in (alice, bob, watcher):
        await client.close()


async def test_a_move_sent_while_redis_is_away_is_applied_and_reaches_the_room_after(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    """As the README says: Redis carries the news, the database holds the game. A roll sent
    while Redis is away is applied and answered with no error; its news is lost to
    pub/sub, and every socket has it in the snapshot it is sent when Redis is back."""
    code, alice, bob, watcher = await started_table(fixed_dice)
    before = await stored_version(code)
    layer = get_channel_layer()
    monkeypatch.setattr(outbox, "SEND_PATIENCE", 0.05)
    monkeypatch.setattr(outbox, "SEND_RETRY", 0.01)

    async def redis_away(*args: object) -> None:
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")

    with monkeypatch.context() as away:
        away.setattr(layer, "group_send", redis_away)
        fixed_dice.load(1, 2, 3, 4, 6)
        await alice.send(type="roll", version=alice.version)
        assert await alice.until_pong() == []  # Handled, in order: no error, no news.
    assert await stored_version(code) == before + 1

    await layer.group_send(room_group(code), {"type": layers.RECONNECTED})
    for client in (alice, bob, watcher):
        caught_up = await client.expect("snapshot")
        assert caught_up["version"] == before + 1
        assert caught_up["turn"]["rolls_left"] == 2
    for client in (alice, bob, watcher):
        await client.close()


@pytest.mark.parametrize(
    ("away", "reason"),
    [
        (
            OperationalError("connection to server at 127.0.0.1, port 5432 failed"),
            "the database or messaging is away: come back in 1-5 s",
        ),
        # The breaker knows the database is away (yahtzee_site/db): come back from its
        # next try (0.4 s here), spread over 2 s.
        (DatabaseAway(0.4), "the database is away: come back in 0-3 s"),
    ],
)
async def test_a_socket_that_cannot_be_served_now_is_told_to_try_again_with_1013(  # type: ignore[no-untyped-def]
    monkeypatch, away, reason
) -> None:
    code = await new_game()

    def database_away(*args: object, **kwargs: object) -> None:
        raise away

    monkeypatch.setattr(services, "arrive_from", database_away)
    communicator = WebsocketCommunicator(application, f"/ws/games/{code}/", headers=[ORIGIN, HOST])
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    assert await communicator.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": 1013,
        "reason": reason,
    }


async def test_a_socket_from_another_origin_is_refused() -> None:
    code = await new_game()
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{code}/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected is False


async def test_presence_follows_connections() -> None:
    code = await new_game()
    alice = await seat(code, "Alice")
    assert alice.snapshot["players"] == []  # The snapshot came before she sat down.
    bob = await seat(code, "Bob")
    presence = await alice.expect("presence")
    while presence["players"] != [{"seat": 0, "connected": True}, {"seat": 1, "connected": True}]:
        presence = await alice.expect("presence")
    watcher = await Client(code).connect()
    assert watcher.snapshot["watchers"] == 1
    assert [p["connected"] for p in watcher.snapshot["players"]] == [True, True]
    await bob.close()
    gone = {
        "type": "presence",
        "players": [{"seat": 0, "connected": True}, {"seat": 1, "connected": False}],
        "watchers": 1,
    }
    while await watcher.expect("presence") != gone:  # After its own arrival, Bob's going.
        pass
    await alice.close()
    await watcher.close()


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="the blocking pop belongs to the Redis channel layer"
)
async def test_a_socket_quiet_for_longer_than_the_layers_blocking_pop_still_hears_the_room() -> (
    None
):
    """Each consumer waits on Redis with a pop that Redis answers empty after 5 seconds.
    If the client's read timed out first (redis-py 8's default), the consumer would crash and
    drop the socket; see REDIS_SOCKET_TIMEOUT in the settings."""
    code = await new_game()
    alice = await seat(code, "Alice")
    bob = await seat(code, "Bob")
    await alice.drain()
    await bob.drain()
    # The condition under test: time past one empty pop. What the sockets were sent meanwhile
    # is decided by a barrier (both still answer, and were told nothing).
    await asyncio.sleep(RedisChannelLayer.brpop_timeout + 1.5)
    assert await alice.until_pong() == []
    assert await bob.until_pong() == []
    await alice.send(type="chat", text="still there?")
    chat = await bob.expect("chat")
    assert chat["data"]["text"] == "still there?"
    await alice.close()
    await bob.close()


async def test_a_client_without_the_session_takes_its_seat_back_with_its_token() -> None:
    code = await new_game()
    first = await Client(code).connect()
    await first.send(type="join", name="Dora")
    token = (await first.expect("joined"))["token"]
    await first.close()

    again = await Client(code).connect()
    assert again.snapshot["you"] is None  # No session: a watcher until it resumes.
    await again.send(type="resume", token=token)
    resumed = await again.expect("snapshot")
    assert resumed["you"] == {"seat": 0, "name": "Dora", "host": True}
    await again.close()


async def test_a_look_alike_name_is_refused_and_the_joiner_watches_on() -> None:
    code = await new_game()
    ann = await seat(code, "Ann")
    await ann.drain()
    other = await Client(code, await new_session()).connect()
    await other.send(type="join", name="\u0410nn")  # CYRILLIC CAPITAL LETTER A
    refused = await other.expect_error("name_taken")
    assert refused["message"].endswith("or a name that looks the same")
    await other.send(type="join", name="\u3164")  # HANGUL FILLER
    await other.expect_error("invalid_name")
    await other.send(type="join", name="Anna")
    assert (await other.expect("joined"))["token"]
    assert (await ann.expect("joined"))["data"]["name"] == "Anna"
    await ann.close()
    await other.close()


async def test_a_player_who_leaves_the_lobby_watches_on() -> None:
    code = await new_game()
    alice = await seat(code, "Alice")
    bob = await seat(code, "Bob")
    await bob.send(type="leave")
    left = await alice.expect("unseated")
    assert left["data"] == {"seat": 1, "name": "Bob", "host": 0}
    await bob.send(type="chat", text="bye")
    await bob.expect_error("not_a_player")
    await alice.close()
    await bob.close()


@database_sync_to_async
def play_solo_to_the_end(code: str, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    player = Game.objects.get(code=code).players.get()
    services.start_game(code, player.pk, version=Game.objects.get(code=code).version)
    for faces, box in SOLO:
        fixed_dice.load(*faces)
        services.roll(code, player.pk, version=Game.objects.get(code=code).version)
        services.score(code, player.pk, box, version=Game.objects.get(code=code).version)


async def test_a_rematch_takes_the_player_and_the_watcher_to_the_new_room(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code = await new_game()
    ana = await seat(code, "Ana")
    watcher = await Client(code).connect()
    await play_solo_to_the_end(code, fixed_dice)
    await watcher.expect("finished")
    before = await stored(code)

    await watcher.send(type="rematch", id="rematch-1")
    refused = await watcher.expect_error("not_a_player")
    assert refused["id"] == "rematch-1"
    assert await stored(code) == before

    await ana.send(type="rematch")
    told = [(await client.expect("rematch"))["data"] for client in (ana, watcher)]
    new_code = told[0]["code"]
    assert told == [{"code": new_code, "seat": 0, "name": "Ana"}] * 2
    # Ana's browser is seated in the new room as soon as it arrives there.
    again = await Client(new_code, ana.session_key).connect()
    assert again.snapshot["you"] == {"seat": 0, "name": "Ana", "host": True}
    assert again.snapshot["game"]["status"] == "lobby"
    for client in (ana, watcher, again):
        await client.close()


async def test_a_test_ends_with_its_sockets_closed_and_their_rows_deleted() -> None:
    """What every async test's clean-up does (:mod:`tests.sockets`), shown on two sockets left
    open, as a test leaves them: their consumers end, and nothing is left for the database
    thread to do once the test's database is flushed."""
    code = await new_game()
    ana = await seat(code, "Ana")
    watcher = await Client(code).connect()
    assert await rows(code) == 2

    await sockets.close_all()

    assert ana.communicator.future.done()
    assert watcher.communicator.future.done()
    assert await rows(code) == 0
    assert sockets.opened == []
