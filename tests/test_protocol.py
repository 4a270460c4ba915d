"""The wire's declarations (``games/wire/protocol.py``): known answers, schema files, docs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import jsonschema
import msgspec
import pytest

from games.engine import events, rules
from games.wire import presentation, protocol
from games.wire.protocol import ProtocolError, decode

ROOT = Path(__file__).resolve().parent.parent


def refusal(frame: str | bytes | None, **kw: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode(frame, **kw)
    assert caught.value.message
    return caught.value


def deep(depth: int, opening: str = "[", closing: str = "]", inner: str = "") -> str:
    return opening * depth + inner + closing * depth


# The messages that used to close the socket with 1011 and a traceback.
KILLERS = [
    ("type is an array", '{"type": []}', "unknown_type"),
    ("type is an object", '{"type": {"a": 1}}', "unknown_type"),
    ("type is a list of a type", '{"type": ["roll"]}', "unknown_type"),
    ("an array 5,000 deep", deep(5000), "invalid_message"),
    (
        "hold 5,000 deep",
        '{"type": "roll", "version": 1, "hold": ' + deep(5000) + "}",
        "invalid_hold",
    ),
    (
        "chat text 3,000 deep",
        '{"type": "chat", "text": ' + deep(3000, '{"":', "}", "1") + "}",
        "invalid_message",
    ),
]


@pytest.mark.parametrize(("frame", "code"), [k[1:] for k in KILLERS], ids=[k[0] for k in KILLERS])
def test_it_refuses_each_message_that_used_to_kill_the_socket(frame: str, code: str) -> None:
    assert len(frame.encode()) <= protocol.MAX_MESSAGE_BYTES
    assert refusal(frame).code == code


def test_it_reads_each_type_with_its_defaults() -> None:
    assert decode('{"type": "roll", "version": 7}') == protocol.Roll(version=7, hold=[])
    assert decode('{"type": "ping"}') == protocol.Ping(id=None, seat=None)
    message = decode('{"type": "score", "category": "Full house", "version": 3, "seat": 1}')
    assert message == protocol.Score(category="Full house", version=3, seat=1)
    assert decode('{"type": "hold", "hold": [], "future": {"x": [1]}}') == protocol.Hold(hold=[])
    assert decode('{"type": "coach", "on": false, "id": "c"}') == protocol.Coach(on=False, id="c")
    assert decode('{"type": "remove_bot", "bot": 2}') == protocol.RemoveBot(bot=2)
    assert protocol.CLIENT_TYPES == (
        "join", "resume", "leave", "start", "roll", "hold", "score", "chat", "watcher_chat",
        "watcher_name", "read_watchers", "rematch", "coach", "bot_pace", "show_odds", "add_bot",
        "remove_bot", "back", "remove_player", "hand_to_bot", "advice", "odds", "snapshot", "ping",
    )  # fmt: skip
    assert decode('{"type": "show_odds", "show": true}') == protocol.ShowOdds(show=True)
    assert decode('{"type": "read_watchers", "read": true}') == protocol.ReadWatchers(read=True)
    assert decode('{"type": "watcher_chat", "text": "hi"}') == protocol.WatcherChat(text="hi")
    assert decode('{"type": "remove_player", "player": 1}') == protocol.RemovePlayer(player=1)


FIELD_CASES = [
    # (message, code): each field of the wrong shape, with today's code for it.
    ({"type": "join"}, "invalid_name"),
    ({"type": "watcher_name", "name": None}, "invalid_name"),
    ({"type": "watcher_chat", "text": 3}, "invalid_message"),
    ({"type": "read_watchers", "read": 1}, "invalid_message"),
    ({"type": "read_watchers"}, "invalid_message"),
    ({"type": "join", "name": 5}, "invalid_name"),
    ({"type": "resume"}, "invalid_token"),
    ({"type": "resume", "token": ["t"]}, "invalid_token"),
    ({"type": "start"}, "invalid_message"),
    ({"type": "start", "version": True}, "invalid_message"),
    ({"type": "start", "version": 3.0}, "invalid_message"),
    ({"type": "roll", "version": "3"}, "invalid_message"),
    ({"type": "roll", "version": 3, "hold": "0 1"}, "invalid_hold"),
    ({"type": "roll", "version": 3, "hold": [True]}, "invalid_hold"),
    ({"type": "roll", "version": 3, "hold": None}, "invalid_hold"),
    ({"type": "hold"}, "invalid_hold"),
    ({"type": "hold", "hold": [0.0]}, "invalid_hold"),
    ({"type": "score", "version": 3}, "unknown_category"),
    ({"type": "score", "version": 3, "category": 12}, "unknown_category"),
    ({"type": "chat"}, "invalid_message"),
    ({"type": "chat", "text": ["hi"]}, "invalid_message"),
    ({"type": "coach", "on": 1}, "invalid_message"),
    ({"type": "coach"}, "invalid_message"),
    ({"type": "show_odds", "show": "yes"}, "invalid_show_odds"),
    ({"type": "show_odds"}, "invalid_show_odds"),
    ({"type": "add_bot", "level": None}, "invalid_bot"),
    ({"type": "remove_bot", "bot": True}, "invalid_message"),
    ({"type": "remove_bot", "bot": "2"}, "invalid_message"),
    ({"type": "remove_player"}, "invalid_message"),
    ({"type": "hand_to_bot", "player": "2"}, "invalid_message"),
    ({"type": "leave", "seat": "0"}, "invalid_message"),
    ({"type": "ping", "seat": False}, "invalid_message"),
    ({"type": "fly"}, "unknown_type"),
    ({"category": "chance"}, "unknown_type"),
    ({"type": None}, "unknown_type"),
    ({"type": 1}, "unknown_type"),
]


@pytest.mark.parametrize(
    ("message", "code"), FIELD_CASES, ids=[json.dumps(c[0]) for c in FIELD_CASES]
)
def test_it_gives_each_field_its_code_and_echoes_the_id(message: dict[str, Any], code: str) -> None:
    error = refusal(json.dumps({**message, "id": "x-1"}))
    assert (error.code, error.id) == (code, "x-1")


def test_it_names_the_unknown_type() -> None:
    assert str(refusal('{"type": "nope", "id": 9}')) == "unknown message type 'nope'"
    assert refusal('{"type": "nope", "id": 9}').id == 9


def test_an_unreadable_id_is_null_and_refused() -> None:
    error = refusal('{"type": "ping", "id": {"a": 1}}')
    assert (error.code, error.id) == ("invalid_message", None)
    assert refusal('{"type": "ping", "id": true}').code == "invalid_message"
    # A bad type does not hide a good id, nor a bad id a bad type.
    assert refusal('{"type": ["ping"], "id": "k"}').id == "k"
    assert refusal('{"type": ["ping"], "id": ["k"]}').code == "unknown_type"


def test_it_checks_the_frame_in_order() -> None:
    assert refusal(b"\x00\x01").code == "invalid_message"
    assert refusal(None).code == "invalid_message"
    assert refusal('{"type": "roll"').code == "invalid_json"
    assert refusal("").code == "invalid_json"
    assert refusal('"\\ud800"').code == "invalid_json"
    assert refusal("\ud800").code == "invalid_json"
    assert refusal("[1, 2]").code == "invalid_message"
    assert refusal("5").code == "invalid_message"
    big = json.dumps({"type": "chat", "text": "é" * 8200})  # Under 16 Ki characters, over in bytes.
    asked: list[object] = []
    assert refusal(big, admit=lambda m: asked.append(m) or True).code == "too_large"
    assert refusal(b"", admit=lambda m: asked.append(m) or True).code == "invalid_message"
    assert not asked  # Neither counts against the rate limit...
    assert refusal("not json", admit=lambda m: False).code == "rate_limited"  # ...nor is refused
    assert refusal('{"type": "roll"}', admit=lambda m: False).code == "rate_limited"  # for more.


def test_the_rate_limit_is_asked_about_the_message_read() -> None:
    asked: list[object] = []
    admit = lambda message: asked.append(message) or True  # noqa: E731
    advice = decode('{"type": "advice", "id": "advice-3"}', admit=admit)
    assert advice == protocol.Advice(id="advice-3")
    assert refusal("not json", admit=admit).code == "invalid_json"
    assert asked == [protocol.Advice(id="advice-3"), None]  # None: a frame that is no message.
    limited = refusal('{"type": "odds", "version": 4, "id": "odds-9"}', admit=lambda m: False)
    assert (limited.code, limited.id) == ("rate_limited", "odds-9")  # Its id, read first.


def test_the_pages_own_questions_are_marked_automatic() -> None:
    automatic = {t.__struct_config__.tag for t in get_args(protocol.ClientMessage) if t.automatic}
    assert automatic == {"advice", "odds", "snapshot", "ping"}


def test_it_reads_a_message_exactly_at_the_cap() -> None:
    filler = protocol.MAX_MESSAGE_BYTES - len(json.dumps({"type": "chat", "text": ""}).encode())
    text = json.dumps({"type": "chat", "text": "x" * filler})
    assert len(text.encode()) == protocol.MAX_MESSAGE_BYTES
    assert isinstance(decode(text), protocol.Chat)
    assert refusal(text[:-2] + 'x"}').code == "too_large"


def test_msgspec_names_the_field_where_the_code_looks_for_it() -> None:
    # _field_of reads msgspec's text: this pins the format it relies on.
    for message, field in (
        ('{"type": "roll", "version": 1, "hold": [true]}', "hold"),
        ('{"type": "hold"}', "hold"),
        ('{"type": "roll", "version": 1, "seat": "x"}', "seat"),
    ):
        with pytest.raises(msgspec.ValidationError) as caught:
            msgspec.json.decode(message, type=protocol.ClientMessage)
        assert protocol._field_of(caught.value) == field


def test_the_declarations_agree_with_the_rules() -> None:
    # The box names on the wire are rules.Category's: a card has its preset's, in order.
    boxes = [c.value for c in rules.Category]
    defs = protocol.json_schemas()["server.json"]["$defs"]
    assert set(defs["Category"]["enum"]) == set(boxes)
    cards = [card["required"] for card in defs["Card"]["properties"]["boxes"]["anyOf"]]
    for preset in rules.PRESETS.values():
        names = [c.value for c in preset.boxes]
        assert names in cards
        assert list(presentation.card_json(rules.Scorecard(preset))["boxes"]) == names
    assert len(cards) == 2  # Yahtzee's thirteen (both its presets) and Yatzy's fifteen.
    assert defs["TurnInfo"]["properties"]["options"]["propertyNames"] == {"enum": boxes}
    # So are the bots' levels and pace, and who moved for a seat.
    assert set(defs["BotLevel"]["enum"]) == {level.value for level in events.BotLevel}
    assert set(defs["BotPace"]["enum"]) == {pace.value for pace in events.BotPace}
    assert set(defs["By"]["enum"]) == {by.value for by in events.By}
    assert protocol.CreateGame() == protocol.CreateGame(
        preset=rules.OFFICIAL.name, seats=rules.MAX_PLAYERS
    )


API_CASES = [
    (b"", None),
    (b'{"name": "Ann", "seats": 2}', None),
    (b'{"name": null}', None),
    (b"[1]", "invalid_message"),
    (b"{", "invalid_json"),
    (b'{"x": ' + deep(6000).encode() + b"}", "invalid_message"),
    (deep(7000).encode(), "invalid_message"),
    (b'{"name": 5}', "invalid_name"),
    (b'{"preset": null}', "unknown_rules"),
    (b'{"seats": true}', "invalid_seats"),
    (b'{"seats": 2.0}', "invalid_seats"),
    (b'{"turn_seconds": "60"}', "invalid_turn_seconds"),
    (b'{"turn_seconds": 60.0}', "invalid_turn_seconds"),
    (b'{"turn_seconds": true}', "invalid_turn_seconds"),
    (b"x" * (16 * 1024 + 1), "too_large"),
]


@pytest.mark.parametrize(("body", "code"), API_CASES)
def test_it_reads_the_apis_request(body: bytes, code: str | None) -> None:
    if code is None:
        assert isinstance(protocol.decode_create_game(body), protocol.CreateGame)
    else:
        with pytest.raises(ProtocolError) as caught:
            protocol.decode_create_game(body)
        assert caught.value.code == code


# -- the published schemas and the docs ---------------------------------------------


def test_the_committed_schemas_are_the_generated_ones() -> None:
    for name, schema in protocol.json_schemas().items():
        committed = (ROOT / "docs" / "schema" / name).read_text()
        assert committed == protocol._dump(schema), f"run: python -m games.wire.protocol ({name})"


def examples() -> list[tuple[str, Any]]:
    """Every JSON value in docs/protocol.md's ```json blocks: one per block, or one per line."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    found = []
    for block in re.findall(r"```json\n(.*?)```", text, re.DOTALL):
        try:
            found.append((block[:60], json.loads(block)))
        except ValueError:
            found += [(line[:60], json.loads(line)) for line in block.splitlines() if line.strip()]
    return found


#: The fields of each client message, by its type.
CLIENT_FIELDS = {
    str(t.__struct_config__.tag): {"type", *t.__struct_fields__}
    for t in get_args(protocol.ClientMessage)
}


def direction(example: dict[str, Any]) -> str:
    """Which schema an example belongs to: a request for a snapshot, advice or the odds carries
    no more than the client message's fields, where the server's message of the same type
    carries more."""
    if "type" not in example:
        return "api.json"
    if example["type"] in protocol.CLIENT_TYPES and (
        example["type"] not in protocol.SERVER_TYPES
        or set(example) <= CLIENT_FIELDS[example["type"]]
    ):
        return "client.json"
    return "server.json"


def test_the_schemas_are_valid_json_schemas() -> None:
    for schema in protocol.json_schemas().values():
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.fixture(scope="module")
def validators() -> dict[str, jsonschema.Draft202012Validator]:
    """A validator of each schema, made once: ``jsonschema.validate`` checks the schema
    itself against the meta-schema before each instance, a fifth of a second every time
    (test_the_schemas_are_valid_json_schemas checks them once)."""
    return {
        name: jsonschema.Draft202012Validator(schema)
        for name, schema in protocol.json_schemas().items()
    }


@pytest.mark.parametrize(("start", "example"), examples(), ids=lambda v: str(v)[:40])
def test_every_example_in_the_protocol_docs_fits_the_schema(
    start: str, example: Any, validators: dict[str, jsonschema.Draft202012Validator]
) -> None:
    validators[direction(example)].validate(example)
    if direction(example) == "client.json":
        decode(json.dumps(example))  # And the server reads it.


def test_the_docs_show_every_message_and_event() -> None:
    shown = {(direction(e), e.get("type"), e.get("kind")) for _, e in examples()}
    assert {t for d, t, _ in shown if d == "client.json"} == set(protocol.CLIENT_TYPES)
    assert {t for d, t, _ in shown if d == "server.json"} == set(protocol.SERVER_TYPES) | {"event"}
    kinds = {k for d, t, k in shown if t == "event"}
    assert kinds == {str(t.__struct_config__.tag) for t in get_args(protocol.Event)}
