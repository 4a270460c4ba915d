"""What happened in a game: one frozen struct per kind of event, holding facts only.

The rules engine (:mod:`games.engine.rules`) returns the play's events with the new
game from each command; the services add the room's own (someone took a seat,
the coach was switched on, a chat). Each is saved as it is in the game's
append-only log (:mod:`games.engine.codec` turns it into JSON and back), and
:mod:`games.engine.replay` rebuilds any game from them. They say who did what, with
which dice, in which box and for how many points; what a browser wants drawn
from them (the boxes a roll may go in, whole cards, the round) is worked out
from the saved game when a message is sent (:mod:`games.wire.presentation`).

**Declared once.** Each class below is the one declaration of its kind: its
``tag`` is the ``kind`` in the log, in the model's choices and on the wire; its
fields, in order, are the payload saved and the ``data`` sent (a field left at
its default is left out of both). The codec, the JSON Schema of the server's
messages (:mod:`games.wire.protocol`) and ``GameEvent``'s kind choices are derived from
:data:`EVENT_TYPES`; a new kind is a class here, the rule that makes it, and a
``case`` in ``static/js/state.js`` (``tests/test_event_kinds.py`` checks all four).

>>> Held(0, (1, 4)).kind
'held'

This module imports nothing from Django.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, Final, TypeAlias, get_args

import msgspec

# The dice and the boxes, not the rules: the rules import this module to return its events.
from games.engine import boxes


class By(enum.StrEnum):
    """Who made a move for a seat other than its own player (the ``by`` of a roll, a hold,
    a score or a leave; ``None``, the default, is the seat's own player or its own bot)."""

    #: The turn clock ran out: the server played the rest of the turn.
    CLOCK = "clock"
    #: A bot played for a seat that is away, or that the host handed to a bot.
    BOT = "bot"
    #: The host removed the seat (a leave).
    HOST = "host"


BY_CLOCK: Final = By.CLOCK
BY_BOT: Final = By.BOT
BY_HOST: Final = By.HOST


class BotLevel(enum.StrEnum):
    """The computer players a host may seat (:mod:`games.live.bots`)."""

    OPTIMAL = "optimal"
    CASUAL = "casual"
    WIN = "win"


class BotPace(enum.StrEnum):
    """How long the bots take over their moves (:func:`games.live.bots.pause`)."""

    INSTANT = "instant"
    QUICK = "quick"
    NATURAL = "natural"


class _TagOf:
    """A struct class's tag, read as a class attribute (msgspec sets it after the class)."""

    def __get__(self, instance: object, owner: type[msgspec.Struct]) -> str:
        return str(owner.__struct_config__.tag)


class Event(msgspec.Struct, frozen=True, tag_field="kind", omit_defaults=True):
    """Something that happened in a game. ``kind`` (the class's tag) names it in the log and
    on the wire."""

    if TYPE_CHECKING:
        kind: ClassVar[str]
    else:
        kind = _TagOf()
    #: Whether it changes the play: a command sent by a client that has not seen it is
    #: stale. Talk, the coach's switch, a rematch and the dice shown held change nothing
    #: anyone may choose, so a quick click after one of them still counts.
    changes_play: ClassVar[bool] = True


# --------------------------------------------------------------------------
# The room's events, made by the services
# --------------------------------------------------------------------------


class Created(Event, tag="created", frozen=True):
    """The room was opened with these rules, this many seats, and the coach on or off."""

    preset: str
    seats: int
    coach: bool
    #: The invite code of the finished game this room is the rematch of.
    rematch_of: str | None = None
    #: How long the bots take over their moves.
    bot_pace: BotPace = BotPace.NATURAL
    #: Whether the players see each seat's chance to win (watchers always do).
    show_odds: bool = False
    #: The turn clock: seconds a turn, or ``None`` for none (and in the logs of games made
    #: before the clock was recorded here).
    turn_seconds: int | None = None

    def __post_init__(self) -> None:
        # A pace given as text ("natural", as the game's row keeps it) is the enum's member,
        # so that the default is recognised, and left out of the log, whichever was given.
        msgspec.structs.force_setattr(self, "bot_pace", BotPace(self.bot_pace))


class Joined(Event, tag="joined", frozen=True):
    """Someone (or a bot of level ``bot``) took the next seat in the lobby."""

    seat: int
    name: str
    host: bool
    bot: BotLevel | None = None


class Unseated(Event, tag="unseated", frozen=True):
    """Someone left the lobby: the seats after theirs move up one; ``host`` is the host's
    seat after it (``None`` once nobody is left). Logs written before this kind had its
    own name call it ``left`` (:func:`games.engine.codec.decode_event` tells them apart)."""

    seat: int
    name: str
    host: int | None


class Started(Event, tag="started", frozen=True):
    """The host started the game with these players, in seat order. ``first`` is the
    seat that starts when no roll-off is needed (a solo game), else ``None``."""

    players: tuple[str, ...]
    first: int | None


class CoachSwitched(Event, tag="coach", frozen=True):
    """The host turned the coach on or off."""

    changes_play: ClassVar[bool] = False
    on: bool
    seat: int
    name: str


class BotPaceSet(Event, tag="bot_pace", frozen=True):
    """The host set how long the bots take over their moves."""

    changes_play: ClassVar[bool] = False
    pace: BotPace
    seat: int
    name: str


class OddsShown(Event, tag="show_odds", frozen=True):
    """The host chose whether the players see each seat's chance to win (watchers always do)."""

    changes_play: ClassVar[bool] = False
    show: bool
    seat: int
    name: str


class RematchOpened(Event, tag="rematch", frozen=True):
    """A player of the finished game opened its rematch, the room ``code``."""

    changes_play: ClassVar[bool] = False
    code: str
    seat: int
    name: str


class Chat(Event, tag="chat", frozen=True):
    """A player said something to the table."""

    changes_play: ClassVar[bool] = False
    seat: int
    name: str
    text: str


class WentAway(Event, tag="away", frozen=True):
    """The clock played two turns in a row for ``seat``: a bot plays its turns until the
    player comes back."""

    changes_play: ClassVar[bool] = False
    seat: int
    name: str


class CameBack(Event, tag="back", frozen=True):
    """The player of ``seat``, away, is back: their turns wait for them again."""

    changes_play: ClassVar[bool] = False
    seat: int
    name: str


class Handed(Event, tag="handed", frozen=True):
    """The host (``host``, a seat) handed ``seat`` to a bot for the rest of the game."""

    changes_play: ClassVar[bool] = False
    seat: int
    name: str
    host: int


class Abandoned(Event, tag="abandoned", frozen=True):
    """Nobody played for a long while: the game ended unfinished, as it stood."""


# --------------------------------------------------------------------------
# The play's events, made by the rules engine
# --------------------------------------------------------------------------


class RollOffThrown(Event, tag="roll_off", frozen=True):
    """One round of the roll-off: each contender's throw, who is still in, and the seat
    that won it once one is left (``None`` while they tie)."""

    throws: tuple[tuple[int, boxes.Dice], ...]
    contenders: tuple[int, ...]
    first: int | None


class Rolled(Event, tag="rolled", frozen=True):
    """``seat`` kept the dice at positions ``held`` and threw the others: ``dice`` lie on
    the table now."""

    seat: int
    dice: boxes.Dice
    held: tuple[int, ...]
    by: By | None = None


class Held(Event, tag="held", frozen=True):
    """``seat`` shows the dice it means to keep for its next roll (positions 0 to 4)."""

    changes_play: ClassVar[bool] = False
    seat: int
    held: tuple[int, ...]
    by: By | None = None


class Scored(Event, tag="scored", frozen=True):
    """``seat`` wrote ``dice`` in ``category`` for ``points`` (plus 100 with a Yahtzee
    bonus); the turn passed to ``next`` (``None`` when the game is over)."""

    seat: int
    category: boxes.Category
    points: int
    dice: boxes.Dice
    yahtzee_bonus: bool
    next: int | None
    by: By | None = None


class Left(Event, tag="left", frozen=True):
    """``seat`` left the game in play: its turns are skipped, its card stands. ``next``
    is the seat on turn after it (``None`` when the game is over)."""

    seat: int
    next: int | None
    by: By | None = None


class Finished(Event, tag="finished", frozen=True):
    """The game is over: the winning seats (ties share) and every seat's total."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]


RoomEvent: TypeAlias = (
    Created
    | Joined
    | Unseated
    | Started
    | CoachSwitched
    | BotPaceSet
    | OddsShown
    | RematchOpened
    | Chat
    | WentAway
    | CameBack
    | Handed
    | Abandoned
)
PlayEvent: TypeAlias = RollOffThrown | Rolled | Held | Scored | Left | Finished
#: Any event: a union tagged by ``kind``, which msgspec encodes and decodes as it is.
AnyEvent: TypeAlias = RoomEvent | PlayEvent

#: Every kind of event, in the order a game meets them.
EVENT_TYPES: Final[tuple[type[AnyEvent], ...]] = (
    Created,
    Joined,
    Unseated,
    Started,
    RollOffThrown,
    Rolled,
    Held,
    Scored,
    Left,
    Finished,
    RematchOpened,
    CoachSwitched,
    BotPaceSet,
    OddsShown,
    Chat,
    WentAway,
    CameBack,
    Handed,
    Abandoned,
)
assert set(EVENT_TYPES) == {*get_args(RoomEvent), *get_args(PlayEvent)}

#: Each class by its kind.
BY_KIND: Final[dict[str, type[AnyEvent]]] = {cls.kind: cls for cls in EVENT_TYPES}


class Logged(msgspec.Struct, frozen=True):
    """One event of a game's log, with its number in the game and when it happened."""

    seq: int
    event: AnyEvent
    at: datetime
