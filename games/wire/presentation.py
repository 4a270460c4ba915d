"""What clients are sent, built from the saved game: events, snapshots, cards and presence.

The log keeps facts only (:mod:`games.engine.events`). A browser also wants what
follows from them, so that it needs no rules of its own: the boxes a roll may
go in and what each would score, a whole card with its totals after a score,
the round, a name beside a seat. This module adds those from the game as it
stands after the event, in one place, for the live broadcast, the snapshot,
the JSON export and the review alike. The messages are documented in
``docs/protocol.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Final, TypeAlias

import msgspec

from games.engine import codec, events, replay, rules

#: Every box name of every preset: :class:`games.engine.rules.Category`'s values.
BOX_NAMES: Final = [category.value for category in rules.Category]
#: Each preset's card, as its box names in card order (the Yahtzee presets share one).
CARDS: Final = list(
    {tuple(c.value for c in preset.boxes): None for preset in rules.PRESETS.values()}
)
#: What each box scores, by box name: every box of a preset's card (a card) or some (a roll's
#: options).
AllBoxes: TypeAlias = Annotated[
    dict[rules.Category, int | None],
    msgspec.Meta(
        extra_json_schema={
            "propertyNames": {"enum": BOX_NAMES},
            "anyOf": [
                {"required": list(card), "propertyNames": {"enum": list(card)}} for card in CARDS
            ],
        }
    ),
]
SomeBoxes: TypeAlias = Annotated[
    dict[rules.Category, int],
    msgspec.Meta(extra_json_schema={"propertyNames": {"enum": BOX_NAMES}}),
]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A scorecard: every box (points, or ``null`` while empty), and the totals."""

    boxes: AllBoxes
    upper_total: int
    upper_bonus: int
    yahtzee_bonus_count: int
    yahtzee_bonus: int
    lower_total: int
    total: int


# -- what an event's data carries beyond its facts ------------------------------------
# One struct per kind that needs one, named after the kind, built by :func:`shown` alone.
# Its fields follow the event's own in the ``data`` clients are sent.


class Shown(msgspec.Struct, frozen=True, kw_only=True):
    """What a browser draws from an event, worked out from the game after it."""


class RolledShown(Shown, frozen=True, kw_only=True):
    """A roll: the rolls left and what each box the dice may go in would score."""

    rolls_left: int
    options: SomeBoxes


class ScoredShown(Shown, frozen=True, kw_only=True):
    """A score: the seat's total, the round now played and its whole card."""

    total: int
    round: int
    card: Card


class FinishedShown(Shown, frozen=True, kw_only=True):
    """The end: each seat's place (:meth:`games.engine.rules.Game.outcome`)."""

    places: list[int | None]


class LeftShown(Shown, frozen=True, kw_only=True):
    """A seat that left the game: its player's name (the game's seats keep no names)."""

    name: str


#: The presentation part of each kind that has one.
SHOWN: Final[dict[type[events.AnyEvent], type[Shown]]] = {
    events.Rolled: RolledShown,
    events.Scored: ScoredShown,
    events.Finished: FinishedShown,
    events.Left: LeftShown,
}


def shown(event: events.AnyEvent, names: Sequence[str], after: rules.Game | None) -> Shown | None:
    """What clients are sent of ``event`` beyond its facts (:data:`SHOWN`): a name for a seat
    that left, and, given the game ``after`` it, what a browser draws from it:

    - a roll: ``rolls_left`` and ``options``, what each box may score with these dice;
    - a score: the seat's whole ``card``, its ``total`` and the ``round`` now played;
    - the end: each seat's ``places``.

    Without ``after`` (a snapshot's recent events), only the name.
    """
    if isinstance(event, events.Left):
        return LeftShown(name=names[event.seat]) if event.seat < len(names) else None
    if after is None:
        return None
    if isinstance(event, events.Rolled):
        return RolledShown(
            rolls_left=after.turn.rolls_left, options=after.cards[event.seat].options(event.dice)
        )
    if isinstance(event, events.Scored):
        card = after.cards[event.seat]
        return ScoredShown(total=card.total, round=after.round, card=card_of(card))
    if isinstance(event, events.Finished):
        return FinishedShown(places=list(after.outcome().places))
    return None


def event_data(
    event: events.AnyEvent,
    names: Sequence[str],
    after: rules.Game | None = None,
    *,
    facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An event's ``data`` as clients read it: its facts (``facts``, when its payload was
    encoded for the log already) followed by what :func:`shown` adds."""
    data = dict(codec.encode_event(event)[1] if facts is None else facts)
    extra = shown(event, names, after)
    if extra is not None:
        data.update(msgspec.to_builtins(extra))
    return data


def event_message(
    seq: int,
    event: events.AnyEvent,
    at: datetime,
    names: Sequence[str],
    after: rules.Game | None = None,
    *,
    facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An event as it is broadcast: its kind, its data and the version it brings the room to."""
    return {
        "type": "event",
        "version": seq,
        "kind": event.kind,
        "data": event_data(event, names, after, facts=facts),
        "at": at.isoformat(),
    }


def logged_message(logged: events.Logged, names: Sequence[str]) -> dict[str, Any]:
    """An event of the log as a snapshot's ``recent`` gives it: its facts and a name."""
    return event_message(logged.seq, logged.event, logged.at, names)


def card_of(card: rules.Scorecard) -> Card:
    """A scorecard as clients see it: every box of its preset's card, and the totals."""
    return Card(
        boxes={c: card[c] for c in card.rules.boxes},
        upper_total=card.upper_total,
        upper_bonus=card.upper_bonus,
        yahtzee_bonus_count=card.yahtzee_bonus_count,
        yahtzee_bonus=card.yahtzee_bonus,
        lower_total=card.lower_total,
        total=card.total,
    )


def card_json(card: rules.Scorecard) -> dict[str, Any]:
    """:func:`card_of` as JSON values."""
    result: dict[str, Any] = msgspec.to_builtins(card_of(card))
    return result


def options_json(card: rules.Scorecard, dice: rules.Dice | None) -> dict[str, int]:
    """What each box these dice may go in would score (only the allowed boxes under a Joker)."""
    return {c.value: points for c, points in card.options(dice).items()} if dice else {}


def turn_json(state: rules.Game | None) -> dict[str, Any] | None:
    """The turn in play: whose, the dice, the ones held, the rolls left and the options."""
    if state is None or state.on_turn is None:
        return None
    dice = state.turn.dice
    return {
        "seat": state.on_turn,
        "dice": list(dice) if dice else None,
        "held": sorted(state.turn.held),
        "rolls_left": state.turn.rolls_left,
        "options": options_json(state.cards[state.on_turn], dice),
    }


def roll_off_json(roll_off: rules.RollOff) -> dict[str, Any]:
    """The roll-off: who is still in, every round's throws, and its winner once decided."""
    return {
        "contenders": list(roll_off.contenders),
        "rounds": [[[seat, list(dice)] for seat, dice in rnd] for rnd in roll_off.rounds],
        "winner": roll_off.winner,
    }


def outcome_json(outcome: rules.Outcome) -> dict[str, Any]:
    """Who stands where (:meth:`games.engine.rules.Game.outcome`): totals, places, winners."""
    return {
        "totals": list(outcome.totals),
        "places": list(outcome.places),
        "winners": list(outcome.winners),
    }


def log_json(log: Sequence[events.Logged]) -> list[dict[str, Any]]:
    """A whole log as the export gives it: each event's number, kind, time and ``data``,
    with what a live event carried from the game after it (replayed with the rules)."""
    return [
        {
            "seq": logged.seq,
            "kind": logged.event.kind,
            "at": logged.at.isoformat(),
            "data": event_data(logged.event, step.room.players, step.room.game),
        }
        for logged, step in zip(log, replay.steps(e.event for e in log), strict=True)
    ]
