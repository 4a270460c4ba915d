"""The choices open during a turn, each with the expected grand total it leads to."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from games.engine.rules import (
    DICE_COUNT,
    Category,
    IllegalMoveError,
    InvalidInputError,
    parse_dice,
    parse_hold,
)


@dataclass(frozen=True)
class Choice:
    """One thing the player may do now, and the expected final grand total if they do it.

    ``expected`` counts the points already on the card and assumes optimal play
    afterwards, so choices can be compared directly: the best has the highest,
    and ``best.expected - other.expected`` is what ``other`` gives up on
    average (:func:`points_given_up`).
    """

    kind: Literal["keep", "score"]
    expected: float
    hold: tuple[int, ...] = ()
    """For a keep: positions (0 to 4) of dice to hold and not throw again, in order.

    Any dice showing the same faces do as well; these are the leftmost."""
    kept: tuple[int, ...] = ()
    """For a keep: the faces held, ascending (empty: throw all five)."""
    category: Category | None = None
    """For a score: the box to write the dice in."""
    points: int = 0
    """For a score: the points written in that box (any bonus it earns comes on top)."""

    @property
    def label(self) -> str:
        """The choice as a person reads it: ``Keep 3 3 5``, ``Throw all``, ``Full house (25)``."""
        if self.category is not None:
            return f"{self.category.label} ({self.points})"
        if not self.kept:
            return "Throw all"
        return "Keep " + " ".join(map(str, self.kept))


def find_choice(
    choices: Sequence[Choice],
    dice: Iterable[int],
    *,
    hold: Iterable[int] | None = None,
    category: Category | str | None = None,
) -> Choice:
    """The choice among ``choices`` that a move on ``dice`` made: holding ``hold``, or scoring.

    Holding any dice showing the kept faces matches the same choice. Raises
    :class:`~games.engine.rules.InvalidInputError` for a malformed move and
    :class:`~games.engine.rules.IllegalMoveError` for one that was not open.
    """
    if (hold is None) == (category is None):
        raise InvalidInputError("a move either holds dice or scores in a box", code="invalid_move")
    faces = parse_dice(dice)
    if category is not None:
        box = Category.parse(category)
        for choice in choices:
            if choice.category is box:
                return choice
        raise IllegalMoveError(f"{box.label} is not open for these dice", code="not_an_option")
    assert hold is not None
    positions = parse_hold(hold)
    if len(positions) == DICE_COUNT:
        raise InvalidInputError("every die is held: nothing to roll", code="invalid_hold")
    kept = tuple(sorted(faces[i] for i in positions))
    for choice in choices:
        if choice.kind == "keep" and choice.kept == kept:
            return choice
    raise IllegalMoveError("no roll is left this turn: score the dice", code="no_rolls_left")


def points_given_up(choices: Sequence[Choice], chosen: Choice) -> float:
    """The expected points ``chosen`` gives up against the best of ``choices`` (0 for the best)."""
    return max(0.0, max(choice.expected for choice in choices) - chosen.expected)
