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

Boxes are numbered in :class:`~games.engine.rules.Category` order, and a set of
filled boxes is a 13-bit *mask*: bit ``i`` set when box ``i`` is filled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.rules import (
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    YAHTZEE_SCORE,
    Category,
    Rules,
    Scorecard,
)

from .dice import ROLLS

CATEGORIES: Final = tuple(Category)
BOX_COUNT: Final = len(CATEGORIES)
FULL_MASK: Final = (1 << BOX_COUNT) - 1
YAHTZEE_BIT: Final = 1 << CATEGORIES.index(Category.YAHTZEE)
UPPER_MASK: Final = sum(1 << i for i, c in enumerate(CATEGORIES) if c.is_upper)
UPPER_CAP: Final = UPPER_BONUS_THRESHOLD
"""Upper totals are tracked up to the bonus threshold: above it, more makes no difference."""


def card_for_mask(rules: Rules, mask: int, yahtzee: int = YAHTZEE_SCORE) -> Scorecard:
    """A card whose filled boxes are the bits of ``mask``: 0 in each, ``yahtzee`` in Yahtzee."""
    boxes = tuple(
        (yahtzee if category is Category.YAHTZEE else 0) if mask >> i & 1 else None
        for i, category in enumerate(CATEGORIES)
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
        empty = Scorecard(rules)
        points = np.zeros((BOX_COUNT, len(ROLLS)), dtype=np.int64)
        for r, roll in enumerate(ROLLS):
            options = empty.options(roll)
            for c, category in enumerate(CATEGORIES):
                points[c, r] = options[category]

        filled_50 = card_for_mask(rules, YAHTZEE_BIT, YAHTZEE_SCORE)
        filled_0 = card_for_mask(rules, YAHTZEE_BIT, 0)
        joker_rolls = np.array(
            [r for r, roll in enumerate(ROLLS) if filled_50.is_joker(roll)], dtype=np.intp
        )
        bonus = np.array(
            [
                [YAHTZEE_BONUS * card.earns_yahtzee_bonus(roll) for roll in ROLLS]
                for card in (filled_0, filled_50)
            ],
            dtype=np.int64,
        )
        if np.any(bonus[:, np.setdiff1d(np.arange(len(ROLLS)), joker_rolls)]):
            raise ValueError("the solver assumes only a Joker earns the Yahtzee bonus")

        joker_points = np.full((BOX_COUNT, len(joker_rolls)), -1, dtype=np.int64)
        joker_allowed = np.zeros((FULL_MASK + 1, len(joker_rolls), BOX_COUNT), dtype=np.bool_)
        for mask in range(FULL_MASK):
            if not mask & YAHTZEE_BIT:
                continue
            card = card_for_mask(rules, mask)
            for j, r in enumerate(joker_rolls):
                for category, score in card.options(ROLLS[r]).items():
                    c = CATEGORIES.index(category)
                    joker_allowed[mask, j, c] = True
                    if joker_points[c, j] not in (-1, score):
                        raise ValueError(
                            f"a Joker scores {joker_points[c, j]} and {score} in {category.label}"
                            " on different cards: the solver assumes it depends on the box only"
                        )
                    joker_points[c, j] = score
        joker_points[joker_points < 0] = 0  # Never allowed anywhere: the value is never read.
        return cls(rules, points, joker_rolls, joker_points, joker_allowed, bonus)
