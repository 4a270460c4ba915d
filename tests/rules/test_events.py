"""What each command of a game says happened, and the game's outcome: known answers."""

from __future__ import annotations

import pytest

from games.engine.events import Finished, Held, Left, Rolled, RollOffThrown, Scored
from games.engine.rules import (
    FREE_JOKER,
    YAHTZEE_BOXES,
    Category,
    Game,
    IllegalMoveError,
    Outcome,
    Progress,
)

from .helpers import dice, raises_code


def started(players: int = 2) -> Game:
    """Seat 0 wins the roll-off outright."""
    throws = {seat: dice("66666") if seat == 0 else dice("11111") for seat in range(players)}
    return Game.new(players).throw_roll_off(throws).game


def test_a_roll_off_round_says_who_threw_what_and_who_is_still_in() -> None:
    tie = Game.new(3).throw_roll_off({0: dice("66661"), 1: dice("66661"), 2: dice("11111")})
    assert tie.events == (
        RollOffThrown(
            throws=((0, (6, 6, 6, 6, 1)), (1, (6, 6, 6, 6, 1)), (2, (1, 1, 1, 1, 1))),
            contenders=(0, 1),
            first=None,
        ),
    )
    decided = tie.game.throw_roll_off({0: dice("12345"), 1: dice("66666")})
    assert decided.events == (RollOffThrown(((0, (1, 2, 3, 4, 5)), (1, (6,) * 5)), (1,), 1),)
    assert decided.game.current == 1


def test_a_roll_says_the_dice_on_the_table_and_the_positions_kept() -> None:
    game, said = started().roll(0, dice("12346"))
    assert said == (Rolled(seat=0, dice=(1, 2, 3, 4, 6), held=()),)
    game, said = game.roll(0, [5, 5], hold=[4, 0, 1])
    assert said == (Rolled(seat=0, dice=(1, 2, 5, 5, 6), held=(0, 1, 4)),)


def test_a_hold_says_the_positions_in_order() -> None:
    game = started().roll(0, dice("12346")).game
    assert game.hold(0, [3, 1]).events == (Held(seat=0, held=(1, 3)),)
    assert game.hold(0, []).events == (Held(seat=0, held=()),)


def test_a_score_says_the_box_the_points_the_dice_and_the_next_seat() -> None:
    game = started().roll(0, dice("33355")).game
    assert game.score(0, "full house").events == (
        Scored(
            seat=0,
            category=Category.FULL_HOUSE,
            points=25,
            dice=(3, 3, 3, 5, 5),
            yahtzee_bonus=False,
            next=1,
        ),
    )


def test_a_second_yahtzee_says_it_earned_the_bonus() -> None:
    game = Game.new(1, FREE_JOKER).roll(0, dice("44444")).game.score(0, "yahtzee").game
    _, said = game.roll(0, dice("44444")).game.score(0, "chance")
    assert said == (Scored(0, Category.CHANCE, 20, (4,) * 5, True, 0),)


def test_the_last_score_finishes_the_game_with_the_winners_and_totals() -> None:
    game = Game.new(1)
    for box in list(YAHTZEE_BOXES)[:-1]:
        game = game.roll(0, dice("12346")).game.score(0, box).game
    progress = game.roll(0, dice("66666")).game.score(0, Category.CHANCE)
    total = (1 + 2 + 3 + 4 + 6) + 30 + 30  # The upper boxes, the small straight, chance.
    assert progress.game.is_over
    assert progress.events[1:] == (Finished(winners=(0,), totals=(total,)),)
    assert progress.events[0].next is None  # type: ignore[union-attr]


def test_leaving_says_who_is_on_turn_next_and_the_last_leave_ends_the_game() -> None:
    game, said = started(3).roll(0, dice("12346")).game.leave(1)
    assert said == (Left(seat=1, next=0),)  # Seat 0 goes on with its turn.
    game, said = game.leave(0)
    assert said == (Left(seat=0, next=2),)
    assert game.leave(2).events == (Left(seat=2, next=None), Finished(winners=(), totals=(0, 0, 0)))


def test_a_refused_command_says_nothing_and_changes_nothing() -> None:
    game = started()
    with raises_code("not_your_turn", IllegalMoveError):
        game.roll(1, dice("12345"))
    assert game == started()


def test_a_progress_unpacks_into_the_game_and_its_events() -> None:
    progress = started().roll(0, dice("12345"))
    assert isinstance(progress, Progress)
    game, said = progress
    assert (game, said) == (progress.game, progress.events)


# -- the outcome --------------------------------------------------------------------------------


def finish(game: Game, rolls: dict[int, str]) -> Game:
    """Play every turn to the end, each seat scoring its own dice in its first empty box."""
    while not game.is_over:
        seat = game.current
        assert seat is not None
        game = game.roll(seat, dice(rolls[seat])).game
        game = game.score(seat, game.cards[seat].empty[0]).game
    return game


def test_the_outcome_ranks_by_total_and_ties_share_a_place() -> None:
    game = finish(started(4), {0: "66666", 1: "66666", 2: "11111", 3: "22222"})
    outcome = game.outcome()
    assert outcome.places == (1, 1, 4, 3)
    assert outcome.winners == (0, 1)
    assert outcome.totals == tuple(card.total for card in game.cards)
    assert outcome.is_over
    assert not outcome.solo


def test_before_the_end_there_are_places_but_no_winners() -> None:
    game = started().roll(0, dice("66666")).game.score(0, "yahtzee").game
    assert game.outcome() == Outcome(
        totals=(50, 0), places=(1, 2), winners=(), left=frozenset(), is_over=False
    )


def test_a_seat_that_left_has_no_place_and_cannot_win_even_with_the_best_card() -> None:
    game = started(3).roll(0, dice("66666")).game.score(0, "yahtzee").game.leave(0).game
    game = finish(game, {1: "11111", 2: "22222"})
    outcome = game.outcome()
    assert outcome.places == (None, 2, 1)
    assert outcome.winners == (2,)
    assert outcome.left == {0}
    assert outcome.totals[0] == 50


def test_when_everyone_left_nobody_wins() -> None:
    game = started(2).leave(0).game.leave(1).game
    assert game.outcome().winners == ()
    assert game.outcome().places == (None, None)


@pytest.mark.parametrize("players", [1, 2])
def test_a_game_of_one_seat_is_solo(players: int) -> None:
    assert Game.new(players).outcome().solo is (players == 1)
