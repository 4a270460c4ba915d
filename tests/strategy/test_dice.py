"""Rolls, keeps and their chances, against plain enumeration of the dice."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from games.strategy.dice import (
    KEEP_OFFSET,
    LEVELS,
    REROLLS,
    ROLL_PROBABILITY,
    ROLLS,
    best_keep,
    expect,
    laid_end_to_end,
    outcome_probabilities,
    sub_keeps,
)


def test_there_are_252_rolls_and_462_keeps() -> None:
    assert len(ROLLS) == 252
    assert sum(len(level) for level in LEVELS) == KEEP_OFFSET[-1] == 462
    assert len(set(ROLLS)) == 252


def test_roll_chances_count_every_ordered_throw() -> None:
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=5))

    for roll, chance in zip(ROLLS, ROLL_PROBABILITY, strict=True):
        assert chance == pytest.approx(counts[roll] / 6**5, abs=1e-15)
    assert ROLL_PROBABILITY.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("kept", [(), (6,), (2, 2), (1, 3, 5), (4, 4, 4, 4), (1, 2, 3, 4, 5)])
def test_outcome_chances_are_exact(kept: tuple[int, ...]) -> None:
    thrown = 5 - len(kept)
    counts = Counter(tuple(sorted(kept + t)) for t in itertools.product(range(1, 7), repeat=thrown))

    assert outcome_probabilities(kept) == {
        roll: Fraction(n, 6**thrown) for roll, n in counts.items()
    }


def test_keep_values_are_averages_over_outcomes() -> None:
    rng = np.random.default_rng(1)
    final = rng.random((252, 3))

    levels = expect(final)

    for size, level in enumerate(levels):
        for i, kept in enumerate(LEVELS[size]):
            truth = sum(
                float(p) * final[ROLLS.index(roll)]
                for roll, p in outcome_probabilities(kept).items()
            )
            np.testing.assert_allclose(level[i], truth, rtol=0, atol=1e-12)


def test_the_best_keep_is_the_best_over_every_part_of_the_roll() -> None:
    rng = np.random.default_rng(2)
    levels = [rng.random((len(level), 2)) for level in LEVELS]
    flat = laid_end_to_end(levels)

    best = best_keep(levels)

    for r, roll in enumerate(ROLLS):
        parts = sub_keeps(roll)
        rows = [KEEP_OFFSET[len(k)] + LEVELS[len(k)].index(k) for k in parts]
        np.testing.assert_array_equal(best[r], flat[rows].max(axis=0))
        assert [k for k, _ in REROLLS[r]] == [k for k in parts if len(k) < 5]


def test_every_part_of_a_roll_is_a_keep_once() -> None:
    roll = (2, 2, 5, 5, 5)
    parts = sub_keeps(roll)
    by_positions = {
        tuple(sorted(roll[i] for i in c))
        for size in range(6)
        for c in itertools.combinations(range(5), size)
    }
    assert sorted(parts) == sorted(by_positions)
    assert len(parts) == 3 * 4
