"""A player's decision point: ``Game.position()`` at each moment of a turn, and what it refuses."""

from __future__ import annotations

import pytest

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    YAHTZEE_BOXES,
    Category,
    Game,
    Position,
    Scorecard,
)

from .helpers import dice, raises_code

EMPTY = Scorecard(OFFICIAL)


def solo() -> Game:
    return Game.new(1)


def test_it_is_the_empty_turn_before_the_first_roll() -> None:
    assert solo().position() == Position(OFFICIAL, 0, EMPTY, None, 3, ())
    assert not Position(OFFICIAL, 0, EMPTY).has_rolled


def test_it_has_the_dice_after_the_first_roll_with_nothing_held() -> None:
    game = solo().roll(0, dice("6 1 6 2 6")).game

    assert game.position() == Position(OFFICIAL, 0, EMPTY, dice("6 1 6 2 6"), 2, ())


def test_it_has_the_dice_shown_held_mid_turn_sorted() -> None:
    game = solo().roll(0, dice("6 1 6 2 6")).game.hold(0, [4, 0, 2]).game

    position = game.position()
    assert position == Position(OFFICIAL, 0, EMPTY, dice("6 1 6 2 6"), 2, (0, 2, 4))
    assert position is not None
    assert position.has_rolled


def test_it_has_the_dice_the_second_roll_kept() -> None:
    game = solo().roll(0, dice("6 1 6 2 6")).game.roll(0, dice("3 6"), hold=[0, 2, 4]).game

    assert game.position() == Position(OFFICIAL, 0, EMPTY, dice("6 3 6 6 6"), 1, (0, 2, 4))


def test_it_has_no_roll_left_after_the_last_roll() -> None:
    game = solo().roll(0, dice("1 2 3 4 6")).game
    game = game.roll(0, dice("5 5"), hold=[1, 2, 3]).game
    game = game.roll(0, dice("5"), hold=[1, 2, 3, 4]).game

    assert game.position() == Position(OFFICIAL, 0, EMPTY, dice("5 2 3 4 5"), 0, (1, 2, 3, 4))


def test_it_is_the_next_seats_fresh_turn_with_its_own_card() -> None:
    game = Game.new(2, FREE_JOKER).throw_roll_off({0: dice("1 1 1 1 1"), 1: dice("6" * 5)}).game
    game = game.roll(1, dice("3 3 3 2 2")).game.score(1, "full_house").game
    game = game.roll(0, dice("4 4 4 4 4")).game.score(0, "yahtzee").game

    position = game.position()
    assert position == Position(FREE_JOKER, 1, game.cards[1])
    assert position is not None
    assert position.card[Category.FULL_HOUSE] == 25


def test_there_is_none_while_the_roll_off_is_pending() -> None:
    game = Game.new(3)
    assert game.position() is None

    tied = game.throw_roll_off({0: dice("6" * 5), 1: dice("6" * 5), 2: dice("1" * 5)}).game
    assert tied.position() is None

    decided = tied.throw_roll_off({0: dice("2" * 5), 1: dice("3" * 5)}).game
    assert decided.position() == Position(OFFICIAL, 1, EMPTY)


def test_there_is_none_once_the_game_is_over() -> None:
    game = solo()
    for category in YAHTZEE_BOXES:
        game = game.roll(0, dice("1 2 3 4 6")).game.score(0, category).game

    assert game.is_over
    assert game.current == 0  # The last seat to play stays current ...
    assert game.position() is None  # ... but nobody decides anything.


def test_there_is_none_once_everybody_left() -> None:
    game = solo().roll(0, dice("1 2 3 4 6")).game.leave(0).game

    assert game.position() is None


@pytest.mark.parametrize(
    ("card", "faces", "rolls_left", "held", "code"),
    [
        (Scorecard(FREE_JOKER), None, 3, (), "invalid_card"),  # A card of other rules.
        (EMPTY, None, 2, (), "invalid_position"),  # Rolls used with no dice.
        (EMPTY, None, 3, (0,), "invalid_position"),  # Held before the first roll.
        (EMPTY, dice("1 2 3 4 5"), 3, (), "invalid_position"),  # Dice with no roll used.
        (EMPTY, dice("1 2 3 4 5"), -1, (), "invalid_position"),
        (EMPTY, dice("1 2 3 4 5"), 1, (2, 0), "invalid_position"),  # Held out of order.
        (EMPTY, [1, 2, 3, 4, 5], 1, (), "invalid_position"),  # A list is no value.
        (EMPTY, dice("1 2 3 4 7"), 1, (), "invalid_dice"),
        (EMPTY, dice("1 2 3 4 5"), 1, (5,), "invalid_hold"),
    ],
)
def test_it_refuses_what_no_turn_can_be(
    card: Scorecard,
    faces: tuple[int, ...] | None,
    rolls_left: int,
    held: tuple[int, ...],
    code: str,
) -> None:
    with raises_code(code):
        Position(OFFICIAL, 0, card, faces, rolls_left, held)


def test_it_is_a_value() -> None:
    one = Position(OFFICIAL, 0, EMPTY, dice("1 2 3 4 5"), 1, (0,))
    other = Position(OFFICIAL, 0, Scorecard(OFFICIAL), dice("1 2 3 4 5"), 1, (0,))

    assert one == other
    assert hash(one) == hash(other)
