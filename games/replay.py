"""Rebuild a game from its event log with the rules engine alone.

The log is the record of a game (see :mod:`games.models`). :func:`replay`
reads it event by event and applies each one to the rules engine, checking
that what the event says happened is what the rules give; the tables hold the
same state for speed, and a test checks that the two always agree. This module
imports no Django, so the review pages and any outside tool can use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games import rules


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
    kind: str
    data: Mapping[str, Any]
    room: Room


def replay(events: Iterable[tuple[str, Mapping[str, Any]]]) -> Room:
    """The room after ``events``, pairs of (kind, payload) in sequence order.

    Raises :class:`ReplayError` if an event does not follow from the ones before.
    """
    room: Room | None = None
    for step in steps(events):
        room = step.room
    if room is None:
        raise ReplayError("an empty log has no game")
    return room


def steps(events: Iterable[tuple[str, Mapping[str, Any]]]) -> Iterator[Step]:
    """Each event with the room it leaves, in order: the review pages step through these.

    Events are numbered from 1, as the server numbers them. Raises
    :class:`ReplayError` at the first event that does not follow.
    """
    room: Room | None = None
    for number, (kind, payload) in enumerate(events, start=1):
        if room is None:
            if kind != "created":
                raise ReplayError(f"a log starts with 'created', not {kind!r}")
            room = Room(preset=payload["preset"], seats=payload["seats"])
        else:
            try:
                room = _apply(room, kind, payload)
            except (rules.RuleError, ReplayError, KeyError, TypeError) as error:
                raise ReplayError(f"event {number} ({kind}) does not follow: {error}") from error
        yield Step(number, kind, payload, room)


def _apply(room: Room, kind: str, data: Mapping[str, Any]) -> Room:
    game = room.game
    if kind in {"chat", "coach"}:  # Talk, and the coach's switch, change no play.
        return room
    if kind == "rematch":
        _expect(room.status == "finished", "a rematch follows a finished game")
        return room
    if kind == "joined":
        _expect(room.status == "lobby", "players join in the lobby")
        _expect(data["seat"] == len(room.players), "a new player takes the next seat")
        host = data["seat"] if data["host"] else room.host
        return replace(room, players=(*room.players, data["name"]), host=host)
    if kind == "left" and game is None:
        players = list(room.players)
        _expect(players[data["seat"]] == data["name"], "the player who left had that seat")
        del players[data["seat"]]
        return replace(room, players=tuple(players), host=data["host"])
    if kind == "started":
        _expect(room.status == "lobby" and room.players, "a game starts from a lobby with players")
        started = rules.Game.new(len(room.players), rules.get_rules(room.preset))
        return replace(room, status="playing", game=started)
    if game is None:
        raise ReplayError(f"{kind!r} before the game started")
    if kind == "left":
        return replace(room, game=game.leave(data["seat"]))
    if kind == "roll_off":
        game = game.throw_roll_off({seat: dice for seat, dice in data["throws"]})
        _expect(game.current == data["first"], "the roll-off winner starts")
        return replace(room, game=game)
    if kind == "rolled":
        held = frozenset(data["held"])
        fresh = [face for i, face in enumerate(data["dice"]) if i not in held]
        game = game.roll(data["seat"], fresh, held)
        _expect(list(game.turn.dice or ()) == list(data["dice"]), "the dice are the dice rolled")
        if "options" in data:  # Logs written before rolls carried their options have none.
            options = game.cards[data["seat"]].options(data["dice"])
            _expect(
                data["options"] == {c.value: points for c, points in options.items()},
                "the options are the boxes this roll may be written in",
            )
        return replace(room, game=game)
    if kind == "held":
        game = game.hold(data["seat"], data["held"])
        return replace(room, game=game)
    if kind == "scored":
        game = game.score(data["seat"], data["category"])
        card = game.cards[data["seat"]]
        _expect(card[rules.Category(data["category"])] == data["points"], "the points add up")
        _expect(data.get("total", card.total) == card.total, "the total adds up")
        if "card" in data:  # Logs written before scores carried the card have none.
            boxes = {c.value: card[c] for c in rules.Category}
            _expect(data["card"]["boxes"] == boxes, "the card is the card scored")
            _expect(data["round"] == game.round, "the round is the round now played")
        return replace(room, game=game)
    if kind == "finished":
        _expect(game.is_over, "a game finishes when every card is complete")
        _expect(list(game.winners) == list(data["winners"]), "the winners are the best totals")
        return replace(room, status="finished")
    raise ReplayError(f"unknown event kind {kind!r}")


def _expect(condition: object, what: str) -> None:
    if not condition:
        raise ReplayError(what)
