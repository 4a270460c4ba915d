"""A finished game told move by move, rebuilt from its event log: what the review page shows.

The log is replayed with the rules engine (:func:`games.replay.steps`), so the
review shows what the rules make of the recorded dice, never what a table
says. Each *moment* is one thing a player did: the start (after the
roll-off), a roll, a hold, a score, someone leaving, and the end. Chat and
the lobby are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games import events, replay, rules
from games.presentation import card_json

#: The events that are moments of play, besides the start (once the roll-off is decided).
MOVES = {"rolled", "held", "scored", "left", "finished"}


@dataclass(frozen=True)
class Moment:
    """The game just after one move, as the review page draws it."""

    seq: int
    kind: str
    text: str
    seat: int | None
    turn: int | None
    round: int
    dice: tuple[int, ...] | None
    held: tuple[int, ...]
    rolls_left: int
    cards: tuple[rules.Scorecard, ...]
    #: The box just written in, on a score.
    category: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The moment for the page's script.

        A score carries the points it wrote (``points``) and the totals of the
        card it leaves (``card``, without its boxes: the script has them already).
        """
        data: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "text": self.text,
            "seat": self.seat,
            "turn": self.turn,
            "round": self.round,
            "dice": list(self.dice) if self.dice else None,
            "held": list(self.held),
            "rollsLeft": self.rolls_left,
            "category": self.category,
        }
        if self.category is not None and self.seat is not None:  # A score.
            card = self.cards[self.seat]
            data["points"] = card[rules.Category(self.category)]
            data["card"] = {k: v for k, v in card_json(card).items() if k != "boxes"}
        return data


@dataclass(frozen=True)
class Review:
    """Everything the review page needs about one game."""

    names: tuple[str, ...]
    moments: tuple[Moment, ...]

    def at(self, seq: object) -> int:
        """The index of the moment a link points at: the last one at or before event ``seq``.

        A missing or malformed ``seq`` means the end of the game.
        """
        try:
            wanted = int(str(seq))
        except ValueError:
            return len(self.moments) - 1
        index = 0
        for i, moment in enumerate(self.moments):
            if moment.seq <= wanted:
                index = i
        return index

    def running_totals(self) -> list[list[int]]:
        """For each seat, its grand total after each of its rounds."""
        totals: list[list[int]] = [[] for _ in self.names]
        for moment in self.moments:
            if moment.kind == "scored" and moment.seat is not None:
                totals[moment.seat].append(moment.cards[moment.seat].total)
        return totals

    def moments_json(
        self, analysis: Mapping[int, Mapping[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Every moment for the page's script; cards travel only with scores (and the start).

        ``analysis`` maps event numbers to what the post-game analysis says of the
        decision each made (:meth:`games.analysis.Analysis.by_seq`); a moment
        that was a decision carries it as ``analysis``.
        """
        judged = analysis or {}
        return [
            m.as_json()
            | ({"cards": _cards(m)} if i == 0 else {})
            | ({"analysis": dict(judged[m.seq])} if m.seq in judged else {})
            for i, m in enumerate(self.moments)
        ]


def _cards(moment: Moment) -> list[dict[str, Any]]:
    return [card_json(card) for card in moment.cards]


def build(log: Iterable[events.AnyEvent]) -> Review:
    """The review of the game these events describe, as :func:`games.services.replay_events`
    reads them. Raises :class:`replay.ReplayError` on a broken log or a game that never
    started."""
    names: tuple[str, ...] = ()
    moments: list[Moment] = []
    for step in replay.steps(log):
        game = step.room.game
        if game is None:
            continue
        if step.kind == "started":
            names = step.room.players
        if step.kind in {"started", "roll_off"} and game.current is not None:
            # Play starts once the roll-off is decided (at once in a solo game).
            moments.append(_moment(step, game, names, _start_text(names, game)))
        elif step.kind in MOVES and (step.kind != "left" or moments):
            text = describe(step.event, names, game)
            moment = _moment(step, game, names, text)
            if step.kind == "finished" and moments:  # The last dice stay on the table.
                moment = replace(moment, dice=moments[-1].dice)
            moments.append(moment)
    if not moments:
        raise replay.ReplayError("the game has not started: there is nothing to review")
    return Review(names=names, moments=tuple(moments))


def _moment(step: replay.Step, game: rules.Game, names: Sequence[str], text: str) -> Moment:
    event = step.event
    if isinstance(event, events.Scored):
        # The dice stay on the table to show what was scored; the turn has passed on.
        dice: tuple[int, ...] | None = event.dice
        held: tuple[int, ...] = ()
    else:
        dice = game.turn.dice
        held = tuple(sorted(game.turn.held))
    seat = (
        event.seat
        if isinstance(event, events.Rolled | events.Held | events.Scored | events.Left)
        else None
    )
    return Moment(
        seq=step.seq,
        kind="start" if step.kind in {"started", "roll_off"} else step.kind,
        text=text,
        seat=seat,
        turn=None if game.is_over else game.current,
        round=game.round,
        dice=dice,
        held=held,
        rolls_left=game.turn.rolls_left,
        cards=game.cards,
        category=event.category.value if isinstance(event, events.Scored) else None,
    )


def _start_text(names: Sequence[str], game: rules.Game) -> str:
    first = names[game.current] if game.current is not None else "?"
    if len(names) == 1:
        return f"{first} starts a solo game."
    return f"{_and(names)} sit down; {first} won the roll-off and starts."


def describe(event: events.Event, names: Sequence[str], after: rules.Game) -> str:
    """One move in words: "Ana rolled 3 3 3 5 5.", "Ana kept 3 3 3.", "Ana scored 25 in Full house."

    ``after`` is the game just after it (a hold names positions; the faces are on the table).
    """
    if isinstance(event, events.Rolled):
        left = after.turn.rolls_left
        then = f" ({left} roll{'s' if left != 1 else ''} left)" if left else ""
        kept = f", keeping {_faces(event.dice, event.held)}" if event.held else ""
        return f"{names[event.seat]} rolled {_faces(event.dice)}{kept}{then}."
    if isinstance(event, events.Held):
        if not event.held or after.turn.dice is None:
            return f"{names[event.seat]} let go of every die."
        return f"{names[event.seat]} kept {_faces(after.turn.dice, event.held)}."
    if isinstance(event, events.Scored):
        bonus = f" and a {rules.YAHTZEE_BONUS}-point Yahtzee bonus" if event.yahtzee_bonus else ""
        return f"{names[event.seat]} scored {event.points} in {event.category.label}{bonus}."
    if isinstance(event, events.Left):
        return f"{names[event.seat]} left the game."
    if isinstance(event, events.Finished):
        winners = [names[s] for s in event.winners]
        if not winners:
            return "The game is over."
        best = event.totals[event.winners[0]]
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"{_and(winners)} {verb} with {best}."
    return event.kind


def _faces(dice: Sequence[int], positions: Iterable[int] | None = None) -> str:
    chosen = dice if positions is None else [dice[i] for i in sorted(positions)]
    return " ".join(str(face) for face in chosen)


def _and(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


#: The rows of a scorecard below and between the boxes: (key in the card's JSON, label).
UPPER_SUMS = (("upper_total", "Upper total"), ("upper_bonus", f"Bonus ({rules.UPPER_BONUS})"))
LOWER_SUMS = (("yahtzee_bonus", "Yahtzee bonus"), ("lower_total", "Lower total"))
BLANK_WHEN_ZERO = frozenset({"upper_bonus", "yahtzee_bonus"})


def card_rows(cards: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows of the scorecards table, one cell per seat, in the order a paper card has them.

    Each row is ``{"key", "label", "box", "blank_zero", "cells": [points or None, ...]}``;
    the page's script rewrites the same cells as the replay moves, by ``key``.
    A bonus not (yet) earned is left blank, as on paper.
    """

    def box(category: rules.Category) -> dict[str, Any]:
        cells = [card["boxes"][category.value] for card in cards]
        return {"key": category.value, "label": category.label, "box": True, "cells": cells}

    def total(key: str, label: str) -> dict[str, Any]:
        cells = [card[key] for card in cards]
        blank_zero = key in BLANK_WHEN_ZERO
        return {"key": key, "label": label, "box": False, "blank_zero": blank_zero, "cells": cells}

    return [
        *(box(c) for c in rules.UPPER),
        *(total(key, label) for key, label in UPPER_SUMS),
        *(box(c) for c in rules.LOWER),
        *(total(key, label) for key, label in LOWER_SUMS),
    ]
