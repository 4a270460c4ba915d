"""Many solitaire games played out at once by the expected-score policy (the Optimal bot).

For Monte Carlo checks of :mod:`.odds` and for benchmarks: ``play_out`` takes
a batch of players' states (each a card's turn-start state and its total, and
for the first turn perhaps dice already on the table) and plays every one to
the end of its card with random dice, a turn for all of them at a time. The
choices are those of :mod:`.outcomes` for each distinct state, worked out in
blocks; the dice are drawn from the exact chances of each keep
(:data:`.outcomes.TRANSITIONS`). A batch of 100,000 games from the start takes
about a minute on one core.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from .dice import ROLL_PROBABILITY
from .engine import Strategy
from .outcomes import TRANSITIONS, IntArray, choices
from .solver import BLOCK
from .tables import UPS

_ROLL_CDF: Final = np.cumsum(ROLL_PROBABILITY)
_KEEP_CDF: Final = np.cumsum(TRANSITIONS, axis=1)


def _draw(cdf: np.ndarray, rng: np.random.Generator) -> IntArray:
    """One roll per row of ``cdf`` (cumulative chances of the 252 rolls)."""
    u = rng.random(len(cdf))[:, None]
    rolls: IntArray = np.minimum((cdf < u).sum(axis=1), cdf.shape[1] - 1).astype(np.int64)
    return rolls


def play_out(
    strategy: Strategy,
    states: IntArray,
    totals: IntArray,
    rng: np.random.Generator,
    *,
    roll: IntArray | None = None,
    rolls_left: int = 3,
) -> IntArray:
    """The final totals of players in turn-start ``states`` (flat indices) with ``totals``
    on their cards, each playing for points to the end of the card.

    With ``roll`` (one roll number each) the first turn starts from those dice
    on the table with ``rolls_left`` (0 to 2) rolls left.
    """
    states = np.array(states, dtype=np.int64)
    totals = np.array(totals, dtype=np.int64)
    first = True
    full_mask = strategy.layout.full_mask
    while True:
        live = np.nonzero(states // (2 * UPS) != full_mask)[0]
        if not len(live):
            return totals
        unique, inverse = np.unique(states[live], return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(0, len(unique) + BLOCK, BLOCK))
        for b, start in enumerate(range(0, len(unique), BLOCK)):
            block = unique[start : start + BLOCK]
            masks, ups, ys = block // (2 * UPS), block // 2 % UPS, block % 2
            chosen = choices(strategy.model, strategy._flat, masks, ups, ys)
            players = live[order[bounds[b] : bounds[b + 1]]]
            column = inverse[order[bounds[b] : bounds[b + 1]]] - start
            if first and roll is not None:
                dice, left = np.asarray(roll, dtype=np.int64)[players], rolls_left
            else:
                dice, left = _draw(np.broadcast_to(_ROLL_CDF, (len(players), 252)), rng), 2
            if left >= 2:
                dice = _draw(_KEEP_CDF[chosen.keep_2[dice, column]], rng)
            if left >= 1:
                dice = _draw(_KEEP_CDF[chosen.keep_1[dice, column]], rng)
            totals[players] += chosen.gained[dice, column]
            states[players] = chosen.after[dice, column]
        first = False
