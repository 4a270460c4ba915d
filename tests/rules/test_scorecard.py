"""The scorecard as a value: immutability, refusals with stable codes, parsing, totals."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

import pytest

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    YAHTZEE_BOXES,
    Category,
    IllegalMoveError,
    InvalidInputError,
    RuleError,
    Scorecard,
    box_score,
    get_rules,
    is_yahtzee,
    parse_dice,
)

from .helpers import dice, raises_code

C = Category


def full_card() -> Scorecard:
    return Scorecard.from_filled(dict.fromkeys(YAHTZEE_BOXES, 0))


# -- immutability -----------------------------------------------------------------


def test_score_returns_a_new_card_and_leaves_the_old_one_unchanged() -> None:
    before = Scorecard()
    after = before.score(C.CHANCE, dice("6 5 4 3 1"))
    assert after is not before
    assert before == Scorecard()
    assert before.filled == {}
    assert after.filled == {C.CHANCE: 19}


def test_scorecard_is_frozen() -> None:
    card = Scorecard()
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.boxes = (0,) * 13  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.yahtzee_bonus_count = 3  # type: ignore[misc]
    assert card.yahtzee_bonus_count == 0


def test_filled_is_a_fresh_dict() -> None:
    card = Scorecard.from_filled({C.ONES: 3})
    card.filled[C.TWOS] = 4
    assert card.filled == {C.ONES: 3}


# -- refusals -----------------------------------------------------------------------


def test_filled_box_is_refused() -> None:
    card = Scorecard().score(C.FULL_HOUSE, dice("3 3 3 5 5"))
    with raises_code("box_filled", IllegalMoveError):
        card.score(C.FULL_HOUSE, dice("2 2 4 4 4"))
    assert C.FULL_HOUSE not in card.options(dice("2 2 4 4 4"))


def test_filled_box_is_refused_even_with_zero_in_it() -> None:
    card = Scorecard().score(C.YAHTZEE, dice("1 2 3 4 6"))
    with raises_code("box_filled", IllegalMoveError):
        card.score(C.YAHTZEE, dice("5 5 5 5 5"))


@pytest.mark.parametrize("roll", ["1 2 3 4 6", "5 5 5 5 5"])
def test_complete_card_is_refused_and_offers_nothing(roll: str) -> None:
    card = full_card()
    assert card.is_complete
    assert card.options(dice(roll)) == {}
    with raises_code("card_complete", IllegalMoveError):
        card.score(C.CHANCE, dice(roll))


BAD_DICE = [
    pytest.param([1, 2, 3, 4], id="four dice"),
    pytest.param([1, 2, 3, 4, 5, 6], id="six dice"),
    pytest.param([], id="no dice"),
    pytest.param([0, 1, 2, 3, 4], id="face 0"),
    pytest.param([1, 2, 3, 4, 7], id="face 7"),
    pytest.param([-1, 2, 3, 4, 5], id="face -1"),
    pytest.param([3.0, 1, 2, 3, 4], id="float 3.0"),
    pytest.param(["1", 2, 3, 4, 5], id="string face"),
    pytest.param("12345", id="string of five"),
    pytest.param(b"\x01\x02\x03\x04\x05", id="bytes"),
    pytest.param([True, 1, 2, 3, 4], id="True"),
    pytest.param([None, 1, 2, 3, 4], id="None face"),
    pytest.param(None, id="None"),
    pytest.param(12345, id="non-iterable int"),
]
DICE_TAKERS = [
    pytest.param(parse_dice, id="parse_dice"),
    pytest.param(is_yahtzee, id="is_yahtzee"),
    pytest.param(lambda d: box_score(C.CHANCE, d), id="box_score"),
    pytest.param(Scorecard().options, id="options"),
    pytest.param(lambda d: Scorecard().score(C.CHANCE, d), id="score"),
]


@pytest.mark.parametrize("take", DICE_TAKERS)
@pytest.mark.parametrize("bad", BAD_DICE)
def test_invalid_dice_are_refused(take: Callable[[object], object], bad: object) -> None:
    with raises_code("invalid_dice", InvalidInputError):
        take(bad)
    with pytest.raises(ValueError, match="five whole numbers from 1 to 6"):
        take(bad)


@pytest.mark.parametrize("good", [[6, 1, 6, 2, 6], (6, 1, 6, 2, 6), iter([6, 1, 6, 2, 6])])
def test_parse_dice_keeps_order_and_returns_a_tuple(good: Iterable[int]) -> None:
    assert parse_dice(good) == (6, 1, 6, 2, 6)


class Index:
    """An integer type that is not int, as numpy's are: it converts through ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_integer_types_other_than_int_are_faces() -> None:
    assert parse_dice([Index(6), 1, Index(6), 2, 6]) == (6, 1, 6, 2, 6)
    assert all(type(face) is int for face in parse_dice(map(Index, [1, 2, 3, 4, 5])))
    with raises_code("invalid_dice", InvalidInputError):
        parse_dice([Index(7), 1, 2, 3, 4])


def test_error_classes() -> None:
    assert issubclass(InvalidInputError, RuleError)
    assert issubclass(IllegalMoveError, RuleError)
    assert issubclass(RuleError, ValueError)
    assert RuleError("x").code == "rule_error"
    assert InvalidInputError("x").code == "invalid_input"
    assert IllegalMoveError("x", code="special").code == "special"


# -- naming boxes and presets ---------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["full_house", "Full house", "FULL HOUSE", "  full   house ", "full-house", C.FULL_HOUSE],
)
def test_category_parse_accepts(name: Category | str) -> None:
    assert Category.parse(name) is C.FULL_HOUSE


@pytest.mark.parametrize("name", ["fullhouse", "", "bonus", "upper_bonus", 9, None, b"chance"])
def test_category_parse_refuses_unknown_boxes(name: object) -> None:
    with raises_code("unknown_category", InvalidInputError):
        Category.parse(name)


def test_score_takes_a_box_name_and_refuses_an_unknown_one() -> None:
    card = Scorecard().score("Small straight", dice("4 3 2 1 1"))
    assert card.filled == {C.SMALL_STRAIGHT: 30}
    with raises_code("unknown_category", InvalidInputError):
        card.score("straight", dice("4 3 2 1 1"))


def test_category_labels_faces_and_sections() -> None:
    assert [c.label for c in YAHTZEE_BOXES][:3] == ["Ones", "Twos", "Threes"]
    assert C.THREE_OF_A_KIND.label == "Three of a kind"
    assert [c.face for c in YAHTZEE_BOXES if c.is_upper] == [1, 2, 3, 4, 5, 6]
    assert sum(c.is_upper for c in YAHTZEE_BOXES) == 6
    with pytest.raises(ValueError, match="no single face"):
        _ = C.CHANCE.face


def test_get_rules() -> None:
    assert get_rules("official") is OFFICIAL
    assert get_rules("free_joker") is FREE_JOKER
    assert OFFICIAL.forced_joker
    assert not FREE_JOKER.forced_joker
    for unknown in ("house", None):
        with raises_code("unknown_rules", InvalidInputError):
            get_rules(unknown)  # type: ignore[arg-type]


# -- from_filled and totals ----------------------------------------------------------


def test_from_filled_accepts_names_and_boxes() -> None:
    card = Scorecard.from_filled(
        {"sixes": 24, C.CHANCE: 22, "Full house": 25}, rules=FREE_JOKER, yahtzee_bonus_count=1
    )
    assert card.rules is FREE_JOKER
    assert card.filled == {C.SIXES: 24, C.FULL_HOUSE: 25, C.CHANCE: 22}
    assert list(card.filled) == [C.SIXES, C.FULL_HOUSE, C.CHANCE]  # card order
    assert card[C.SIXES] == 24
    assert card[C.ONES] is None
    assert len(card.empty) == 10
    assert card.yahtzee_bonus_count == 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"boxes": (None,) * 12},
        {"boxes": (-1,) + (None,) * 12},
        {"boxes": ("5",) + (None,) * 12},
        {"boxes": (True,) + (None,) * 12},
        {"yahtzee_bonus_count": -1},
        {"rules": "official"},
    ],
)
def test_malformed_cards_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        Scorecard(**kwargs)


@pytest.mark.parametrize(
    ("filled", "bonuses", "parts"),  # parts: upper, upper bonus, lower, grand total
    [
        ({}, 0, (0, 0, 0, 0)),
        ({C.ONES: 3, C.SIXES: 18, C.CHANCE: 22}, 0, (21, 0, 22, 43)),
        (
            {C.ONES: 2, C.TWOS: 6, C.THREES: 9, C.FOURS: 12, C.FIVES: 15, C.SIXES: 18},
            0,
            (62, 0, 0, 62),
        ),
        (
            {C.ONES: 3, C.TWOS: 6, C.THREES: 9, C.FOURS: 12, C.FIVES: 15, C.SIXES: 18},
            0,
            (63, 35, 0, 98),
        ),
        (
            {C.SIXES: 30, C.FIVES: 25, C.FOURS: 8, C.YAHTZEE: 50, C.FULL_HOUSE: 25},
            2,
            (63, 35, 75, 373),
        ),
        ({C.YAHTZEE: 0, C.LARGE_STRAIGHT: 40, C.SMALL_STRAIGHT: 30}, 0, (0, 0, 70, 70)),
    ],
)
def test_totals(filled: dict[Category, int], bonuses: int, parts: tuple[int, ...]) -> None:
    card = Scorecard.from_filled(filled, yahtzee_bonus_count=bonuses)
    upper, upper_bonus, lower, total = parts
    assert (card.upper_total, card.upper_bonus, card.lower_total) == (upper, upper_bonus, lower)
    assert card.yahtzee_bonus == 100 * bonuses
    assert card.total == total


def test_is_complete_only_with_all_thirteen_boxes() -> None:
    card = Scorecard()
    for box in YAHTZEE_BOXES:
        assert not card.is_complete
        card = card.score(box, dice("1 2 3 4 6"))
    assert card.is_complete
    assert card.total == 1 + 2 + 3 + 4 + 6 + 30 + 16
