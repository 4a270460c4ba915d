"""The watchers' chat over the websocket (issue 19): watchers talk among themselves under
names no player has, and players read along only if they choose to.

Every refusal goes to the sender alone and changes nothing; the chat is kept in no log.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import names
from games.live import heartbeat, limits, services
from games.live.services import CommandError
from games.models import Connection
from games.wire import protocol
from tests.server.helpers import Table, fingerprint
from tests.server.test_consumer import Client, new_game, new_session, seat, stored
from tests.server.test_wire import exactly

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def still_time(fake_clock):  # type: ignore[no-untyped-def]
    """Time stands still: every row stays fresh, and a line's ``at`` is known."""
    return fake_clock


async def watcher(code: str) -> tuple[Client, dict[str, Any]]:
    """A browser that opens the room without a seat, and the ``watching`` message it is sent."""
    client = await Client(code, await new_session()).connect()
    return client, client.watching


async def said(client: Client, lines: int = 0) -> list[tuple[str, str]]:
    """The lines of the watchers' chat ``client`` was sent since last asked: (name, text).

    Read until the ``lines`` lines the test expects have come (a line goes out through the
    room's group, so it may come after the sender's own barrier), then up to a barrier
    (:meth:`Client.until_pong`): no other line came.
    """
    messages = []
    while sum(m["type"] == "watcher_message" for m in messages) < lines:
        messages.append(await client.receive())
    messages += await client.until_pong()
    return [(m["name"], m["text"]) for m in messages if m["type"] == "watcher_message"]


async def told(client: Client) -> list[dict[str, Any]]:
    """What ``client`` was sent since last asked, up to a barrier, but who is here (presence)."""
    return await client.until_pong()


async def room() -> tuple[str, Client, Client, Client, Client]:
    """Ana (host) and Ben seated in the lobby; two watchers; everyone has read all it was sent."""
    code = await new_game(seats=4)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    first, _ = await watcher(code)
    second, _ = await watcher(code)
    for client in (ana, ben, first, second):
        await client.catch_up()
        await client.drain()
    return code, ana, ben, first, second


@pytest.mark.asyncio
async def test_watchers_are_named_in_turn_and_players_are_told_they_do_not_read() -> None:
    code = await new_game(seats=2)
    ana, watching = await watcher(code)  # Ana's browser watches until she sits down.
    assert watching == {"type": "watching", "name": "Watcher 1", "read": True, "id": None}
    await ana.send(type="join", name="Ana")
    # Her seat: a player now, who does not read the watchers' chat; then her join's reply.
    assert await ana.expect("watching") == {
        "type": "watching",
        "name": None,
        "read": False,
        "id": None,
    }
    await ana.expect("joined")
    _, first = await watcher(code)
    _, second = await watcher(code)

    assert (first["name"], first["read"]) == ("Watcher 1", True)
    assert (second["name"], second["read"]) == ("Watcher 2", True)
    exactly(first, protocol.Watching)  # As the protocol declares it.
    # A browser whose session holds a seat is a player from its first message on.
    again = await Client(code, ana.session_key).connect()
    assert again.watching["name"] is None


@pytest.mark.asyncio
async def test_a_watchers_line_reaches_the_watchers_and_only_the_players_who_read() -> None:
    code, ana, ben, first, second = await room()
    before = await stored(code)

    await first.send(type="watcher_chat", text="  who wins?  ")
    assert await said(first, 1) == [("Watcher 1", "who wins?")]
    assert await said(second, 1) == [("Watcher 1", "who wins?")]
    assert await said(ana) == []
    assert await said(ben) == []

    await ana.send(type="read_watchers", read=True, id="r1")
    assert await ana.expect("watching") == {
        "type": "watching",
        "name": None,
        "read": True,
        "id": "r1",
    }
    await second.send(type="watcher_chat", text="Ana, surely")
    assert await said(ana, 1) == [("Watcher 2", "Ana, surely")]
    assert await said(ben) == []  # Ben did not choose to read it.
    assert await said(second, 1) == [("Watcher 2", "Ana, surely")]  # Its sender reads it too.

    await ana.send(type="read_watchers", read=False)
    await ana.expect("watching")
    await first.send(type="watcher_chat", text="quiet now")
    assert await said(second, 1) == [("Watcher 1", "quiet now")]
    assert await said(ana) == []  # Told of the line by now, had she been told.
    # Kept in no log: the game is exactly as it was.
    assert await stored(code) == before


@pytest.mark.asyncio
async def test_a_line_carries_the_time_it_was_said(fake_clock) -> None:  # type: ignore[no-untyped-def]
    code = await new_game(seats=2)
    looker, _ = await watcher(code)
    await looker.send(type="watcher_chat", text="hello")
    line = await looker.expect("watcher_message")
    assert line == {
        "type": "watcher_message",
        "name": "Watcher 1",
        "text": "hello",
        "at": fake_clock().isoformat(),
    }


@pytest.mark.asyncio
async def test_a_watcher_chooses_a_name_that_no_player_or_other_watcher_has() -> None:
    code, ana, _ben, first, second = await room()
    before = await stored(code)
    cyrillic_a = "\u0410"
    for taken in ("Ana", "ana", cyrillic_a + "na", "Watcher 2"):
        await first.send(type="watcher_name", name=taken)
        await first.expect_error("name_taken")
    await first.send(type="watcher_name", name="")
    await first.expect_error("invalid_name")
    await first.send(type="watcher_name", name=7)
    await first.expect_error("invalid_name")

    await first.send(type="watcher_name", name="  Sam ", id="n1")
    assert await first.expect("watching") == {
        "type": "watching",
        "name": "Sam",
        "read": True,
        "id": "n1",
    }
    await second.send(type="watcher_name", name="SAM")
    await second.expect_error("name_taken")
    await first.send(type="watcher_chat", text="hi all")
    assert await said(second, 1) == [("Sam", "hi all")]
    assert await said(ana) == []  # Nobody else heard of the refusals either.
    assert await stored(code) == before


@pytest.mark.asyncio
async def test_a_watcher_never_speaks_under_the_name_of_a_player_who_sat_down_since() -> None:
    code, _ana, _ben, first, second = await room()
    await first.send(type="watcher_name", name="Cy")
    assert (await first.expect("watching"))["name"] == "Cy"
    cy = await seat(code, "Cy")  # A player may take the name: the watcher gives it up.
    await first.drain()

    await first.send(type="watcher_chat", text="I am Cy")
    assert await first.expect("watching") == {
        "type": "watching",
        "name": "Watcher 1",
        "read": True,
        "id": None,
    }
    assert await said(second, 1) == [("Watcher 1", "I am Cy")]
    await cy.close()


@pytest.mark.asyncio
async def test_a_watcher_who_sits_down_is_a_player_and_one_who_leaves_watches_again() -> None:
    code = await new_game(seats=2)
    looker, watching = await watcher(code)
    assert watching["name"] == "Watcher 1"
    await looker.send(type="join", name="Dee")
    assert (await looker.expect("watching"))["name"] is None
    await looker.expect("joined")
    await looker.send(type="watcher_chat", text="hi")
    await looker.expect_error("not_a_watcher")

    await looker.send(type="leave")
    assert await looker.expect("watching") == {
        "type": "watching",
        "name": "Watcher 1",
        "read": True,
        "id": None,
    }
    await looker.send(type="watcher_chat", text="back to watching")
    assert await said(looker, 1) == [("Watcher 1", "back to watching")]


REFUSALS = [
    # (who sends, the message, the error)
    ("ana", {"type": "watcher_chat", "text": "hi"}, "not_a_watcher"),
    ("ana", {"type": "watcher_name", "name": "Zed"}, "not_a_watcher"),
    ("first", {"type": "read_watchers", "read": False}, "not_a_player"),
    ("first", {"type": "watcher_chat", "text": "hi", "seat": 0}, "not_your_seat"),
    ("first", {"type": "watcher_name", "name": "Zed", "seat": 1}, "not_your_seat"),
    ("ana", {"type": "read_watchers", "read": True, "seat": 1}, "not_your_seat"),
    ("first", {"type": "watcher_chat", "text": "   "}, "invalid_message"),
    ("first", {"type": "watcher_chat"}, "invalid_message"),
    ("first", {"type": "watcher_chat", "text": "x" * 501}, "chat_too_long"),
    ("ana", {"type": "read_watchers", "read": "yes"}, "invalid_message"),
    ("ana", {"type": "read_watchers"}, "invalid_message"),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("who", "message", "code"), REFUSALS, ids=lambda v: str(v)[:30])
async def test_a_bad_message_is_refused_to_its_sender_alone(who, message, code) -> None:  # type: ignore[no-untyped-def]
    room_code, ana, ben, first, second = await room()
    clients = {"ana": ana, "ben": ben, "first": first, "second": second}
    before = await stored(room_code)

    await clients[who].send(**message, id="bad")
    error = await clients[who].expect_error(code)

    assert error["id"] == "bad"
    for name, client in clients.items():
        assert await told(client) == [], name
    assert await stored(room_code) == before
    # The sender's preference and name are as they were.
    await ana.send(type="snapshot")
    await ana.expect("snapshot")
    await first.send(type="watcher_chat", text="still Watcher 1?")
    assert await said(first, 1) == [("Watcher 1", "still Watcher 1?")]
    assert await said(ana) == []


@pytest.mark.asyncio
async def test_watcher_chat_is_limited_per_browser_and_per_address(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_WATCHER_CHAT_PER_WATCHER = [(2, 60)]
    settings.LIMIT_WATCHER_CHAT_PER_ADDRESS = [(3, 60)]
    monkeypatch.setattr(limits, "now", lambda: 3600.0 * 278)  # The start of a minute.
    code = await new_game(seats=4)
    await seat(code, "Ana")
    one = await Client(code, await new_session(), address="10.0.0.1").connect()
    other = await Client(code, await new_session(), address="10.0.0.1").connect()

    for n in range(3):
        await one.send(type="watcher_chat", text=f"one {n}")
    assert await said(one, 2) == [("Watcher 1", "one 0"), ("Watcher 1", "one 1")]
    assert [(e["code"], e["message"]) for e in one.errors] == [
        ("chat_rate_limited", "too many chat messages: wait a minute")
    ]
    for n in range(2):  # Its address has room for one line more.
        await other.send(type="watcher_chat", text=f"other {n}")
    assert await said(other, 3) == [
        ("Watcher 1", "one 0"),
        ("Watcher 1", "one 1"),
        ("Watcher 2", "other 0"),
    ]
    assert [(e["code"], e["message"]) for e in other.errors] == [
        ("chat_rate_limited", "too many chat messages from your network: wait a minute")
    ]


@pytest.mark.asyncio
async def test_cookie_less_sockets_flooding_cost_a_watcher_nothing(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: five sockets without a session, 4 lines each, made a watcher lose 4 lines
    of 10 when the room's watchers shared one budget."""
    settings.LIMIT_WATCHER_CHAT_PER_WATCHER = [(5, 60)]
    settings.LIMIT_WATCHER_CHAT_PER_ADDRESS = [(10, 60)]
    monkeypatch.setattr(limits, "now", lambda: 3600.0 * 278)
    code = await new_game(seats=4)
    await seat(code, "Ana")
    reader = await Client(code, await new_session(), address="10.0.0.2").connect()
    floods = [await Client(code, address="10.0.0.9").connect() for _ in range(5)]

    for n in range(5):
        for number, flood in enumerate(floods):
            await flood.send(type="watcher_chat", text=f"flood {number}.{n}")
        await reader.send(type="watcher_chat", text=f"line {n}")
    heard = await said(reader, 10)

    mine = [text for name, text in heard if text.startswith("line")]
    assert mine == [f"line {n}" for n in range(5)]
    assert len(heard) == 10  # The five sockets together: as one watcher, 5 lines.
    for flood in floods:
        await flood.until_pong()  # Every answer it was sent.
    assert sum(len(flood.errors) for flood in floods) == 20
    assert {e["code"] for flood in floods for e in flood.errors} == {"chat_rate_limited"}
    assert reader.errors == []


# -- the service, without sockets ----------------------------------------------------


def test_the_default_name_skips_a_player_called_like_a_watcher(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("Watcher 1", "ben")
    game = table.game
    row = Connection.objects.create(game=game, seen_at=fake_clock())
    assert services.watcher_name(table.code, row.pk) == "Watcher 2"
    assert services.watcher_name(table.code, row.pk) == "Watcher 2"  # It keeps it.
    seated = Connection.objects.create(game=game, player=table.players["ben"], seen_at=fake_clock())
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as refused:
        services.watcher_chat(table.code, seated.pk, "hi", sender="s")
    assert refused.value.code == "not_a_watcher"
    assert fingerprint(table.code) == before


@pytest.mark.parametrize(("chosen", "number", "next_default"), [("Sam", None, 1), (None, 1, 2)])
def test_a_watchers_name_is_kept_when_its_row_is_written_back(
    fake_clock, chosen: str | None, number: int | None, next_default: int
) -> None:  # type: ignore[no-untyped-def]
    """A process cut off from the database for a while writes its sockets' rows back
    (games/live/heartbeat.py): a watcher's name comes back with its row, still its own,
    and a default name with its number, so no newcomer is given it again."""
    table = Table("ana")
    row = services.arrive(table.code).connection_id
    name = services.watcher_name(table.code, row, chosen)
    assert name == (chosen or "Watcher 1")
    heartbeat.sockets[row] = heartbeat.Socket(row, table.code, None, name)  # As beat() keeps it.
    try:
        fake_clock.advance(heartbeat.EXPIRY.total_seconds() + 10)
        assert heartbeat.sweep() == [table.code]
        assert heartbeat.beat([heartbeat.sockets[row]]) == [table.code]
    finally:
        del heartbeat.sockets[row]

    assert (Connection.objects.get(pk=row).name, Connection.objects.get(pk=row).number) == (
        name,
        number,
    )
    other = services.arrive(table.code).connection_id
    with pytest.raises(CommandError) as refused:
        services.watcher_name(table.code, other, name.upper())
    assert refused.value.code == "name_taken"
    assert services.watcher_name(table.code, other) == f"Watcher {next_default}"


def test_a_crowd_s_default_name_is_the_first_number_free(fake_clock) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: each default name was tried against every name in the room, the names'
    look-alike keys worked out again each time; now the room's keys are gathered once."""
    table = Table("ana", "Watcher 3")
    rows = [Connection.objects.create(game=table.game, seen_at=fake_clock()) for _ in range(60)]
    named = [services.watcher_name(table.code, row.pk) for row in rows]
    assert named[:3] == ["Watcher 1", "Watcher 2", "Watcher 4"]  # The player's is skipped.
    assert named[-1] == "Watcher 61"
    Connection.objects.filter(pk=rows[9].pk).delete()  # Watcher 11 leaves.
    # Watcher 22 takes a look-alike of the name given up (with a Cyrillic a): it is free.
    assert services.watcher_name(table.code, rows[20].pk, "W\u0430tcher 11") == "W\u0430tcher 11"
    newcomer = Connection.objects.create(game=table.game, seen_at=fake_clock())
    assert services.watcher_name(table.code, newcomer.pk) == "Watcher 22"


def test_a_watcher_arrives_named_and_a_crowd_adds_no_query(fake_clock) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: a watcher's default name was a second trip to the database after its
    snapshot (lock the room again, read its row and the seats, count the numbers, write
    the name). Now its arrival gives it, the one query that counts who is here counting
    the numbers too: a join in a room of 200 watchers makes the queries of one in an empty
    room, and reads no watcher's name."""

    def arrival() -> tuple[services.Arrival, list[str]]:
        with CaptureQueriesContext(connection) as queries:
            arrived = services.arrive(table.code)
        return arrived, [q["sql"] for q in queries.captured_queries]

    table = Table("ana", "Watcher 2")
    alone, first_queries = arrival()
    assert alone.watcher_name == "Watcher 1"
    assert alone.snapshot["watchers"] == 1
    for number in range(3, 203):
        Connection.objects.create(
            game=table.game, seen_at=fake_clock(), name=f"Watcher {number}", number=number
        )
    newcomer, crowd_queries = arrival()

    assert newcomer.watcher_name == "Watcher 203"  # 1 and 3-202 taken, 2 looks like ana's.
    assert newcomer.snapshot["watchers"] == 202
    row = Connection.objects.get(pk=newcomer.connection_id)
    assert (row.name, row.number, row.player_id) == ("Watcher 203", 203, None)
    assert len(crowd_queries) == len(first_queries)
    assert not [q for q in crowd_queries if q.startswith('SELECT "games_connection"."name"')]
    # A seat's socket is given no name.
    seated = services.arrive(table.code, session_key="session-ana")
    assert seated.player_id == table.players["ana"].pk
    assert seated.watcher_name == ""
    assert Connection.objects.get(pk=seated.connection_id).name == ""


def test_a_snapshot_reads_the_log_once_a_version(fake_clock) -> None:  # type: ignore[no-untyped-def]
    """A crowd's joins and a burst's sockets read one room at one version: its recent
    events are read from the log once, and again once the game has moved on."""

    def events_read() -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as queries:
            recent = services.snapshot(table.code)["recent"]
        read = [q for q in queries.captured_queries if "games_gameevent" in q["sql"]]
        return [e["kind"] for e in recent], len(read)

    table = Table("ana", "ben")
    table.start()
    kinds, read = events_read()
    assert read == 1
    assert events_read() == (kinds, 0)
    on_turn = table.state().on_turn
    table.roll(next(name for name, p in table.players.items() if p.seat == on_turn))
    assert events_read() == ([*kinds, "rolled"], 1)
    assert events_read() == ([*kinds, "rolled"], 0)


def test_a_newcomer_s_default_name_reads_no_default_name_of_the_crowd(
    fake_clock, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: a join cost more the larger the room, every watcher's name read and its
    look-alike keys gathered at each join. Now only the names people chose are compared;
    the default names are known by their numbers."""
    table = Table("ana", "Watcher 3")
    for number in [n for n in range(1, 203) if n != 3]:
        Connection.objects.create(
            game=table.game, seen_at=fake_clock(), name=f"Watcher {number}", number=number
        )
    first = Connection.objects.create(game=table.game, seen_at=fake_clock())
    with CaptureQueriesContext(connection) as queries:
        assert services.watcher_name(table.code, first.pk) == "Watcher 203"
    names_read = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith('SELECT "games_connection"."name"')
    ]
    assert names_read == []  # Nobody here chose a name: no watcher's name is read.
    chose = Connection.objects.create(game=table.game, seen_at=fake_clock())
    assert services.watcher_name(table.code, chose.pk, "Sam") == "Sam"
    compared: list[list[str]] = []
    keys_of = names.keys_of
    monkeypatch.setattr(
        names, "keys_of", lambda taken: compared.append(list(taken)) or keys_of(taken)
    )

    newcomer = Connection.objects.create(game=table.game, seen_at=fake_clock())
    assert services.watcher_name(table.code, newcomer.pk) == "Watcher 204"
    assert [sorted(c) for c in compared] == [["Sam", "Watcher 3", "ana"]]  # 204 in the room.
    assert Connection.objects.get(pk=newcomer.pk).number == 204
    assert Connection.objects.get(pk=chose.pk).number is None

    # A number given up is the first free again, found among the numbers alone.
    Connection.objects.filter(number=40).delete()
    later = Connection.objects.create(game=table.game, seen_at=fake_clock())
    assert services.watcher_name(table.code, later.pk) == "Watcher 40"
    # A name chosen is still compared with every name here, default ones included.
    with pytest.raises(CommandError) as refused:
        services.watcher_name(table.code, chose.pk, "WATCHER 41")
    assert refused.value.code == "name_taken"
    # A watcher who chose a default-looking name holds it like any chosen name.
    Connection.objects.filter(number=41).delete()
    assert services.watcher_name(table.code, chose.pk, "W\u0430tcher 41") == "W\u0430tcher 41"
    last = Connection.objects.create(game=table.game, seen_at=fake_clock())
    assert services.watcher_name(table.code, last.pk) == "Watcher 205"


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("Watcher 1", 1),
        ("Watcher 1000", 1000),
        ("Watcher 01", None),
        ("Watcher ", None),
        ("Watcher \u0661", None),  # ARABIC-INDIC DIGIT ONE
        ("watcher 1", None),
        ("Watcher 1 ", None),
        ("Sam", None),
    ],
)
def test_a_default_name_s_number_is_read_back_from_it_alone(name: str, number: int | None) -> None:
    assert names.watcher_number(name) == number
