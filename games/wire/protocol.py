"""The wire: every message a client sends and the server sends back, declared once.

``docs/protocol.md`` describes the messages for people; this module declares
them for the program, and ``docs/schema/client.json`` and ``server.json`` are
generated from it for outside clients (``python -m games.wire.protocol`` writes them,
``--check`` says whether the committed ones are current).

**From the client.** :func:`decode` is the one door: it takes a websocket frame
and returns one of the twenty-four typed messages (:data:`ClientMessage`), or raises
:class:`ProtocolError` with a stable ``code``, a message for people and the
request's ``id`` when it could be read. Whatever the frame holds (any JSON of any
shape or depth within the 16 KiB cap, or no JSON at all) the answer is one of
those two, never another exception. It checks shape and type only: a ``hold``
is a list of integers here, and the rules decide whether the positions make
sense; a chat is text here, and the services decide whether it is too long.
Integers are strict: ``true`` is not 1 and ``1.0`` is not 1. Unknown fields are
ignored, so that older servers accept newer clients.
:func:`decode_create_game` does the same for the body of ``POST /api/games/``.

**From the server.** :data:`ServerMessage` and :data:`Event` declare what the
server sends, exactly as it is sent (a test checks the services' output against
them). :data:`Event` is not written here: each kind's message is generated from
its class in :mod:`games.engine.events` and its presentation part
(:data:`games.wire.presentation.SHOWN`), so the schema cannot drift from what is
stored and sent. Events are tagged by ``kind``, so msgspec writes ``kind`` first
when it encodes one; JSON gives the order of an object's members no meaning. Box
names are :class:`games.engine.rules.Category`'s, bot levels, pace and ``by`` the enums
of :mod:`games.engine.events`.

**Why msgspec.** ``benchmarks/wire.py`` measured both candidates on the same
schema (the fifteen messages as a union tagged by ``type``, strict integers, a
second envelope-only read of ``id`` on a refusal) on a 2-core machine at a load
average of 0.9, median time to decode and validate one message:

=============================  ==========  ===========
message                        msgspec     pydantic
=============================  ==========  ===========
roll with hold (62 bytes)      0.44 µs     1.82 µs
score (71 bytes)               0.39 µs     1.58 µs
chat of 400 characters         1.00 µs     2.42 µs
hold nested 5,000 deep         10.1 µs     7.2 µs
chat of 15,900 characters      5.0 µs      3.9 µs
=============================  ==========  ===========

(``json.loads`` alone, with no checks, takes 2.2 µs on the roll and 59 µs on
the deep one before it fails with ``RecursionError``.) The messages clients
actually send are four times cheaper with msgspec; the rare malformed and
oversized ones cost about the same with either, and all of it is far below the
milliseconds a command spends in the database. The rest decided it: msgspec is
one small wheel with no dependencies, its structs are plain typed classes that
``mypy --strict`` reads, and it writes JSON Schema from the same declarations.
Its two inconveniences are handled here: a validation error names the field
only in its text (``... - at `$.hold[0]```), read in one function,
:func:`_field_of`, whose format a test pins; and its parser has no depth limit
of its own but Python's recursion limit, so a message nested a few hundred
levels deep raises ``RecursionError``, which :func:`decode` turns into
``invalid_message`` (pydantic's parser stops at 200 levels).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypeAlias, Union, get_args

import msgspec

from games.engine import events, rules
from games.wire import presentation
from games.wire.presentation import Card, SomeBoxes

#: The largest message a client may send (a websocket frame, or an API request body), in bytes.
MAX_MESSAGE_BYTES: Final = 16 * 1024

#: What a client may send as ``id``: it comes back as it went.
RequestId: TypeAlias = str | int | float | None


class ProtocolError(ValueError):
    """A message that cannot be read as one of the protocol's messages.

    ``code`` is stable (``docs/protocol.md`` lists them), ``message`` is for people,
    and ``id`` is the request's own ``id`` when it could be read, else ``None``.
    """

    def __init__(self, code: str, message: str, id: RequestId = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id


# --------------------------------------------------------------------------
# From the client
# --------------------------------------------------------------------------


class Message(msgspec.Struct, tag_field="type", frozen=True, kw_only=True):
    """Fields every client message may carry."""

    #: Echoed back in the error the message causes, and in the joined, pong, advice and odds
    #: replies.
    id: RequestId = None
    #: The seat the sender means to act for; it must be its own. Left out: its own seat.
    seat: int | None = None
    #: A question the room's page asks by itself, not a person's doing: the coach's advice
    #: after a roll, the chances after a move, a snapshot after a gap, the heartbeat's
    #: ping. It changes nothing, and the consumer counts it apart from what the person
    #: does, so that it never spends their rate limit (:class:`games.live.consumers.RateLimits`).
    automatic: ClassVar[bool] = False


class Join(Message, tag="join", frozen=True, kw_only=True):
    """Take the next free seat in the lobby under a display name."""

    name: str


class Resume(Message, tag="resume", frozen=True, kw_only=True):
    """Act as the seat that holds this token."""

    token: str


class Leave(Message, tag="leave", frozen=True, kw_only=True):
    """Give up your seat."""


class Start(Message, tag="start", frozen=True, kw_only=True):
    """The host starts the game."""

    version: int


class Roll(Message, tag="roll", frozen=True, kw_only=True):
    """The player on turn keeps the dice at positions ``hold`` (0 to 4) and throws the rest."""

    version: int
    hold: list[int] = []


class Hold(Message, tag="hold", frozen=True, kw_only=True):
    """The player on turn shows which dice (positions 0 to 4) it means to keep."""

    hold: list[int]


class Score(Message, tag="score", frozen=True, kw_only=True):
    """The player on turn writes the dice in a box (any case; spaces or hyphens for ``_``)."""

    version: int
    category: str


class Chat(Message, tag="chat", frozen=True, kw_only=True):
    """A player says something to the room (1 to 500 characters once trimmed)."""

    text: str


class WatcherChat(Message, tag="watcher_chat", frozen=True, kw_only=True):
    """A watcher says something in the watchers' chat (1 to 500 characters once trimmed)."""

    text: str


class WatcherName(Message, tag="watcher_name", frozen=True, kw_only=True):
    """A watcher chooses the name it goes by in the watchers' chat."""

    name: str


class ReadWatchers(Message, tag="read_watchers", frozen=True, kw_only=True):
    """A player chooses whether this connection is sent the watchers' chat (off at first)."""

    read: bool


class Rematch(Message, tag="rematch", frozen=True, kw_only=True):
    """A player of a finished game opens its rematch."""


class Coach(Message, tag="coach", frozen=True, kw_only=True):
    """The host turns the coach on or off."""

    on: bool


class BotPace(Message, tag="bot_pace", frozen=True, kw_only=True):
    """The host sets how long the bots take over their moves: ``instant``, ``quick`` or
    ``natural``."""

    pace: str


class ShowOdds(Message, tag="show_odds", frozen=True, kw_only=True):
    """The host chooses whether the players see each seat's chance to win (watchers always do)."""

    show: bool


class AddBot(Message, tag="add_bot", frozen=True, kw_only=True):
    """The host seats a bot (``optimal``, ``casual`` or ``win``) in the next empty seat."""

    level: str


class RemoveBot(Message, tag="remove_bot", frozen=True, kw_only=True):
    """The host takes the bot in seat ``bot`` off the table."""

    bot: int


class Back(Message, tag="back", frozen=True, kw_only=True):
    """An away player is back ("I'm back"): their turns wait for them again."""


class RemovePlayer(Message, tag="remove_player", frozen=True, kw_only=True):
    """The host takes the away (or disconnected) player of seat ``player`` out of the game."""

    player: int


class HandToBot(Message, tag="hand_to_bot", frozen=True, kw_only=True):
    """The host hands the away (or disconnected) player's seat ``player`` to a bot."""

    player: int


class Advice(Message, tag="advice", frozen=True, kw_only=True):
    """The player on turn asks the coach about the dice on the table."""

    automatic: ClassVar[bool] = True


class Odds(Message, tag="odds", frozen=True, kw_only=True):
    """Each seat's chance to win as the play stood at ``version`` (the version you last saw):
    always for a watcher, for a player only in a room that shows them the odds."""

    automatic: ClassVar[bool] = True

    version: int


class SnapshotRequest(Message, tag="snapshot", frozen=True, kw_only=True):
    """Ask for a fresh snapshot."""

    automatic: ClassVar[bool] = True


class Ping(Message, tag="ping", frozen=True, kw_only=True):
    """Ask for a pong."""

    automatic: ClassVar[bool] = True


ClientMessage: TypeAlias = (
    Join
    | Resume
    | Leave
    | Start
    | Roll
    | Hold
    | Score
    | Chat
    | WatcherChat
    | WatcherName
    | ReadWatchers
    | Rematch
    | Coach
    | BotPace
    | ShowOdds
    | AddBot
    | RemoveBot
    | Back
    | RemovePlayer
    | HandToBot
    | Advice
    | Odds
    | SnapshotRequest
    | Ping
)

#: The twenty-four types, in the order of ``docs/protocol.md``.
CLIENT_TYPES: Final = tuple(str(t.__struct_config__.tag) for t in get_args(ClientMessage))

#: The code and the explanation for a field of the wrong shape: today's codes, field by field.
FIELD_ERRORS: Final = {
    "type": ("unknown_type", f"a message has a type: one of {', '.join(CLIENT_TYPES)}"),
    "hold": ("invalid_hold", "hold is a list of dice positions, 0 to 4"),
    "category": ("unknown_category", "category is the name of a box, as text"),
    "name": ("invalid_name", "choose a name: some text"),
    "token": ("invalid_token", "a token is the text a join or the API gave you"),
    "level": ("invalid_bot", "a bot's level is optimal, casual or win"),
    "pace": ("invalid_bot_pace", "the bots' pace is instant, quick or natural"),
    "show": ("invalid_show_odds", "say whether the players see the odds: true or false"),
    "id": ("invalid_message", "id is a string, a number or null"),
    "seat": ("invalid_message", "seat is a whole number"),
    "version": ("invalid_message", "send the version of the game you last saw (a whole number)"),
    "text": ("invalid_message", "chat needs some text"),
    "on": ("invalid_message", "say whether the coach is on: true or false"),
    "read": ("invalid_message", "say whether to read the watchers' chat: true or false"),
    "bot": ("invalid_message", "name the bot's seat (a whole number)"),
    "player": ("invalid_message", "name the player's seat (a whole number)"),
}


class _Envelope(msgspec.Struct):
    # Raw: read without looking inside, so a bad type cannot hide a good id, or the reverse.
    id: msgspec.Raw = msgspec.Raw(b"null")
    type: msgspec.Raw = msgspec.Raw(b"null")


_client_decoder: Final[msgspec.json.Decoder[ClientMessage]] = msgspec.json.Decoder(ClientMessage)
_envelope_decoder: Final = msgspec.json.Decoder(_Envelope)
_id_decoder: Final = msgspec.json.Decoder(RequestId)
_type_decoder: Final = msgspec.json.Decoder(str)


def decode(
    frame: str | bytes | None, *, admit: Callable[[ClientMessage | None], bool] | None = None
) -> ClientMessage:
    """The client message in one websocket frame, or :class:`ProtocolError`.

    ``frame`` is a text frame's text; ``bytes`` (or ``None``) is a binary frame,
    which is refused. ``admit`` is the consumer's rate limit: once the size is known
    to be fine, it is asked about the message read (so that it can count the page's
    own questions apart, :attr:`Message.automatic`), or about ``None`` when the frame
    is no message; when it says no, the frame is refused as ``rate_limited`` (with
    the message's ``id``), whatever else is wrong with it. Reading first costs a
    microsecond or two (the table above), within the 16 KiB cap. The checks, in
    order: ``invalid_message`` (binary), ``too_large``, ``rate_limited``,
    ``invalid_json``, ``invalid_message`` (not an object, or nested too deeply to
    read), ``unknown_type``, then one code per field (:data:`FIELD_ERRORS`).

    >>> decode('{"type": "roll", "hold": [0, 1], "version": 7}')
    Roll(id=None, seat=None, version=7, hold=[0, 1])
    >>> try:
    ...     decode('{"type": "roll", "hold": [true], "version": 7, "id": "r"}')
    ... except ProtocolError as error:
    ...     print(error.code, error.id)
    invalid_hold r
    """
    if not isinstance(frame, str):
        raise ProtocolError("invalid_message", "messages are JSON text, not binary")
    try:
        data = frame.encode()
    except UnicodeEncodeError:  # A lone surrogate: no websocket can carry one.
        raise ProtocolError("invalid_json", "the message is not valid UTF-8 text") from None
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are {MAX_MESSAGE_BYTES // 1024} KiB at most")
    message: ClientMessage | None = None
    refused: ProtocolError | None = None
    try:
        message = _client_decoder.decode(data)
    except (msgspec.DecodeError, RecursionError) as error:  # ValidationError is a DecodeError.
        refused = _refusal_of(error, data)
    if admit is not None and not admit(message):
        request_id = message.id if message is not None else None
        raise ProtocolError("rate_limited", "too many messages: slow down", request_id)
    if refused is not None:
        raise refused
    assert message is not None
    return message


def _refusal_of(error: Exception, data: bytes) -> ProtocolError:
    """The refusal of a frame that is no client message (:func:`decode`'s checks)."""
    if isinstance(error, msgspec.ValidationError):
        request_id, type_ = _envelope(data)
        code, message = _refusal(error, FIELD_ERRORS)
        if code == "unknown_type" and type_ is not None:
            message = f"unknown message type {type_!r}"
        return ProtocolError(code, message, request_id)
    if isinstance(error, RecursionError):
        return ProtocolError(
            "invalid_message", "the message nests arrays or objects too deeply to read"
        )
    return ProtocolError("invalid_json", "the message is not valid JSON")


def _envelope(data: bytes) -> tuple[RequestId, str | None]:
    """The ``id`` and ``type`` of a message refused by the schema, each when it can be read."""
    try:
        envelope = _envelope_decoder.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return None, None
    try:
        request_id = _id_decoder.decode(envelope.id)
    except msgspec.DecodeError:
        request_id = None
    try:
        type_: str | None = _type_decoder.decode(envelope.type)
    except msgspec.DecodeError:
        type_ = None
    return request_id, type_


_AT = re.compile(r" - at `\$\.([A-Za-z_][A-Za-z0-9_]*)")
_MISSING = re.compile(r"^Object missing required field `([^`]*)`$")


def _field_of(error: msgspec.ValidationError) -> str | None:
    """The top-level field a validation error is about, from msgspec's text.

    msgspec names the path at the end (``Expected `int`, got `bool` - at `$.hold[0]```)
    or, for a missing field of the top object, in the sentence.
    """
    text = str(error)
    if match := _AT.search(text):
        return match.group(1)
    if match := _MISSING.match(text):
        return match.group(1)
    return None


def _refusal(
    error: msgspec.ValidationError, field_errors: dict[str, tuple[str, str]]
) -> tuple[str, str]:
    field = _field_of(error)
    if field is None:  # The message as a whole: not an object.
        return "invalid_message", f"a message is a JSON object with a type ({error})"
    code, explanation = field_errors.get(field, ("invalid_message", f"{field} is not valid"))
    return code, f"{explanation} ({error})"


# --------------------------------------------------------------------------
# The HTTP API's request
# --------------------------------------------------------------------------


class CreateGame(msgspec.Struct, frozen=True, kw_only=True):
    """The body of ``POST /api/games/``; every field is optional."""

    #: Your display name: with it you take seat 0 as host.
    name: str | None = None
    #: The rules: ``official`` (forced Joker), ``free_joker`` or ``yatzy`` (the Scandinavian game).
    preset: str = "official"
    #: How many players may sit down, 1 to 6.
    seats: int = 6
    #: The turn clock: seconds a turn, 10 to 86400, or ``null`` for none. Left out: 60
    #: seconds, or no clock in a solo room.
    turn_seconds: int | msgspec.UnsetType | None = msgspec.UNSET
    #: How long the bots take over their moves: ``instant``, ``quick`` or ``natural``.
    bot_pace: str = "natural"
    #: Whether the players see each seat's chance to win as the game goes (watchers always
    #: do): ``true`` or ``false``.
    show_odds: bool = False
    #: A duplicate game (docs/protocol.md, "Duplicate dice"): the invite code of a finished
    #: solo game whose dice you play again. Needs ``name``; the room is solo and starts at once.
    dice_of: str | None = None
    #: A duplicate game on the dice of a day that is over (an ISO date, ``"2026-11-26"``).
    #: Today's dice are played on the site, once per player, not through the API.
    daily: str | None = None


class CreatedGame(msgspec.Struct, frozen=True, kw_only=True):
    """The reply to ``POST /api/games/`` (201): the room, and your seat and its token."""

    code: str
    websocket: str
    snapshot: str
    seat: int | None
    token: str | None


class ApiErrorDetail(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    message: str


class ApiError(msgspec.Struct, frozen=True, kw_only=True):
    """The body of every refusal of the HTTP API."""

    error: ApiErrorDetail


CREATE_GAME_ERRORS: Final = {
    "name": ("invalid_name", "a name is some text"),
    "preset": ("unknown_rules", f"preset is one of {', '.join(rules.PRESETS)}"),
    "seats": ("invalid_seats", "seats is a whole number from 1 to 6"),
    "turn_seconds": (
        "invalid_turn_seconds",
        "turn_seconds is null (no clock) or a whole number of seconds, 10 to 86400",
    ),
    "bot_pace": ("invalid_bot_pace", "bot_pace is instant, quick or natural"),
    "show_odds": ("invalid_show_odds", "show_odds is true or false"),
    "dice_of": ("invalid_dice_of", "dice_of is the invite code of a finished solo game"),
    "daily": ("invalid_day", "daily is a day that is over, as an ISO date"),
}

_create_game_decoder: Final = msgspec.json.Decoder(CreateGame)


def request_too_large() -> ProtocolError:
    """The refusal of an HTTP request's body over :data:`MAX_MESSAGE_BYTES` (413)."""
    return ProtocolError("too_large", f"the request is {MAX_MESSAGE_BYTES // 1024} KiB at most")


def decode_create_game(body: bytes) -> CreateGame:
    """The request of ``POST /api/games/`` (an empty body is ``{}``), or :class:`ProtocolError`.

    The codes: ``too_large``, ``invalid_json``, ``invalid_message`` (not an object,
    or nested too deeply), then ``invalid_name``, ``unknown_rules``, ``invalid_seats``,
    ``invalid_turn_seconds``, ``invalid_bot_pace``, ``invalid_show_odds``, ``invalid_dice_of``,
    ``invalid_day``.
    """
    if len(body) > MAX_MESSAGE_BYTES:
        raise request_too_large()
    try:
        return _create_game_decoder.decode(body or b"{}")
    except msgspec.ValidationError as error:
        if _field_of(error) is None:
            raise ProtocolError("invalid_message", "the request body is a JSON object") from None
        raise ProtocolError(*_refusal(error, CREATE_GAME_ERRORS)) from None
    except msgspec.DecodeError:
        raise ProtocolError("invalid_json", "the request body is not valid JSON") from None
    except RecursionError:
        raise ProtocolError(
            "invalid_message", "the request nests arrays or objects too deeply to read"
        ) from None


# --------------------------------------------------------------------------
# From the server
# --------------------------------------------------------------------------
# Field order is the order on the wire. Messages other than events are not tagged
# (msgspec would write the tag first, and events share one type): each says its
# ``type`` in a field of its own.


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A room: its code, rules, seats, coach, status and times, and the round being played."""

    code: str
    preset: str
    preset_label: str
    seats: int
    coach: bool
    #: How long the bots take over their moves (``games/live/bots.py``).
    bot_pace: events.BotPace
    #: Whether the players see each seat's chance to win (watchers always do).
    show_odds: bool
    #: The turn clock's seconds a turn, or ``null`` for no clock.
    turn_seconds: int | None
    status: Literal["lobby", "playing", "finished", "abandoned"]
    created_at: str
    started_at: str | None
    finished_at: str | None
    round: int | None


class You(msgspec.Struct, frozen=True, kw_only=True):
    """The seat a connection acts for."""

    seat: int
    name: str
    host: bool


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of the room, as the snapshot shows it."""

    seat: int
    name: str
    host: bool
    connected: bool
    left: bool
    bot: events.BotLevel | None
    card: Card
    #: The seat's place by total among those still in the game (ties share); ``null`` in the
    #: lobby and for a seat that left.
    place: int | None
    #: Whether a bot plays the seat's turns: its player is away, or the host handed it over.
    away: bool
    #: Whether the host handed the seat to a bot for the rest of the game.
    handed: bool


class ClockInfo(msgspec.Struct, frozen=True, kw_only=True):
    """The turn clock: the seat on turn must move before ``deadline`` (ISO 8601, UTC);
    ``ms_left`` is the time left when the message was made, to count down from."""

    seat: int
    deadline: str
    ms_left: int


class TurnInfo(msgspec.Struct, frozen=True, kw_only=True):
    """The turn being played: the dice (``null`` before the first roll), the held
    positions, the rolls left and what each allowed box would score."""

    seat: int
    dice: list[int] | None
    held: list[int]
    rolls_left: int
    options: SomeBoxes


class RollOffInfo(msgspec.Struct, frozen=True, kw_only=True):
    """The roll-off: seats still in it, each round's ``[seat, dice]`` throws, the winner."""

    contenders: list[int]
    rounds: list[list[tuple[int, list[int]]]]
    winner: int | None


# -- events: generated from games.engine.events and games.wire.presentation ----------------------


class EventMessage(msgspec.Struct, tag_field="kind", frozen=True, kw_only=True):
    """Something that happened in the game, as broadcast to the room and kept in ``recent``."""

    type: Literal["event"] = "event"
    #: The event's number in the game's log: 1, 2, 3, ... with no gaps.
    version: int
    #: In a room with a turn clock, when the clock changed with this event: how it stands
    #: now (``null``: stopped). Left out: unchanged.
    clock: ClockInfo | msgspec.UnsetType | None = msgspec.UNSET
    # Each kind adds its ``data`` and then ``at`` (when, ISO 8601 in UTC), in wire order.


def _camel(kind: str) -> str:
    return "".join(part.title() for part in kind.split("_"))


def _event_message(cls: type[events.AnyEvent]) -> type[EventMessage]:
    """The message of one kind of event: its ``data`` holds the event's fields (those left
    at their default left out, as in the log) and then its presentation part's
    (:data:`games.wire.presentation.SHOWN`), which only a live event carries in full."""
    facts = [
        (f.name, f.type) if f.required else (f.name, f.type, f.default)
        for f in msgspec.structs.fields(cls)
    ]
    part = presentation.SHOWN.get(cls)
    extra = [
        (f.name, f.type | msgspec.UnsetType, msgspec.UNSET)
        for f in (msgspec.structs.fields(part) if part else ())
    ]
    data = msgspec.defstruct(
        f"{_camel(cls.kind)}Data",
        [*facts, *extra],
        kw_only=True,
        frozen=True,
        omit_defaults=True,
        module=__name__,
    )
    message: type[EventMessage] = msgspec.defstruct(  # type: ignore[assignment]
        f"{_camel(cls.kind)}Event",
        [("data", data), ("at", str)],
        bases=(EventMessage,),
        tag=cls.kind,
        kw_only=True,
        frozen=True,
        module=__name__,
    )
    data.__doc__ = "The event's facts (a field at its default left out)" + (
        ", then what a live event adds for a browser to draw." if part else "."
    )
    message.__doc__ = cls.__doc__
    return message


#: The message of each kind of event, in :data:`games.engine.events.EVENT_TYPES`' order.
EVENT_MESSAGES: Final = tuple(_event_message(cls) for cls in events.EVENT_TYPES)
if TYPE_CHECKING:
    Event: TypeAlias = EventMessage
else:
    #: Any event's message: a union tagged by ``kind``.
    Event = Union[EVENT_MESSAGES]  # noqa: UP007 - built from a tuple at run time.


# -- the other messages ------------------------------------------------------------


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a client needs to draw the room, as of ``version``."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    game: GameInfo
    you: You | None
    players: list[SeatInfo]
    watchers: int
    turn: TurnInfo | None
    clock: ClockInfo | None
    roll_off: RollOffInfo | None
    winners: list[int]
    rematch: str | None
    recent: list[Event]


class PresenceSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    connected: bool


class Presence(msgspec.Struct, frozen=True, kw_only=True):
    """Who is connected: each seat, and how many watch."""

    type: Literal["presence"] = "presence"
    players: list[PresenceSeat]
    watchers: int


class Joined(msgspec.Struct, frozen=True, kw_only=True):
    """The reply to your own successful join: your seat and its token."""

    type: Literal["joined"] = "joined"
    seat: int
    token: str
    id: RequestId = None


class AdviceChoice(msgspec.Struct, frozen=True, kw_only=True):
    kind: Literal["keep", "score"]
    label: str
    expected: float
    loss: float
    hold: list[int]
    kept: list[int]
    category: rules.Category | None
    points: int | None
    win: float | None = None
    """The chance to finish first after this choice (``null`` alone at the table)."""


class AdviceBest(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    expected: float
    win: float


class AdviceToWin(msgspec.Struct, frozen=True, kw_only=True):
    """The best choice for points and the best to win, when they differ."""

    points: AdviceBest
    win: AdviceBest


class AdviceReply(msgspec.Struct, frozen=True, kw_only=True):
    """The coach's answer: every choice open with these dice, best first."""

    type: Literal["advice"] = "advice"
    version: int
    dice: list[int]
    rolls_left: int
    choices: list[AdviceChoice]
    to_win: AdviceToWin | None = None
    id: RequestId = None


class SeatOdds(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's chance to win, 0 to 1 (four decimals)."""

    seat: int
    win: float
    #: Whether the seat left the game: it cannot win (its ``win`` is 0).
    left: bool


class OddsReply(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to ``odds``: each seat's chance to win from the moment of ``version``, every
    seat playing on for points (the strategy engine's odds); 1 or 0 once the game is over."""

    type: Literal["odds"] = "odds"
    #: The version you asked about.
    version: int
    #: Whether the game is over: the chances are its result (tied winners share 1).
    over: bool
    seats: list[SeatOdds]
    id: RequestId = None


class Watching(msgspec.Struct, frozen=True, kw_only=True):
    """How this connection takes part in the watchers' chat: sent after the first snapshot,
    whenever the connection takes or gives up a seat, and in reply to ``watcher_name``
    and ``read_watchers``."""

    type: Literal["watching"] = "watching"
    #: The name this watcher goes by in the watchers' chat; ``null`` for a player.
    name: str | None
    #: Whether this connection is sent the watchers' chat: always for a watcher; for a
    #: player, as it chose (off at first).
    read: bool
    id: RequestId = None


class WatcherMessage(msgspec.Struct, frozen=True, kw_only=True):
    """A line of the watchers' chat, to the watchers and the players who read it. It is no
    event of the game: it has no version and is not kept in the game's log."""

    type: Literal["watcher_message"] = "watcher_message"
    #: The watcher's name: never a seated player's (nor one that looks like it).
    name: str
    text: str
    #: When it was said (ISO 8601, UTC).
    at: str


class Pong(msgspec.Struct, frozen=True, kw_only=True):
    """The reply to a ping."""

    type: Literal["pong"] = "pong"
    id: RequestId = None


class Error(msgspec.Struct, frozen=True, kw_only=True):
    """Your message was refused; nothing changed and the connection stays open."""

    type: Literal["error"] = "error"
    code: str
    message: str
    id: RequestId = None


#: For type hints only: msgspec cannot decode this union (its members share no tag field).
ServerMessage: TypeAlias = (
    Snapshot
    | Presence
    | Joined
    | AdviceReply
    | OddsReply
    | Watching
    | WatcherMessage
    | Pong
    | Error
)

#: Each kind of message the server sends, by its ``type`` (events are a union of their own).
SERVER_TYPES: Final[dict[str, type[msgspec.Struct]]] = {
    "snapshot": Snapshot,
    "presence": Presence,
    "joined": Joined,
    "advice": AdviceReply,
    "odds": OddsReply,
    "watching": Watching,
    "watcher_message": WatcherMessage,
    "pong": Pong,
    "error": Error,
}


# --------------------------------------------------------------------------
# JSON Schema
# --------------------------------------------------------------------------

SCHEMA_DIR: Final = Path(__file__).resolve().parents[2] / "docs" / "schema"
_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def _require_constants(components: dict[str, Any]) -> None:
    # A field with a constant default (``type`` of a server message) is always sent.
    for schema in components.values():
        properties = schema.get("properties", {})
        for name in ("type",):
            prop = properties.get(name)
            if prop is not None and "enum" in prop and len(prop["enum"]) == 1:
                prop.pop("default", None)
                required = schema.setdefault("required", [])
                if name not in required:
                    required.insert(0, name)


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schemas of both directions, by file name (``client.json``, ``server.json``),
    and of the HTTP API (``api.json``)."""
    client = msgspec.json.schema(ClientMessage)
    client_schema = {
        "$schema": _DIALECT,
        "title": "Yahtzee Live: a message from the client",
        "description": (
            "Every message a client sends on a room's websocket, as a text frame of at "
            f"most {MAX_MESSAGE_BYTES} bytes of UTF-8. See docs/protocol.md."
        ),
        **client,
    }
    # One schema per message: msgspec reads a union of structs only when they share a tag field.
    schemas, components = msgspec.json.schema_components(
        [*SERVER_TYPES.values(), Event], ref_template="#/$defs/{name}"
    )
    _require_constants(components)
    server_schema = {
        "$schema": _DIALECT,
        "title": "Yahtzee Live: a message from the server",
        "description": "What the server sends on a room's websocket; see docs/protocol.md.",
        "anyOf": list(schemas),
        "$defs": components,
    }
    (request, created, refused), api_components = msgspec.json.schema_components(
        [CreateGame, CreatedGame, ApiError], ref_template="#/$defs/{name}"
    )
    api_schema = {
        "$schema": _DIALECT,
        "title": "Yahtzee Live: the HTTP API",
        "description": (
            "POST /api/games/: the request body, the 201 reply and the body of a refusal "
            "(GET /api/games/<code>/ answers a snapshot: server.json). See docs/protocol.md."
        ),
        "anyOf": [request, created, refused],
        "$defs": api_components,
    }
    return {"client.json": client_schema, "server.json": server_schema, "api.json": api_schema}


def _dump(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the JSON Schemas into ``docs/schema/``, or with ``--check`` say if they are current."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    stale = []
    for name, schema in json_schemas().items():
        path = SCHEMA_DIR / name
        text = _dump(schema)
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
