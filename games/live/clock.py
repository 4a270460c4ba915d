"""The turn clock: how long a turn may last, who is away, and when a game is abandoned.

A room may have a clock (:attr:`Game.turn_seconds <games.models.Game.turn_seconds>`).
When a person's turn begins, the turn's deadline is saved on the game's row
with the move that began it. If the deadline passes first, the server plays the
rest of the turn for them, as the optimal strategy would, and marks the moves
``by: "clock"`` (:func:`games.live.commands.wake`). After :data:`AWAY_AFTER` turns in
a row played by the clock, the seat is *away*: a bot plays its turns at once,
marked ``by: "bot"``, until its player comes back (:class:`Attendance`). A game
in which no person has given a command for :func:`idle_limit` is abandoned.

This module decides *when*: :func:`schedule` sets, with every save, the turn's
deadline and the game's ``wake_at``, the moment the server must next look at
the game by itself (the deadline, a bot that should have moved, or the time it
is abandoned). :mod:`games.live.watch` runs in every server process and wakes the
games that are due; how a wake-up acts exactly once is told there and in
:func:`games.live.commands.wake`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from django.utils import timezone

from games.engine import rules
from games.engine.room import AWAY_AFTER as AWAY_AFTER
from games.engine.room import TURN_SECONDS_MAX as TURN_SECONDS_MAX
from games.engine.room import TURN_SECONDS_MIN as TURN_SECONDS_MIN
from games.engine.room import Room, Seat
from games.engine.room import check_turn_seconds as check_turn_seconds

if TYPE_CHECKING:
    from games.models import Game

#: The choices the home page offers: half a minute, a minute, two, and a day a turn (the
#: API takes any whole number of seconds from TURN_SECONDS_MIN to TURN_SECONDS_MAX).
CHOICES: Final = (30, 60, 120, TURN_SECONDS_MAX)
#: A room with friends gets a minute a turn unless its host says otherwise: a turn of
#: Yahtzee takes a person 10 to 30 seconds, so a minute leaves time to think and talk,
#: while a player who walked away holds the table up one minute, and two turns later a
#: bot takes the seat. A solo room has no clock: nobody waits for its player.
DEFAULT_TURN_SECONDS: Final = 60
#: A game in which no person has given a command for this long is abandoned (or for
#: twice its turn clock, if that is longer: a day-long clock allows two missed turns).
ABANDON_AFTER: Final = timedelta(hours=24)
#: A bot on turn that has not moved in this long had its driver stopped (its server
#: process was killed or restarted): the watch starts it again.
BOT_STALL: Final = timedelta(seconds=15)


def now() -> datetime:
    """The time, as the services see it (tests replace it with a clock of their own)."""
    return timezone.now()


def idle_limit(turn_seconds: int | None) -> timedelta:
    """How long a game may go without a person's command before it is abandoned."""
    return max(ABANDON_AFTER, timedelta(seconds=2 * (turn_seconds or 0)))


def abandoned_at(game: Game, at: datetime) -> datetime:
    """When ``game`` is abandoned if no person gives a command before (``at``: now)."""
    return (game.acted_at or game.started_at or at) + idle_limit(game.turn_seconds)


@dataclass(frozen=True)
class Attendance:
    """Who plays the seats beside their players, saved on the game's row as JSON.

    ``ran_out``: by seat, how many turns in a row the clock has played (a seat whose
    player gives any command starts again from none). ``away``: the seats a bot plays
    until their players come back. ``handed``: the seats the host handed to a bot
    for the rest of the game (they are away for good).
    """

    ran_out: Mapping[int, int] = field(default_factory=dict)
    away: frozenset[int] = frozenset()
    handed: frozenset[int] = frozenset()

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Attendance:
        data = data or {}
        return cls(
            ran_out={int(seat): int(n) for seat, n in data.get("ran_out", {}).items()},
            away=frozenset(data.get("away", ())),
            handed=frozenset(data.get("handed", ())),
        )

    @classmethod
    def of(cls, seated: Sequence[Seat]) -> Attendance:
        """Who plays which seat beside its player, as the room's seats say."""
        return cls(
            ran_out={i: seat.ran_out for i, seat in enumerate(seated) if seat.ran_out},
            away=frozenset(i for i, seat in enumerate(seated) if seat.away),
            handed=frozenset(i for i, seat in enumerate(seated) if seat.handed),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.ran_out:
            data["ran_out"] = {str(seat): n for seat, n in sorted(self.ran_out.items())}
        if self.away:
            data["away"] = sorted(self.away)
        if self.handed:
            data["handed"] = sorted(self.handed)
        return data

    def is_away(self, seat: int) -> bool:
        """Whether a bot plays ``seat``'s turns (away, or handed to a bot)."""
        return seat in self.away or seat in self.handed


def turn_key(state: rules.Game | None) -> tuple[int, int] | None:
    """Which turn is in play: its seat and how many boxes that seat has filled."""
    seat = state.on_turn if state is not None else None
    if state is None or seat is None:
        return None
    return seat, len(state.cards[seat].filled)


def schedule(
    game: Game,
    room: Room,
    *,
    before: rules.Game | None,
    at: datetime,
    restart: bool = False,
) -> None:
    """Set ``game``'s turn deadline and wake-up time for the ``room`` as it is (its game in
    play and who is away), as of ``at``.

    The deadline runs while a person who is not away is on turn in a room with a
    clock; it starts when their turn does (``before`` was another turn), or again
    with ``restart`` (they came back). The wake-up time is the first of: the
    deadline, a bot on turn that should have moved by then, and the abandonment.
    """
    state = room.game
    if game.status != "playing" or state is None or state.on_turn is None:
        game.deadline = game.wake_at = None
        return
    sitting = room.seated[state.on_turn]
    if game.turn_seconds is None or sitting.bot is not None or sitting.stood_in:
        game.deadline = None
    elif game.deadline is None or restart or turn_key(before) != turn_key(state):
        game.deadline = at + timedelta(seconds=game.turn_seconds)
    wake = [abandoned_at(game, at)]
    if game.deadline is not None:
        wake.append(game.deadline)
    if room.bot_on_turn():
        wake.append(at + BOT_STALL)
    game.wake_at = min(wake)


def clock_json(game: Game, state: rules.Game | None, at: datetime) -> dict[str, Any] | None:
    """The clock as clients see it: the seat on turn, its deadline and the time left
    (``ms_left``, so a client whose own clock is wrong still counts down right)."""
    if game.deadline is None or state is None or state.on_turn is None:
        return None
    left = max(0, round((game.deadline - at).total_seconds() * 1000))
    return {"seat": state.on_turn, "deadline": game.deadline.isoformat(), "ms_left": left}
