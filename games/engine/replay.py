"""Rebuild a game room from its event log with the room and the rules engine alone.

The log is the record of what happened in a game (see :mod:`games.models`).
:func:`steps` reads its events in order and gives each again as the command it
records, through the room's own commands (:meth:`games.engine.room.Room.apply`): a roll
is replayed as the same roll with the logged dice, a score as the same score,
a seat taken as the same seat. The events the command gives back must be exactly
the events the log holds (the same dice, the same points, the same next seat, the
same winners, the same host after a seat is freed); those beyond the first are
the log's next ones. The room it ends with is the saved one, and a test checks
that they agree. This module imports no Django, so the review pages and any
outside tool can use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.engine import events, rules
from games.engine.room import Room as Room
from games.engine.room import RoomProgress

__all__ = ["ReplayError", "Room", "Step", "replay", "steps"]


class ReplayError(ValueError):
    """The log does not describe a game the rules allow."""


@dataclass(frozen=True)
class Step:
    """One event of a log, and the room just after it."""

    seq: int
    event: events.AnyEvent
    room: Room

    @property
    def kind(self) -> str:
        return self.event.kind


def replay(log: Iterable[events.AnyEvent]) -> Room:
    """The room after the events of ``log``, in order.

    The room's turn clock is the one its ``created`` event records (none in the logs of
    games made before it was recorded there). Raises :class:`ReplayError` if an event
    does not follow from the ones before.
    """
    room: Room | None = None
    for step in steps(log):
        room = step.room
    if room is None:
        raise ReplayError("an empty log has no game")
    return room


def steps(log: Iterable[events.AnyEvent]) -> Iterator[Step]:
    """Each event with the room it leaves, in order: the review pages step through these.

    Events are numbered from 1, as the server numbers them. Raises
    :class:`ReplayError` at the first event that does not follow.
    """
    room: Room | None = None
    #: The events the last command gave that the log has still to show, each with the
    #: room just after it.
    owed: list[tuple[events.AnyEvent, Room]] = []
    for number, event in enumerate(log, start=1):
        try:
            if not owed:
                progress = _command(room, event)
                owed = list(zip(progress.events, progress.after, strict=True))
                if not owed:
                    raise ReplayError("the room did nothing for it")
            made, room = owed.pop(0)
            if made != event:
                raise ReplayError(f"the rules gave {made}")
        except (rules.RuleError, ReplayError) as error:
            raise ReplayError(f"event {number} ({event.kind}) does not follow: {error}") from error
        yield Step(number, event, room)
    if owed:
        raise ReplayError(f"the log ends before {owed[0][0]}, which the rules gave")


def _command(room: Room | None, event: events.AnyEvent) -> RoomProgress:
    """The command ``event`` records, given to ``room`` (the first event: the room's creation)."""
    if room is not None:
        return room.apply(event)
    if not isinstance(event, events.Created):
        raise ReplayError(f"a log starts with 'created', not {event.kind!r}")
    return Room.create(
        event.preset,
        event.seats,
        coach=event.coach,
        bot_pace=event.bot_pace,
        show_odds=event.show_odds,
        turn_seconds=event.turn_seconds,
        rematch_of=event.rematch_of,
    )
