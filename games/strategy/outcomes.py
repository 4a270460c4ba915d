"""Where a turn ends under the expected-score policy: the choices, and the chances of each end.

The solver (:mod:`.solver`) knows what every choice is *worth*; the odds
(:mod:`.odds`) and the simulations need what the Optimal bot *does* and where
that leads. For a block of turn-start states side by side this module works out

* :class:`Choices`: for every roll, the keep chosen with two rolls left and
  with one, and the box it is written in when it must be scored; with the
  points that box earns (bonuses included) and the state that follows;
* :func:`final_roll_chances`: pushing chances forward through those choices,
  the chance of each roll being the one scored, from the start of the turn or
  from a roll on the table.

The choices are the argmax of the solver's values, ties broken the way
:meth:`.engine.Strategy.best` breaks them (scoring before rerolling, then the
box first on the card; two keeps of exactly equal value may be picked
differently, which changes no expected score). Chances are pushed forward a die
at a time, the mirror of :func:`.dice.expect`: a keep of ``m`` dice passes a
sixth of its chance to each keep of ``m + 1`` dice that adds one face.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from games.engine.rules import UPPER, YAHTZEE_SCORE, Category

from .dice import _TABLES, KEEP_OFFSET, LEVELS, ROLL_PROBABILITY, FloatArray, expect
from .solver import Model, _Box, _Group
from .tables import UPPER_CAP, UPS

IntArray = npt.NDArray[np.int64]
BoxArray = npt.NDArray[np.int8]
"""Box numbers (0-14) while the best box is worked out: an eighth of the bytes to move."""
KEEPS: Final = KEEP_OFFSET[-1]
"""462 keeps laid end to end; rolls are the last 252 (``ROLL_ROW + roll``)."""
ROLL_ROW: Final = KEEP_OFFSET[-2]
ROLL_COUNT: Final = len(LEVELS[-1])
_FACES: Final = 6
_UPPER_BOXES: Final = len(UPPER)
"""Every card starts with its upper boxes: box numbers below this are upper boxes."""


@dataclass(frozen=True)
class Choices:
    """What the expected-score policy does from ``n`` turn-start states (columns).

    Keeps are numbered 0 to 461 (:data:`.dice.KEEP_OFFSET`); ``ROLL_ROW + r``
    is keeping all of roll ``r``: standing on it.
    """

    keep_2: IntArray
    """``(252, n)``: the keep chosen after the first roll (two rolls left)."""
    keep_1: IntArray
    """``(252, n)``: the keep chosen after the second roll (one roll left)."""
    box: IntArray
    """``(252, n)``: the box a roll is written in when it is scored."""
    gained: IntArray
    """``(252, n)``: the points that writes, upper and Yahtzee bonuses included."""
    after: IntArray
    """``(252, n)``: the flat index (:func:`.solver.flat_index`) of the state that follows."""
    bonus: IntArray
    """``(252, n)``: 1 where the points include a Yahtzee bonus, else 0."""


def choices(
    model: Model, values: FloatArray, masks: IntArray, ups: IntArray, ys: IntArray
) -> Choices:
    """The expected-score policy's choices from turn-start states ``(masks, ups, ys)``.

    ``values`` is a flat value table (:func:`.solver.flat_table`)."""
    last, box = _best_box(model, values, masks, ups, ys)
    gain, nxt, bonus = written_in(model, box, masks, ups, ys)
    after_2nd, keep_1 = _best_keep(expect(last))
    _, keep_2 = _best_keep(expect(after_2nd))
    return Choices(keep_2, keep_1, box, gain, nxt, bonus)


def _best_box(
    model: Model, values: FloatArray, masks: IntArray, ups: IntArray, ys: IntArray
) -> tuple[FloatArray, IntArray]:
    """For each roll ``(252, n)``: the value of scoring it now, and the box it goes in.

    Each box is valued once per distinct score it can hold (six for Fives, two for a
    full house), then spread over the rolls; the first best box wins a tie."""
    n = len(masks)
    joker_states = np.nonzero((masks & model.layout.yahtzee_bit) != 0)[0]
    jokers = model.tables.joker_rolls
    joker_best = np.full((len(jokers), len(joker_states)), -np.inf)
    joker_box = np.zeros((len(jokers), len(joker_states)), dtype=np.int8)
    m, u, y = masks[joker_states], ups[joker_states], ys[joker_states]
    worths: list[FloatArray] = [np.empty(0)] * len(model.boxes)
    for box in model.boxes:
        filled = (masks & box.bit) != 0
        gain, nxt = _write(model, box, box.values[:, None], masks, ups, ys)
        worths[box.index] = np.where(filled[None, :], -np.inf, gain + values[nxt])
    best = np.full((ROLL_COUNT, n), -np.inf)
    best_box = np.zeros((ROLL_COUNT, n), dtype=np.int8)  # 13-15 boxes: small numbers move fast.
    for group in model.groups:
        rows, boxes = _group_best(group, worths)
        candidate, which = rows[group.by_roll], boxes[group.by_roll]
        better = (candidate > best) | ((candidate == best) & (which < best_box))
        np.copyto(best, candidate, where=better)
        np.copyto(best_box, which, where=better)
    for box in model.boxes:
        filled = (masks & box.bit) != 0
        if len(joker_states):
            # A Yahtzee with the Yahtzee box filled is a Joker: boxes allowed by the card,
            # its own points there, and perhaps the Yahtzee bonus.
            points = box.values[box.by_joker][:, None]
            gain, nxt = _write(model, box, points, m, u, y)
            allowed = model.joker_allowed[m][:, box.index, :].T & ~filled[joker_states][None, :]
            bonus = model.tables.bonus[y[None, :], jokers[:, None]]
            candidate = np.where(allowed, gain + bonus + values[nxt], -np.inf)
            better = candidate > joker_best  # Boxes in card order: the first best stays.
            np.copyto(joker_best, candidate, where=better)
            np.copyto(joker_box, box.index, where=better)
    if len(joker_states):
        where = np.ix_(jokers, joker_states)
        best[where] = joker_best
        best_box[where] = joker_box
    return best, best_box.astype(np.int64)


def _group_best(group: _Group, worths: list[FloatArray]) -> tuple[FloatArray, BoxArray]:
    """:meth:`.solver._Group.rows` that also says which box is best, per combination."""
    result: FloatArray | None = None
    which: BoxArray | None = None
    for p, part in enumerate(group.parts):
        if isinstance(part, _Group):
            rows, boxes = _group_best(part, worths)
            rows, boxes = rows[group.combos[:, p]], boxes[group.combos[:, p]]
        else:
            rows = worths[part.index][group.combos[:, p]]
            boxes = np.full(rows.shape, part.index, dtype=np.int8)
        if result is None or which is None:
            result, which = rows, boxes
            continue
        # On a tie the box first on the card, as Strategy.best chooses.
        better = (rows > result) | ((rows == result) & (boxes < which))
        np.copyto(result, rows, where=better)
        np.copyto(which, boxes, where=better)
    assert result is not None
    assert which is not None
    return result, which


def written_in(
    model: Model, box: IntArray, masks: IntArray, ups: IntArray, ys: IntArray
) -> tuple[IntArray, IntArray, IntArray]:
    """The points earned (bonuses included), the flat index of the state that follows and
    whether a Yahtzee bonus is earned, when each roll is written in ``box`` ``(252, n)``."""
    tables = model.tables
    # In 32 bits: the arrays are (252, n), and moving half the bytes is most of the time.
    points = tables.points.astype(np.int32).ravel()[box * ROLL_COUNT + _ROLL_NUMBERS]
    bonus = np.zeros_like(points)
    # Only a Yahtzee (six rolls) can be a Joker, and only once the Yahtzee box is filled:
    # those rows are written again with the Joker's points and any Yahtzee bonus.
    layout = model.layout
    filled = (masks & layout.yahtzee_bit) != 0
    if filled.any():
        jokers = tables.joker_rolls
        number = np.arange(len(jokers))[:, None]
        points[jokers] = np.where(
            filled[None, :], tables.joker_points[box[jokers], number], points[jokers]
        )
        bonus[jokers] = np.where(filled[None, :], tables.bonus[ys[None, :], jokers[:, None]], 0)
    up = ups.astype(np.int32)[None, :]
    upper = box < _UPPER_BOXES
    new_up = np.where(upper, np.minimum(up + points, UPPER_CAP), up)
    crossed = upper & (up < UPPER_CAP) & (new_up == UPPER_CAP)
    flag = np.where(
        (_BITS[box] == layout.yahtzee_bit) & (points == YAHTZEE_SCORE),
        1,
        ys.astype(np.int32)[None, :],
    )
    after = ((masks.astype(np.int32)[None, :] | _BITS[box]) * UPS + new_up) * 2 + flag
    gained = points + bonus + layout.upper_bonus * crossed
    return gained.astype(np.int64), after.astype(np.int64), (bonus > 0).astype(np.int64)


_ROLL_NUMBERS: Final = np.arange(ROLL_COUNT, dtype=np.int32)[:, None]
_BITS: Final = (1 << np.arange(len(Category))).astype(np.int32)
"""``_BITS[box]``: the bit of ``box`` in a mask."""


def _write(
    model: Model, box: _Box, points: IntArray, masks: IntArray, ups: IntArray, ys: IntArray
) -> tuple[IntArray, IntArray]:
    """Points earned and next flat index for writing ``points`` (a column) in ``box``."""
    base = (masks | box.bit)[None, :] * UPS
    if box.upper:
        new_up = np.minimum(ups[None, :] + points, UPPER_CAP)
        crossed = (ups[None, :] < UPPER_CAP) & (new_up == UPPER_CAP)
        bonus = model.layout.upper_bonus
        return points + bonus * crossed, (base + new_up) * 2 + ys[None, :]
    flag = ys[None, :]
    if box.yahtzee:
        flag = np.where(points == YAHTZEE_SCORE, 1, flag)
    return points + 0 * flag, (base + ups[None, :]) * 2 + flag


def _best_keep(levels: list[FloatArray]) -> tuple[FloatArray, IntArray]:
    """:func:`.dice.best_keep` that also says which keep is best: ``(values, keeps)``.

    On a tie the bigger keep stays chosen, so standing on a roll (scoring it)
    beats rerolling to the same value. The arrays of ``levels`` are overwritten (its
    last is the array given to :func:`.dice.expect`)."""
    n = levels[0].shape[1]
    best = levels[0]
    best_at = np.zeros((1, n), dtype=np.int16)  # 462 keeps: small numbers are quicker to move.
    for size in range(1, len(levels)):
        level = levels[size]
        rows = level.shape[0]
        at = np.empty((rows, n), dtype=np.int16)
        at[:] = np.arange(KEEP_OFFSET[size], KEEP_OFFSET[size] + rows, dtype=np.int16)[:, None]
        for parent in _TABLES[size].parents:
            k = len(parent)
            candidate = best[parent]
            better = candidate > level[:k]
            np.copyto(level[:k], candidate, where=better)
            np.copyto(at[:k], best_at[parent], where=better)
        best, best_at = level, at
    return best, best_at.astype(np.int64)


def push(mass: FloatArray) -> FloatArray:
    """Throw the dice not kept: ``mass`` ``(462, n)`` on keeps becomes ``(252, n)`` on rolls.

    Standing on a roll (the last 252 rows) keeps its chance where it is."""
    return _push_in_place(mass.copy())


def _push_in_place(mass: FloatArray) -> FloatArray:
    """:func:`push`, adding into ``mass`` itself."""
    for size in range(1, len(LEVELS)):
        start, stop = KEEP_OFFSET[size], KEEP_OFFSET[size + 1]
        below = mass[KEEP_OFFSET[size - 1] : start] * (1 / _FACES)  # Each face a sixth.
        level = mass[start:stop]
        for parent in _TABLES[size].parents:
            level[: len(parent)] += below[parent]
    return mass[ROLL_ROW:]


def keep_mass(rolls: FloatArray, keeps: IntArray) -> FloatArray:
    """Chances ``(252, n)`` on rolls moved to the keeps ``keeps`` chosen for them: ``(462, n)``."""
    n = rolls.shape[1]
    flat = keeps * n + np.arange(n)[None, :]
    mass = np.bincount(flat.ravel(), weights=rolls.ravel(), minlength=KEEPS * n)
    return cast(FloatArray, mass.reshape(KEEPS, n))  # Weighted: float64 already.


def final_roll_chances(
    chosen: Choices, *, rolls: FloatArray | None = None, rolls_left: int = 3
) -> FloatArray:
    """The chance of each roll being the one scored, ``(252, n)``.

    ``rolls`` are the chances of the roll on the table with ``rolls_left`` (2, 1
    or 0) rolls left; by default the start of the turn (``rolls_left`` 3).
    """
    n = chosen.box.shape[1]
    if rolls is None:
        if rolls_left != 3:
            raise ValueError("give the chances of the dice on the table")
        rolls = np.repeat(ROLL_PROBABILITY[:, None], n, axis=1)
        rolls_left = 2
    if rolls_left >= 2:
        rolls = _push_in_place(keep_mass(rolls, chosen.keep_2))
    if rolls_left >= 1:
        rolls = _push_in_place(keep_mass(rolls, chosen.keep_1))
    return rolls


KEEP_FACES: Final = tuple(faces for level in LEVELS for faces in level)
"""The faces of each keep, numbered as laid end to end."""


def decision(
    keep_2: IntArray, keep_1: IntArray, box: IntArray, roll: int, rolls_left: int
) -> tuple[int | None, tuple[int, ...]]:
    """What a turn's choices ``(252,)`` say to do with roll ``roll`` and ``rolls_left``:
    ``(box, ())`` to score, ``(None, kept faces)`` to throw the rest."""
    keep = ROLL_ROW + roll
    if rolls_left == 2:
        keep = int(keep_2[roll])
    if rolls_left >= 1 and keep == ROLL_ROW + roll:
        keep = int(keep_1[roll])  # Standing on the roll for now: decide as with one roll left.
    if keep == ROLL_ROW + roll:
        return int(box[roll]), ()
    return None, KEEP_FACES[keep]


TRANSITIONS: Final[FloatArray] = push(np.eye(KEEPS)).T.copy()
"""``TRANSITIONS[k, r]``: the chance that keeping ``k`` and throwing the rest gives roll ``r``."""
