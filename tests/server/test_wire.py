"""The checked wire end to end: random frames at a live room, the API's body, and what the
server sends against ``games.wire.protocol``'s declarations."""

from __future__ import annotations

import json
import logging
from typing import Any

import msgspec
import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.contrib.sessions.backends.db import SessionStore
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.insight import chances, coach
from games.live import outbox, services
from games.models import Connection, Game
from games.wire import presentation, protocol
from tests.server.helpers import SOLO
from yahtzee_site.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # The site's own origin: a real server always sends a Host.

# -- what the server sends fits the declarations exactly ----------------------------------


def exactly(value: dict[str, Any], kind: type[Any]) -> None:
    """``value`` decodes strictly as ``kind`` and encodes back to the very same JSON value."""
    typed = msgspec.convert(value, type=kind, strict=True)
    assert json.loads(msgspec.json.encode(typed)) == json.loads(json.dumps(value))


@pytest.mark.django_db
def test_it_declares_every_message_the_server_sends(  # type: ignore[no-untyped-def]
    fixed_dice, fake_clock, django_capture_on_commit_callbacks
) -> None:
    # Every message broadcast on the way is kept, unsent, to be checked too.
    with outbox.collecting() as sent, django_capture_on_commit_callbacks(execute=True):
        game, ana = services.create_game(seats=3, host_name="Ana", session_key="s-ana")
        assert ana is not None
        code = game.code
        services.set_coach(code, ana.pk, True)
        services.set_bot_pace(code, ana.pk, "quick")
        services.set_show_odds(code, ana.pk, True)
        bot = services.add_bot(code, ana.pk, "casual")
        services.add_bot(code, ana.pk, "optimal")
        services.remove_bot(code, ana.pk, bot.seat)
        services.chat(code, ana.pk, "good luck")
        looker = Connection.objects.create(game=game, seen_at=fake_clock())
        services.watcher_chat(code, looker.pk, "who wins?", sender="s-looker")
        exactly(services.snapshot(code, ana.pk), protocol.Snapshot)  # The lobby.
        fixed_dice.load(*[6] * 5, *[1] * 5)
        services.start_game(code, ana.pk, version=Game.objects.get(code=code).version)
        exactly(services.snapshot(code), protocol.Snapshot)  # The roll-off, play.
        services.leave_game(code, ana.pk)  # In play: the bot goes with her, and the game ends.
        exactly(services.presence(Game.objects.get(code=code), []), protocol.Presence)

        solo, _ = services.create_game(seats=1, host_name="Solo", session_key="s-solo")
        player = solo.players.get()
        services.start_game(solo.code, player.pk, version=Game.objects.get(code=solo.code).version)
        for faces, box in SOLO:
            fixed_dice.load(*faces)
            services.roll(solo.code, player.pk, version=Game.objects.get(code=solo.code).version)
            if box == "ones":
                services.hold(solo.code, player.pk, [0, 1])
                position, version = services.coach_position(solo.code, player.pk)
                exactly({**coach.advice(position, version), "id": "a"}, protocol.AdviceReply)
                state, version = services.odds_game(solo.code, None, version)
                exactly({**chances.odds_message(state, version), "id": 3}, protocol.OddsReply)
            services.score(
                solo.code, player.pk, box, version=Game.objects.get(code=solo.code).version
            )
        new = services.rematch(solo.code, player.pk)
        services.leave_game(new.code, new.players.get().pk)
        clocked = play_with_the_clock(fixed_dice, fake_clock)
        for room in (code, solo.code, new.code, clocked):
            for logged in presentation.log_json(services.log(room)):  # As the export gives them.
                message = {"type": "event", "version": logged.pop("seq"), **logged}
                exactly(message, protocol.Event)  # type: ignore[arg-type]
        exactly(services.snapshot(solo.code), protocol.Snapshot)  # Finished, with its rematch.
        kinds = {e.kind for e in Game.objects.get(code=code).events.all()}
        kinds |= {
            e.kind
            for room in (solo.code, new.code, clocked)
            for e in Game.objects.get(code=room).events.all()
        }
        assert kinds == {str(t.__struct_config__.tag) for t in protocol.Event.__args__}  # type: ignore[attr-defined]
    kinds_of = {"game.event": protocol.Event, services.WATCHER_CHAT: protocol.WatcherMessage}
    for _, handler, messages in sent.sends:
        kind = kinds_of.get(handler, protocol.Presence)
        for message in messages:
            exactly(message, kind)  # type: ignore[arg-type]
    assert {handler for _, handler, _ in sent.sends} == {"game.event", services.WATCHER_CHAT}


def play_with_the_clock(fixed_dice, fake_clock) -> str:  # type: ignore[no-untyped-def]
    """A game with a turn clock: Bob lets it run out twice and is away, comes back, goes
    away again, the host hands Cy's seat to a bot and removes Bob, and nobody plays for a
    day. Checks each snapshot on the way; returns the room's code."""
    game, ana = services.create_game(seats=3, host_name="Ana", turn_seconds=10)
    assert ana is not None
    code = game.code
    bob = services.join_game(code, "Bob", session_key="s-bob")
    cy = services.join_game(code, "Cy", session_key="s-cy")
    fixed_dice.load(*[6] * 5, *[3] * 5, *[1] * 5)  # Ana, then Bob, then Cy.

    def version() -> int:
        return Game.objects.get(code=code).version

    def plays(player_id: int, box: str) -> None:
        fixed_dice.load(1, 2, 3, 4, 6)
        services.roll(code, player_id, version=version())
        services.score(code, player_id, box, version=version())

    def times_out() -> None:
        fake_clock.until(Game.objects.get(code=code).deadline)
        fixed_dice.load(*[2] * 15)
        services.wake(code)
        exactly(services.snapshot(code), protocol.Snapshot)

    services.start_game(code, ana.pk, version=version())
    for box in ("chance", "ones"):
        plays(ana.pk, box)
        times_out()  # Bob's turn: the clock plays it; the second time, Bob is away.
        plays(cy.pk, box)
    services.come_back(code, bob.pk)
    services.hand_to_bot(code, ana.pk, cy.seat)
    services.remove_player(code, ana.pk, bob.seat)
    exactly(services.snapshot(code), protocol.Snapshot)
    fake_clock.advance(2 * 24 * 60 * 60)
    services.wake(code)  # Nobody played for a day: abandoned.
    exactly(services.snapshot(code), protocol.Snapshot)
    return code


# -- the API's body ------------------------------------------------------------------------

API_BODIES = [
    ("nested 7,000 deep", "[" * 7000 + "]" * 7000, 400, "invalid_message"),
    (
        "a deep field",
        '{"name": "Ann", "x": ' + "[" * 7000 + "]" * 7000 + "}",
        400,
        "invalid_message",
    ),
    ("seats a boolean", '{"seats": true}', 400, "invalid_seats"),
    ("seats a float", '{"seats": 2.0}', 400, "invalid_seats"),
    ("seats out of range", '{"seats": 7}', 400, "invalid_seats"),
    ("a clock of text", '{"turn_seconds": "60"}', 400, "invalid_turn_seconds"),
    ("a clock too short", '{"seats": 2, "turn_seconds": 9}', 400, "invalid_turn_seconds"),
    ("a clock too long", '{"seats": 2, "turn_seconds": 86401}', 400, "invalid_turn_seconds"),
    ("name a number", '{"name": 5}', 400, "invalid_name"),
    ("preset a list", '{"preset": ["official"]}', 400, "unknown_rules"),
    ("preset unknown", '{"preset": "yahtzee"}', 400, "unknown_rules"),
    ("not JSON", "{", 400, "invalid_json"),
    ("not an object", "[1]", 400, "invalid_message"),
    ("over 16 KiB", '{"name": "' + "x" * 16_400 + '"}', 413, "too_large"),
    # Issue 28: past Django's DATA_UPLOAD_MAX_MEMORY_SIZE it answered its HTML 400.
    ("3 MB", '{"name": "' + "x" * 3_000_000 + '"}', 413, "too_large"),
    ("3 MB of text", "x" * 3_000_000, 413, "too_large"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "code"), [b[1:] for b in API_BODIES], ids=[b[0] for b in API_BODIES]
)
def test_the_api_refuses_a_bad_body_with_its_code(
    client, body: str, status: int, code: str
) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/api/games/", body, content_type="application/json")
    assert (response.status_code, response.json()["error"]["code"]) == (status, code)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_api_creates_a_room(client) -> None:  # type: ignore[no-untyped-def]
    response = client.post(
        "/api/games/", {"name": "Ann", "seats": 2}, content_type="application/json"
    )
    assert response.status_code == 201
    exactly(response.json(), protocol.CreatedGame)
    assert client.post("/api/games/", b"", content_type="application/json").json()["seat"] is None


@pytest.mark.django_db
def test_the_api_refuses_a_body_declared_too_large_before_reading_it(client) -> None:  # type: ignore[no-untyped-def]
    response = client.generic(
        "POST", "/api/games/", b"{}", content_type="text/plain", CONTENT_LENGTH="3000000"
    )
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "too_large"
    assert not Game.objects.exists()


# -- random frames at a live room ------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**60), max_value=10**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(), max_size=12)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What each field must be; a value outside it is the mistake a frame makes on purpose.
VALID: dict[str, Any] = {
    "id": lambda v: v is None or isinstance(v, str | float) or is_int(v),
    "seat": lambda v: v is None or is_int(v),
    "version": is_int,
    "bot": is_int,
    "player": is_int,
    "hold": lambda v: isinstance(v, list) and all(is_int(x) for x in v),
    "name": lambda v: isinstance(v, str),
    "token": lambda v: isinstance(v, str),
    "category": lambda v: isinstance(v, str),
    "text": lambda v: isinstance(v, str),
    "level": lambda v: isinstance(v, str),
    "on": lambda v: isinstance(v, bool),
    "read": lambda v: isinstance(v, bool),
    "pace": lambda v: isinstance(v, str),
    "show": lambda v: isinstance(v, bool),
}
FIELDS = {
    "join": ["name"],
    "resume": ["token"],
    "leave": [],
    "start": ["version"],
    "roll": ["version", "hold"],
    "hold": ["hold"],
    "score": ["version", "category"],
    "chat": ["text"],
    "watcher_chat": ["text"],
    "watcher_name": ["name"],
    "read_watchers": ["read"],
    "rematch": [],
    "coach": ["on"],
    "bot_pace": ["pace"],
    "show_odds": ["show"],
    "add_bot": ["level"],
    "remove_bot": ["bot"],
    "back": [],
    "remove_player": ["player"],
    "hand_to_bot": ["player"],
    "advice": [],
    "odds": ["version"],
    "snapshot": [],
    "ping": [],
}


@st.composite
def wrong_field(draw: st.DrawFn) -> str:
    """A message of a known type with one field of the wrong shape, the others anything."""
    type_ = draw(st.sampled_from(protocol.CLIENT_TYPES))
    fields = [*FIELDS[type_], "id", "seat"]
    message: dict[str, Any] = {"type": type_}
    for field in fields:
        if draw(st.booleans()):
            message[field] = draw(values)
    wrong = draw(st.sampled_from(fields))
    message[wrong] = draw(values.filter(lambda v: not VALID[wrong](v)))
    return json.dumps(message, ensure_ascii=draw(st.booleans()))


@st.composite
def deep(draw: st.DrawFn) -> str:
    """Arrays or objects nested thousands deep: alone, in a known field, or in an extra field
    of a message that changes nothing (ping, snapshot)."""
    depth = draw(st.integers(min_value=500, max_value=5000))
    opening, closing = draw(st.sampled_from([("[", "]"), ('{"":', "}")]))
    nested = opening * depth + ("1" if opening != "[" else "") + closing * depth
    where = draw(st.sampled_from(["alone", "field", "extra"]))
    if where == "alone":
        return nested
    if where == "extra":
        harmless = draw(st.sampled_from(["ping", "snapshot"]))
        return f'{{"type": "{harmless}", "x": {nested}}}'
    type_ = draw(st.sampled_from(protocol.CLIENT_TYPES))
    field = draw(st.sampled_from([*FIELDS[type_], "id", "seat"]))
    return f'{{"type": "{type_}", "version": 1, "{field}": {nested}}}'


frames = st.one_of(
    wrong_field(),
    deep(),
    values.filter(lambda v: not isinstance(v, dict)).map(json.dumps),  # Not objects.
    st.dictionaries(st.text(max_size=6), values, max_size=4).map(json.dumps),  # No known type.
    values.filter(lambda v: v not in protocol.CLIENT_TYPES).map(lambda v: json.dumps({"type": v})),
    st.text(st.characters(), max_size=40),  # Mostly not JSON; odd Unicode.
    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3),  # Lone surrogates.
    st.binary(max_size=40),  # Binary frames.
    st.builds(
        lambda v: json.dumps({"type": "ping", "id": v}), st.integers(min_value=10**30) | st.text()
    ),  # Harmless, answered as usual.
)


def dump_games_app() -> dict[str, list[dict[str, Any]]]:
    """Every row of every model of the games app: the test's one game and all it holds."""
    return {
        model.__name__: list(model._default_manager.order_by("pk").values())
        for model in apps.get_app_config("games").get_models()
    }


@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=60,
    deadline=None,
    # The game and the fixtures are set up once; each example leaves them as they were.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(frames, min_size=1, max_size=8))
def test_any_frame_gets_an_answer_and_changes_nothing(batch, fixed_dice, caplog) -> None:  # type: ignore[no-untyped-def]
    # A fresh connection per example: its rate limit (a burst of 30) covers a batch and the ping.
    session = SessionStore()
    session.create()
    if not Game.objects.exists():
        game, alice = services.create_game(
            seats=2, host_name="Alice", session_key=session.session_key
        )
        assert alice is not None
        services.join_game(game.code, "Bob", session_key="session-bob")
        fixed_dice.load(*[6] * 5, *[1] * 5, 3, 3, 3, 3, 3)
        services.start_game(game.code, alice.pk, version=Game.objects.get().version)
        services.roll(game.code, alice.pk, version=Game.objects.get().version)
    game = Game.objects.get()
    alice = game.players.get(seat=0)  # On turn, after her first roll; this is her browser.
    alice.session_key = session.session_key
    alice.save(update_fields=["session_key"])
    before = dump_games_app()

    async def play() -> None:
        communicator = WebsocketCommunicator(
            application,
            f"/ws/games/{game.code}/",
            headers=[ORIGIN, HOST, (b"cookie", f"sessionid={session.session_key}".encode())],
        )
        connected, _ = await communicator.connect(timeout=10)
        assert connected

        async def reply() -> dict[str, Any]:
            while True:
                message: dict[str, Any] = json.loads(await communicator.receive_from(timeout=10))
                if message["type"] != "presence":
                    return message

        assert (await reply())["type"] == "snapshot"
        assert (await reply())["type"] == "watching"  # How it takes part in the watchers' chat.
        for frame in batch:
            # As the server delivers a frame (send_to refuses an empty one).
            key = "bytes" if isinstance(frame, bytes) else "text"
            await communicator.send_input({"type": "websocket.receive", key: frame})
            answer = await reply()
            if answer["type"] == "error":
                assert isinstance(answer["code"], str), answer
                assert answer["code"], answer
                assert answer["code"] != "rate_limited"
            else:  # Only a harmless message may be answered otherwise.
                assert answer["type"] in ("pong", "snapshot"), (frame, answer)
                assert json.loads(frame)["type"] in ("ping", "snapshot")
        await communicator.send_to(text_data='{"type": "ping", "id": "still there"}')
        assert await reply() == {"type": "pong", "id": "still there"}
        await communicator.disconnect()

    with caplog.at_level(logging.WARNING):
        async_to_sync(play)()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert dump_games_app() == before
