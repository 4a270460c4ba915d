"""The dice and every box a preset's card can have, and the errors the rules raise over them.

Both :mod:`games.engine.rules` and :mod:`games.engine.events` need these names (an event holds dice
and a box, and msgspec reads the types of its fields), so they live below both: the
rules import the events to return them, and neither imports the other back.
:mod:`games.engine.rules` re-exports every name here, so ``rules.Category`` still works.

This module imports nothing from Django.
"""

from __future__ import annotations

import enum
from typing import Final, TypeAlias

Dice: TypeAlias = tuple[int, ...]
"""Five die faces, each 1 to 6, in the order they lie on the table."""


class RuleError(ValueError):
    """A command the rules refuse. ``code`` is stable; the message is for people."""

    code: str = "rule_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class InvalidInputError(RuleError):
    """The command is malformed: not five dice, a face of 7, hold index 9, an unknown box."""

    code = "invalid_input"


class IllegalMoveError(RuleError):
    """The command is well formed but against the rules: a filled box, a fourth roll."""

    code = "illegal_move"


# --------------------------------------------------------------------------
# Boxes
# --------------------------------------------------------------------------


class Category(enum.Enum):
    """Every box a card can have, each declared once: its name on the wire is its value.

    The thirteen boxes of Yahtzee come first, in the order its card prints them; the
    boxes only Yatzy has follow. A preset says which boxes its card has, in its own
    order, and how each scores (:attr:`games.engine.rules.Rules.boxes`). The same name
    may score differently under two presets: Yatzy's ``three_of_a_kind`` counts only
    the three dice, Yahtzee's all five.
    """

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"
    ONE_PAIR = "one_pair"
    TWO_PAIRS = "two_pairs"
    YATZY = "yatzy"

    @property
    def label(self) -> str:
        """The box's name as a person reads it: ``Full house``."""
        return LABELS[self]

    @property
    def is_upper(self) -> bool:
        """True for Ones to Sixes: the upper section of every preset's card."""
        return self in UPPER

    @property
    def face(self) -> int:
        """The die face an upper box counts (Ones is 1). Lower boxes raise ``ValueError``."""
        if not self.is_upper:
            raise ValueError(f"{self.label} counts no single face")
        return UPPER.index(self) + 1

    @classmethod
    def parse(cls, value: Category | str) -> Category:
        """A box from a ``Category`` or its value, in any case: ``"full_house"``, ``"FULL HOUSE"``.

        >>> Category.parse("Full house")
        <Category.FULL_HOUSE: 'full_house'>
        """
        if isinstance(value, Category):
            return value
        if isinstance(value, str):
            key = "_".join(value.strip().lower().replace("-", " ").split())
            try:
                return cls(key)
            except ValueError:
                pass
        names = ", ".join(c.value for c in cls)
        raise InvalidInputError(
            f"unknown box {value!r}; the boxes are {names}", code="unknown_category"
        )


UPPER: Final = (
    Category.ONES,
    Category.TWOS,
    Category.THREES,
    Category.FOURS,
    Category.FIVES,
    Category.SIXES,
)
#: Yahtzee's lower section, in its card's order.
LOWER: Final = (
    Category.THREE_OF_A_KIND,
    Category.FOUR_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.SMALL_STRAIGHT,
    Category.LARGE_STRAIGHT,
    Category.YAHTZEE,
    Category.CHANCE,
)
LABELS: Final = {
    Category.ONES: "Ones",
    Category.TWOS: "Twos",
    Category.THREES: "Threes",
    Category.FOURS: "Fours",
    Category.FIVES: "Fives",
    Category.SIXES: "Sixes",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.FULL_HOUSE: "Full house",
    Category.SMALL_STRAIGHT: "Small straight",
    Category.LARGE_STRAIGHT: "Large straight",
    Category.YAHTZEE: "Yahtzee",
    Category.CHANCE: "Chance",
    Category.ONE_PAIR: "One pair",
    Category.TWO_PAIRS: "Two pairs",
    Category.YATZY: "Yatzy",
}
