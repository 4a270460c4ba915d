"""What clients are sent, built from the saved game: events, snapshots, cards and presence.

The log keeps facts only (:mod:`games.events`). A browser also wants what
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
from typing import Any

from games import codec, events, replay, rules


def event_data(
    event: events.Event, names: Sequence[str], after: rules.Game | None = None
) -> dict[str, Any]:
    """An event's ``data`` as clients read it: its facts, a name for a seat that left, and,
    given the game ``after`` it, what a browser draws from it:

    - a roll: ``rolls_left`` and ``options``, what each box may score with these dice;
    - a score: the seat's whole ``card``, its ``total`` and the ``round`` now played;
    - the end: each seat's ``places`` (:meth:`games.rules.Game.outcome`).
    """
    _, data = codec.encode_event(event)
    if isinstance(event, events.Left) and event.seat < len(names):
        data["name"] = names[event.seat]
    if after is None:
        return data
    if isinstance(event, events.Rolled):
        data["rolls_left"] = after.turn.rolls_left
        data["options"] = options_json(after.cards[event.seat], event.dice)
    elif isinstance(event, events.Scored):
        card = after.cards[event.seat]
        data["total"] = card.total
        data["round"] = after.round
        data["card"] = card_json(card)
    elif isinstance(event, events.Finished):
        data["places"] = list(after.outcome().places)
    return data


def event_message(
    seq: int,
    event: events.Event,
    at: datetime,
    names: Sequence[str],
    after: rules.Game | None = None,
) -> dict[str, Any]:
    """An event as it is broadcast: its kind, its data and the version it brings the room to."""
    return {
        "type": "event",
        "version": seq,
        "kind": event.kind,
        "data": event_data(event, names, after),
        "at": at.isoformat(),
    }


def card_json(card: rules.Scorecard) -> dict[str, Any]:
    """A scorecard as clients see it: every box, and the totals."""
    return {
        "boxes": {c.value: card[c] for c in rules.Category},
        "upper_total": card.upper_total,
        "upper_bonus": card.upper_bonus,
        "yahtzee_bonus_count": card.yahtzee_bonus_count,
        "yahtzee_bonus": card.yahtzee_bonus,
        "lower_total": card.lower_total,
        "total": card.total,
    }


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
    """Who stands where (:meth:`games.rules.Game.outcome`): totals, places, winners."""
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
