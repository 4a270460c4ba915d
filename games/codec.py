"""A game and its events as JSON, and back: the saved record's format.

A game is saved as one document, :func:`encode_game`, beside its append-only
log of events, each saved as its ``kind`` and :func:`encode_event`'s payload.
Both are plain JSON with no Django in them, so an outside tool can read a
saved game with the rules engine alone.

The game's document carries its format's number (``"format": 1``). A change to
what a game holds changes :func:`encode_game` and :func:`decode_game` here, and
nothing else; a new format number comes with a decoder for the old one.

>>> from games import rules
>>> game = rules.Game.new(1).roll(0, [2, 2, 5, 5, 1]).game
>>> decode_game(encode_game(game)) == game
True
>>> encode_event(game.hold(0, [4, 0]).events[0])
('held', {'seat': 0, 'held': [0, 4]})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final

from games import events, rules

#: The format of :func:`encode_game`'s documents.
GAME_FORMAT: Final = 1


class CodecError(ValueError):
    """A saved document that does not describe a game or an event."""


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------


def encode_game(game: rules.Game) -> dict[str, Any]:
    """The game as a JSON document: its rules, cards, roll-off, turn and who left."""
    return {
        "format": GAME_FORMAT,
        "rules": game.rules.name,
        "cards": [
            {"boxes": list(card.boxes), "yahtzee_bonus_count": card.yahtzee_bonus_count}
            for card in game.cards
        ],
        "roll_off": {
            "contenders": list(game.roll_off.contenders),
            "rounds": [[[seat, list(dice)] for seat, dice in rnd] for rnd in game.roll_off.rounds],
        },
        "current": game.current,
        "turn": {
            "dice": list(game.turn.dice) if game.turn.dice is not None else None,
            "rolls_used": game.turn.rolls_used,
            "held": sorted(game.turn.held),
        },
        "left": sorted(game.left),
    }


def decode_game(document: Mapping[str, Any]) -> rules.Game:
    """The game :func:`encode_game` saved. Raises :class:`CodecError` if it is no game."""
    try:
        if document["format"] != GAME_FORMAT:
            raise CodecError(f"unknown game format {document['format']!r}")
        preset = rules.get_rules(document["rules"])
        turn = document["turn"]
        roll_off = document["roll_off"]
        return rules.Game(
            rules=preset,
            cards=tuple(
                rules.Scorecard(preset, tuple(card["boxes"]), card["yahtzee_bonus_count"])
                for card in document["cards"]
            ),
            roll_off=rules.RollOff(
                tuple(roll_off["contenders"]),
                tuple(
                    tuple((seat, tuple(dice)) for seat, dice in rnd) for rnd in roll_off["rounds"]
                ),
            ),
            current=document["current"],
            turn=rules.Turn(
                tuple(turn["dice"]) if turn["dice"] is not None else None,
                turn["rolls_used"],
                frozenset(turn["held"]),
            ),
            left=frozenset(document["left"]),
        )
    except CodecError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise CodecError(f"not a saved game: {error!r}") from error


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------


def encode_event(event: events.Event) -> tuple[str, dict[str, Any]]:
    """The event's kind and its payload as JSON: tuples become lists, a box its name.

    A field left at its default (a ``rematch_of`` or a ``bot`` of ``None``) is left out.
    """
    payload = {
        field.name: _plain(getattr(event, field.name))
        for field in dataclasses.fields(event)
        if getattr(event, field.name) != field.default
    }
    return event.kind, payload


def decode_event(kind: str, payload: Mapping[str, Any]) -> events.AnyEvent:
    """The event saved as ``kind`` and ``payload``. Raises :class:`CodecError` on anything else.

    Two kinds share the name ``left``: leaving the lobby (:class:`~games.events.Unseated`,
    which names the host after it) and leaving the game (:class:`~games.events.Left`,
    which names the seat on turn after it).
    """
    if kind == "left":
        cls: type[events.Event] = events.Left if "next" in payload else events.Unseated
    else:
        found = _BY_KIND.get(kind)
        if found is None:
            raise CodecError(f"unknown event kind {kind!r}")
        cls = found
    try:
        values = {
            field.name: _DECODERS.get(field.name, _same)(payload[field.name])
            for field in dataclasses.fields(cls)
            if field.name in payload or field.default is dataclasses.MISSING
        }
        return cls(**values)  # type: ignore[return-value]
    except (KeyError, TypeError, ValueError) as error:
        raise CodecError(f"not a {kind!r} event: {error!r}") from error


_BY_KIND: Final = {cls.kind: cls for cls in events.EVENT_TYPES if cls is not events.Left}


def _plain(value: object) -> Any:
    if isinstance(value, rules.Category):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _same(value: Any) -> Any:
    return value


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(value)


def _throws(value: Any) -> tuple[tuple[int, rules.Dice], ...]:
    return tuple((seat, tuple(dice)) for seat, dice in value)


#: How each field that is not plain JSON comes back, by its name in every event.
_DECODERS: Final[dict[str, Callable[[Any], Any]]] = {
    "dice": _ints,
    "held": _ints,
    "players": tuple,
    "contenders": _ints,
    "winners": _ints,
    "totals": _ints,
    "throws": _throws,
    "category": rules.Category,
}
