"""A solved strategy for one preset: loading it, and advice for a position."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from games.engine.rules import (
    OFFICIAL,
    ROLLS_PER_TURN,
    YAHTZEE_SCORE,
    Dice,
    IllegalMoveError,
    InvalidInputError,
    Position,
    Rules,
    Scorecard,
    get_rules,
    parse_dice,
)

from . import cache
from .choices import Choice
from .dice import (
    REROLL_ROWS,
    REROLLS,
    ROLL_INDEX,
    Faces,
    FloatArray,
    best_keep,
    expect,
    laid_end_to_end,
)
from .solver import (
    BLOCK,
    IntArray,
    Model,
    flat_table,
    last_roll_values,
    solve,
)
from .tables import UPPER_CAP, ScoreTables

logger = logging.getLogger(__name__)

_KIND_ORDER = {"score": 0, "keep": 1}
TURN_CACHE_SIZE = 512
"""Turn-start states whose keep values a strategy keeps (7 KB each)."""


class Strategy:
    """Optimal solitaire play under one preset: the value of every turn-start state.

    Get one with :func:`load` (cached on disk) or :meth:`compute`. Advice is
    safe to ask from several threads at once.
    """

    def __init__(self, rules: Rules, model: Model, table: FloatArray) -> None:
        self.rules = rules
        self.model = model
        self.layout = layout = model.layout
        # The solver's functions read the table flattened; both names share the numbers.
        self._flat = flat_table(table)
        self._flat.flags.writeable = False
        self.table: FloatArray = self._flat[: table.size].reshape(layout.shape)
        """Expected points still to come from each state (``layout.shape``); NaN if impossible."""
        # What advice reads, in the forms quickest to read one value at a time.
        tables = model.tables
        self._points: list[list[int]] = tables.points.tolist()
        self._bonus: list[list[int]] = tables.bonus.tolist()
        self._jokers = {int(r): j for j, r in enumerate(tables.joker_rolls.tolist())}
        # The box whose 50 sets the Yahtzee-bonus flag (none without the bonus).
        bit = layout.yahtzee_bit
        self._yahtzee = bit.bit_length() - 1 if bit else None
        self._box_values = tuple(frozenset(box.values.tolist()) for box in model.boxes)
        # A turn asks for advice up to three times from the same state.
        self._turns = _TurnCache(TURN_CACHE_SIZE)

    def __repr__(self) -> str:
        return f"Strategy({self.rules!r}, expected_score={self.expected_score:.8f})"

    @classmethod
    def compute(cls, rules: Rules, *, threads: int | None = None) -> Strategy:
        """Solve ``rules`` from scratch (several seconds)."""
        model = Model.build(ScoreTables.build(rules))
        return cls(rules, model, solve(model, threads=threads))

    @classmethod
    def from_arrays(cls, rules: Rules, arrays: cache.Arrays) -> Strategy:
        """A strategy from what :meth:`arrays` returned; ``ValueError`` if they do not fit."""
        try:
            tables = ScoreTables(
                rules,
                arrays["points"].astype(np.int64),
                arrays["joker_rolls"].astype(np.intp),
                arrays["joker_points"].astype(np.int64),
                arrays["joker_allowed"].astype(np.bool_),
                arrays["bonus"].astype(np.int64),
            )
            values = arrays["values"].astype(np.float64)
        except KeyError as missing:
            raise ValueError(f"the saved strategy lacks {missing}") from None
        model = Model.build(tables)
        reachable = model.reachable()
        if values.shape != (int(reachable.sum()),) or not np.isfinite(values).all():
            raise ValueError("the saved strategy does not fit the states of the game")
        table = np.full(model.layout.shape, np.nan)
        table[reachable] = values
        return cls(rules, model, table)

    def arrays(self) -> cache.Arrays:
        """Everything needed to rebuild this strategy, for saving (about 5 MB)."""
        tables = self.model.tables
        return {
            "values": self.table[self.model.reachable()],
            "points": tables.points,
            "joker_rolls": tables.joker_rolls,
            "joker_points": tables.joker_points,
            "joker_allowed": tables.joker_allowed,
            "bonus": tables.bonus,
        }

    @property
    def expected_score(self) -> float:
        """The expected grand total of optimal play from an empty card."""
        return float(self.table[0, 0, 0])

    def value(self, card: Scorecard) -> float:
        """The expected final grand total of ``card`` with optimal play, before the next turn.

        A complete card is worth its grand total.
        """
        if isinstance(card, Scorecard) and card.rules == self.rules and card.is_complete:
            return float(card.total)
        mask, up, y = self._state(card)
        return card.total + float(self.table[mask, up, y])

    def advise(self, card: Scorecard, dice: Iterable[int], rolls_left: int) -> list[Choice]:
        """Every choice open with ``dice`` on the table, best first (see :func:`advise`)."""
        faces, total, scores, keeps = self._open_choices(card, dice, rolls_left)
        choices = [
            Choice("score", total + value, category=self.layout.categories[c], points=points)
            for c, points, value in scores
        ]
        choices.extend(
            Choice("keep", total + value, hold=_positions(faces, kept), kept=kept)
            for kept, value in keeps
        )
        choices.sort(key=lambda choice: _rank(choice, self.rules))
        return choices

    def best(self, card: Scorecard, dice: Iterable[int], rolls_left: int) -> Choice:
        """The first of :meth:`advise`, found without building the others (for bots)."""
        faces, total, scores, keeps = self._open_choices(card, dice, rolls_left)
        key, c, points, value = min(
            ((-(total + value), 0, c, ()), c, points, value) for c, points, value in scores
        )
        if keeps:
            keep_key, kept, keep_value = min(
                ((-(total + value), 1, 0, tuple(-f for f in kept)), kept, value)
                for kept, value in keeps
            )
            if keep_key < key:
                hold = _positions(faces, kept)
                return Choice("keep", total + keep_value, hold=hold, kept=kept)
        return Choice("score", total + value, category=self.layout.categories[c], points=points)

    def advise_position(self, position: Position) -> list[Choice]:
        """Every choice open in ``position``, best first: :meth:`advise` of its card, dice and
        rolls left. What the coach shows and what the analysis judges a move against.

        Raises :class:`~games.engine.rules.IllegalMoveError` (``not_rolled``) before the
        turn's first roll: that roll throws all five dice and decides nothing.
        """
        return self.advise(*self._rolled(position))

    def best_position(self, position: Position) -> Choice:
        """The first of :meth:`advise_position`, found as :meth:`best` finds it (for bots)."""
        return self.best(*self._rolled(position))

    def prepare(self, cards: Iterable[Scorecard]) -> None:
        """Work out at once the turns about to be played on ``cards``, for quicker advice.

        Advice computes a turn's values on its first call for a card (about a
        millisecond) and keeps them for the turn's later calls; this does it for
        many cards together, at a fraction of the cost each (for simulations and
        analysis). Only the last few hundred turns are kept.
        """
        states = {self._state(card) for card in cards}
        missing = sorted(state for state in states if state not in self._turns)
        for start in range(0, len(missing), BLOCK):
            block = np.array(missing[start : start + BLOCK], dtype=np.int64)
            values = self._keep_values(block[:, 0], block[:, 1], block[:, 2])
            for i, state in enumerate(missing[start : start + BLOCK]):
                self._turns.put(state, values[:, :, i].copy())  # Not a view: frees the block.

    # -- helpers ----------------------------------------------------------

    def _rolled(self, position: Position) -> tuple[Scorecard, Dice, int]:
        """The card, the dice and the rolls left of a position with dice on the table."""
        if not isinstance(position, Position):
            raise InvalidInputError(
                f"expected a Position, got {position!r}", code="invalid_position"
            )
        if position.dice is None:
            raise IllegalMoveError(
                "nothing to decide before the turn's first roll", code="not_rolled"
            )
        return position.card, position.dice, position.rolls_left

    def _state(self, card: Scorecard) -> tuple[int, int, int]:
        """The turn-start state of ``card``, checking the card belongs to these rules and a game."""
        if not isinstance(card, Scorecard):
            raise InvalidInputError(f"expected a Scorecard, got {card!r}", code="invalid_card")
        if card.rules != self.rules:
            raise InvalidInputError(
                f"the card is played under {card.rules.label}, not {self.rules.label}",
                code="invalid_card",
            )
        if card.is_complete:
            raise IllegalMoveError("the card is complete", code="card_complete")
        mask = 0
        for c, points in enumerate(card.boxes):
            if points is None:
                continue
            if points not in self._box_values[c]:
                raise InvalidInputError(
                    f"no roll writes {points} in {self.layout.categories[c].label}",
                    code="invalid_card",
                )
            mask |= 1 << c
        up = min(card.upper_total, UPPER_CAP)
        y = int(self._yahtzee is not None and card.boxes[self._yahtzee] == YAHTZEE_SCORE)
        if np.isnan(self.table[mask, up, y]):
            raise InvalidInputError("no game reaches this card", code="invalid_card")
        return mask, up, y

    def _scores(self, mask: int, up: int, y: int, roll: int) -> Iterator[tuple[int, int, float]]:
        """For each box roll ``roll`` may be written in: the box, its points, and the expected
        points from here on (bonuses included) when it is written there."""
        layout = self.layout
        joker = self._jokers.get(roll) if mask & layout.yahtzee_bit else None
        bonus = self._bonus[y][roll]
        for c, category in enumerate(layout.categories):
            if mask >> c & 1:
                continue
            if joker is None:
                points = self._points[c][roll]
            elif self.model.tables.joker_allowed[mask, joker, c]:
                points = int(self.model.tables.joker_points[c, joker])
            else:
                continue
            gained, after = points + bonus, (mask | 1 << c, up, y)
            if category.is_upper:
                if up < UPPER_CAP <= up + points:
                    gained += layout.upper_bonus
                after = (mask | 1 << c, min(UPPER_CAP, up + points), y)
            elif c == self._yahtzee and points == YAHTZEE_SCORE:
                after = (mask | 1 << c, up, 1)
            yield c, points, gained + float(self.table[after])

    def _open_choices(
        self, card: Scorecard, dice: Iterable[int], rolls_left: int
    ) -> tuple[Dice, int, list[tuple[int, int, float]], list[tuple[Faces, float]]]:
        """Check a position and list its choices: the dice, the points on the card, then
        ``(box, points, value)`` for each box open and ``(kept, value)`` for each keep."""
        faces = parse_dice(dice)
        if isinstance(rolls_left, bool) or not isinstance(rolls_left, int):
            raise InvalidInputError(
                f"rolls_left must be a whole number, got {rolls_left!r}", code="invalid_rolls_left"
            )
        if not 0 <= rolls_left < ROLLS_PER_TURN:
            raise InvalidInputError(
                f"after a roll 0 to {ROLLS_PER_TURN - 1} rolls are left, got {rolls_left}",
                code="invalid_rolls_left",
            )
        state = self._state(card)
        roll = ROLL_INDEX[tuple(sorted(faces))]
        scores = list(self._scores(*state, roll))
        keeps: list[tuple[Faces, float]] = []
        if rolls_left:
            turn = self._turns.get(state)
            if turn is None:
                masks, ups, ys = (np.array([value], dtype=np.int64) for value in state)
                turn = self._keep_values(masks, ups, ys)[:, :, 0]
                self._turns.put(state, turn)
            values = turn[rolls_left - 1][REROLL_ROWS[roll]].tolist()
            keeps = [(kept, value) for (kept, _), value in zip(REROLLS[roll], values, strict=True)]
        return faces, card.total, scores, keeps

    def _keep_values(self, masks: IntArray, ups: IntArray, ys: IntArray) -> FloatArray:
        """``(2, 462, n)``: the value of every keep (laid end to end) before the 3rd roll (row 0)
        and before the 2nd (row 1), from states ``(masks, ups, ys)``."""
        before_3rd = expect(last_roll_values(self.model, self._flat, masks, ups, ys))
        before_2nd = expect(best_keep(before_3rd))
        return np.stack([laid_end_to_end(before_3rd), laid_end_to_end(before_2nd)])


class _TurnCache:
    """The keep values of the last few hundred turn-start states, least recently used dropped."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[tuple[int, int, int], FloatArray] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, state: tuple[int, int, int]) -> bool:
        return state in self._items

    def get(self, state: tuple[int, int, int]) -> FloatArray | None:
        with self._lock:
            values = self._items.get(state)
            if values is not None:
                self._items.move_to_end(state)
            return values

    def put(self, state: tuple[int, int, int], values: FloatArray) -> None:
        with self._lock:
            self._items[state] = values
            self._items.move_to_end(state)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def _positions(faces: tuple[int, ...], kept: tuple[int, ...]) -> tuple[int, ...]:
    """The leftmost positions of ``faces`` that show the multiset ``kept``."""
    free = list(faces)
    positions = []
    for face in kept:
        i = free.index(face)
        free[i] = 0
        positions.append(i)
    return tuple(sorted(positions))


def _rank(choice: Choice, rules: Rules) -> tuple[float, int, int, tuple[int, ...]]:
    # Best first; equal values in a fixed order (scores in card order, then bigger keeps).
    box = rules.index(choice.category) if choice.category is not None else 0
    return (-choice.expected, _KIND_ORDER[choice.kind], box, tuple(-f for f in choice.kept))


# --------------------------------------------------------------------------
# Loading, once per process
# --------------------------------------------------------------------------

_loaded: dict[tuple[str, Path], Strategy] = {}
_locks: dict[tuple[str, Path], threading.Lock] = {}
_locks_lock = threading.Lock()


def _as_rules(preset: Rules | str) -> Rules:
    if isinstance(preset, Rules):
        return preset
    if isinstance(preset, str):
        return get_rules(preset)
    raise InvalidInputError(f"rules must be a preset or its name, got {preset!r}")


def load(
    preset: Rules | str = OFFICIAL, *, cache_dir: str | os.PathLike[str] | None = None
) -> Strategy:
    """The strategy for ``preset``: from memory, else from the disk cache, else computed and saved.

    ``cache_dir`` overrides where tables are kept (see :mod:`games.strategy.cache`).
    Safe to call from several threads: a table is computed once per process.
    """
    rules = _as_rules(preset)
    directory = cache.cache_dir(cache_dir)
    key = (rules.name, directory)
    with _locks_lock:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:
        strategy = _loaded.get(key)
        if strategy is not None:
            return strategy
        arrays = cache.read(rules, directory)
        if arrays is not None:
            try:
                strategy = Strategy.from_arrays(rules, arrays)
            except ValueError as error:
                logger.warning("recomputing the %s strategy: %s", rules.name, error)
        if strategy is None:
            started = time.perf_counter()
            strategy = Strategy.compute(rules)
            logger.info(
                "computed the %s strategy in %.1f s", rules.name, time.perf_counter() - started
            )
            cache.write(rules, directory, strategy.arrays())
        _loaded[key] = strategy
        return strategy


def forget_loaded() -> None:
    """Drop the strategies held in memory (the disk cache stays): for tests."""
    with _locks_lock:
        _loaded.clear()


def expected_score(
    preset: Rules | str = OFFICIAL, *, cache_dir: str | os.PathLike[str] | None = None
) -> float:
    """The expected grand total of optimal solitaire play from an empty card under ``preset``.

    254.58772873 under the official rules, 254.71127259 with the free Joker.
    """
    return load(preset, cache_dir=cache_dir).expected_score


def advise(
    card: Scorecard,
    dice: Iterable[int],
    rolls_left: int,
    preset: Rules | str | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Choice]:
    """Every choice open to the owner of ``card`` with ``dice`` on the table, best first.

    ``rolls_left`` is 2 after the first roll, 1 after the second and 0 after
    the third. With rolls left the choices are which dice to keep (every
    distinct set, from none to four) and which box to score in now; with none,
    only the boxes. Each :class:`Choice` carries the expected final grand total
    (points on the card included) when it is followed by optimal play.

    ``preset`` defaults to the card's rules and must match them. Raises
    :class:`~games.engine.rules.InvalidInputError` for malformed dice, ``rolls_left``
    or card, and :class:`~games.engine.rules.IllegalMoveError` for a complete card.
    """
    if preset is not None:
        rules = _as_rules(preset)
    elif isinstance(card, Scorecard):
        rules = card.rules
    else:
        raise InvalidInputError(f"expected a Scorecard, got {card!r}", code="invalid_card")
    return load(rules, cache_dir=cache_dir).advise(card, dice, rolls_left)
