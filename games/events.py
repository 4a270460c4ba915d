"""What happened in a game: one frozen dataclass per kind of event, holding facts only.

The rules engine (:mod:`games.rules`) returns the play's events with the new
game from each command; the services add the room's own (someone took a seat,
the coach was switched on, a chat). Each is saved as it is in the game's
append-only log (:mod:`games.codec` turns it into JSON and back), and
:mod:`games.replay` rebuilds any game from them. They say who did what, with
which dice, in which box and for how many points; what a browser wants drawn
from them (the boxes a roll may go in, whole cards, the round) is worked out
from the saved game when a message is sent (:mod:`games.presentation`).

This module imports nothing from Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, TypeAlias

if TYPE_CHECKING:  # The rules import this module, to return its events.
    from games.rules import Category, Dice


@dataclass(frozen=True)
class Event:
    """Something that happened in a game. ``kind`` names it in the log and on the wire."""

    kind: ClassVar[str]
    #: Whether it changes the play: a command sent by a client that has not seen it is
    #: stale. Talk, the coach's switch, a rematch and the dice shown held change nothing
    #: anyone may choose, so a quick click after one of them still counts.
    changes_play: ClassVar[bool] = True


# --------------------------------------------------------------------------
# The room's events, made by the services
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Created(Event):
    """The room was opened with these rules, this many seats, and the coach on or off."""

    kind: ClassVar[str] = "created"
    preset: str
    seats: int
    coach: bool
    #: The invite code of the finished game this room is the rematch of.
    rematch_of: str | None = None
    #: How long the bots take over their moves (left out of the log when ``natural``).
    bot_pace: str = "natural"
    #: Whether the players see each seat's chance to win (left out of the log when not).
    show_odds: bool = False


@dataclass(frozen=True)
class Joined(Event):
    """Someone (or a bot of level ``bot``) took the next seat in the lobby."""

    kind: ClassVar[str] = "joined"
    seat: int
    name: str
    host: bool
    bot: str | None = None


@dataclass(frozen=True)
class Unseated(Event):
    """Someone left the lobby: the seats after theirs move up one; ``host`` is the host's
    seat after it (``None`` once nobody is left)."""

    kind: ClassVar[str] = "left"
    seat: int
    name: str
    host: int | None


@dataclass(frozen=True)
class Started(Event):
    """The host started the game with these players, in seat order. ``first`` is the
    seat that starts when no roll-off is needed (a solo game), else ``None``."""

    kind: ClassVar[str] = "started"
    players: tuple[str, ...]
    first: int | None


@dataclass(frozen=True)
class CoachSwitched(Event):
    """The host turned the coach on or off."""

    kind: ClassVar[str] = "coach"
    changes_play: ClassVar[bool] = False
    on: bool
    seat: int
    name: str


@dataclass(frozen=True)
class BotPaceSet(Event):
    """The host set how long the bots take over their moves: ``instant``, ``quick`` or
    ``natural`` (:mod:`games.bots`)."""

    kind: ClassVar[str] = "bot_pace"
    changes_play: ClassVar[bool] = False
    pace: str
    seat: int
    name: str


@dataclass(frozen=True)
class RematchOpened(Event):
    """A player of the finished game opened its rematch, the room ``code``."""

    kind: ClassVar[str] = "rematch"
    changes_play: ClassVar[bool] = False
    code: str
    seat: int
    name: str


@dataclass(frozen=True)
class Chat(Event):
    """A player said something to the table."""

    kind: ClassVar[str] = "chat"
    changes_play: ClassVar[bool] = False
    seat: int
    name: str
    text: str


#: Who made a move for a seat other than its own player (the ``by`` of a roll, a hold, a
#: score or a leave; ``None``, the default, is the seat's own player or its own bot).
BY_CLOCK = "clock"  # The turn clock ran out: the server played the rest of the turn.
BY_BOT = "bot"  # A bot played for a seat that is away, or that the host handed to a bot.
BY_HOST = "host"  # The host removed the seat (a leave).


@dataclass(frozen=True)
class WentAway(Event):
    """The clock played two turns in a row for ``seat``: a bot plays its turns until the
    player comes back."""

    kind: ClassVar[str] = "away"
    changes_play: ClassVar[bool] = False
    seat: int
    name: str


@dataclass(frozen=True)
class CameBack(Event):
    """The player of ``seat``, away, is back: their turns wait for them again."""

    kind: ClassVar[str] = "back"
    changes_play: ClassVar[bool] = False
    seat: int
    name: str


@dataclass(frozen=True)
class Handed(Event):
    """The host (``host``, a seat) handed ``seat`` to a bot for the rest of the game."""

    kind: ClassVar[str] = "handed"
    changes_play: ClassVar[bool] = False
    seat: int
    name: str
    host: int


@dataclass(frozen=True)
class Abandoned(Event):
    """Nobody played for a long while: the game ended unfinished, as it stood."""

    kind: ClassVar[str] = "abandoned"


# --------------------------------------------------------------------------
# The play's events, made by the rules engine
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class RollOffThrown(Event):
    """One round of the roll-off: each contender's throw, who is still in, and the seat
    that won it once one is left (``None`` while they tie)."""

    kind: ClassVar[str] = "roll_off"
    throws: tuple[tuple[int, Dice], ...]
    contenders: tuple[int, ...]
    first: int | None


@dataclass(frozen=True)
class Rolled(Event):
    """``seat`` kept the dice at positions ``held`` and threw the others: ``dice`` lie on
    the table now."""

    kind: ClassVar[str] = "rolled"
    seat: int
    dice: Dice
    held: tuple[int, ...]
    by: str | None = None


@dataclass(frozen=True)
class Held(Event):
    """``seat`` shows the dice it means to keep for its next roll (positions 0 to 4)."""

    kind: ClassVar[str] = "held"
    changes_play: ClassVar[bool] = False
    seat: int
    held: tuple[int, ...]
    by: str | None = None


@dataclass(frozen=True)
class Scored(Event):
    """``seat`` wrote ``dice`` in ``category`` for ``points`` (plus 100 with a Yahtzee
    bonus); the turn passed to ``next`` (``None`` when the game is over)."""

    kind: ClassVar[str] = "scored"
    seat: int
    category: Category
    points: int
    dice: Dice
    yahtzee_bonus: bool
    next: int | None
    by: str | None = None


@dataclass(frozen=True)
class Left(Event):
    """``seat`` left the game in play: its turns are skipped, its card stands. ``next``
    is the seat on turn after it (``None`` when the game is over)."""

    kind: ClassVar[str] = "left"
    seat: int
    next: int | None
    by: str | None = None


@dataclass(frozen=True)
class Finished(Event):
    """The game is over: the winning seats (ties share) and every seat's total."""

    kind: ClassVar[str] = "finished"
    winners: tuple[int, ...]
    totals: tuple[int, ...]


RoomEvent: TypeAlias = (
    Created
    | Joined
    | Unseated
    | Started
    | CoachSwitched
    | BotPaceSet
    | RematchOpened
    | Chat
    | WentAway
    | CameBack
    | Handed
    | Abandoned
)
PlayEvent: TypeAlias = RollOffThrown | Rolled | Held | Scored | Left | Finished
AnyEvent: TypeAlias = RoomEvent | PlayEvent

#: Every kind of event, in the order a game meets them.
EVENT_TYPES: tuple[type[Event], ...] = (
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
    Chat,
    WentAway,
    CameBack,
    Handed,
    Abandoned,
)


@dataclass(frozen=True)
class Logged:
    """One event of a game's log, with its number in the game and when it happened."""

    seq: int
    event: AnyEvent
    at: datetime
