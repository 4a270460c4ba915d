"""Rebuild a game from its event log with the rules engine alone.

The log is the record of what happened in a game (see :mod:`games.models`).
:func:`replay` reads its events in order and replays each one through the
rules engine: a roll is replayed as the same roll, a score as the same score,
and the events the rules give back must be exactly the events the log holds
(the same dice, the same points, the same next seat, the same winners). The
game it ends with is the saved record, and a test checks that they agree.
This module imports no Django, so the review pages and any outside tool can use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import msgspec

from games import events, rules


class ReplayError(ValueError):
    """The log does not describe a game the rules allow."""


@dataclass(frozen=True)
class Room:
    """A game room as its log leaves it: the lobby's seats, and the game once started."""

    preset: str
    seats: int
    status: str = "lobby"
    players: tuple[str, ...] = ()
    host: int | None = None
    game: rules.Game | None = None


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

    Raises :class:`ReplayError` if an event does not follow from the ones before.
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
    #: Events the rules gave with the last command that the log has still to show.
    owed: tuple[events.PlayEvent, ...] = ()
    for number, event in enumerate(log, start=1):
        try:
            if room is None:
                if not isinstance(event, events.Created):
                    raise ReplayError(f"a log starts with 'created', not {event.kind!r}")
                room = Room(preset=event.preset, seats=event.seats)
            elif owed:
                _expect(event == owed[0], f"the rules gave {owed[0]}")
                owed = owed[1:]
                if isinstance(event, events.Finished):
                    room = replace(room, status="finished")
            else:
                room, owed = _apply(room, event)
        except (rules.RuleError, ReplayError) as error:
            raise ReplayError(f"event {number} ({event.kind}) does not follow: {error}") from error
        yield Step(number, event, room)
    if owed:
        raise ReplayError(f"the log ends before {owed[0]}, which the rules gave")


def _apply(room: Room, event: events.AnyEvent) -> tuple[Room, tuple[events.PlayEvent, ...]]:
    """The room after ``event``, and the events the rules gave beyond it (owed by the log)."""
    game = room.game
    if isinstance(event, events.Chat | events.CoachSwitched | events.BotPaceSet):
        return room, ()  # Talk, the coach's switch and the bots' pace change no play.
    if isinstance(event, events.WentAway | events.CameBack | events.Handed):
        _expect(room.status == "playing", "players go away and come back during play")
        return room, ()  # Who plays a seat changes, not the play.
    if isinstance(event, events.Abandoned):
        _expect(room.status == "playing", "a game in play is abandoned")
        return replace(room, status="abandoned"), ()
    if isinstance(event, events.RematchOpened):
        _expect(room.status == "finished", "a rematch follows a finished game")
        return room, ()
    if isinstance(event, events.Joined):
        _expect(room.status == "lobby", "players join in the lobby")
        _expect(event.seat == len(room.players), "a new player takes the next seat")
        host = event.seat if event.host else room.host
        return replace(room, players=(*room.players, event.name), host=host), ()
    if isinstance(event, events.Unseated):
        _expect(room.status == "lobby", "seats are freed in the lobby")
        players = list(room.players)
        _expect(players[event.seat : event.seat + 1] == [event.name], "they had that seat")
        del players[event.seat]
        return replace(room, players=tuple(players), host=event.host), ()
    if isinstance(event, events.Started):
        _expect(room.status == "lobby" and room.players, "a game starts from a lobby with players")
        _expect(event.players == room.players, "the players are the lobby's")
        started = rules.Game.new(len(room.players), rules.get_rules(room.preset))
        _expect(event.first == started.current, "the first seat is the rules' own")
        return replace(room, status="playing", game=started), ()
    if game is None:
        raise ReplayError(f"{event.kind!r} before the game started")
    if isinstance(event, events.RollOffThrown):
        progress = game.throw_roll_off(dict(event.throws))
    elif isinstance(event, events.Rolled):
        fresh = [face for i, face in enumerate(event.dice) if i not in event.held]
        progress = game.roll(event.seat, fresh, event.held)
    elif isinstance(event, events.Held):
        progress = game.hold(event.seat, event.held)
    elif isinstance(event, events.Scored):
        progress = game.score(event.seat, event.category)
    elif isinstance(event, events.Left):
        progress = game.leave(event.seat)
    else:
        raise ReplayError(f"{event.kind!r} does not follow a command")
    # Who made the move for the seat (the clock, a bot, the host) is the server's to say.
    made = progress.events[0]
    if isinstance(event, events.Rolled | events.Held | events.Scored | events.Left):
        event = msgspec.structs.replace(event, by=None)
    _expect(made == event, f"the rules gave {made}")
    return replace(room, game=progress.game), progress.events[1:]


def _expect(condition: object, what: str) -> None:
    if not condition:
        raise ReplayError(what)
