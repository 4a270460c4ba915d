"""A Yahtzee when the Yahtzee box is filled: the bonus and the Joker, under both presets.

RULES.md, "A Yahtzee when the Yahtzee box is already filled", and the figures
every implementation must reproduce (1575, 140, the upper bonus at 63).
"""

from __future__ import annotations

import itertools

import pytest

from games.engine.rules import (
    FREE_JOKER,
    LOWER,
    OFFICIAL,
    UPPER,
    Category,
    IllegalMoveError,
    InvalidInputError,
    Rules,
    Scorecard,
    box_score,
    joker_score,
)

from .helpers import dice, raises_code, upper_box, yahtzee_of

C = Category
FACES = range(1, 7)
JOKER_LOWER = tuple(c for c in LOWER if c is not C.YAHTZEE)


def joker_lower(face: int) -> dict[Category, int]:
    """A Yahtzee of ``face`` as a Joker in the lower boxes: 25/30/40 and the sum elsewhere."""
    points = {C.FULL_HOUSE: 25, C.SMALL_STRAIGHT: 30, C.LARGE_STRAIGHT: 40}
    return {c: points.get(c, 5 * face) for c in JOKER_LOWER}


def spare_uppers(face: int) -> tuple[Category, Category]:
    """Two upper boxes that are not ``face``'s own."""
    return upper_box(face % 6 + 1), upper_box((face + 1) % 6 + 1)


def card_in(state: str, face: int, yahtzee: int, rules: Rules, bonuses: int = 0) -> Scorecard:
    """A card with ``yahtzee`` in the Yahtzee box and, for a Yahtzee of ``face``, in ``state``:

    - ``own_upper_empty``: nothing else filled;
    - ``own_upper_filled``: the upper box of ``face`` filled;
    - ``some_lower_filled``: that, and Full house and Large straight;
    - ``no_lower_empty``: every lower box filled, and every upper box but two spare ones.
    """
    filled: dict[Category, int] = {C.YAHTZEE: yahtzee}
    if state != "own_upper_empty":
        filled[upper_box(face)] = 3 * face
    if state == "some_lower_filled":
        filled |= {C.FULL_HOUSE: 25, C.LARGE_STRAIGHT: 0}
    if state == "no_lower_empty":
        filled |= {c: 0 for c in (*UPPER, *LOWER) if c not in filled}
        for spare in spare_uppers(face):
            del filled[spare]
    return Scorecard.from_filled(filled, rules=rules, yahtzee_bonus_count=bonuses)


STATES = ("own_upper_empty", "own_upper_filled", "some_lower_filled", "no_lower_empty")
JOKER_CASES = list(itertools.product(STATES, FACES, (50, 0)))
JOKER_IDS = [f"{state}-{face}s-ybox{points}" for state, face, points in JOKER_CASES]
joker_cases = pytest.mark.parametrize(("state", "face", "yahtzee"), JOKER_CASES, ids=JOKER_IDS)


# -- the Yahtzee box still empty: a Yahtzee is an ordinary roll ---------------


@pytest.mark.parametrize("face", FACES)
def test_yahtzee_is_ordinary_while_yahtzee_box_is_empty(rules: Rules, face: int) -> None:
    expected = {c: (5 * face if c.face == face else 0) for c in UPPER}
    expected |= {C.THREE_OF_A_KIND: 5 * face, C.FOUR_OF_A_KIND: 5 * face, C.CHANCE: 5 * face}
    expected |= {C.FULL_HOUSE: 0, C.SMALL_STRAIGHT: 0, C.LARGE_STRAIGHT: 0, C.YAHTZEE: 50}
    assert Scorecard(rules).options(yahtzee_of(face)) == expected


def test_yahtzee_with_own_upper_filled_is_not_forced_while_yahtzee_box_is_empty(
    rules: Rules,
) -> None:
    card = Scorecard.from_filled({C.FOURS: 12, C.CHANCE: 20}, rules=rules)
    options = card.options(yahtzee_of(4))
    assert set(options) == set(card.empty)
    assert options[C.FULL_HOUSE] == options[C.SMALL_STRAIGHT] == options[C.LARGE_STRAIGHT] == 0
    assert options[C.ONES] == 0
    assert options[C.YAHTZEE] == 50


@pytest.mark.parametrize(
    ("box", "points"),
    [(C.SIXES, 30), (C.FULL_HOUSE, 0), (C.LARGE_STRAIGHT, 0), (C.ONES, 0), (C.YAHTZEE, 50)],
)
def test_first_yahtzee_scores_ordinary_points_and_no_bonus(
    rules: Rules, box: Category, points: int
) -> None:
    card = Scorecard(rules).score(box, yahtzee_of(6))
    assert card[box] == points
    assert card.yahtzee_bonus_count == 0
    assert card.total == points


# -- the Yahtzee bonus ----------------------------------------------------------


@joker_cases
def test_yahtzee_bonus_wherever_the_joker_is_scored(
    rules: Rules, state: str, face: int, yahtzee: int
) -> None:
    bonus = 1 if yahtzee == 50 else 0
    card = card_in(state, face, yahtzee, rules, bonuses=2 * bonus)  # checks only beside a 50
    options = card.options(yahtzee_of(face))
    assert options
    for box, points in options.items():
        after = card.score(box, yahtzee_of(face))
        assert after[box] == points
        assert after.yahtzee_bonus_count == 3 * bonus
        assert after.total - card.total == points + 100 * bonus  # uppers stay far below 63


def test_yahtzee_bonus_needs_fifty_in_yahtzee_box_not_zero(rules: Rules) -> None:
    fifty = Scorecard(rules).score(C.YAHTZEE, yahtzee_of(2))
    zero = Scorecard(rules).score(C.YAHTZEE, dice("1 2 3 4 6"))
    assert (fifty[C.YAHTZEE], zero[C.YAHTZEE]) == (50, 0)
    assert fifty.earns_yahtzee_bonus(yahtzee_of(3))
    assert not zero.earns_yahtzee_bonus(yahtzee_of(3))
    assert not fifty.earns_yahtzee_bonus(dice("3 3 3 3 1"))
    assert fifty.score(C.THREES, yahtzee_of(3)).yahtzee_bonus_count == 1
    assert zero.score(C.THREES, yahtzee_of(3)).yahtzee_bonus_count == 0


# -- the official preset: the forced Joker -------------------------------------


@pytest.mark.parametrize("yahtzee", [50, 0])
@pytest.mark.parametrize("face", FACES)
def test_forced_joker_must_take_its_own_empty_upper_box(face: int, yahtzee: int) -> None:
    card = card_in("own_upper_empty", face, yahtzee, OFFICIAL)
    assert card.options(yahtzee_of(face)) == {upper_box(face): 5 * face}


@pytest.mark.parametrize("yahtzee", [50, 0])
@pytest.mark.parametrize("face", FACES)
def test_forced_joker_goes_to_any_empty_lower_box_once_own_upper_is_filled(
    face: int, yahtzee: int
) -> None:
    card = card_in("own_upper_filled", face, yahtzee, OFFICIAL)
    assert card.options(yahtzee_of(face)) == joker_lower(face)
    partly = card_in("some_lower_filled", face, yahtzee, OFFICIAL)
    expected = {c: p for c, p in joker_lower(face).items() if c not in partly.filled}
    assert partly.options(yahtzee_of(face)) == expected
    assert C.FULL_HOUSE not in expected


@pytest.mark.parametrize("yahtzee", [50, 0])
@pytest.mark.parametrize("face", FACES)
def test_forced_joker_scratches_an_upper_box_when_no_lower_box_is_empty(
    face: int, yahtzee: int
) -> None:
    card = card_in("no_lower_empty", face, yahtzee, OFFICIAL)
    assert card.options(yahtzee_of(face)) == dict.fromkeys(spare_uppers(face), 0)


@joker_cases
def test_forced_joker_refuses_every_other_empty_box(state: str, face: int, yahtzee: int) -> None:
    card = card_in(state, face, yahtzee, OFFICIAL)
    allowed = card.options(yahtzee_of(face))
    refused = [box for box in card.empty if box not in allowed]
    assert refused or state == "no_lower_empty"
    for box in refused:
        with raises_code("joker_forced", IllegalMoveError):
            card.score(box, yahtzee_of(face))


def test_forced_joker_known_answers_for_fours() -> None:
    assert card_in("own_upper_empty", 4, 50, OFFICIAL).options(yahtzee_of(4)) == {C.FOURS: 20}
    assert card_in("own_upper_filled", 4, 50, OFFICIAL).options(yahtzee_of(4)) == {
        C.THREE_OF_A_KIND: 20,
        C.FOUR_OF_A_KIND: 20,
        C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30,
        C.LARGE_STRAIGHT: 40,
        C.CHANCE: 20,
    }
    assert card_in("no_lower_empty", 4, 0, OFFICIAL).options(yahtzee_of(4)) == {
        C.FIVES: 0,
        C.SIXES: 0,
    }


# -- the free Joker preset ------------------------------------------------------


@joker_cases
def test_free_joker_takes_any_empty_box(state: str, face: int, yahtzee: int) -> None:
    card = card_in(state, face, yahtzee, FREE_JOKER)
    own = upper_box(face)
    expected: dict[Category, int] = {c: 0 for c in UPPER if c in card.empty}
    expected |= {own: 5 * face} if own in card.empty else {}
    expected |= {c: p for c, p in joker_lower(face).items() if c in card.empty}
    assert card.options(yahtzee_of(face)) == expected
    assert set(expected) == set(card.empty)


def test_free_joker_known_answers_for_twos() -> None:
    card = card_in("own_upper_empty", 2, 50, FREE_JOKER)
    assert card.options(yahtzee_of(2)) == {
        C.ONES: 0,
        C.TWOS: 10,
        C.THREES: 0,
        C.FOURS: 0,
        C.FIVES: 0,
        C.SIXES: 0,
        C.THREE_OF_A_KIND: 10,
        C.FOUR_OF_A_KIND: 10,
        C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30,
        C.LARGE_STRAIGHT: 40,
        C.CHANCE: 10,
    }
    after = card.score(C.LARGE_STRAIGHT, yahtzee_of(2))
    assert (after[C.LARGE_STRAIGHT], after.yahtzee_bonus_count, after.total) == (40, 1, 190)


# -- joker_score on its own -----------------------------------------------------


@pytest.mark.parametrize(
    ("box", "roll", "points"),
    [
        (C.FULL_HOUSE, "1 1 1 1 1", 25),
        (C.SMALL_STRAIGHT, "6 6 6 6 6", 30),
        (C.LARGE_STRAIGHT, "3 3 3 3 3", 40),
        (C.THREE_OF_A_KIND, "5 5 5 5 5", 25),
        (C.FOUR_OF_A_KIND, "2 2 2 2 2", 10),
        (C.CHANCE, "4 4 4 4 4", 20),
        (C.YAHTZEE, "4 4 4 4 4", 50),
        (C.FOURS, "4 4 4 4 4", 20),
        (C.FIVES, "4 4 4 4 4", 0),
    ],
)
def test_joker_score(box: Category, roll: str, points: int) -> None:
    assert joker_score(box, dice(roll)) == points


def test_joker_score_refuses_a_roll_that_is_not_a_yahtzee() -> None:
    with raises_code("not_a_joker", InvalidInputError):
        joker_score(C.FULL_HOUSE, dice("3 3 3 5 5"))


# -- figures every implementation must reproduce -------------------------------

PERFECT_GAME = (
    (C.YAHTZEE, 6, 50),
    *((upper_box(face), face, 5 * face) for face in FACES),
    (C.THREE_OF_A_KIND, 6, 30),
    (C.FOUR_OF_A_KIND, 6, 30),
    (C.FULL_HOUSE, 6, 25),
    (C.SMALL_STRAIGHT, 6, 30),
    (C.LARGE_STRAIGHT, 6, 40),
    (C.CHANCE, 6, 30),
)


def play_perfect_game(rules: Rules) -> Scorecard:
    card = Scorecard(rules)
    for box, face, points in PERFECT_GAME:
        options = card.options(yahtzee_of(face))
        assert options[box] == points
        if rules is OFFICIAL and box.is_upper:
            assert options == {box: points}  # the forced Joker allows this box only
        card = card.score(box, yahtzee_of(face))
    return card


def test_perfect_game_scores_1575(rules: Rules) -> None:
    card = play_perfect_game(rules)
    assert card.is_complete
    assert card.total == 1575


def test_perfect_game_parts(rules: Rules) -> None:
    card = play_perfect_game(rules)
    assert card.filled == {box: points for box, _, points in PERFECT_GAME}
    assert (card.upper_total, card.upper_bonus) == (105, 35)
    assert card.lower_total == 235
    assert (card.yahtzee_bonus_count, card.yahtzee_bonus) == (12, 1200)
    assert card.upper_total + card.upper_bonus + card.lower_total + card.yahtzee_bonus == 1575


def test_upper_section_holds_at_most_140() -> None:
    card = Scorecard()
    for face in FACES:
        card = card.score(upper_box(face), yahtzee_of(face))
    assert (card.upper_total, card.upper_bonus) == (105, 35)
    assert card.upper_total + card.upper_bonus == 140
    for box in UPPER:
        rolls = itertools.combinations_with_replacement(FACES, 5)
        assert max(box_score(box, roll) for roll in rolls) == 5 * box.face


@pytest.mark.parametrize(
    ("ones", "upper_total", "upper_bonus"),
    [("1 1 2 3 4", 62, 0), ("1 1 1 2 3", 63, 35), ("1 1 1 1 3", 64, 35)],
)
def test_upper_bonus_from_63(ones: str, upper_total: int, upper_bonus: int) -> None:
    card = Scorecard().score(C.ONES, dice(ones))
    for face in range(2, 7):
        card = card.score(upper_box(face), (face, face, face, 1, 1))
    assert (card.upper_total, card.upper_bonus) == (upper_total, upper_bonus)
    assert card.total == upper_total + upper_bonus
