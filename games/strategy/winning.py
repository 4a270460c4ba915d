"""Playing to win: the turn that gives the best chance of finishing first.

The expected-score policy (:mod:`.outcomes`) maximises points. Against other
players what counts is the chance to finish first, and near the end of a close
game the two differ: a player behind must gamble. :func:`win_turn` works out a
whole turn the way the solver does (:mod:`.solver`: score, keep, roll, worked
backwards) with one change: what a roll is worth when written in a box is the
chance to win from the state that follows, against the other seats' final
totals, everyone playing for points afterwards:

    sum over t of P(own final total = t) x share[t]

where the distribution is :meth:`.odds.Odds.known` (exact with few boxes left)
and ``share[t]`` (:func:`.odds.share_by_total`) the expected share of the win
on ``t`` against the others. Since that is linear in the distribution, the
turn's keeps are worth averages of it as for points, and the best keep at every
roll is exact given the distributions. Equal chances (a game won or lost
whatever happens) are broken by points. The To-win bot
(:func:`.policies.to_win`) and the coach's "best to win" read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.rules import DICE_COUNT, InvalidInputError

from .dice import (
    KEEP_INDEX,
    KEEP_OFFSET,
    ROLL_INDEX,
    ROLL_PROBABILITY,
    Faces,
    FloatArray,
    expect,
    laid_end_to_end,
)
from .odds import SHARE_TOP, Odds, Seat, share_by_total
from .outcomes import ROLL_COUNT, IntArray, _best_keep, decision, written_in
from .tables import UPS

_WIN_TURNS: Final = 64
_POINTS_WEIGHT: Final = 1e-6 / 2_000
"""Points break ties between equal chances: a millionth at most, below any real difference."""


@dataclass(frozen=True, eq=False)
class WinTurn:
    """A turn played to win: for every roll, the choice with the best chance of finishing
    first against the other seats, every later turn being played for points (by all).

    Worked out as the solver's turn (:mod:`.solver`), with a roll's worth the chance
    to win of writing it in a box instead of points: exact, given the distributions.
    """

    keep_2: IntArray
    """``(252,)``: the keep chosen after the first roll (as in :class:`.outcomes.Choices`)."""
    keep_1: IntArray
    box: IntArray
    gained: IntArray
    """The points the box chosen for each roll earns, bonuses included."""
    after: IntArray
    """The state that follows writing each roll in its box."""
    scored: FloatArray
    """``(boxes, 252)``: the chance to win after writing roll ``r`` in box ``b`` (-1: not open)."""
    keeps_1: FloatArray
    """``(462,)``: the chance to win of each keep with one roll left (laid end to end)."""
    keeps_2: FloatArray
    """``(462,)``: the same with two rolls left."""
    start: float
    """The chance to win at the start of the turn."""

    def decide(self, dice: Iterable[int], rolls_left: int) -> tuple[int | None, Faces, float]:
        """``(box, (), chance)`` to score, or ``(None, kept faces, chance)`` to throw the rest."""
        roll = ROLL_INDEX[tuple(sorted(dice))]
        box, kept = decision(self.keep_2, self.keep_1, self.box, roll, rolls_left)
        return box, kept, self.chance(dice, rolls_left, box=box, kept=kept)

    def chance(
        self,
        dice: Iterable[int],
        rolls_left: int,
        *,
        box: int | None = None,
        kept: Faces = (),
    ) -> float:
        """The chance to win of writing ``dice`` in ``box``, or of keeping ``kept`` of them."""
        roll = ROLL_INDEX[tuple(sorted(dice))]
        if box is not None:
            return float(self.scored[box, roll])
        if len(kept) == DICE_COUNT:
            raise InvalidInputError("keeping every die is not a choice", code="invalid_hold")
        keep = KEEP_OFFSET[len(kept)] + KEEP_INDEX[len(kept)][tuple(sorted(kept))]
        return float((self.keeps_2 if rolls_left == 2 else self.keeps_1)[keep])


def win_turn(table: Odds, flat: int, total: int, others: Sequence[Seat]) -> WinTurn:
    """The turn from state ``flat`` (``total`` on the card) played to win against
    ``others``: the other seats' final totals (distributions or numbers).

    The last few are kept (a turn asks up to three times)."""
    key = (flat, total, tuple(_key(o) for o in others))
    with table._lock:
        turn = table.win_turns.get(key)
    if isinstance(turn, WinTurn):
        return turn
    share = np.ones(2 * SHARE_TOP)
    share[: SHARE_TOP + 1] = share_by_total(others)
    model = table.strategy.model
    states = [
        np.array([value], dtype=np.int64)
        for value in (flat // (2 * UPS), flat // 2 % UPS, flat % 2)
    ]
    mask = int(states[0][0])
    layout = model.layout
    joker = (mask & layout.yahtzee_bit) != 0
    jokers = model.tables.joker_rolls
    ends: dict[int, tuple[IntArray, IntArray, npt.NDArray[np.bool_]]] = {}
    for c in range(layout.box_count):
        if mask >> c & 1:
            continue
        box = np.full((ROLL_COUNT, 1), c, dtype=np.int64)
        gained, after, _ = written_in(model, box, *states)
        legal = np.ones(ROLL_COUNT, dtype=np.bool_)
        if joker:
            legal[jokers] = model.joker_allowed[mask, c, :]
        ends[c] = (gained[:, 0], after[:, 0], legal)
    table.prepare(a for _, after, _ in ends.values() for a in np.unique(after).tolist())
    scored = np.full((layout.box_count, ROLL_COUNT), -1.0)
    points = np.full((layout.box_count, ROLL_COUNT), -np.inf)
    worth: dict[tuple[int, int], float] = {}
    values = table.strategy._flat
    for c, (gained, after, legal) in ends.items():
        for r in np.nonzero(legal)[0].tolist():
            end = (int(gained[r]), int(after[r]))
            if end not in worth:
                rest = table.known(end[1])
                start = total + end[0]
                worth[end] = float(rest @ share[start : start + len(rest)])
            scored[c, r] = worth[end]
            points[c, r] = end[0] + values[end[1]]
    # Choices are ranked by their chance to win, and equal chances (a game already won,
    # or lost whatever happens) by points: a millionth of a point weighs less than any
    # difference in the chance that matters.
    ranked = np.where(scored >= 0, scored + _POINTS_WEIGHT * points, -np.inf)
    box = np.argmax(ranked, axis=0)  # The first best: the box first on the card.
    rolls = np.arange(ROLL_COUNT)
    after_2nd, keep_1 = _best_keep(expect(ranked[box, rolls][:, None]))
    _, keep_2 = _best_keep(expect(after_2nd))
    # The chances alone, following those choices.
    keeps_1 = laid_end_to_end(expect(scored[box, rolls][:, None]))
    keeps_2 = laid_end_to_end(expect(keeps_1[keep_1[:, 0]]))
    first = keeps_2[keep_2[:, 0]]
    turn = WinTurn(
        keep_2=keep_2[:, 0],
        keep_1=keep_1[:, 0],
        box=box,
        gained=np.array([ends[b][0][r] for r, b in enumerate(box.tolist())]),
        after=np.array([ends[b][1][r] for r, b in enumerate(box.tolist())]),
        scored=scored,
        keeps_1=keeps_1[:, 0],
        keeps_2=keeps_2[:, 0],
        start=float(ROLL_PROBABILITY @ first[:, 0]),
    )
    with table._lock:
        table.win_turns[key] = turn
        while len(table.win_turns) > _WIN_TURNS:
            table.win_turns.popitem(last=False)
    return turn


def _key(seat: Seat) -> object:
    if isinstance(seat, int):
        return seat
    return (seat.offset, seat.chances.tobytes())
