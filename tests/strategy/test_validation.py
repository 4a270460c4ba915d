"""Advice refuses what is not a position in a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    YAHTZEE_BOXES,
    IllegalMoveError,
    InvalidInputError,
    Position,
    Scorecard,
)
from games.strategy import Strategy, advise, find_choice, load


@pytest.mark.parametrize(
    "dice",
    [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], "12345", None, [1.5] * 5],
)
def test_bad_dice_are_refused(official: Strategy, dice: object) -> None:
    with pytest.raises(InvalidInputError):
        official.advise(Scorecard(), dice, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("rolls_left", [-1, 3, 4, True, 1.0, "1", None])
def test_bad_rolls_left_are_refused(official: Strategy, rolls_left: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        official.advise(Scorecard(), [1, 2, 3, 4, 5], rolls_left)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_rolls_left"


def test_a_card_of_other_rules_is_refused(official: Strategy, strategy_cache: Path) -> None:
    with pytest.raises(InvalidInputError):
        official.advise(Scorecard(FREE_JOKER), [1, 2, 3, 4, 5], 1)
    with pytest.raises(InvalidInputError):
        advise(Scorecard(FREE_JOKER), [1, 2, 3, 4, 5], 1, OFFICIAL, cache_dir=strategy_cache)


@pytest.mark.parametrize(
    "card",
    [
        Scorecard.from_filled({"ones": 7}),  # No roll writes 7 in Ones.
        Scorecard.from_filled({"full_house": 20}),
        Scorecard.from_filled({"yahtzee": 25}),
        "a card",
        None,
    ],
)
def test_a_card_no_game_reaches_is_refused(official: Strategy, card: object) -> None:
    with pytest.raises(InvalidInputError):
        official.advise(card, [1, 2, 3, 4, 5], 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        official.value(card)  # type: ignore[arg-type]


def test_a_position_before_the_first_roll_has_no_advice(official: Strategy) -> None:
    position = Position(OFFICIAL, 0, Scorecard())

    with pytest.raises(IllegalMoveError) as caught:
        official.advise_position(position)
    assert caught.value.code == "not_rolled"
    with pytest.raises(IllegalMoveError):
        official.best_position(position)


def test_a_position_of_other_rules_or_none_is_refused(official: Strategy) -> None:
    with pytest.raises(InvalidInputError):
        official.advise_position(Position(FREE_JOKER, 0, Scorecard(FREE_JOKER), (1, 2, 3, 4, 5), 1))
    with pytest.raises(InvalidInputError):
        official.advise_position((Scorecard(), (1, 2, 3, 4, 5), 1))  # type: ignore[arg-type]


def test_a_complete_card_has_no_advice(official: Strategy) -> None:
    card = Scorecard.from_filled({category: 0 for category in YAHTZEE_BOXES})

    with pytest.raises(IllegalMoveError):
        official.advise(card, [1, 2, 3, 4, 5], 0)


def test_an_unknown_preset_is_refused(strategy_cache: Path) -> None:
    with pytest.raises(InvalidInputError):
        load("house", cache_dir=strategy_cache)
    with pytest.raises(InvalidInputError):
        advise(Scorecard(), [1, 2, 3, 4, 5], 0, "house", cache_dir=strategy_cache)


def test_a_move_that_was_not_open_is_refused(official: Strategy) -> None:
    dice = [1, 2, 3, 4, 5]
    card = Scorecard.from_filled({"chance": 15})
    choices = official.advise(card, dice, 0)

    with pytest.raises(IllegalMoveError):
        find_choice(choices, dice, category="chance")
    with pytest.raises(IllegalMoveError):
        find_choice(choices, dice, hold=[0, 1])  # No roll left to throw the others.
    with pytest.raises(InvalidInputError):
        find_choice(choices, dice, hold=[0, 1, 2, 3, 4])
    with pytest.raises(InvalidInputError):
        find_choice(choices, dice)
    with pytest.raises(InvalidInputError):
        find_choice(choices, dice, hold=[0], category="ones")
