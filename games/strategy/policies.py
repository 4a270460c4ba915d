"""How the site's bots choose a move: pure functions of the card, the dice and the rolls left.

* **Optimal** plays the solved strategy (:meth:`Strategy.best`): the move with the
  highest expected final grand total. It averages 254.59 points a game under the
  official rules.
* **Casual** plays greedily, as many people do: it takes a made hand (a Yahtzee, a
  large straight, a full house, then a small straight) as soon as its box is open,
  otherwise keeps its most common face (the higher on a tie) and throws the rest,
  and when it must score it writes the dice where they score most now (on a
  tie, in the box highest on the card; a zero goes in the Yahtzee box last). It never
  looks ahead, and averages about 195 points a game (``benchmarks/bots.py``
  measures both).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from games.rules import Category, Rules, Scorecard, parse_dice

from .engine import Strategy, load

#: The hands Casual takes as soon as the dice show them and the box is open, best first.
MADE_HANDS: Final = (
    Category.YAHTZEE,
    Category.LARGE_STRAIGHT,
    Category.FULL_HOUSE,
    Category.SMALL_STRAIGHT,
)


@dataclass(frozen=True)
class Move:
    """A bot's move: keep the dice at ``hold`` and throw the rest, or score in ``category``."""

    hold: tuple[int, ...] = ()
    category: Category | None = None

    @property
    def is_score(self) -> bool:
        return self.category is not None


def optimal(strategy: Strategy, card: Scorecard, dice: Iterable[int], rolls_left: int) -> Move:
    """The move with the highest expected final grand total."""
    best = strategy.best(card, dice, rolls_left)
    return Move(category=best.category) if best.category is not None else Move(hold=best.hold)


def casual(card: Scorecard, dice: Iterable[int], rolls_left: int) -> Move:
    """The greedy move described in the module docstring."""
    faces = parse_dice(dice)
    options = card.options(faces)  # The boxes open to these dice (under a Joker, the allowed).
    for hand in MADE_HANDS:
        if options.get(hand):
            return Move(category=hand)
    if rolls_left:
        counts = Counter(faces)
        face = max(counts, key=lambda f: (counts[f], f))
        return Move(hold=tuple(i for i, f in enumerate(faces) if f == face)[:4])
    # The most points now; on a tie the box highest on the card, the Yahtzee box last.
    order = list(Category)
    category = max(options, key=lambda c: (options[c], c is not Category.YAHTZEE, -order.index(c)))
    return Move(category=category)


def choose(level: str, rules: Rules, card: Scorecard, dice: Iterable[int], rolls_left: int) -> Move:
    """The move of a bot of ``level`` (``optimal`` or ``casual``); Optimal loads its strategy."""
    if level == "optimal":
        return optimal(load(rules), card, dice, rolls_left)
    if level == "casual":
        return casual(card, dice, rolls_left)
    raise ValueError(f"no bot plays at level {level!r}")
