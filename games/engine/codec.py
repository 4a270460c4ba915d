"""A game and its events as JSON, and back: the saved record's format.

A game is saved as one document, :func:`encode_game`, beside its append-only
log of events, each saved as its ``kind`` and :func:`encode_event`'s payload:
the fields of its class in :mod:`games.engine.events`, as msgspec encodes the class.
Both are plain JSON with no Django in them, so an outside tool can read a
saved game with the rules engine alone.

The game's document carries its format's number (``"format": 1``). A change to
what a game holds changes :func:`encode_game` and :func:`decode_game` here, and
nothing else; a new format number comes with a decoder for the old one.

>>> from games.engine import rules
>>> game = rules.Game.new(1).roll(0, [2, 2, 5, 5, 1]).game
>>> decode_game(encode_game(game)) == game
True
>>> encode_event(game.hold(0, [4, 0]).events[0])
('held', {'seat': 0, 'held': [0, 4]})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from games.engine import events, rules

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
# An event is saved as its ``kind`` and its payload: the fields of its class in
# :mod:`games.engine.events`, as msgspec encodes them (tuples as lists, a box by its name, an
# enum by its value), a field left at its default left out. Nothing here names a field:
# the classes are the format. The one change of format so far, in one place below: the
# logs written before :class:`~games.engine.events.Unseated` had its own kind call it ``left``.


def encode_event(event: events.AnyEvent) -> tuple[str, dict[str, Any]]:
    """The event's kind and its payload as JSON: tuples become lists, a box its name.

    A field left at its default (a ``rematch_of`` or a ``bot`` of ``None``) is left out.
    """
    payload: dict[str, Any] = msgspec.json.decode(_encoder.encode(event))
    del payload["kind"]  # Saved beside the payload, and sent beside the data.
    return event.kind, payload


def decode_event(kind: str, payload: Mapping[str, Any]) -> events.AnyEvent:
    """The event saved as ``kind`` and ``payload``. Raises :class:`CodecError` on anything else.

    A ``left`` without ``next`` is an :class:`~games.engine.events.Unseated` from a log written
    before it had its own kind: it named the host after it, where leaving the game in
    play (:class:`~games.engine.events.Left`) names the seat on turn after it.
    """
    if kind == events.Left.kind and "next" not in payload:
        kind = events.Unseated.kind
    cls = events.BY_KIND.get(kind)
    if cls is None:
        raise CodecError(f"unknown event kind {kind!r}")
    try:
        return msgspec.convert(payload, type=cls)
    except (msgspec.ValidationError, TypeError, ValueError) as error:
        raise CodecError(f"not a {kind!r} event: {error!r}") from error


_encoder: Final = msgspec.json.Encoder()
