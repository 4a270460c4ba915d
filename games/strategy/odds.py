"""Who is likely to win: the distribution of a player's final total, and each seat's chance.

The strategy engine (:mod:`.engine`) gives the *mean* of a player's final total
under optimal (expected-score) play. Here is the whole distribution, for any
moment of a game, and from the players' distributions each seat's chance to
finish first.

API
---
>>> from games.strategy import odds                                  # doctest: +SKIP
>>> table = odds.load("official")             # the strategy + the odds table, cached on disk
>>> dist = table.distribution(card)           # turn start: a Distribution of final totals
>>> dist = table.distribution(card, dice=(6, 6, 1, 2, 6), rolls_left=2)   # mid-turn
>>> dist.mean, dist.chance(lambda total: total >= 300), dist.quantile(0.9)
>>> odds.win_shares([dist_a, dist_b, 312])    # each seat's P(win); a number is a final score
>>> odds.win_probabilities("official", [position, card_b, 280])          # the same, in one call

* :class:`Distribution`: the chances of each final grand total (integers from
  ``offset``), with its mean, quantiles and ``chance``.
* :meth:`Odds.distribution` ``(card, dice=None, rolls_left=3, held=())``: the
  distribution of the final total of ``card``'s owner from now on, all turns
  played by the expected-score policy (the Optimal bot). ``held`` is accepted
  for symmetry with a :class:`~games.engine.rules.Position` and changes nothing: dice
  held may be let go before the next roll.
* :meth:`Odds.position_distribution` ``(position)``; :meth:`Odds.remaining` and
  :meth:`Odds.known` (points still to come from a turn-start state), which
  :mod:`.winning` reads to play and advise to win.
* :func:`win_shares` ``(seats)``: each seat's probability of the highest final
  total, ties shared equally (two tied for first win half each), for any number
  of seats; a seat given as a number has that final score (finished, or left).
* :func:`win_probabilities` ``(preset, seats)``: the same from positions,
  cards or final scores.
* :func:`share_by_total` ``(others)``: a seat's expected share of the win for
  each final total it might reach; its chance to win is its distribution times
  this (what :mod:`.winning` compares choices by).

How
---
A player's final total is the points on the card plus the points still to
come, ``X``. Its distribution from a turn-start state (see :mod:`.solver`) is

* **exact** when at most :data:`EXACT_BOXES` boxes are empty: the turn's
  outcomes under the policy (:mod:`.outcomes`: the chance of each box, points
  and next state) are combined with the next states' exact distributions,
  computed on demand and memoised;
* **a mixture** otherwise. The big jumps in ``X`` are the 35 of the upper
  bonus, the 50 in the Yahtzee box and the 100 of a Yahtzee bonus, so the table
  splits every state's future into eight *endings*: the upper bonus made or
  not, 50 in the Yahtzee box or not (both decided by where the game ends), and
  a Yahtzee bonus earned from now on or not. For each ending it holds the
  chance of the ending, the mean, variance and third central moment of ``X``
  given it, and the chance, given it, that the full house, the small and the
  large straight are still to be scored with their points (the other lumps:
  25, 30 or 40, else 0). All are worked out exactly by the same backward
  recursion as the values (the moments of ``gained + X'`` follow from those of
  ``X'``; the choices are the policy's). An ending is drawn as those lumps
  (independent chances of their points) added to a smooth part with the
  moments that remain: a discretised shifted gamma (a normal when nearly
  symmetric, a point when nearly certain). The eight are summed.

Mid-turn, the turn in progress is always followed exactly to its end, and only
the states after it are drawn from the table. The error of the whole against a
Monte Carlo of the Optimal bot is measured in ``tests/strategy/test_odds.py``
(``benchmarks/odds_reference.py`` made the reference; ``benchmarks/odds.py``
prints the build time, size, load time and latency).

The table is built layer by layer, backwards, like the strategy's values: a block
of states at a time, their choices worked out (:mod:`.outcomes`), the chance of
each final roll pushed through them, and the rolls summed into the few states
that may follow (:class:`_Slots`, 50 against 252 rolls) before those states' rows
are read and multiplied, in blocks of :data:`ODDS_BLOCK` states on two threads, with
the memory each block frees kept for the next (:mod:`.heap`). It takes 3-4 times as
long as solving the strategy, 4-5 times its CPU (``benchmarks/odds.py`` measures
both in one run: 4.4 s on the machine of 2026-11-25), and is kept on
disk beside the strategy's (:mod:`.cache`, kind ``odds``): eight endings x seven
numbers for each of the 314,880 states the solver solves (the others share a
row), float32, 67 MB.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.rules import (
    DICE_COUNT,
    OFFICIAL,
    ROLLS_PER_TURN,
    UPPER,
    IllegalMoveError,
    InvalidInputError,
    Position,
    Rules,
    Scorecard,
    parse_dice,
)

from . import cache, heap
from .dice import (
    ROLL_INDEX,
    ROLLS,
    FloatArray,
)
from .engine import Strategy, _as_rules
from .engine import load as load_strategy
from .outcomes import (
    Choices,
    IntArray,
    choices,
    final_roll_chances,
)
from .solver import Model, flat_index
from .tables import UPPER_CAP, UPS, Layout

logger = logging.getLogger(__name__)

EXACT_BOXES: Final = 4
"""Up to this many empty boxes a state's distribution is exact; above, the mixture."""
ENDINGS: Final = 8
"""Ending ``4 * more + 2 * bonus + fifty``: a Yahtzee bonus earned from now on or not, the
upper bonus made or not, 50 in the Yahtzee box or not."""
_MOMENTS: Final = 4
LUMP_COUNT: Final = 3
"""Lower boxes that hold a fixed score or 0, the lumps of the distribution besides the
endings: Yahtzee's full house and straights; Yatzy's straights and Yatzy box."""
_MEMO_SIZE: Final = 50_000
_CHOICES_SIZE: Final = 2_048


@dataclass(frozen=True)
class Distribution:
    """The chances of each final total: ``chances[i]`` is the chance of ``offset + i``."""

    offset: int
    chances: FloatArray = field(repr=False)

    @classmethod
    def after(cls, total: int, remaining: FloatArray) -> Distribution:
        """``total`` on the card now plus points to come with chances ``remaining`` (0, 1, ...),
        without the totals that cannot happen at either end."""
        possible = np.nonzero(remaining)[0]
        if not len(possible):
            return cls.certain(total)
        low, high = int(possible[0]), int(possible[-1]) + 1
        chances = remaining[low:high].copy()
        chances.flags.writeable = False
        return cls(total + low, chances)

    @classmethod
    def certain(cls, total: int) -> Distribution:
        """A total already known (a complete card, a seat that left)."""
        return cls(int(total), np.ones(1))

    @property
    def totals(self) -> IntArray:
        """The totals ``chances`` is about."""
        return np.arange(self.offset, self.offset + len(self.chances), dtype=np.int64)

    @property
    def mean(self) -> float:
        return float(self.totals @ self.chances)

    @property
    def std(self) -> float:
        spread = float((self.totals - self.mean) ** 2 @ self.chances)
        return math.sqrt(max(0.0, spread))

    def chance(self, event: Callable[[IntArray], npt.NDArray[np.bool_]]) -> float:
        """The chance of ``event`` (a function of an array of totals, true where it holds)."""
        return float(self.chances[event(self.totals)].sum())

    def quantile(self, q: float) -> int:
        """The least total ``t`` with a chance of at least ``q`` of finishing at ``t`` or below."""
        cdf = np.cumsum(self.chances)
        return self.offset + int(np.searchsorted(cdf, q - 1e-12))


Seat = Distribution | int


def win_shares(seats: Sequence[Seat]) -> tuple[float, ...]:
    """Each seat's chance of finishing first, ties shared equally, from their final totals.

    Seats are independent: each plays for points on its own card. A seat
    given as a number has that final total.

    >>> win_shares([Distribution.certain(200), Distribution(199, np.array([0.5, 0, 0.5]))])
    (0.5, 0.5)
    """
    dists = [_as_distribution(s) for s in seats]
    shares = []
    for i, own in enumerate(dists):
        share = share_by_total(dists[:i] + dists[i + 1 :])
        window = share[own.offset : own.offset + len(own.chances)]
        shares.append(float(own.chances @ window))
    return tuple(shares)


def _as_distribution(seat: Seat) -> Distribution:
    return Distribution.certain(seat) if isinstance(seat, int) else seat


SHARE_TOP: Final = 2_000
"""Totals :func:`share_by_total` covers (no card reaches 1,600)."""


def share_by_total(others: Sequence[Seat]) -> FloatArray:
    """``share[t]``: a seat's expected share of the win if it finishes on ``t``, against the
    other seats' final totals ``others`` (ties shared equally). Totals 0 to :data:`SHARE_TOP`.

    A seat's chance to win is the sum of its distribution times this, so choices
    can be compared by it without recomputing the others (:meth:`Odds.win_turn`).
    """
    dists = [_as_distribution(s) for s in others]
    size = SHARE_TOP + 1
    # ties[k][t]: chance that no other seat finishes above t and exactly k finish on t.
    ties = [np.ones(size)]
    for d in dists:
        at = np.zeros(size)
        at[d.offset : d.offset + len(d.chances)] = d.chances
        below = np.cumsum(at) - at
        grown = [t * below for t in ties] + [np.zeros(size)]
        for k, t in enumerate(ties):
            grown[k + 1] += t * at
        ties = grown
    result: FloatArray = sum((t / (k + 1) for k, t in enumerate(ties)), np.zeros(size))
    return result


class Odds:
    """A preset's strategy with its odds table: distributions and chances to win.

    Get one with :func:`load`. Safe to use from several threads.
    """

    def __init__(self, strategy: Strategy, table: FloatArray) -> None:
        self.strategy = strategy
        self.rules = strategy.rules
        self.rows, count = compact_index(strategy)
        self.layout = strategy.layout
        self._slots = _Slots.of(strategy.model)
        if table.shape != (count, len(endings(self.layout)), _COLUMNS):
            raise ValueError("the odds table does not fit the states of the game")
        self.table = table
        """``(rows, 8, 7)`` float32: for each state's row (``rows[flat]``) and ending, the
        chance of the ending; the mean, variance and third central moment of the points to
        come given it; and the chance, given it, that each lump box (the full house, the
        small and the large straight) is still to be scored with its points (not 0).
        Without a Yahtzee bonus (Yatzy) only the two endings that can happen are kept
        (:func:`endings`), and the lumps are its straights and its Yatzy box."""
        self._memo: OrderedDict[int, FloatArray] = OrderedDict()
        self._choices: OrderedDict[int, Choices] = OrderedDict()
        self.win_turns: OrderedDict[tuple[object, ...], object] = OrderedDict()
        """Turns played to win lately worked out (kept here by :mod:`.winning`)."""
        self._lock = threading.RLock()

    # -- distributions -----------------------------------------------------

    def distribution(
        self,
        card: Scorecard,
        dice: Iterable[int] | None = None,
        rolls_left: int = ROLLS_PER_TURN,
        held: Iterable[int] = (),
    ) -> Distribution:
        """The distribution of the final total of ``card``'s owner, playing for points.

        Before the turn's first roll ``dice`` is ``None`` (and ``rolls_left`` 3);
        after a roll, the dice on the table with 2, 1 or 0 rolls left.
        """
        if card.is_complete:
            return Distribution.certain(card.total)
        flat = self._flat(card)
        if dice is None:
            if rolls_left != ROLLS_PER_TURN:
                raise InvalidInputError(
                    "without dice on the table the turn has not started", code="invalid_position"
                )
            return Distribution.after(card.total, self.remaining(flat))
        if not 0 <= rolls_left < ROLLS_PER_TURN:
            raise InvalidInputError(
                f"after a roll 0 to 2 rolls are left, got {rolls_left}", code="invalid_rolls_left"
            )
        roll = ROLL_INDEX[tuple(sorted(parse_dice(dice)))]
        chosen = self.choices(flat)
        rolls = np.zeros((len(ROLL_INDEX), 1))
        rolls[roll, 0] = 1.0
        final = final_roll_chances(chosen, rolls=rolls, rolls_left=rolls_left)[:, 0]
        return Distribution.after(card.total, self._after_turn(chosen, final))

    def position_distribution(self, position: Position) -> Distribution:
        """:meth:`distribution` of a :class:`~games.engine.rules.Position`."""
        return self.distribution(position.card, position.dice, position.rolls_left, position.held)

    def remaining(self, flat: int) -> FloatArray:
        """The chances of 0, 1, 2... points still to come from turn-start state ``flat``."""
        with self._lock:
            memo = self._memo.get(flat)
            if memo is not None:
                self._memo.move_to_end(flat)
                return memo
        mask = flat // (2 * UPS)
        left = self.layout.box_count - mask.bit_count()
        if left == 0:
            result = _CERTAIN
        elif left > EXACT_BOXES:
            result = self._fitted(flat)
        else:
            self._exact([flat])
            return self._memo[flat]
        with self._lock:
            self._memo[flat] = result
            while len(self._memo) > _MEMO_SIZE:
                self._memo.popitem(last=False)
        return result

    def outcomes(self, chosen: Choices, final: FloatArray) -> list[tuple[float, int, int]]:
        """``(chance, points, next state)`` of a turn whose scored roll has chances ``final``."""
        return _outcomes(chosen.gained[:, 0], chosen.after[:, 0], final)

    def _after_turn(self, chosen: Choices, final: FloatArray) -> FloatArray:
        return _mix([(c, g, self.known(a)) for c, g, a in self.outcomes(chosen, final)])

    def choices(self, flat: int) -> Choices:
        """The policy's choices in the turn from state ``flat`` (kept for the last few)."""
        with self._lock:
            chosen = self._choices.get(flat)
            if chosen is not None:
                self._choices.move_to_end(flat)
                return chosen
        chosen = self._compute_choices([flat])[0]
        self._keep_choices(flat, chosen)
        return chosen

    def _keep_choices(self, flat: int, chosen: Choices) -> None:
        with self._lock:
            self._choices[flat] = chosen
            while len(self._choices) > _CHOICES_SIZE:
                self._choices.popitem(last=False)

    def _compute_choices(self, flats: Sequence[int]) -> list[Choices]:
        states = np.array(flats, dtype=np.int64)
        masks, ups, ys = states // (2 * UPS), states // 2 % UPS, states % 2
        block = choices(self.strategy.model, self.strategy._flat, masks, ups, ys)
        return [
            Choices(*(np.ascontiguousarray(a[:, i : i + 1]) for a in _fields(block)))
            for i in range(len(flats))
        ]

    def prepare(self, flats: Iterable[int]) -> None:
        """Memoise the exact distributions of the states ``flats`` that have one, together
        (quicker than one by one: their turns are worked out in blocks)."""
        full, count = self.layout.full_mask, self.layout.box_count
        self._exact(
            [
                f
                for f in set(flats)
                if f // (2 * UPS) != full and count - (f // (2 * UPS)).bit_count() <= EXACT_BOXES
            ]
        )

    def prepare_seats(self, seats: Iterable[Position | Scorecard | int]) -> None:
        """:meth:`prepare` the turn-start states of every seat's card (a final score needs
        nothing): call before reading several seats' distributions."""
        self.prepare(
            self.state_of(seat.card if isinstance(seat, Position) else seat)
            for seat in seats
            if isinstance(seat, Position | Scorecard)
        )

    def _exact(self, flats: list[int]) -> None:
        """Memoise the exact distribution of ``flats`` and of every state they lead to.

        The states are visited a turn at a time, and each turn's choices are worked
        out for all its states in one block (many times quicker than one by one)."""
        layers: list[dict[int, list[tuple[float, int, int]]]] = []
        frontier = sorted(flats)
        while frontier:
            with self._lock:
                missing = [f for f in frontier if f not in self._memo]
            if not missing:
                break
            states = np.array(missing, dtype=np.int64)
            masks, ups, ys = states // (2 * UPS), states // 2 % UPS, states % 2
            block = choices(self.strategy.model, self.strategy._flat, masks, ups, ys)
            final = final_roll_chances(block)
            turns = {
                f: _outcomes(block.gained[:, i], block.after[:, i], final[:, i])
                for i, f in enumerate(missing)
            }
            layers.append(turns)
            frontier = sorted(
                {
                    a
                    for turn in turns.values()
                    for _, _, a in turn
                    if a // (2 * UPS) != self.layout.full_mask
                }
            )
        for turns in reversed(layers):
            for f, turn in turns.items():
                result = _mix([(c, g, self.known(a)) for c, g, a in turn])
                with self._lock:
                    self._memo[f] = result
                    while len(self._memo) > _MEMO_SIZE:
                        self._memo.popitem(last=False)

    def known(self, flat: int) -> FloatArray:
        """:meth:`remaining`, quicker for a complete card or a state already memoised."""
        if flat // (2 * UPS) == self.layout.full_mask:
            return _CERTAIN
        with self._lock:
            memo = self._memo.get(flat)
        return memo if memo is not None else self.remaining(flat)

    def _fitted(self, flat: int) -> FloatArray:
        """The mixture of the endings, each a smooth shape plus the lumps (see the module)."""
        parts = []
        for chance, mean, var, third, *made in self.table[self.rows[flat]].astype(np.float64):
            if chance <= 1e-9:
                continue
            # The lumps as independent chances of their fixed points, and their cumulants.
            lumped = np.ones(1)
            cumulants = np.zeros(3)
            for p, points in zip(made, self._slots.lump_points, strict=True):
                if p <= 0:
                    continue
                step = np.zeros(points + 1)
                step[0], step[points] = 1 - p, p
                lumped = np.convolve(lumped, step)
                q = p * (1 - p)
                cumulants += (p * points, q * points**2, q * (1 - 2 * p) * points**3)
            smooth = _shape(mean - cumulants[0], var - cumulants[1], third - cumulants[2])
            parts.append((float(chance), 0, np.convolve(smooth, lumped)))
        return _mix(parts)

    def _flat(self, card: Scorecard) -> int:
        mask, up, y = self.strategy._state(card)
        return int(flat_index(np.array([mask]), np.array([up]), np.array([y]))[0])

    def state_of(self, card: Scorecard) -> int:
        """The flat index of ``card``'s turn-start state (:func:`.solver.flat_index`)."""
        return self._flat(card)


_CERTAIN: Final = np.ones(1)


def _outcomes(gained: IntArray, after: IntArray, final: FloatArray) -> list[tuple[float, int, int]]:
    """``(chance, points, next state)`` for each distinct end of a turn (one state's columns)."""
    weights = final > 0
    keys, inverse = np.unique(gained[weights] * _KEY + after[weights], return_inverse=True)
    chances = np.bincount(inverse.reshape(-1), weights=final[weights])
    return [(float(c), int(k // _KEY), int(k % _KEY)) for c, k in zip(chances, keys, strict=True)]


_KEY: Final = 1 << 24
"""More than any flat state index (Yatzy's tables have 2^22 states): gained and state in one."""


def _fields(chosen: Choices) -> tuple[IntArray, ...]:
    return (
        chosen.keep_2,
        chosen.keep_1,
        chosen.box,
        chosen.gained,
        chosen.after,
        chosen.bonus,
    )


def _mix(parts: Sequence[tuple[float, int, FloatArray]]) -> FloatArray:
    """The sum of ``chance * hist`` shifted right by ``points``, for each part."""
    size = max(points + len(hist) for _, points, hist in parts)
    result = np.zeros(size)
    for chance, points, hist in parts:
        result[points : points + len(hist)] += chance * hist
    total = result.sum()
    return result / total if total > 0 else result


_SUBSTEPS: Final = 8
_MAX_SKEW: Final = 1.5


def _shape(mean: float, var: float, third: float) -> FloatArray:
    """A distribution on 0, 1, 2... with about this mean, variance and third central moment:
    a discretised shifted gamma, a normal when nearly symmetric, a point when nearly certain."""
    mean = max(mean, 0.0)
    sd = math.sqrt(max(var, 0.0))
    if sd < 0.5:
        low = max(0, math.floor(mean))
        frac = min(max(mean - low, 0.0), 1.0)
        return np.array([0.0] * low + [1 - frac, frac])
    # Beyond this the gamma's density is too steep to sample well; the lumps, subtracted
    # from an ending's moments, can leave its smooth part with a third moment this large.
    skew = min(max(third / sd**3, -_MAX_SKEW), _MAX_SKEW)
    top = math.ceil(mean + 10 * sd) + 1
    # Each whole number collects the density over [x - 1/2, x + 1/2), sampled at midpoints.
    x = (np.arange(top * _SUBSTEPS) + 0.5) / _SUBSTEPS - 0.5
    if abs(skew) < 0.05:
        logpdf = -0.5 * ((x - mean) / sd) ** 2
    else:
        shape = 4 / skew**2
        scale = sd * abs(skew) / 2
        z = np.sign(skew) * (x - mean) + shape * scale  # Distance from the gamma's start.
        with np.errstate(divide="ignore", invalid="ignore"):
            logpdf = np.where(z > 0, (shape - 1) * np.log(z) - z / scale, -np.inf)
    finite = np.isfinite(logpdf)
    density = np.zeros_like(x)
    if finite.any():
        density[finite] = np.exp(logpdf[finite] - logpdf[finite].max())
    hist = density.reshape(top, _SUBSTEPS).sum(axis=1)
    total = hist.sum()
    if total <= 0:
        return _shape(mean, 0.0, 0.0)
    result: FloatArray = hist / total
    # A shape cut off below 0 comes out with too high a mean: the cut-off chance goes to 0,
    # where such endings do pile up (a four of a kind or a Chance scored 0, say).
    drawn = float(np.arange(top) @ result)
    if drawn > mean > 0:
        result *= mean / drawn
        result[0] += 1 - mean / drawn
    return result


# --------------------------------------------------------------------------
# Building the table: the moments of the points to come, per ending, by layers
# --------------------------------------------------------------------------


def compact_index(strategy: Strategy) -> tuple[npt.NDArray[np.int32], int]:
    """Rows for the odds table: ``(rows, count)``, ``rows[flat]`` the row of state ``flat``.

    Only the states the solver solves get a row of their own; a state worth the
    same as another (:class:`.solver.Layer`) shares its row, so the table is
    small enough to be read quickly. Unreachable states get row ``count``."""
    model = strategy.model
    rows = np.full(model.layout.size + 2 * UPS, -1, dtype=np.int32)
    count = 0
    for filled in range(model.layout.box_count, -1, -1):
        layer = model.layer(filled)
        solved = flat_index(layer.masks, layer.ups, layer.ys)
        rows[solved] = np.arange(count, count + len(solved), dtype=np.int32)
        count += len(solved)
        rows[layer.copy_to] = rows[layer.copy_from]
    rows[rows < 0] = count
    return rows, count


_COLUMNS: Final = _MOMENTS + LUMP_COUNT


def endings(layout: Layout) -> tuple[int, ...]:
    """The endings a preset's game can have: all eight under a Yahtzee bonus; without one
    (Yatzy) no ending has the Yahtzee box at 50 (``y`` stays 0) or a bonus earned."""
    return tuple(range(ENDINGS)) if layout.yahtzee_bit else (0, 2)


_UPPER: Final = len(UPPER)


@dataclass(frozen=True, eq=False)
class _Slots:
    """Where a roll's score takes a state, by the box it is written in: the *slot* of the
    state that follows. An upper box has a slot for each count of its face in the roll
    (0-5: its points); a lower box two, for 0 points or more (so the Yahtzee box's two
    lead to the two states of 50 or 0, and a lump box's second slot is the event "scored
    with its fixed score"). All rolls in one slot lead to one state (a state reached from
    two slots, such as an upper total capped at 63, is read twice, which is harmless)."""

    count: int
    slot_of: IntArray
    """``slot_of[box, roll]``: the slot of writing ``roll`` in ``box``, before the lower
    boxes' "points or not"."""
    lumps: tuple[int, ...]
    """The lump boxes (see :data:`LUMP_COUNT`), in card order."""
    lump_points: tuple[int, ...]
    lump_slots: tuple[int, ...]
    yahtzee_bonus: int

    @classmethod
    def of(cls, model: Model) -> _Slots:
        """The slots of ``model``'s card."""
        count = model.layout.box_count
        lumps = tuple(
            box.index
            for box in model.boxes
            if not box.upper and not box.yahtzee and len(box.values) == 2 and box.values[0] == 0
        )
        if len(lumps) != LUMP_COUNT:
            raise ValueError(f"the odds expect {LUMP_COUNT} lump boxes, the card has {lumps}")
        slot_of = np.array(
            [
                [box * (DICE_COUNT + 1) + ROLLS[roll].count(box + 1) for roll in range(len(ROLLS))]
                if box < _UPPER
                else [_lower_slot(box)] * len(ROLLS)
                for box in range(count)
            ],
            dtype=np.int64,
        )
        return cls(
            count=_UPPER * (DICE_COUNT + 1) + 2 * (count - _UPPER),
            slot_of=slot_of,
            lumps=lumps,
            lump_points=tuple(int(model.boxes[box].values[1]) for box in lumps),
            lump_slots=tuple(_lower_slot(box) + 1 for box in lumps),
            yahtzee_bonus=model.tables.rules.yahtzee_bonus,
        )

    def of_rolls(self, chosen: Choices) -> IntArray:
        """The slot of the state each roll leads to, ``(252, n)``."""
        box = chosen.box
        slots: IntArray = self.slot_of.ravel()[box * len(ROLLS) + np.arange(len(ROLLS))[:, None]]
        # A lower box's points: it gets no upper bonus, only perhaps a Yahtzee bonus.
        points = chosen.gained - self.yahtzee_bonus * chosen.bonus
        slots += (box >= _UPPER) & (points > 0)
        return slots


def _lower_slot(box: int) -> int:
    """The first of a lower box's two slots (0 points; the next one: points)."""
    return _UPPER * (DICE_COUNT + 1) + 2 * (box - _UPPER)


ODDS_BLOCK: Final = 1024
"""States per block of the build: twice the solver's, as fewer, larger blocks leave the two
threads less Python between numpy's calls to take turns on (measured: 0.9x the time)."""


def build(strategy: Strategy, *, threads: int | None = None, block: int = ODDS_BLOCK) -> FloatArray:
    """The odds table of ``strategy`` (see :attr:`Odds.table`): seconds, on two threads."""
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    model = strategy.model
    layout = model.layout
    values = strategy._flat
    rows, count = compact_index(strategy)
    slotting = _Slots.of(model)
    n_slots = slotting.count
    # One row per state, read in one gather: E[1_ending X^k] for each ending and k = 0..3,
    # then E[1_ending 1_lump] for each ending and lump, then the endings' chances again
    # (E[1_ending], side by side for the matrix product that needs them alone).
    lumps_at, chances_at = ENDINGS * _MOMENTS, ENDINGS * _COLUMNS
    # Single precision: the table is read at random, a row per state that may follow, and
    # moving half the bytes halves the time; its sums keep six significant figures, more
    # than the fitted shapes need (the test against the Monte Carlo says so).
    data = np.zeros((count + 1, chances_at + ENDINGS), dtype=np.float32)
    full = model.layer(layout.box_count)
    ends = flat_index(full.masks, full.ups, full.ys)
    ending = 2 * (ends // 2 % UPS == UPPER_CAP) + ends % 2
    data[rows[ends], ending * _MOMENTS] = 1.0
    data[rows[ends], chances_at + ending] = 1.0

    def solve_block(states: tuple[IntArray, IntArray, IntArray]) -> None:
        masks, ups, ys = states
        n = len(masks)
        chosen = choices(model, values, masks, ups, ys)
        chances = final_roll_chances(chosen)  # (252, n)
        # The 252 rolls lead to at most n_slots states: their weights are summed per slot
        # first, so the table is read (and multiplied) once per state that may follow,
        # not once per roll. Rolls that earn a Yahtzee bonus are summed apart: they move
        # every ending to "more".
        slots = slotting.of_rolls(chosen)
        where = (np.arange(n)[None, :] * n_slots + slots).ravel()
        gained = chosen.gained.astype(np.float64).ravel()
        earns = chosen.bonus.ravel() > 0
        plain = np.where(earns, 0.0, chances.ravel())
        weights = np.zeros((n, 2, _MOMENTS, n_slots))
        power = plain
        for k in range(_MOMENTS):  # sum over rolls of chance x gained^k, per slot
            weights[:, 0, k] = np.bincount(where, power, minlength=n * n_slots).reshape(n, n_slots)
            power = power * gained
        if earns.any():
            at, power = where[earns], chances.ravel()[earns]
            for k in range(_MOMENTS):
                weights[:, 1, k] = np.bincount(at, power, minlength=n * n_slots).reshape(n, n_slots)
                power = power * gained[earns]
        following_rows = np.full((n, n_slots), count, dtype=np.int32)  # An empty slot: zeros.
        following_rows.ravel()[where] = rows[chosen.after.ravel()]
        following = data[following_rows]  # (n, n_slots, columns)
        # E[(g + X')^k] = sum_j C(k, j) E[g^(k-j) X'^j]: weighted sums of g^p X'^j, for
        # every state at once as a stack of small matrix products.
        weights32 = weights.astype(np.float32)
        sums = np.matmul(weights32.reshape(n, 2 * _MOMENTS, n_slots), following[:, :, :lumps_at])
        sums = _to_endings(sums.reshape(n, 2, _MOMENTS, ENDINGS, _MOMENTS), axis=3)
        result = np.zeros((n, ENDINGS, _MOMENTS))
        for k in range(_MOMENTS):
            for j in range(k + 1):
                result[:, :, k] += math.comb(k, j) * sums[:, k - j, :, j]
        # The chance of each ending with each lump box still to be filled with its fixed
        # score: this turn (its slot with points, times the chance of the ending from the
        # state that follows), or a later one.
        split = weights32[:, :, 0]  # (n, 2, n_slots): the chance of each slot
        lump_slots = list(slotting.lump_slots)
        now = split[:, :, lump_slots, None] * following[:, None, lump_slots, chances_at:]
        now = _to_endings(now.astype(np.float64), axis=3).transpose(0, 2, 1)  # (n, ending, lump)
        later = np.matmul(split, following[:, :, lumps_at:chances_at])
        later = _to_endings(later.reshape(n, 2, ENDINGS, LUMP_COUNT), axis=2)
        here = rows[flat_index(masks, ups, ys)]
        data[here, :lumps_at] = result.reshape(n, -1)
        data[here, lumps_at:chances_at] = (now + later).reshape(n, -1)
        data[here, chances_at:] = result[:, :, 0]

    with heap.keep_freed_memory(), ThreadPoolExecutor(threads) as pool:
        for filled in range(layout.box_count - 1, -1, -1):
            layer = model.layer(filled)
            blocks = [
                (layer.masks[i : i + block], layer.ups[i : i + block], layer.ys[i : i + block])
                for i in range(0, len(layer.masks), block)
            ]
            if threads == 1:
                for one in blocks:
                    solve_block(one)
            else:
                list(pool.map(solve_block, blocks))
    raw = np.concatenate(
        [
            data[:count, :lumps_at].reshape(count, ENDINGS, _MOMENTS),
            data[:count, lumps_at:chances_at].reshape(count, ENDINGS, LUMP_COUNT),
        ],
        axis=2,
    )
    return _central(raw)[:, list(endings(layout))]


def _to_endings(sums: FloatArray, axis: int) -> FloatArray:
    """Sums over rolls split ``[plain, earned]`` on axis 1 to sums per ending on ``axis`` (of
    the result, one fewer): a roll that earns a Yahtzee bonus moves any ending to "more"."""
    plain = np.moveaxis(sums[:, 0], axis - 1, -1)
    earned = np.moveaxis(sums[:, 1], axis - 1, -1)
    half = ENDINGS // 2
    result = plain.copy()
    result[..., half:] += earned[..., :half] + earned[..., half:]
    moved: FloatArray = np.moveaxis(result, -1, axis - 1)
    return moved


def _central(raw: FloatArray) -> FloatArray:
    """Raw moments ``E[1_c X^k]`` to chance, mean, variance, third central moment per ending;
    the lump chances become chances given the ending."""
    chance = raw[..., 0]
    safe = np.where(chance > 0, chance, 1.0)
    m1, m2, m3 = (raw[..., k] / safe for k in (1, 2, 3))
    var = np.maximum(m2 - m1**2, 0.0)
    third = m3 - 3 * m1 * m2 + 2 * m1**3
    lumps = np.clip(raw[..., _MOMENTS:] / safe[..., None], 0.0, 1.0)
    columns = [chance, m1, var, third, *np.moveaxis(lumps, -1, 0)]
    return np.stack(columns, axis=-1).astype(np.float32)


# --------------------------------------------------------------------------
# Loading, once per process
# --------------------------------------------------------------------------

KIND: Final = "odds"
_loaded: dict[tuple[str, Path], Odds] = {}
_load_lock = threading.Lock()


def load(
    preset: Rules | str = OFFICIAL, *, cache_dir: str | os.PathLike[str] | None = None
) -> Odds:
    """The odds for ``preset``: from memory, else from the disk cache, else built and saved."""
    rules = _as_rules(preset)
    directory = cache.cache_dir(cache_dir)
    key = (rules.name, directory)
    with _load_lock:
        odds = _loaded.get(key)
        if odds is not None:
            return odds
        strategy = load_strategy(rules, cache_dir=directory)
        arrays = cache.read(rules, directory, KIND)
        odds = None
        if arrays is not None and "table" in arrays:
            try:
                odds = Odds(strategy, arrays["table"].astype(np.float32))
            except ValueError as error:
                logger.warning("rebuilding the %s odds: %s", rules.name, error)
        if odds is None:
            started = time.perf_counter()
            odds = Odds(strategy, build(strategy))
            logger.info("built the %s odds in %.1f s", rules.name, time.perf_counter() - started)
            cache.write(rules, directory, {"table": odds.table}, KIND)
        _loaded[key] = odds
        return odds


def forget_loaded() -> None:
    """Drop the odds held in memory (the disk cache stays): for tests."""
    with _load_lock:
        _loaded.clear()


def win_probabilities(
    preset: Rules | str, seats: Sequence[Position | Scorecard | int]
) -> tuple[float, ...]:
    """Each seat's chance of finishing first (ties shared), every seat playing for points.

    A seat is a :class:`~games.engine.rules.Position` (the seat on turn, mid-turn or
    not), a :class:`~games.engine.rules.Scorecard` (a seat between its turns) or a
    final score (a seat that finished or left).
    """
    odds = load(preset)
    odds.prepare_seats(seats)
    dists: list[Seat] = []
    for seat in seats:
        if isinstance(seat, Position):
            dists.append(odds.position_distribution(seat))
        elif isinstance(seat, Scorecard):
            dists.append(odds.distribution(seat))
        elif isinstance(seat, int) and not isinstance(seat, bool):
            dists.append(seat)
        else:
            raise InvalidInputError(f"a seat is a position, a card or a score, got {seat!r}")
    return win_shares(dists)


__all__ = [
    "EXACT_BOXES",
    "Distribution",
    "IllegalMoveError",
    "Odds",
    "build",
    "forget_loaded",
    "load",
    "win_probabilities",
    "win_shares",
]
