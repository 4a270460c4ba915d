"""The rules of Yahtzee (and Yatzy), as pure and immutable values.

This module is the single authority on the rules (``shared/RULES.md``). It
imports nothing from Django and never rolls a die: dice values come in from
the caller, so a recorded game replays to exactly the same result.

Every value here is immutable. A command checks its input and either returns
a new value or raises a :class:`RuleError` (a ``ValueError``)::

    >>> card = Scorecard()
    >>> card.options([3, 3, 3, 5, 5])[Category.FULL_HOUSE]
    25
    >>> card = card.score(Category.FULL_HOUSE, [3, 3, 3, 5, 5])
    >>> card.total
    25
    >>> card.score(Category.FULL_HOUSE, [1, 2, 3, 4, 6])
    Traceback (most recent call last):
    ...
    games.engine.boxes.IllegalMoveError: Full house is already filled

A preset (:class:`Rules`) carries its card: the boxes, how each scores, the
bonuses and the Joker. The two Yahtzee presets differ only in what a Yahtzee
may do once the Yahtzee box is filled: :data:`OFFICIAL` forces the Joker,
:data:`FREE_JOKER` lets it go in any empty box. :data:`YATZY` is the
Scandinavian game on the same dice: fifteen boxes, no Yahtzee bonus, no Joker.
"""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from games.engine import events

# The dice, the boxes and the errors live in games.engine.boxes, below the events; they are
# the rules' own names too (``rules.Category``), so re-exported here.
from games.engine.boxes import LOWER as LOWER
from games.engine.boxes import UPPER as UPPER
from games.engine.boxes import Category as Category
from games.engine.boxes import Dice as Dice
from games.engine.boxes import IllegalMoveError as IllegalMoveError
from games.engine.boxes import InvalidInputError as InvalidInputError
from games.engine.boxes import RuleError as RuleError

DICE_COUNT: Final = 5
ROLLS_PER_TURN: Final = 3
MAX_PLAYERS: Final = 6
UPPER_BONUS_THRESHOLD: Final = 63
UPPER_BONUS: Final = 35
YATZY_UPPER_BONUS: Final = 50
YAHTZEE_SCORE: Final = 50
YAHTZEE_BONUS: Final = 100
FULL_HOUSE_SCORE: Final = 25
SMALL_STRAIGHT_SCORE: Final = 30
LARGE_STRAIGHT_SCORE: Final = 40


# --------------------------------------------------------------------------
# How each preset scores a box
# --------------------------------------------------------------------------


_SMALL_RUNS: Final = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS: Final = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def _yahtzee_scoring(category: Category, faces: Dice) -> int:
    """A box of Yahtzee's card by its own rule (no Joker), for five checked dice."""
    counts = Counter(faces)
    if category.is_upper:
        return category.face * counts[category.face]
    most = max(counts.values())
    present = set(faces)
    if category is Category.THREE_OF_A_KIND:
        return sum(faces) if most >= 3 else 0
    if category is Category.FOUR_OF_A_KIND:
        return sum(faces) if most >= 4 else 0
    if category is Category.FULL_HOUSE:
        return FULL_HOUSE_SCORE if sorted(counts.values()) == [2, 3] else 0
    if category is Category.SMALL_STRAIGHT:
        return SMALL_STRAIGHT_SCORE if any(run <= present for run in _SMALL_RUNS) else 0
    if category is Category.LARGE_STRAIGHT:
        return LARGE_STRAIGHT_SCORE if present in _LARGE_RUNS else 0
    if category is Category.YAHTZEE:
        return YAHTZEE_SCORE if most == 5 else 0
    assert category is Category.CHANCE, category
    return sum(faces)


YATZY_SMALL_STRAIGHT: Final = 15
YATZY_LARGE_STRAIGHT: Final = 20


def _yatzy_scoring(category: Category, faces: Dice) -> int:
    """A box of Yatzy's card, for five checked dice: the kinds and pairs count only their dice."""
    counts = Counter(faces)
    if category.is_upper:
        return category.face * counts[category.face]
    if category is Category.ONE_PAIR:
        return 2 * max((face for face, n in counts.items() if n >= 2), default=0)
    if category is Category.TWO_PAIRS:
        pairs = [face for face, n in counts.items() if n >= 2]
        return 2 * sum(pairs) if len(pairs) == 2 else 0
    if category is Category.THREE_OF_A_KIND:
        return 3 * max((face for face, n in counts.items() if n >= 3), default=0)
    if category is Category.FOUR_OF_A_KIND:
        return 4 * max((face for face, n in counts.items() if n >= 4), default=0)
    if category is Category.SMALL_STRAIGHT:
        return YATZY_SMALL_STRAIGHT if sorted(faces) == [1, 2, 3, 4, 5] else 0
    if category is Category.LARGE_STRAIGHT:
        return YATZY_LARGE_STRAIGHT if sorted(faces) == [2, 3, 4, 5, 6] else 0
    if category is Category.FULL_HOUSE:
        return sum(faces) if sorted(counts.values()) == [2, 3] else 0
    if category is Category.YATZY:
        return YAHTZEE_SCORE if len(counts) == 1 else 0
    assert category is Category.CHANCE, category
    return sum(faces)


# --------------------------------------------------------------------------
# Presets
# --------------------------------------------------------------------------

YAHTZEE_BOXES: Final = (*UPPER, *LOWER)
"""Yahtzee's thirteen boxes, in its card's order."""

YATZY_BOXES: Final = (
    *UPPER,
    Category.ONE_PAIR,
    Category.TWO_PAIRS,
    Category.THREE_OF_A_KIND,
    Category.FOUR_OF_A_KIND,
    Category.SMALL_STRAIGHT,
    Category.LARGE_STRAIGHT,
    Category.FULL_HOUSE,
    Category.CHANCE,
    Category.YATZY,
)
"""Yatzy's fifteen boxes, in its card's order."""


@dataclass(frozen=True)
class Rules:
    """A rule preset: the boxes of its card, how each scores, the bonuses and the Joker.

    The two Yahtzee presets share the boxes and differ only in what a Yahtzee may do
    once the Yahtzee box is filled; Yatzy has boxes of its own and neither a Yahtzee
    bonus nor a Joker.
    """

    name: str
    label: str
    forced_joker: bool
    """Under a Joker (see ``joker``): whether it must go in its own upper box first."""
    boxes: tuple[Category, ...] = YAHTZEE_BOXES
    """The card's boxes in the order it prints them; Ones to Sixes always come first."""
    scoring: Callable[[Category, Dice], int] = field(default=_yahtzee_scoring, repr=False)
    """The points five (checked) dice write in a box by its own rule."""
    upper_bonus: int = UPPER_BONUS
    """Earned once the upper boxes add up to ``UPPER_BONUS_THRESHOLD``."""
    yahtzee_bonus: int = YAHTZEE_BONUS
    """Earned by each further Yahtzee while the Yahtzee box holds 50."""
    joker: bool = True
    """Whether a Yahtzee with the Yahtzee box filled is a Joker."""
    _index: Mapping[Category, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if tuple(self.boxes[: len(UPPER)]) != UPPER or len(set(self.boxes)) != len(self.boxes):
            raise ValueError(f"a card starts with Ones to Sixes, each box once: {self.boxes}")
        if (self.joker or self.yahtzee_bonus) and Category.YAHTZEE not in self.boxes:
            raise ValueError("a Joker or a Yahtzee bonus needs the Yahtzee box")
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(self.boxes)})

    def __repr__(self) -> str:
        return self.name.upper()

    @property
    def lower(self) -> tuple[Category, ...]:
        """The boxes below the upper section, in card order."""
        return self.boxes[len(UPPER) :]

    def index(self, category: Category) -> int:
        """Where ``category`` is on this preset's card; ``unknown_category`` if it is not."""
        try:
            return self._index[category]
        except KeyError:
            names = ", ".join(c.value for c in self.boxes)
            raise InvalidInputError(
                f"{self.label} has no box {category.value!r}; its boxes are {names}",
                code="unknown_category",
            ) from None

    def box(self, value: Category | str) -> Category:
        """The box ``value`` names (see :meth:`Category.parse`), checked to be on this card."""
        category = Category.parse(value)
        self.index(category)
        return category


OFFICIAL: Final = Rules("official", "Official (forced Joker)", forced_joker=True)
"""The Hasbro rules: a further Yahtzee must go in its upper box if that is empty."""

FREE_JOKER: Final = Rules("free_joker", "Free Joker (house rule)", forced_joker=False)
"""A common house rule: a further Yahtzee may go in any empty box."""

YATZY: Final = Rules(
    "yatzy",
    "Yatzy (Scandinavian)",
    forced_joker=False,
    boxes=YATZY_BOXES,
    scoring=_yatzy_scoring,
    upper_bonus=YATZY_UPPER_BONUS,
    yahtzee_bonus=0,
    joker=False,
)
"""The Scandinavian game: fifteen boxes, a 50-point upper bonus, no Yatzy bonus, no Joker."""

PRESETS: Final = {rules.name: rules for rules in (OFFICIAL, FREE_JOKER, YATZY)}


def get_rules(name: str) -> Rules:
    """The preset called ``name`` (``"official"``, ``"free_joker"`` or ``"yatzy"``)."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(PRESETS)
        raise InvalidInputError(
            f"unknown rules preset {name!r}; the presets are {known}", code="unknown_rules"
        ) from None


# --------------------------------------------------------------------------
# Dice and box scores
# --------------------------------------------------------------------------


def _whole_numbers(values: list[object] | None, low: int, high: int) -> list[int] | None:
    """``values`` as ints if every one is a whole number from ``low`` to ``high``, else None.

    Integer types such as numpy's are welcome; bool (an int subclass) is not a number here.
    """
    if values is None:
        return None
    numbers = []
    for value in values:
        if isinstance(value, bool):
            return None
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            return None
        if not low <= number <= high:
            return None
        numbers.append(number)
    return numbers


def _as_list(values: object) -> list[object] | None:
    """``values`` as a list, or None for a string or a lone value: those are never dice."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return None
    return list(values)


def parse_dice(dice: Iterable[int]) -> Dice:
    """Check that ``dice`` are five faces from 1 to 6 and return them as a tuple, order kept.

    >>> parse_dice([6, 1, 6, 2, 6])
    (6, 1, 6, 2, 6)
    >>> parse_dice([1, 2, 3])
    Traceback (most recent call last):
    ...
    games.engine.boxes.InvalidInputError: dice must be five whole numbers from 1 to 6, got [1, 2, 3]
    """
    faces = _whole_numbers(_as_list(dice), 1, 6)
    if faces is None or len(faces) != DICE_COUNT:
        raise InvalidInputError(
            f"dice must be five whole numbers from 1 to 6, got {dice!r}", code="invalid_dice"
        )
    return tuple(faces)


def is_yahtzee(dice: Iterable[int]) -> bool:
    """True when all five dice show one face."""
    return len(set(parse_dice(dice))) == 1


def box_score(category: Category, dice: Iterable[int], rules: Rules | None = None) -> int:
    """The points ``dice`` write in ``category`` by the box's own rule, with no Joker.

    ``rules`` defaults to Yahtzee's (both Yahtzee presets score boxes alike).

    >>> box_score(Category.THREES, [3, 3, 1, 3, 6])
    9
    >>> box_score(Category.FULL_HOUSE, [4, 4, 4, 4, 4])
    0
    >>> box_score(Category.THREE_OF_A_KIND, [3, 3, 1, 3, 6], YATZY)
    9
    """
    rules = OFFICIAL if rules is None else rules
    faces = parse_dice(dice)
    return rules.scoring(rules.box(category), faces)


def joker_score(category: Category, dice: Iterable[int]) -> int:
    """The points a Yahtzee used as a Joker writes in a lower box.

    Full house, Small straight and Large straight take their fixed scores; the
    other boxes score as usual (Three and Four of a kind and Chance: the sum).

    >>> joker_score(Category.LARGE_STRAIGHT, [2, 2, 2, 2, 2])
    40
    """
    faces = parse_dice(dice)
    if len(set(faces)) != 1:
        raise InvalidInputError(f"only a Yahtzee can be a Joker, got {faces}", code="not_a_joker")
    fixed = {
        Category.FULL_HOUSE: FULL_HOUSE_SCORE,
        Category.SMALL_STRAIGHT: SMALL_STRAIGHT_SCORE,
        Category.LARGE_STRAIGHT: LARGE_STRAIGHT_SCORE,
    }
    return fixed.get(category, box_score(category, faces))


# --------------------------------------------------------------------------
# The scorecard
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Scorecard:
    """One player's card: the preset's boxes, each empty or filled once, and the Yahtzee bonus
    checks.

    ``boxes`` holds the points of each box in the order of ``rules.boxes``, ``None``
    where the box is empty (left out, every box is). Build cards with ``Scorecard(rules)`` and
    :meth:`score`; :meth:`from_filled` sets one up directly (for tests and
    puzzles).
    """

    rules: Rules = OFFICIAL
    boxes: tuple[int | None, ...] = field(default=(), repr=False)
    yahtzee_bonus_count: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InvalidInputError(f"rules must be a preset, got {self.rules!r}")
        count = len(self.rules.boxes)
        if self.boxes == ():
            object.__setattr__(self, "boxes", (None,) * count)
        if len(self.boxes) != count or not all(
            points is None or (type(points) is int and points >= 0) for points in self.boxes
        ):
            raise InvalidInputError(
                f"a card has {count} boxes of points or None, got {self.boxes!r}"
            )
        if self.yahtzee_bonus_count < 0:
            raise InvalidInputError("the Yahtzee bonus count cannot be negative")

    @classmethod
    def from_filled(
        cls,
        filled: Mapping[Category, int] | Mapping[str, int],
        *,
        rules: Rules = OFFICIAL,
        yahtzee_bonus_count: int = 0,
    ) -> Scorecard:
        """A card whose boxes hold ``filled`` (box to points) and no others."""
        boxes: list[int | None] = [None] * len(rules.boxes)
        for category, points in filled.items():
            boxes[rules.index(Category.parse(category))] = points
        return cls(rules, tuple(boxes), yahtzee_bonus_count)

    # -- what is on the card --------------------------------------------

    def __getitem__(self, category: Category) -> int | None:
        """The points in ``category``, or ``None`` while it is empty.

        ``unknown_category`` for a box this preset's card does not have."""
        return self.boxes[self.rules.index(category)]

    @property
    def filled(self) -> dict[Category, int]:
        """Every filled box with its points, in card order (a fresh dict each time)."""
        return {c: p for c, p in zip(self.rules.boxes, self.boxes, strict=True) if p is not None}

    @property
    def empty(self) -> tuple[Category, ...]:
        """The boxes still open, in card order."""
        return tuple(c for c, p in zip(self.rules.boxes, self.boxes, strict=True) if p is None)

    @property
    def upper_total(self) -> int:
        """Ones to Sixes added up, without the bonus."""
        return sum(self[c] or 0 for c in UPPER)

    @property
    def upper_bonus(self) -> int:
        """The preset's bonus (35, Yatzy's 50) once the upper boxes add up to 63 or more, else 0."""
        return self.rules.upper_bonus if self.upper_total >= UPPER_BONUS_THRESHOLD else 0

    @property
    def lower_total(self) -> int:
        """The lower boxes added up, without the Yahtzee bonus."""
        return sum(self[c] or 0 for c in self.rules.lower)

    @property
    def yahtzee_bonus(self) -> int:
        """100 points for each check in the Yahtzee bonus box (none under Yatzy)."""
        return self.rules.yahtzee_bonus * self.yahtzee_bonus_count

    @property
    def total(self) -> int:
        """The grand total: upper boxes, upper bonus, lower boxes and Yahtzee bonuses."""
        return self.upper_total + self.upper_bonus + self.lower_total + self.yahtzee_bonus

    @property
    def is_complete(self) -> bool:
        """True once every box is filled."""
        return None not in self.boxes

    # -- scoring ----------------------------------------------------------

    def is_joker(self, dice: Iterable[int]) -> bool:
        """True when ``dice`` are a Yahtzee and the Yahtzee box is already filled (50 or 0),
        under a preset with the Joker."""
        return self.rules.joker and is_yahtzee(dice) and self[Category.YAHTZEE] is not None

    def earns_yahtzee_bonus(self, dice: Iterable[int]) -> bool:
        """True when scoring ``dice`` now earns 100: a Yahtzee, with 50 in the Yahtzee box,
        under a preset with the Yahtzee bonus."""
        return (
            self.rules.yahtzee_bonus > 0
            and is_yahtzee(dice)
            and self[Category.YAHTZEE] == YAHTZEE_SCORE
        )

    def options(self, dice: Iterable[int]) -> dict[Category, int]:
        """Every box ``dice`` may be written in now, with the points it would write there.

        The Yahtzee bonus is not included (see :meth:`earns_yahtzee_bonus`).
        Under the forced Joker this can be a single box:

        >>> card = Scorecard.from_filled({"yahtzee": 50})
        >>> card.options([4, 4, 4, 4, 4])
        {<Category.FOURS: 'fours'>: 20}
        """
        faces = parse_dice(dice)
        empty = self.empty
        if not self.is_joker(faces):
            return {c: self.rules.scoring(c, faces) for c in empty}
        if not self.rules.forced_joker:
            return {c: box_score(c, faces) if c.is_upper else joker_score(c, faces) for c in empty}
        own_box = UPPER[faces[0] - 1]
        if own_box in empty:
            return {own_box: box_score(own_box, faces)}
        open_lower = [c for c in empty if not c.is_upper]
        if open_lower:
            return {c: joker_score(c, faces) for c in open_lower}
        return {c: 0 for c in empty}

    def score(self, category: Category | str, dice: Iterable[int]) -> Scorecard:
        """The card after writing ``dice`` in ``category``, Yahtzee bonus included.

        Raises :class:`IllegalMoveError` when the box is filled, or when the
        forced Joker sends this roll elsewhere.
        """
        category = self.rules.box(category)
        faces = parse_dice(dice)
        options = self.options(faces)
        if category not in options:
            raise self._why_not(category, faces, options)
        boxes = list(self.boxes)
        boxes[self.rules.index(category)] = options[category]
        bonus = 1 if self.earns_yahtzee_bonus(faces) else 0
        return Scorecard(self.rules, tuple(boxes), self.yahtzee_bonus_count + bonus)

    def _why_not(
        self, category: Category, dice: Dice, options: Mapping[Category, int]
    ) -> IllegalMoveError:
        if self.is_complete:
            return IllegalMoveError("the card is complete", code="card_complete")
        if self[category] is not None:
            return IllegalMoveError(f"{category.label} is already filled", code="box_filled")
        allowed = " or ".join(c.label for c in options)
        return IllegalMoveError(
            f"the Joker rule sends {' '.join(map(str, dice))} to {allowed}, not {category.label}",
            code="joker_forced",
        )


# --------------------------------------------------------------------------
# A turn
# --------------------------------------------------------------------------


def parse_hold(hold: Iterable[int]) -> frozenset[int]:
    """Check that ``hold`` names dice by position 0 to 4, each once, and return the set."""
    positions = _whole_numbers(_as_list(hold), 0, DICE_COUNT - 1)
    if positions is None:
        raise InvalidInputError(
            f"dice to hold are positions 0 to 4, got {hold!r}", code="invalid_hold"
        )
    if len(set(positions)) != len(positions):
        raise InvalidInputError(f"each die can be held once, got {hold!r}", code="invalid_hold")
    return frozenset(positions)


@dataclass(frozen=True)
class Turn:
    """One player's turn: the dice on the table and how many rolls are used.

    ``dice`` is ``None`` until the first roll. ``held`` is the set of positions
    held now: the dice the last roll kept, until :meth:`hold` chooses others.
    It is what the player shows everyone; the next roll still names its own.
    """

    dice: Dice | None = None
    rolls_used: int = 0
    held: frozenset[int] = frozenset()

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn: 3 before the first, 0 after the third."""
        return ROLLS_PER_TURN - self.rolls_used

    @property
    def has_rolled(self) -> bool:
        """True once the first roll is on the table; only then can the player score."""
        return self.dice is not None

    def to_throw(self, hold: Iterable[int] = ()) -> int:
        """How many fresh dice a roll keeping ``hold`` needs; checks the roll is allowed."""
        return self._throw_count(parse_hold(hold))

    def _throw_count(self, kept: frozenset[int]) -> int:
        if self.rolls_left <= 0:
            raise IllegalMoveError(
                "no rolls left: score this roll in an empty box", code="no_rolls_left"
            )
        if self.dice is None and kept:
            raise IllegalMoveError(
                "the first roll throws all five dice; nothing can be held yet",
                code="hold_before_roll",
            )
        if len(kept) == DICE_COUNT:
            raise InvalidInputError("every die is held: nothing to roll", code="invalid_hold")
        return DICE_COUNT - len(kept)

    def hold(self, hold: Iterable[int]) -> Turn:
        """The turn with the dice at ``hold`` held, ready for the next roll; nothing is thrown.

        Holding is allowed only when a roll could follow: after the first roll,
        with a roll left, and with at least one die to throw.

        >>> Turn().roll([1, 2, 3, 4, 5]).hold([4, 0]).held
        frozenset({0, 4})
        """
        kept = parse_hold(hold)  # Once: ``hold`` may be an iterator.
        if self.dice is None:
            raise IllegalMoveError(
                "roll the dice before holding any: the first roll throws all five",
                code="hold_before_roll",
            )
        self._throw_count(kept)  # Raises no_rolls_left, or invalid_hold for all five.
        return Turn(dice=self.dice, rolls_used=self.rolls_used, held=kept)

    def roll(self, fresh: Iterable[int], hold: Iterable[int] = ()) -> Turn:
        """The turn after keeping the dice at ``hold`` and throwing the rest.

        ``fresh`` are the new faces, one per thrown die, in position order.

        >>> Turn().roll([1, 2, 3, 4, 5]).roll([6, 6], hold=[1, 2, 3]).dice
        (6, 2, 3, 4, 6)
        """
        kept = parse_hold(hold)  # Once: ``hold`` may be an iterator.
        count = self._throw_count(kept)
        faces = _whole_numbers(_as_list(fresh), 1, 6)
        if faces is None or len(faces) != count:
            raise InvalidInputError(
                f"this roll throws {count} dice and needs {count} faces from 1 to 6, got {fresh!r}",
                code="invalid_dice",
            )
        fresh_faces = iter(faces)
        old = self.dice or (0,) * DICE_COUNT
        dice = tuple(old[i] if i in kept else next(fresh_faces) for i in range(DICE_COUNT))
        return Turn(dice=dice, rolls_used=self.rolls_used + 1, held=kept)


# --------------------------------------------------------------------------
# A decision point
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A player's decision point: the rules, the seat, its card and where its turn stands.

    The one value the coach, the bots and the analysis decide from. ``dice``
    is ``None`` before the turn's first roll (then ``rolls_left`` is 3 and
    nothing is held); ``held`` are the positions of the dice held now, sorted.
    Ask a game for its seat on turn with :meth:`Game.position`:

    >>> Game.new(1).roll(0, [6, 1, 6, 2, 6]).game.hold(0, [4, 0, 2]).game.position()
    Position(rules=OFFICIAL, seat=0, dice=(6, 1, 6, 2, 6), rolls_left=2, held=(0, 2, 4))
    """

    rules: Rules
    seat: int
    card: Scorecard = field(repr=False)
    dice: Dice | None = None
    rolls_left: int = ROLLS_PER_TURN
    held: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.card, Scorecard) or self.card.rules != self.rules:
            raise InvalidInputError(
                f"the card must be played under {self.rules!r}, got {self.card!r}",
                code="invalid_card",
            )
        if self.dice is None:
            fits = self.rolls_left == ROLLS_PER_TURN and self.held == ()
        else:
            fits = (
                parse_dice(self.dice) == self.dice
                and self.rolls_left in range(ROLLS_PER_TURN)
                and tuple(sorted(parse_hold(self.held))) == self.held
            )
        if not fits:
            raise InvalidInputError(
                f"no turn has dice {self.dice!r}, {self.rolls_left!r} rolls left "
                f"and {self.held!r} held",
                code="invalid_position",
            )

    @property
    def has_rolled(self) -> bool:
        """True once the turn's first roll is on the table: only then is there a choice."""
        return self.dice is not None


# --------------------------------------------------------------------------
# Who starts
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class RollOff:
    """The roll for the first turn: every contender throws five dice; ties for highest roll again.

    ``rounds`` records every throw as ``(seat, dice)`` pairs, so everyone can be shown it.
    """

    contenders: tuple[int, ...]
    rounds: tuple[tuple[tuple[int, Dice], ...], ...] = ()

    @property
    def winner(self) -> int | None:
        """The seat that goes first, once one contender is left."""
        return self.contenders[0] if len(self.contenders) == 1 else None

    def throw(self, dice_by_seat: Mapping[int, Iterable[int]]) -> RollOff:
        """The roll-off after each contender throws; the highest totals stay in contention.

        >>> first = RollOff((0, 1, 2)).throw({0: [6, 6, 1, 1, 1], 1: [5, 5, 3, 1, 1], 2: [2] * 5})
        >>> first.contenders
        (0, 1)
        """
        if self.winner is not None:
            raise IllegalMoveError("the roll-off is already decided", code="roll_off_decided")
        if sorted(dice_by_seat) != sorted(self.contenders):
            raise InvalidInputError(
                f"seats {list(self.contenders)} throw in this round, got {sorted(dice_by_seat)}",
                code="invalid_roll_off",
            )
        throws = tuple((seat, parse_dice(dice_by_seat[seat])) for seat in self.contenders)
        best = max(sum(dice) for _, dice in throws)
        return RollOff(
            contenders=tuple(seat for seat, dice in throws if sum(dice) == best),
            rounds=(*self.rounds, throws),
        )

    def without(self, seat: int) -> RollOff:
        """The roll-off after ``seat`` leaves it."""
        return RollOff(tuple(s for s in self.contenders if s != seat), self.rounds)


# --------------------------------------------------------------------------
# A game
# --------------------------------------------------------------------------


class Phase(enum.Enum):
    """Where a game stands."""

    ROLL_OFF = "roll_off"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True)
class Outcome:
    """Who stands where: every seat's total, its place, the winners, and who left.

    The one answer to "who won" for every page, export and statistic. Places
    count from 1 and ties share one (two seats on 250 are both 1st, the next is
    3rd). A seat that left has no place and cannot win; its card stands as it was.
    """

    totals: tuple[int, ...]
    #: Each seat's place among those still in the game; ``None`` for a seat that left.
    places: tuple[int | None, ...]
    #: The seats in first place once the game is over (ties share); empty before, and
    #: when everybody left.
    winners: tuple[int, ...]
    left: frozenset[int]
    is_over: bool

    @property
    def solo(self) -> bool:
        """A game of one seat: there is nobody to beat, so it is never a win."""
        return len(self.totals) == 1


class Progress(NamedTuple):
    """What a command did: the game after it and the events it caused, in order."""

    game: Game
    events: tuple[events.PlayEvent, ...]


@dataclass(frozen=True)
class Game:
    """A whole game: the cards by seat, the roll-off, whose turn it is and that turn.

    Seats are numbered from 0. Play starts with the roll-off winner and goes
    round in seat order; seats that left the game are skipped, and their
    cards stand as they were. Start one with :meth:`new`. Every command returns
    a :class:`Progress`, the new game with the events it caused:

    >>> game, happened = Game.new(1).roll(0, [6, 6, 6, 6, 6])
    >>> happened
    (Rolled(seat=0, dice=(6, 6, 6, 6, 6), held=(), by=None),)
    >>> game.score(0, "yahtzee").events[0].points
    50
    """

    rules: Rules
    cards: tuple[Scorecard, ...]
    roll_off: RollOff
    current: int | None = None
    turn: Turn = Turn()
    left: frozenset[int] = frozenset()

    @classmethod
    def new(cls, players: int, rules: Rules = OFFICIAL) -> Game:
        """A game for ``players`` seats (1 to 6). With one seat there is no roll-off."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidInputError(f"players must be a whole number, got {players!r}")
        if not 1 <= players <= MAX_PLAYERS:
            raise InvalidInputError(
                f"a game has 1 to {MAX_PLAYERS} players, got {players}", code="invalid_players"
            )
        game = cls(
            rules, tuple(Scorecard(rules) for _ in range(players)), RollOff(tuple(range(players)))
        )
        return game._start_if_decided()

    # -- state --------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many seats the game has."""
        return len(self.cards)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(s for s in range(self.players) if s not in self.left)

    @property
    def phase(self) -> Phase:
        """Roll-off, playing or finished."""
        if self.is_over:
            return Phase.FINISHED
        return Phase.ROLL_OFF if self.current is None else Phase.PLAYING

    @property
    def is_over(self) -> bool:
        """True when every seat still in the game has a complete card (or nobody is left)."""
        return all(self.cards[s].is_complete for s in self.active)

    @property
    def round(self) -> int:
        """The round being played, 1 to 13 (15 under Yatzy; the last once the game is over)."""
        if self.current is None:
            return 1
        return min(len(self.cards[self.current].filled) + 1, len(self.rules.boxes))

    @property
    def on_turn(self) -> int | None:
        """The seat whose turn it is; ``None`` during the roll-off and once the game is over."""
        return None if self.is_over else self.current

    def position(self) -> Position | None:
        """The decision point of the seat on turn; ``None`` when no seat is (see :attr:`on_turn`).

        >>> game = Game.new(2)
        >>> game.position() is None  # The roll-off decides who starts.
        True
        >>> game = game.throw_roll_off({0: [1, 1, 1, 1, 1], 1: [6, 6, 6, 6, 6]}).game
        >>> game.position()
        Position(rules=OFFICIAL, seat=1, dice=None, rolls_left=3, held=())
        >>> game.roll(1, [2, 2, 5, 5, 1]).game.position().dice
        (2, 2, 5, 5, 1)
        """
        seat = self.on_turn
        if seat is None:
            return None
        turn = self.turn
        return Position(
            self.rules, seat, self.cards[seat], turn.dice, turn.rolls_left, tuple(sorted(turn.held))
        )

    def outcome(self) -> Outcome:
        """The totals, places and winners as they stand (winners only once the game is over).

        >>> game = Game.new(1)
        >>> game.outcome().places, game.outcome().winners
        ((1,), ())
        """
        totals = tuple(card.total for card in self.cards)
        stayed = self.active
        places = tuple(
            None if s in self.left else 1 + sum(totals[o] > totals[s] for o in stayed)
            for s in range(self.players)
        )
        over = self.is_over
        winners = tuple(s for s in stayed if places[s] == 1) if over else ()
        return Outcome(totals, places, winners, self.left, over)

    # -- commands -----------------------------------------------------------

    def throw_roll_off(self, dice_by_seat: Mapping[int, Iterable[int]]) -> Progress:
        """One round of the roll-off; play starts once it is decided."""
        if self.phase is not Phase.ROLL_OFF:
            raise IllegalMoveError("the roll-off is over", code="roll_off_decided")
        roll_off = self.roll_off.throw(dice_by_seat)
        game = Game(self.rules, self.cards, roll_off, left=self.left)._start_if_decided()
        thrown = events.RollOffThrown(roll_off.rounds[-1], roll_off.contenders, game.current)
        return Progress(game, (thrown,))

    def roll(self, seat: int, fresh: Iterable[int], hold: Iterable[int] = ()) -> Progress:
        """``seat`` keeps the dice at ``hold`` and throws the rest, which land as ``fresh``."""
        self._check_turn(seat)
        turn = self.turn.roll(fresh, hold)
        game = Game(self.rules, self.cards, self.roll_off, seat, turn, self.left)
        assert turn.dice is not None
        return Progress(game, (events.Rolled(seat, turn.dice, tuple(sorted(turn.held))),))

    def hold(self, seat: int, hold: Iterable[int]) -> Progress:
        """``seat`` holds the dice at ``hold`` for the next roll; none is thrown."""
        self._check_turn(seat)
        turn = self.turn.hold(hold)
        game = Game(self.rules, self.cards, self.roll_off, seat, turn, self.left)
        return Progress(game, (events.Held(seat, tuple(sorted(turn.held))),))

    def score(self, seat: int, category: Category | str) -> Progress:
        """``seat`` writes the dice on the table in ``category``; the turn passes on."""
        self._check_turn(seat)
        dice = self.turn.dice
        if dice is None:
            raise IllegalMoveError("roll the dice before scoring", code="not_rolled")
        box = self.rules.box(category)
        before = self.cards[seat]
        cards = list(self.cards)
        cards[seat] = card = before.score(box, dice)
        game = Game(self.rules, tuple(cards), self.roll_off, seat, Turn(), self.left)._pass_turn()
        points = card[box]
        assert points is not None
        bonus = card.yahtzee_bonus_count > before.yahtzee_bonus_count
        scored = events.Scored(seat, box, points, dice, bonus, game.on_turn)
        return Progress(game, (scored, *game._finished()))

    def leave(self, seat: int) -> Progress:
        """``seat`` leaves: its turns are skipped and its card stands."""
        self._check_seat(seat)
        if self.is_over:
            raise IllegalMoveError("the game is over", code="game_over")
        if seat in self.left:
            raise IllegalMoveError(f"seat {seat} has already left", code="already_left")
        left = self.left | {seat}
        if self.current is None:
            # Leaving the roll-off one seat at a time always leaves a contender: the roll-off
            # is decided, and play starts, as soon as only one is left.
            game = Game(
                self.rules, self.cards, self.roll_off.without(seat), left=left
            )._start_if_decided()
        elif seat != self.current:
            game = Game(self.rules, self.cards, self.roll_off, self.current, self.turn, left)
        else:
            game = Game(self.rules, self.cards, self.roll_off, seat, Turn(), left)._pass_turn()
        return Progress(game, (events.Left(seat, game.on_turn), *game._finished()))

    # -- helpers ------------------------------------------------------------

    def _finished(self) -> tuple[events.Finished, ...]:
        """The end of the game, when the command just made has ended it."""
        if not self.is_over:
            return ()
        outcome = self.outcome()
        return (events.Finished(outcome.winners, outcome.totals),)

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidInputError(f"no seat {seat!r} in this game", code="invalid_seat")

    def _check_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if self.is_over:
            raise IllegalMoveError("the game is over", code="game_over")
        if self.current is None:
            raise IllegalMoveError("the roll-off decides who starts first", code="roll_off_pending")
        if seat != self.current:
            raise IllegalMoveError(
                f"it is seat {self.current}'s turn, not seat {seat}'s", code="not_your_turn"
            )

    def _start_if_decided(self) -> Game:
        first = self.roll_off.winner
        if first is None:
            return self
        return Game(self.rules, self.cards, self.roll_off, first, Turn(), self.left)

    def _pass_turn(self) -> Game:
        """The next seat still in the game with an open box, going round from the current one."""
        assert self.current is not None
        if self.is_over:
            return self
        for step in range(1, self.players + 1):
            seat = (self.current + step) % self.players
            if seat not in self.left and not self.cards[seat].is_complete:
                return Game(self.rules, self.cards, self.roll_off, seat, Turn(), self.left)
        raise AssertionError("a game that is not over has a seat to play")  # pragma: no cover
