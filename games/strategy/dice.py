"""The dice side of a turn: every set of kept dice, and how one roll leads to another.

Order never matters to the strategy, so dice are handled as *multisets*:
``(1, 3, 3)`` means "a one and two threes", whatever positions they lie in.
A multiset of five dice is a *roll* (252 of them); a multiset of zero to five
dice is a *keep* (462 of them, the rolls included: keeping all five is standing
on the roll).

Keeps are numbered level by level (level = how many dice are kept), and within a
level by how many different faces they show, most first. That order lets
:func:`best_keep` update a contiguous block of rows at a time instead of
scattering (see there). Rolls are the keeps of level five, in the same order.

Everything here is a table computed once at import, in exact arithmetic where it
matters (:data:`ROLL_PROBABILITY` comes from exact fractions).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.rules import DICE_COUNT

FACES: Final = (1, 2, 3, 4, 5, 6)
Faces = tuple[int, ...]
"""A multiset of dice as a sorted tuple of faces: ``(2, 5, 5)``."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


def _level_order(faces: Faces) -> tuple[int, Faces]:
    return (-len(set(faces)), faces)


LEVELS: Final[tuple[tuple[Faces, ...], ...]] = tuple(
    tuple(sorted(itertools.combinations_with_replacement(FACES, size), key=_level_order))
    for size in range(DICE_COUNT + 1)
)
"""``LEVELS[m]``: every multiset of ``m`` dice, in the order this module numbers them."""

ROLLS: Final = LEVELS[DICE_COUNT]
"""The 252 distinct rolls of five dice."""

ROLL_INDEX: Final = {faces: i for i, faces in enumerate(ROLLS)}
KEEP_INDEX: Final = [{faces: i for i, faces in enumerate(level)} for level in LEVELS]
"""``KEEP_INDEX[m][faces]``: the number of a keep of ``m`` dice within its level."""
KEEP_OFFSET: Final = tuple(itertools.accumulate((len(level) for level in LEVELS), initial=0))
"""Where each level starts when the levels are laid end to end (462 keeps in all)."""


def outcome_probabilities(kept: Faces) -> dict[Faces, Fraction]:
    """The exact chance of each roll after keeping ``kept`` and throwing the other dice.

    >>> outcome_probabilities((6, 6, 6, 6))[(1, 6, 6, 6, 6)]
    Fraction(1, 6)
    """
    thrown = DICE_COUNT - len(kept)
    chances: dict[Faces, Fraction] = {}
    for fresh in itertools.combinations_with_replacement(FACES, thrown):
        roll = tuple(sorted(kept + fresh))
        chances[roll] = _arrangements(fresh) / Fraction(6**thrown)
    return chances


def _arrangements(faces: Faces) -> int:
    """In how many orders the dice ``faces`` can come up."""
    count = factorial(len(faces))
    for repeat in Counter(faces).values():
        count //= factorial(repeat)
    return count


_FIRST_ROLL: Final = outcome_probabilities(())
ROLL_PROBABILITY: Final[FloatArray] = np.array(
    [float(_FIRST_ROLL[roll]) for roll in ROLLS], dtype=np.float64
)
"""The chance of each roll when all five dice are thrown, in :data:`ROLLS` order."""


@dataclass(frozen=True)
class _Level:
    """Index tables for one level of keeps, used by :func:`expect` and :func:`best_keep`."""

    children: IntArray
    """``children[f - 1, i]``: keep ``i`` with a die showing ``f`` added (one level up)."""
    parents: tuple[IntArray, ...]
    """``parents[j][i]``: keep ``i`` with one die of its ``j``-th face removed (one level down).

    Only keeps showing more than ``j`` faces have a ``j``-th face; as the level is
    ordered by faces shown, most first, they are the first ``len(parents[j])``.
    """


def _build_level(size: int) -> _Level:
    keeps = LEVELS[size]
    if size < DICE_COUNT:
        up = KEEP_INDEX[size + 1]
        children = np.array(
            [[up[tuple(sorted((*keep, face)))] for keep in keeps] for face in FACES],
            dtype=np.intp,
        )
    else:
        children = np.zeros((0, len(keeps)), dtype=np.intp)
    parents: list[IntArray] = []
    if size > 0:
        down = KEEP_INDEX[size - 1]
        for j in range(min(size, len(FACES))):
            rows = [keep for keep in keeps if len(set(keep)) > j]
            parents.append(
                np.array([down[_without(keep, sorted(set(keep))[j])] for keep in rows], np.intp)
            )
    return _Level(children, tuple(parents))


def _without(keep: Faces, face: int) -> Faces:
    index = keep.index(face)
    return keep[:index] + keep[index + 1 :]


_TABLES: Final = tuple(_build_level(size) for size in range(DICE_COUNT + 1))


def expect(final: FloatArray) -> list[FloatArray]:
    """The value of every keep, given the value of every roll that can follow it.

    ``final`` has one row per roll (``(252, n)``: ``n`` positions side by side).
    Returns one array per level: ``result[m][i]`` is the expected value of
    keeping ``LEVELS[m][i]`` and throwing the rest; level five is ``final``.

    Throwing several dice is the same as throwing them one after another, so
    a keep is worth the average of the six keeps with one more die. That is 6
    additions per keep instead of a sum over all outcomes (1,260 per position
    instead of 4,368).
    """
    levels: list[FloatArray] = [final]
    for size in range(DICE_COUNT - 1, -1, -1):
        above = levels[0]
        children = _TABLES[size].children
        total = above[children[0]]
        for face in range(1, len(FACES)):
            total += above[children[face]]
        total *= 1.0 / len(FACES)
        levels.insert(0, total)
    return levels


def best_keep(keeps: list[FloatArray], *, overwrite: bool = False) -> FloatArray:
    """The value of every roll when the best part of it is kept (``(252, n)``).

    ``keeps`` is what :func:`expect` returns; with ``overwrite`` its arrays are
    reused for the result (saving a copy when they are not needed afterwards).
    The best keep from a multiset is either the multiset itself or the best
    keep from one of the multisets one die smaller, so one pass up the levels
    covers every choice (1,482 maxima per position instead of 4,368).
    """
    best = keeps[0]
    for size in range(1, DICE_COUNT + 1):
        level = keeps[size] if overwrite else keeps[size].copy()
        for parent in _TABLES[size].parents:
            rows = len(parent)
            np.maximum(level[:rows], best[parent], out=level[:rows])
        best = level
    return best


def sub_keeps(roll: Faces) -> list[Faces]:
    """Every distinct multiset that can be kept from ``roll``, the whole roll included."""
    counts = Counter(roll)
    faces = sorted(counts)
    keeps = []
    for numbers in itertools.product(*(range(counts[face] + 1) for face in faces)):
        keeps.append(tuple(f for f, n in zip(faces, numbers, strict=True) for _ in range(n)))
    return keeps


REROLLS: Final = tuple(
    tuple(
        (kept, KEEP_OFFSET[len(kept)] + KEEP_INDEX[len(kept)][kept])
        for kept in sub_keeps(roll)
        if len(kept) < DICE_COUNT
    )
    for roll in ROLLS
)
"""``REROLLS[r]``: each multiset that can be kept from roll ``r`` to throw again (not all
five), with its number when the levels are laid end to end."""
REROLL_ROWS: Final = tuple(np.array([i for _, i in keeps], dtype=np.intp) for keeps in REROLLS)
"""The numbers of ``REROLLS[r]`` as an array, to pick their values out in one step."""


def laid_end_to_end(levels: list[FloatArray]) -> FloatArray:
    """The per-level arrays of :func:`expect` as one array of 462 rows (see :data:`KEEP_OFFSET`)."""
    return np.concatenate(levels)
