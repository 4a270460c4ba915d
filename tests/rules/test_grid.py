"""The duplicate dice: every roll of a game on a grid takes its faces from the grid."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import grid
from games.engine.grid import Grid
from games.engine.rules import Category, Game, InvalidInputError

SEED = b"the tests' grid"


def test_two_players_holding_different_dice_get_the_same_face_in_every_position_they_reroll() -> (
    None
):
    dice = Grid.from_seed(SEED)
    first = dice.throw(Game.new(1), 0)
    ana = Game.new(1).roll(0, first).game
    ben = Game.new(1).roll(0, first).game

    ana = ana.roll(0, dice.throw(ana, 0, {0, 1}), {0, 1}).game  # Rerolls 2, 3 and 4.
    ben = ben.roll(0, dice.throw(ben, 0, {2}), {2}).game  # Rerolls 0, 1, 3 and 4.

    assert ana.turn.dice is not None
    assert ben.turn.dice is not None
    second = dice.faces(1, 2)
    assert [ana.turn.dice[i] for i in (2, 3, 4)] == [second[i] for i in (2, 3, 4)]
    assert [ben.turn.dice[i] for i in (0, 1, 3, 4)] == [second[i] for i in (0, 1, 3, 4)]
    assert ana.turn.dice[3:] == ben.turn.dice[3:]  # Both rerolled these: the same faces.


def test_the_next_turn_starts_with_the_grids_first_roll_whatever_box_was_filled() -> None:
    dice = Grid.from_seed(SEED)
    games = []
    for box in (Category.CHANCE, Category.ONES):
        game = Game.new(1)
        game = game.roll(0, dice.throw(game, 0)).game.score(0, box).game
        games.append(game.roll(0, dice.throw(game, 0)).game)
    assert games[0].turn.dice == games[1].turn.dice == dice.faces(2, 1)


@given(st.binary(max_size=40))
def test_a_seed_gives_the_same_fair_grid_every_time(seed: bytes) -> None:
    made = Grid.from_seed(seed)
    assert made == Grid.from_seed(seed)
    assert len(made.cells) == grid.SIZE
    assert set(made.cells) <= {1, 2, 3, 4, 5, 6}
    assert Grid.parse(made.text()) == made


def test_each_day_has_its_own_grid_under_its_secret() -> None:
    today = Grid.from_seed(grid.daily_seed("secret", "2026-11-26"))
    assert today == Grid.from_seed(grid.daily_seed("secret", "2026-11-26"))
    assert today != Grid.from_seed(grid.daily_seed("secret", "2026-11-27"))
    assert today != Grid.from_seed(grid.daily_seed("another secret", "2026-11-26"))


def test_a_grid_completed_from_a_game_keeps_every_face_it_rolled() -> None:
    rolled = [
        *grid.rolled_cells(1, 1, (6, 5, 4, 3, 2), ()),
        *grid.rolled_cells(1, 2, (6, 1, 4, 1, 2), (0, 2, 4)),
    ]
    completed = Grid.completed(rolled, iter([3] * grid.SIZE))
    assert completed.faces(1, 1) == (6, 5, 4, 3, 2)
    assert completed.faces(1, 2) == (3, 1, 3, 1, 3)  # Positions 0, 2 and 4 were held: filled.
    assert completed.faces(13, 3) == (3, 3, 3, 3, 3)


@pytest.mark.parametrize("text", ["", "1" * (grid.SIZE - 1), "7" * grid.SIZE, "0" * grid.SIZE])
def test_a_malformed_grid_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        Grid.parse(text)
