"""An event kind is declared once: the class in ``games/engine/events.py``. Adding one means that
class, the rule or command that makes it, and its ``case`` in ``static/js/state.js``;
the log's codec, the wire's message and schema and the model's choices follow. These
tests say so, kind by kind."""

from __future__ import annotations

import json
import re
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import msgspec
import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import codec, events
from games.models import GameEvent
from games.wire import presentation, protocol

ROOT = Path(__file__).resolve().parent.parent
KINDS = [cls.kind for cls in events.EVENT_TYPES]


def switch_cases(function: str) -> list[str]:
    """The ``case "…":`` labels of the switch in ``function`` of static/js/state.js."""
    source = (ROOT / "static" / "js" / "state.js").read_text()
    body = re.search(rf"export function {function}\(.*?\n}}\n", source, re.DOTALL)
    assert body is not None, function
    return re.findall(r'case "([a-z_]+)":', body.group(0))


def test_every_kind_has_one_class_and_is_unique() -> None:
    assert len(set(KINDS)) == len(KINDS)
    assert set(events.EVENT_TYPES) == set(get_args(events.AnyEvent))
    assert dict(zip(KINDS, events.EVENT_TYPES, strict=True)) == events.BY_KIND


def test_the_page_applies_every_kind_and_no_other() -> None:
    cases = switch_cases("applyEvent")
    assert sorted(cases) == sorted(KINDS)


def test_the_schema_of_the_servers_messages_has_every_kind_with_its_fields() -> None:
    defs = protocol.json_schemas()["server.json"]["$defs"]
    for cls in events.EVENT_TYPES:
        (message,) = [
            d for d in defs.values() if d.get("properties", {}).get("kind") == {"enum": [cls.kind]}
        ]
        data = defs[message["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
        facts = [f.name for f in msgspec.structs.fields(cls)]
        part = presentation.SHOWN.get(cls)
        shown = [f.name for f in msgspec.structs.fields(part)] if part else []
        assert list(data["properties"]) == facts + shown, cls.kind
        required = [f.name for f in msgspec.structs.fields(cls) if f.required]
        assert data.get("required", []) == required, cls.kind  # What a snapshot may leave out.
    assert [str(t.__struct_config__.tag) for t in protocol.EVENT_MESSAGES] == KINDS


@pytest.mark.django_db
def test_the_models_kinds_are_the_classes_and_no_migration_is_missing() -> None:
    assert [value for value, _ in GameEvent._meta.get_field("kind").choices] == KINDS
    call_command("makemigrations", "games", "--check", "--dry-run", verbosity=0)


# -- any event of any kind, through the log and the wire ---------------------------------

ints = st.integers(0, 2**53)  # Seats, points, totals, dice: never below 0.
texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)


def values_of(annotation: Any) -> st.SearchStrategy[Any]:
    """Any value of a field's type, as msgspec reads it."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType):
        return st.one_of([values_of(arg) for arg in args])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(values_of(args[0]), max_size=6).map(tuple)
        return st.tuples(*[values_of(arg) for arg in args])
    if annotation is type(None):
        return st.none()
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return ints
    if annotation is str:
        return texts
    return st.sampled_from(list(annotation))  # An enum: a box, a bot's level or pace, a by.


def any_event_of(cls: type[events.AnyEvent]) -> st.SearchStrategy[events.AnyEvent]:
    fields = {f.name: values_of(f.type) for f in msgspec.structs.fields(cls)}
    return st.fixed_dictionaries(fields).map(lambda values: cls(**values))


any_event = st.sampled_from(events.EVENT_TYPES).flatmap(any_event_of)


@settings(max_examples=300, deadline=None)
@given(event=any_event, names=st.lists(texts, max_size=6), seq=st.integers(1, 10**6))
def test_any_event_comes_back_from_the_log_and_fits_its_message(
    event: events.AnyEvent, names: list[str], seq: int
) -> None:
    kind, payload = codec.encode_event(event)
    assert kind == event.kind
    saved = json.loads(json.dumps(payload))  # As the database gives it back.
    assert codec.decode_event(kind, saved) == event

    at = datetime(2026, 11, 26, 7, 0, tzinfo=UTC)
    message = presentation.event_message(seq, event, at, names)
    sent = json.loads(json.dumps(message))
    typed = msgspec.convert(sent, type=protocol.Event, strict=True)
    assert json.loads(msgspec.json.encode(typed)) == sent  # The declaration, exactly.
    part = presentation.SHOWN.get(type(event))
    extra = {f.name for f in msgspec.structs.fields(part)} if part else set()
    facts = {k: v for k, v in sent["data"].items() if k not in extra}
    assert codec.decode_event(sent["kind"], facts) == event
