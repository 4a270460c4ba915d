"""Optimal play worked out the slow, obvious way, to check the solver against.

Nothing here shares code with the solver: every ordered outcome of the dice
is enumerated (7,776 for five dice), every set of dice positions is tried as a
keep, and every move goes through :class:`games.engine.rules.Scorecard`. Only cards
with one or two boxes open are within reach this way.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from games.engine.rules import DICE_COUNT, Scorecard

Number = Fraction | float


class BruteForce:
    """Expected final grand totals under optimal play, exact (``Fraction``) or in floats."""

    def __init__(self, *, exact: bool) -> None:
        self.exact = exact
        self._totals: dict[Scorecard, Number] = {}
        self._turns: dict[Scorecard, BruteTurn] = {}

    def total(self, card: Scorecard) -> Number:
        """The expected final grand total of ``card`` before its next turn."""
        if card.is_complete:
            return Fraction(card.total) if self.exact else float(card.total)
        if card not in self._totals:
            self._totals[card] = self.turn(card).start()
        return self._totals[card]

    def turn(self, card: Scorecard) -> BruteTurn:
        """The turn about to be played on ``card``."""
        if card not in self._turns:
            self._turns[card] = BruteTurn(self, card)
        return self._turns[card]

    def average(self, values: list[Number]) -> Number:
        if self.exact:
            return sum(values, Fraction(0)) / len(values)
        return math.fsum(values) / len(values)


class BruteTurn:
    """One turn on a card: the value of each position within it."""

    def __init__(self, brute: BruteForce, card: Scorecard) -> None:
        self.brute = brute
        self.card = card
        self._scored: dict[tuple[int, ...], Number] = {}
        self._rolled: dict[tuple[tuple[int, ...], int], Number] = {}
        self._kept: dict[tuple[tuple[int, ...], int], Number] = {}

    def score_value(self, dice: tuple[int, ...], category: object) -> Number:
        """Writing ``dice`` in ``category`` now, then playing on optimally."""
        return self.brute.total(self.card.score(category, dice))  # type: ignore[arg-type]

    def scored(self, dice: tuple[int, ...]) -> Number:
        """The best box for ``dice``."""
        key = tuple(sorted(dice))
        if key not in self._scored:
            self._scored[key] = max(self.score_value(key, c) for c in self.card.options(key))
        return self._scored[key]

    def rolled(self, dice: tuple[int, ...], rolls_left: int) -> Number:
        """Having ``dice`` on the table with ``rolls_left`` rolls still allowed."""
        key = (tuple(sorted(dice)), rolls_left)
        if key not in self._rolled:
            best = self.scored(dice)
            if rolls_left:
                for size in range(DICE_COUNT):
                    for positions in itertools.combinations(range(DICE_COUNT), size):
                        kept = tuple(sorted(dice[i] for i in positions))
                        best = max(best, self.kept(kept, rolls_left))
            self._rolled[key] = best
        return self._rolled[key]

    def kept(self, kept: tuple[int, ...], rolls_left: int) -> Number:
        """Keeping ``kept`` and throwing the others, ``rolls_left`` counted before the throw."""
        key = (kept, rolls_left)
        if key not in self._kept:
            outcomes = itertools.product(range(1, 7), repeat=DICE_COUNT - len(kept))
            self._kept[key] = self.brute.average(
                [self.rolled(kept + fresh, rolls_left - 1) for fresh in outcomes]
            )
        return self._kept[key]

    def start(self) -> Number:
        """The turn before its first roll."""
        return self.kept((), 3)
