"""The dynamic programme: the best expected score from every turn-start state.

States
------
Between turns all that matters for the rest of a solitaire game is

* ``mask``: which of the card's boxes are filled (13 bits for Yahtzee, 15 for Yatzy,
  see :mod:`.tables`);
* ``up``: the upper total so far, capped at 63 (beyond 63 the bonus is won and
  nothing more changes);
* ``y``: 1 when the Yahtzee box holds 50. A later Yahtzee then earns the 100
  bonus; with 0 in the box it still is a Joker but earns nothing, so "filled
  with 50" and "filled with 0" must be told apart. Without a Yahtzee bonus
  (Yatzy) ``y`` is always 0.

Points already written do not change what is best from here on, so the value
of a state is the expected number of points *still to come* (Yahtzee and
upper bonuses included). ``V[full card] = 0``, and the value of an empty card
is the expected grand total of optimal play. Of the 8192 x 64 x 2 states only
536,448 can happen (an upper total of 7 with only Ones filled cannot), and
only 314,880 need solving: upper totals that the empty upper boxes cannot
tell apart are worth the same (:class:`Layer`).

The turn, or "widget"
---------------------
A turn from a state is roll, keep, roll, keep, roll, score, worked backwards:

1. ``after 3rd roll``: for each of the 252 rolls, the best box to write it in:
   points now (bonuses included) plus the value of the state that follows. A
   Yahtzee with the Yahtzee box filled is a Joker: where it may go depends on
   the preset and on which boxes are empty (:mod:`.tables`).
2. ``keep before 3rd roll``: each of the 462 keeps is worth the average over
   the rolls it can lead to (:func:`.dice.expect`).
3. ``after 2nd roll``: each roll is worth its best keep (:func:`.dice.best_keep`).
   Keeping all five dice is standing on the roll, which covers scoring early.
4. and 5. the same again for the first keep and the first roll;
6. the state is worth the average of step 5 over the first roll.

Speed
-----
Scoring always fills one more box, so states are solved layer by layer, from
12 boxes filled down to none, and a layer needs only the values of the layer
after it. Every step above is the same for every state of a layer, so instead
of a Python loop per state each step is a handful of numpy operations on
arrays holding a block of states side by side (rows: rolls or keeps; columns:
states). Blocks are sized to stay in the processor cache, and two threads
share a layer's blocks (numpy releases the GIL while it computes). Within a
step the work is cut down further: keeps are valued one die at a time
(:func:`.dice.expect`, :func:`.dice.best_keep`), boxes are compared in groups
(:class:`_Group`), and a filled box reads a block of -inf instead of being
masked (see ``flat_table``). About 3.5 s for a preset on two cores, where a loop over
states with numpy inside takes 30 s or more.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.rules import YAHTZEE_SCORE

from .dice import ROLL_PROBABILITY, FloatArray, best_keep, expect
from .tables import UPPER_CAP, UPS, Layout, ScoreTables

IntArray = npt.NDArray[np.int64]
# A flat value table (flat_table) keeps a block of -inf after the states, at
# ``layout.size``: the value of writing in a filled box. Pointing filled boxes there costs
# nothing per state, where masking them would.
BLOCK: Final = 512
"""States per block: (462 keeps x 512 states) of float64 is under 2 MB, one core's cache."""


@dataclass(frozen=True, eq=False)
class _Box:
    """How writing in one box moves the state, for every points value it can take."""

    index: int
    bit: int
    upper: bool
    yahtzee: bool
    """Whether 50 here sets the Yahtzee-bonus flag (the Yahtzee box, under a bonus)."""
    values: IntArray
    """The distinct points this box can hold, ascending."""
    by_roll: npt.NDArray[np.intp]
    """``values[by_roll[r]]`` is what roll ``r`` writes here (no Joker)."""
    by_joker: npt.NDArray[np.intp]
    """``values[by_joker[j]]`` is what Joker ``j`` writes here."""


@dataclass(frozen=True, eq=False)
class _Group:
    """Some boxes whose best choice is worked out once per distinct combination of their scores.

    The best box for a roll is a maximum over 13 boxes for each of 252 rolls.
    But, say, Ones, Twos and Threes together score only 56 different ways
    (the counts of those faces), so their best is found for those 56 and then
    looked up for each roll. Grouping the boxes this way (:func:`_grouping`)
    needs about a third of the work of the plain maximum.
    """

    parts: tuple[_Group | _Box, ...]
    combos: npt.NDArray[np.intp]
    """``combos[i, p]``: the row of part ``p`` in combination ``i``."""
    by_roll: npt.NDArray[np.intp]
    """The combination each roll makes."""

    @classmethod
    def build(cls, parts: Sequence[_Group | _Box]) -> _Group:
        """The group of ``parts``, with the combinations of scores that rolls make."""
        rows = np.stack([part.by_roll for part in parts], axis=1)
        combos, by_roll = np.unique(rows, axis=0, return_inverse=True)
        return cls(tuple(parts), combos.astype(np.intp), by_roll.reshape(-1).astype(np.intp))

    def rows(self, written: Sequence[FloatArray]) -> FloatArray:
        """The best of the parts for each combination: ``(len(combos), n)``."""
        result = _part_rows(self.parts[0], written)[self.combos[:, 0]]
        for p, part in enumerate(self.parts[1:], start=1):
            np.maximum(result, _part_rows(part, written)[self.combos[:, p]], out=result)
        return result


def _part_rows(part: _Group | _Box, written: Sequence[FloatArray]) -> FloatArray:
    return part.rows(written) if isinstance(part, _Group) else written[part.index]


@dataclass(frozen=True, eq=False)
class _UpperBoxes:
    """The six upper boxes side by side, so that writing in any of them is a few array operations.

    Writing ``v`` in an upper box moves the upper total ``u`` to ``min(63, u + v)``
    and earns the bonus when that reaches 63; both are tabulated for every ``u``.
    """

    indices: tuple[int, ...]
    bits: IntArray
    shift: IntArray
    """``shift[b, i, u]``: twice the upper total after writing value ``i`` of box ``b`` at ``u``
    (twice: the flat table interleaves the two Yahtzee flags)."""
    points: FloatArray
    """``points[b, i, u]``: the points that writing earns now, upper bonus included."""

    @classmethod
    def build(cls, boxes: Sequence[_Box], bonus: int) -> _UpperBoxes:
        """The tables for the upper ``boxes``, whose bonus is ``bonus``."""
        # Boxes with fewer possible values repeat their last; the extra rows are never read.
        width = max(len(box.values) for box in boxes)
        padded = [np.pad(box.values, (0, width - len(box.values)), "edge") for box in boxes]
        values = np.array(padded)[:, :, None]
        ups = np.arange(UPS)[None, None, :]
        crossed = (ups < UPPER_CAP) & (ups + values >= UPPER_CAP)
        return cls(
            tuple(box.index for box in boxes),
            np.array([box.bit for box in boxes], dtype=np.int64),
            np.minimum(ups + values, UPPER_CAP) * 2,
            (values + bonus * crossed).astype(np.float64),
        )


@dataclass(frozen=True, eq=False)
class Layer:
    """The states with a given number of boxes filled, as the solver works through them.

    Two upper totals of a card are worth the same when the empty upper boxes
    cannot tell them apart: whatever those boxes add, the bonus is won from
    both or from neither (say, 50 and 52 with only Fives left: either needs
    three fives). Only one total of each such class is solved, and its value
    copied to the others (see ``Model.same_as``); that saves 40% of the work.
    """

    masks: IntArray
    ups: IntArray
    ys: IntArray
    """The states to solve."""
    copy_to: IntArray
    copy_from: IntArray
    """Flat positions of the other states, and of the solved state each is worth the same as."""


@dataclass(frozen=True, eq=False)
class Model:
    """A preset's score tables, rearranged for the solver."""

    tables: ScoreTables
    layout: Layout
    boxes: tuple[_Box, ...]
    groups: tuple[_Group, ...]
    same_as: IntArray
    """``same_as[upper_mask, up]``: the upper total solved in place of ``up`` (see :class:`Layer`)
    when the upper boxes in ``upper_mask`` are filled; -1 if they cannot add up to ``up``."""
    upper: _UpperBoxes
    joker_allowed: npt.NDArray[np.bool_]
    """``joker_allowed[mask, c, j]``: Joker ``j`` may go in box ``c`` (the tables', reordered)."""
    joker_bonus: npt.NDArray[np.float64]
    """``joker_bonus[y, j]``: the Yahtzee bonus for Joker ``j``."""

    @classmethod
    def build(cls, tables: ScoreTables) -> Model:
        """The solver's view of ``tables``."""
        layout = tables.layout
        boxes = []
        for c, category in enumerate(layout.categories):
            allowed_somewhere = tables.joker_allowed[:, :, c].any(axis=0)
            joker_values = tables.joker_points[c][allowed_somewhere]
            values = np.unique(np.concatenate([tables.points[c], joker_values]))
            boxes.append(
                _Box(
                    index=c,
                    bit=1 << c,
                    upper=category.is_upper,
                    yahtzee=1 << c == layout.yahtzee_bit,
                    values=values,
                    by_roll=np.searchsorted(values, tables.points[c]).astype(np.intp),
                    by_joker=np.searchsorted(values, tables.joker_points[c]).astype(np.intp),
                )
            )

        groups = _grouping(boxes)
        covered = sorted(b.index for g in groups for b in _leaves(g))
        assert covered == list(range(layout.box_count)), "_grouping must take every box once"

        same_as = np.full((layout.upper_mask + 1, UPS), -1, dtype=np.int64)
        upper = [box for box in boxes if box.upper]
        for subset in range(layout.upper_mask + 1):
            totals = {0}  # What the filled upper boxes can hold (capped)...
            still = {0}  # ... and what the empty ones can still add.
            for box in upper:
                if subset & box.bit:
                    totals = {min(UPPER_CAP, t + int(v)) for t in totals for v in box.values}
                else:
                    still = {s + int(v) for s in still for v in box.values}
            solved: dict[int | None, int] = {}
            for up in sorted(totals):
                # The least the empty boxes must add for the bonus (None: they cannot) tells
                # the totals apart: those with the same need are worth the same.
                need = min((s for s in still if up + s >= UPPER_CAP), default=None)
                same_as[subset, up] = solved.setdefault(need, up)
        return cls(
            tables,
            layout,
            tuple(boxes),
            groups,
            same_as,
            _UpperBoxes.build(upper, layout.upper_bonus),
            np.ascontiguousarray(tables.joker_allowed.transpose(0, 2, 1)),
            tables.bonus[:, tables.joker_rolls].astype(np.float64),
        )

    def layer(self, filled: int) -> Layer:
        """The states with ``filled`` boxes filled that can occur in a game."""
        layout = self.layout
        masks = np.arange(layout.full_mask + 1, dtype=np.int64)
        masks = masks[np.bitwise_count(masks) == filled]
        same_as = self.same_as[masks & layout.upper_mask]  # (masks, ups)
        solve = same_as == np.arange(UPS)[None, :]
        copy = (same_as >= 0) & ~solve

        with_y = (masks & layout.yahtzee_bit) != 0
        solve_y = np.stack([solve, solve & with_y[:, None]], axis=2)  # y=1: Yahtzee holds 50
        m, u, y = np.nonzero(solve_y)
        copy_y = np.stack([copy, copy & with_y[:, None]], axis=2)
        cm, cu, cy = np.nonzero(copy_y)
        return Layer(
            masks[m],
            u.astype(np.int64),
            y.astype(np.int64),
            flat_index(masks[cm], cu.astype(np.int64), cy.astype(np.int64)),
            flat_index(masks[cm], same_as[cm, cu], cy.astype(np.int64)),
        )

    def reachable(self) -> npt.NDArray[np.bool_]:
        """Which states can occur, shaped ``layout.shape``."""
        layout = self.layout
        masks = np.arange(layout.full_mask + 1)
        ok = self.same_as[masks & layout.upper_mask] >= 0
        return np.stack([ok, ok & ((masks & layout.yahtzee_bit) != 0)[:, None]], axis=2)


def _grouping(boxes: Sequence[_Box]) -> tuple[_Group, ...]:
    """The boxes in the groups the best box is found by (see :class:`_Group`), in card order
    within each: Ones to Threes, Fours to Sixes, and the lower boxes as two parts, those
    that score many ways (Chance, the kinds) and those that score a fixed amount or 0
    (the straights, Yahtzee's full house, the Yahtzee box)."""
    upper = [box for box in boxes if box.upper]
    many = [box for box in boxes if not box.upper and len(box.values) > 2]
    fixed = [box for box in boxes if not box.upper and len(box.values) <= 2]
    lower = _Group.build(
        [_Group.build(part) if len(part) > 1 else part[0] for part in (many, fixed)]
    )
    return (
        _Group.build([_Group.build(upper[:2]), upper[2]]),
        _Group.build([_Group.build(upper[3:5]), upper[5]]),
        lower,
    )


def _leaves(group: _Group) -> list[_Box]:
    return [
        leaf
        for part in group.parts
        for leaf in (_leaves(part) if isinstance(part, _Group) else [part])
    ]


def last_roll_values(
    model: Model, values: FloatArray, masks: IntArray, ups: IntArray, ys: IntArray
) -> FloatArray:
    """What each roll is worth when it must be scored now, from states ``(masks, ups, ys)``.

    Returns ``(252, n)``: for each roll and state, the best over the boxes it
    may be written in of the points it earns (bonuses included) plus the value
    of the state that follows. ``values`` is a flat value table (see
    :func:`flat_table`); only states with one more box filled are read.
    """
    layout = model.layout
    written: list[FloatArray] = [np.empty(0)] * layout.box_count
    # Filled boxes read the block of -inf after the states (at layout.size) instead of one.
    filled_at = layout.size
    upper = model.upper
    filled = (masks[None, :] & upper.bits[:, None]) != 0
    base = np.where(filled, filled_at, (masks[None, :] | upper.bits[:, None]) * (2 * UPS))
    base += ys[None, :]
    at = base[:, None, :] + np.take(upper.shift, ups, axis=2)
    upper_written = np.take(upper.points, ups, axis=2) + values[at]
    for b, index in enumerate(upper.indices):
        written[index] = upper_written[b]
    for box in model.boxes:
        if box.upper:
            continue
        base = np.where((masks & box.bit) != 0, filled_at, (masks | box.bit) * (2 * UPS)) + ups * 2
        if box.yahtzee:
            # 50 in the Yahtzee box makes later Yahtzees earn the bonus; 0 does not.
            flag = np.where(box.values[:, None] == YAHTZEE_SCORE, 1, ys[None, :])
            written[box.index] = box.values[:, None] + values[base[None, :] + flag]
        else:
            written[box.index] = box.values[:, None] + values[base + ys][None, :]

    parts = [group.rows(written) for group in model.groups]
    last = parts[0][model.groups[0].by_roll]
    for group, rows in zip(model.groups[1:], parts[1:], strict=True):
        np.maximum(last, rows[group.by_roll], out=last)

    jokers = model.tables.joker_rolls
    has_yahtzee = (masks & layout.yahtzee_bit) != 0
    if len(jokers) and has_yahtzee.any():
        # A Yahtzee with the Yahtzee box filled is a Joker: the boxes it may go in depend
        # on the card, and it may earn the bonus.
        allowed = np.moveaxis(model.joker_allowed[masks], 0, -1)  # (box, joker, state)
        choices = np.stack([written[box.index][box.by_joker] for box in model.boxes])
        best = np.where(allowed, choices, -np.inf).max(axis=0)
        best += model.joker_bonus[ys].T
        last[jokers] = np.where(has_yahtzee[None, :], best, last[jokers])
    return last


def turn_start_values(
    model: Model, values: FloatArray, masks: IntArray, ups: IntArray, ys: IntArray
) -> FloatArray:
    """The value of states ``(masks, ups, ys)`` at the start of a turn: the whole widget."""
    last = last_roll_values(model, values, masks, ups, ys)
    after_2nd = best_keep(expect(last), overwrite=True)
    after_1st = best_keep(expect(after_2nd), overwrite=True)
    start: FloatArray = ROLL_PROBABILITY @ after_1st
    return start


def flat_index(masks: IntArray, ups: IntArray, ys: IntArray) -> IntArray:
    """Positions in the flattened value table."""
    result: IntArray = (masks * UPS + ups) * 2 + ys
    return result


def flat_table(table: FloatArray) -> FloatArray:
    """``table`` (``layout.shape``) flattened, followed by the block of -inf where a filled
    box is read (at ``table.size``)."""
    flat = np.full(table.size + 2 * UPS, -np.inf)
    flat[: table.size] = table.reshape(-1)
    return flat


def solve(model: Model, *, threads: int | None = None, block: int = BLOCK) -> FloatArray:
    """The value of every state, shaped ``model.layout.shape``; NaN where a state cannot occur.

    ``threads`` defaults to two (or one on a single-core machine).
    """
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    layout = model.layout
    values = flat_table(np.full(layout.shape, np.nan))
    full = model.layer(layout.box_count)
    values[flat_index(full.masks, full.ups, full.ys)] = 0.0
    values[full.copy_to] = 0.0

    def solve_block(states: Sequence[IntArray]) -> None:
        masks, ups, ys = states
        values[flat_index(masks, ups, ys)] = turn_start_values(model, values, masks, ups, ys)

    with ThreadPoolExecutor(threads) as pool:
        for filled in range(layout.box_count - 1, -1, -1):
            layer = model.layer(filled)
            blocks = [
                (layer.masks[i : i + block], layer.ups[i : i + block], layer.ys[i : i + block])
                for i in range(0, len(layer.masks), block)
            ]
            # list() waits for the whole layer: the next one reads its values.
            list(pool.map(solve_block, blocks))
            values[layer.copy_to] = values[layer.copy_from]
    return values[: layout.size].reshape(layout.shape).copy()
