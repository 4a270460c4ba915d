"""Every score the solver needs, read off the rules engine once per preset.

The solver never scores dice itself: it looks points up in these tables, and
the tables are filled by asking :class:`games.engine.rules.Scorecard` (``options``,
``earns_yahtzee_bonus``, ``is_joker``). A mistake in the rules engine therefore
shows in the solver's figures, and a change to the rules changes the tables.

Two cases are tabulated:

* an ordinary roll: the points of each box, the same on any card (the options
  of an empty card);
* a Joker (a Yahtzee once the Yahtzee box is filled): which boxes the roll may
  go in depends on which boxes are still empty and on the preset, so it is
  asked for every set of filled boxes. The points a Joker writes in a box do
  not depend on the rest of the card; building the table checks that.

Boxes are numbered in the order of the preset's card (``rules.boxes``), and a set
of filled boxes is a *mask*: bit ``i`` set when box ``i`` is filled (13 bits for
Yahtzee, 15 for Yatzy). :class:`Layout` holds these numbers for one preset.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.rules import (
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_SCORE,
    Category,
    Rules,
    Scorecard,
)

from .dice import ROLLS

UPPER_CAP: Final = UPPER_BONUS_THRESHOLD
"""Upper totals are tracked up to the bonus threshold: above it, more makes no difference."""
UPS: Final = UPPER_CAP + 1
"""Upper totals 0 to 63."""


@dataclass(frozen=True)
class Layout:
    """How the solver numbers one preset's card: its boxes, masks and the size of its tables.

    A state's third number (``y``) is 1 when the Yahtzee box holds 50, which lets later
    Yahtzees earn the bonus; under a preset without the Yahtzee bonus (Yatzy) it is
    always 0 and ``yahtzee_bit`` is 0.
    """

    categories: tuple[Category, ...]
    upper_bonus: int
    yahtzee_bit: int
    """The bit of the Yahtzee box when Yahtzees earn a bonus, else 0."""
    box_count: int
    full_mask: int
    upper_mask: int
    shape: tuple[int, int, int]
    """The shape of a value table: mask, capped upper total, Yahtzee-bonus flag."""
    size: int
    """The number of values in a table of :attr:`shape`."""

    @classmethod
    def of(cls, rules: Rules) -> Layout:
        """The layout of ``rules``' card."""
        boxes = rules.boxes
        full_mask = (1 << len(boxes)) - 1
        return cls(
            categories=boxes,
            upper_bonus=rules.upper_bonus,
            yahtzee_bit=1 << rules.index(Category.YAHTZEE) if rules.yahtzee_bonus else 0,
            box_count=len(boxes),
            full_mask=full_mask,
            upper_mask=sum(1 << i for i, c in enumerate(boxes) if c.is_upper),
            shape=(full_mask + 1, UPS, 2),
            size=(full_mask + 1) * UPS * 2,
        )


def card_for_mask(rules: Rules, mask: int, yahtzee: int = YAHTZEE_SCORE) -> Scorecard:
    """A card whose filled boxes are the bits of ``mask``: 0 in each, ``yahtzee`` in Yahtzee."""
    boxes = tuple(
        (yahtzee if category is Category.YAHTZEE else 0) if mask >> i & 1 else None
        for i, category in enumerate(rules.boxes)
    )
    return Scorecard(rules, boxes)


@dataclass(frozen=True, eq=False)
class ScoreTables:
    """The points of every box for every roll under one preset, as the rules engine gives them."""

    rules: Rules
    points: npt.NDArray[np.int64]
    """``points[c, r]``: what roll ``r`` writes in box ``c`` when it is not a Joker."""
    joker_rolls: npt.NDArray[np.intp]
    """The rolls that are a Joker once the Yahtzee box is filled (the six Yahtzees)."""
    joker_points: npt.NDArray[np.int64]
    """``joker_points[c, j]``: what Joker ``joker_rolls[j]`` writes in box ``c`` (where allowed)."""
    joker_allowed: npt.NDArray[np.bool_]
    """``joker_allowed[mask, j, c]``: Joker ``j`` may go in box ``c`` on a card filled as ``mask``.

    Only masks with the Yahtzee box filled (and some box empty) are meaningful.
    """
    bonus: npt.NDArray[np.int64]
    """``bonus[y, r]``: Yahtzee-bonus points for scoring roll ``r`` with 50 (``y=1``) or 0
    (``y=0``) in the Yahtzee box."""

    @classmethod
    def build(cls, rules: Rules) -> ScoreTables:
        """Ask the rules engine for every score. Takes about a second (mostly the Jokers)."""
        layout = Layout.of(rules)
        categories, box_count, full_mask = layout.categories, layout.box_count, layout.full_mask
        empty = Scorecard(rules)
        points = np.zeros((box_count, len(ROLLS)), dtype=np.int64)
        for r, roll in enumerate(ROLLS):
            options = empty.options(roll)
            for c, category in enumerate(categories):
                points[c, r] = options[category]
        if not rules.joker:
            joker_allowed = np.zeros((full_mask + 1, 0, box_count), dtype=np.bool_)
            return cls(
                rules,
                points,
                np.zeros(0, dtype=np.intp),
                np.zeros((box_count, 0), dtype=np.int64),
                joker_allowed,
                np.zeros((2, len(ROLLS)), dtype=np.int64),
            )
        yahtzee_bit = 1 << rules.index(Category.YAHTZEE)

        filled_50 = card_for_mask(rules, yahtzee_bit, YAHTZEE_SCORE)
        filled_0 = card_for_mask(rules, yahtzee_bit, 0)
        joker_rolls = np.array(
            [r for r, roll in enumerate(ROLLS) if filled_50.is_joker(roll)], dtype=np.intp
        )
        bonus = np.array(
            [
                [rules.yahtzee_bonus * card.earns_yahtzee_bonus(roll) for roll in ROLLS]
                for card in (filled_0, filled_50)
            ],
            dtype=np.int64,
        )
        if np.any(bonus[:, np.setdiff1d(np.arange(len(ROLLS)), joker_rolls)]):
            raise ValueError("the solver assumes only a Joker earns the Yahtzee bonus")

        joker_points = np.full((box_count, len(joker_rolls)), -1, dtype=np.int64)
        joker_allowed = np.zeros((full_mask + 1, len(joker_rolls), box_count), dtype=np.bool_)
        for mask in range(full_mask):
            if not mask & yahtzee_bit:
                continue
            card = card_for_mask(rules, mask)
            for j, r in enumerate(joker_rolls):
                for category, score in card.options(ROLLS[r]).items():
                    c = rules.index(category)
                    joker_allowed[mask, j, c] = True
                    if joker_points[c, j] not in (-1, score):
                        raise ValueError(
                            f"a Joker scores {joker_points[c, j]} and {score} in {category.label}"
                            " on different cards: the solver assumes it depends on the box only"
                        )
                    joker_points[c, j] = score
        joker_points[joker_points < 0] = 0  # Never allowed anywhere: the value is never read.
        return cls(rules, points, joker_rolls, joker_points, joker_allowed, bonus)

    @property
    def layout(self) -> Layout:
        """How the solver numbers this preset's card."""
        return _layout(self.rules)


@functools.cache
def _layout(rules: Rules) -> Layout:
    return Layout.of(rules)
