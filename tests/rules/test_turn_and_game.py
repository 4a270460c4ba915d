"""A turn's three rolls and holds; a game's roll-off, turn order, end, winners and leaving."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from games.engine.rules import (
    FREE_JOKER,
    Category,
    Game,
    IllegalMoveError,
    InvalidInputError,
    Phase,
    Scorecard,
    Turn,
)

from .helpers import dice, raises_code

ROLL = dice("1 2 3 4 6")


def throw(game: Game, **by_seat: str) -> Game:
    """One round of the roll-off, written ``throw(game, s0="6 6 6 6 6", s2="1 1 1 1 1")``."""
    return game.throw_roll_off({int(k[1:]): dice(v) for k, v in by_seat.items()}).game


def take_turn(game: Game, roll: Iterable[int] = ROLL) -> Game:
    """The current seat rolls once and scores in its first empty box."""
    seat = game.current
    assert seat is not None
    game = game.roll(seat, roll).game
    return game.score(seat, game.cards[seat].empty[0]).game


def seats_in_turn(game: Game, turns: int) -> list[int | None]:
    """The seats that play the next ``turns`` turns."""
    order = []
    for _ in range(turns):
        order.append(game.current)
        game = take_turn(game)
    return order


def four_seats_won_by_seat_2() -> Game:
    """Four seats; 1, 2 and 3 tie on 25, then 1 and 2 tie on 22, then seat 2 wins."""
    game = throw(Game.new(4), s0="4 4 4 4 4", s1="5 5 5 5 5", s2="6 6 6 6 1", s3="6 6 6 5 2")
    game = throw(game, s1="2 5 5 5 5", s2="4 4 4 4 6", s3="1 1 1 1 6")
    return throw(game, s1="1 2 3 4 2", s2="6 6 6 6 6")


def finished(game: Game, roll: Iterable[int] = ROLL) -> Game:
    """Play every remaining turn, each scoring ``roll`` in the first empty box."""
    while game.phase is Phase.PLAYING:
        game = take_turn(game, roll)
    return game


# -- a turn -------------------------------------------------------------------------


def test_three_rolls_then_no_rolls_left() -> None:
    turn = Turn()
    assert (turn.rolls_left, turn.has_rolled) == (3, False)
    turn = turn.roll(dice("1 2 3 4 5"))
    turn = turn.roll([6, 6], hold=[0, 1, 2])
    assert (turn.rolls_left, turn.has_rolled) == (1, True)
    turn = turn.roll([2], hold=[0, 1, 2, 3])
    assert turn.rolls_left == 0
    assert turn.dice == (1, 2, 3, 6, 2)
    with raises_code("no_rolls_left", IllegalMoveError):
        turn.roll([1], hold=[0, 1, 2, 3])


def test_first_roll_throws_all_five() -> None:
    assert Turn().to_throw() == 5
    with raises_code("hold_before_roll", IllegalMoveError):
        Turn().roll([1, 2, 3, 4], hold=[0])
    with raises_code("hold_before_roll", IllegalMoveError):
        Turn().to_throw([0, 1])


@pytest.mark.parametrize(
    "hold", [[-1], [5], [0, 0], ["1"], [True], [1.0], "01", None, 3, [0, 1, 2, 3, 4]]
)
def test_bad_holds_are_refused(hold: object) -> None:
    turn = Turn().roll(dice("1 2 3 4 5"))
    with raises_code("invalid_hold", InvalidInputError):
        turn.roll([6], hold=hold)  # type: ignore[arg-type]
    assert turn.rolls_used == 1


@pytest.mark.parametrize(
    ("hold", "fresh"),
    [
        ([], [1, 2, 3, 4]),
        ([], [1, 2, 3, 4, 5, 6]),
        ([0, 1], [6, 6]),
        ([0, 1], [6, 6, 6, 6]),
        ([0, 1], [6, 6, 7]),
        ([0, 1], [6, 6, 0]),
        ([0, 1], [6, 6, True]),
        ([0, 1], "666"),
    ],
)
def test_wrong_fresh_faces_are_refused(hold: list[int], fresh: object) -> None:
    turn = Turn().roll(dice("1 2 3 4 5"))
    with raises_code("invalid_dice", InvalidInputError):
        turn.roll(fresh, hold=hold)  # type: ignore[arg-type]


def test_first_roll_needs_five_faces() -> None:
    with raises_code("invalid_dice", InvalidInputError):
        Turn().roll([1, 2, 3, 4])


def test_kept_dice_stay_in_place_and_fresh_dice_fill_the_rest_in_order() -> None:
    turn = Turn().roll(dice("1 2 3 4 5")).roll([6, 5, 4], hold=[3, 1])
    assert turn.dice == (6, 2, 5, 4, 4)
    assert turn.held == frozenset({1, 3})
    assert Turn().roll(dice("1 2 3 4 5")).to_throw([3, 1]) == 3


def test_dice_kept_once_may_be_thrown_again() -> None:
    turn = Turn().roll(dice("5 5 1 2 3")).roll([5, 5, 5], hold=[0, 1])
    assert turn.dice == (5, 5, 5, 5, 5)
    turn = turn.roll([1, 2], hold=[2, 3, 4])  # the first two dice were kept, now rethrown
    assert turn.dice == (1, 2, 5, 5, 5)
    assert turn.held == frozenset({2, 3, 4})


# -- holding dice between rolls -----------------------------------------------------------


def test_holding_sets_the_held_dice_and_throws_nothing() -> None:
    rolled = Turn().roll(dice("1 2 3 4 5"))
    held = rolled.hold([4, 0])
    assert held == Turn(dice=(1, 2, 3, 4, 5), rolls_used=1, held=frozenset({0, 4}))
    assert rolled.held == frozenset()  # The turn it came from is unchanged.


def test_a_new_hold_replaces_the_last_and_may_hold_nothing() -> None:
    turn = Turn().roll(dice("6 6 1 2 3")).roll([6, 6, 6], hold=[0, 1])
    assert turn.held == frozenset({0, 1})  # After a roll the kept dice stay held...
    turn = turn.hold([2, 3])
    assert turn.held == frozenset({2, 3})  # ...until the player holds others...
    assert turn.hold([]).held == frozenset()  # ...or lets them all go.
    assert (turn.dice, turn.rolls_left) == ((6, 6, 6, 6, 6), 1)


def test_the_roll_after_a_hold_keeps_the_dice_it_names() -> None:
    turn = Turn().roll(dice("1 2 3 4 5")).hold([0, 1])
    # The roll names its own dice; the held ones only show what the player meant to keep.
    turn = turn.roll([6, 6, 6, 6], hold=[2])
    assert (turn.dice, turn.held, turn.rolls_left) == ((6, 6, 3, 6, 6), frozenset({2}), 1)


def test_holding_needs_a_roll_on_the_table() -> None:
    for hold in ([], [0]):
        with raises_code("hold_before_roll", IllegalMoveError):
            Turn().hold(hold)


def test_holding_needs_a_roll_left() -> None:
    turn = Turn().roll(dice("1 2 3 4 5")).roll([6], hold=[0, 1, 2, 3]).roll([6, 6], hold=[0, 1, 2])
    assert turn.rolls_left == 0
    with raises_code("no_rolls_left", IllegalMoveError):
        turn.hold([0])


@pytest.mark.parametrize(
    "hold", [[-1], [5], [0, 0], ["1"], [True], [1.0], "01", None, 3, [0, 1, 2, 3, 4]]
)
def test_bad_holds_are_refused_when_holding_too(hold: object) -> None:
    turn = Turn().roll(dice("1 2 3 4 5")).hold([1])
    with raises_code("invalid_hold", InvalidInputError):
        turn.hold(hold)  # type: ignore[arg-type]
    assert turn.held == frozenset({1})


def test_a_game_lets_only_the_seat_on_turn_hold() -> None:
    game = throw(Game.new(2), s0="6 6 6 6 6", s1="1 1 1 1 1").roll(0, ROLL).game
    with raises_code("not_your_turn", IllegalMoveError):
        game.hold(1, [0])
    held = game.hold(0, iter([3, 1])).game
    assert held.turn == Turn(dice=ROLL, rolls_used=1, held=frozenset({1, 3}))
    assert (held.current, held.cards, held.round) == (game.current, game.cards, game.round)
    with raises_code("roll_off_pending", IllegalMoveError):
        Game.new(2).hold(0, [])
    with raises_code("hold_before_roll", IllegalMoveError):
        take_turn(game).hold(1, [])


def test_holding_in_a_finished_game_is_refused() -> None:
    game = finished(Game.new(1))
    with raises_code("game_over", IllegalMoveError):
        game.hold(0, [])


def test_turn_is_immutable() -> None:
    turn = Turn()
    rolled = turn.roll(dice("1 2 3 4 5"))
    assert turn == Turn()
    assert rolled.dice == (1, 2, 3, 4, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rolled.rolls_used = 0  # type: ignore[misc]


# -- starting a game ------------------------------------------------------------------


def test_one_player_starts_at_once_without_roll_off() -> None:
    game = Game.new(1)
    assert game.phase is Phase.PLAYING
    assert game.current == 0
    assert game.roll_off.rounds == ()
    assert game.round == 1


@pytest.mark.parametrize("players", [2, 6])
def test_several_players_start_with_a_roll_off(players: int) -> None:
    game = Game.new(players, FREE_JOKER)
    assert game.phase is Phase.ROLL_OFF
    assert game.current is None
    assert game.roll_off.contenders == tuple(range(players))
    assert all(card == Scorecard(FREE_JOKER) for card in game.cards)


@pytest.mark.parametrize("players", [0, 7, -1])
def test_player_count_out_of_range_is_refused(players: int) -> None:
    with raises_code("invalid_players", InvalidInputError):
        Game.new(players)


@pytest.mark.parametrize("players", [True, 2.0, "2", None])
def test_player_count_must_be_a_whole_number(players: object) -> None:
    with pytest.raises(InvalidInputError):
        Game.new(players)  # type: ignore[arg-type]


def test_highest_roll_off_total_starts() -> None:
    game = throw(Game.new(3), s0="1 1 1 1 1", s1="6 6 6 6 5", s2="3 3 3 3 3")
    assert game.phase is Phase.PLAYING
    assert game.current == 1
    assert game.roll_off.winner == 1
    assert game.roll_off.rounds == (((0, dice("11111")), (1, dice("66665")), (2, dice("33333"))),)


def test_roll_off_ties_roll_again_among_themselves_until_one_is_highest() -> None:
    game = throw(Game.new(4), s0="4 4 4 4 4", s1="5 5 5 5 5", s2="6 6 6 6 1", s3="6 6 6 5 2")
    assert game.roll_off.contenders == (1, 2, 3)
    assert game.phase is Phase.ROLL_OFF
    with raises_code("invalid_roll_off", InvalidInputError):
        throw(game, s0="6 6 6 6 6", s1="1 1 1 1 1", s2="1 1 1 1 1", s3="1 1 1 1 1")
    game = throw(game, s1="2 5 5 5 5", s2="4 4 4 4 6", s3="1 1 1 1 6")
    assert game.roll_off.contenders == (1, 2)
    game = throw(game, s1="1 2 3 4 2", s2="6 6 6 6 6")
    assert game.current == 2
    assert [[seat for seat, _ in r] for r in game.roll_off.rounds] == [
        [0, 1, 2, 3],
        [1, 2, 3],
        [1, 2],
    ]
    assert game.roll_off.rounds[-1] == ((1, dice("12342")), (2, dice("66666"))), game.roll_off


@pytest.mark.parametrize(
    "by_seat", [{"s0": "1 1 1 1 1", "s1": "2 2 2 2 2"}, {f"s{s}": "1 1 1 1 1" for s in range(4)}]
)
def test_roll_off_needs_exactly_the_contenders(by_seat: dict[str, str]) -> None:
    with raises_code("invalid_roll_off", InvalidInputError):
        throw(Game.new(3), **by_seat)


def test_roll_off_refuses_bad_dice() -> None:
    with raises_code("invalid_dice", InvalidInputError):
        Game.new(2).throw_roll_off({0: [1, 2, 3], 1: [1, 2, 3, 4, 5]})


def test_roll_off_once_decided_is_refused() -> None:
    game = throw(Game.new(2), s0="6 6 6 6 6", s1="1 1 1 1 1")
    with raises_code("roll_off_decided", IllegalMoveError):
        throw(game, s0="6 6 6 6 6", s1="1 1 1 1 1")
    with raises_code("roll_off_decided", IllegalMoveError):
        game.roll_off.throw({0: dice("66666")})


# -- turns in a game ---------------------------------------------------------------------


def test_turns_go_round_in_seat_order_from_the_roll_off_winner() -> None:
    assert seats_in_turn(four_seats_won_by_seat_2(), 9) == [2, 3, 0, 1, 2, 3, 0, 1, 2]


def test_only_the_current_seat_may_act() -> None:
    game = throw(Game.new(3), s0="1 1 1 1 1", s1="6 6 6 6 5", s2="3 3 3 3 3")
    with raises_code("not_your_turn", IllegalMoveError):
        game.roll(0, ROLL)
    rolled = game.roll(1, ROLL).game
    with raises_code("not_your_turn", IllegalMoveError):
        rolled.score(2, Category.CHANCE)


def test_scoring_needs_a_roll_first() -> None:
    with raises_code("not_rolled", IllegalMoveError):
        Game.new(1).score(0, Category.CHANCE)


def test_no_play_during_the_roll_off() -> None:
    game = Game.new(2)
    with raises_code("roll_off_pending", IllegalMoveError):
        game.roll(0, ROLL)
    with raises_code("roll_off_pending", IllegalMoveError):
        game.score(0, Category.CHANCE)


def test_a_turn_in_a_game_uses_the_turn_rules() -> None:
    game = Game.new(1).roll(0, dice("2 2 5 5 1")).game.roll(0, [5], hold=[0, 1, 2, 3]).game
    assert game.turn.dice == (2, 2, 5, 5, 5)
    game = game.roll(0, [2, 2], hold=[2, 3, 4]).game
    with raises_code("no_rolls_left", IllegalMoveError):
        game.roll(0, [1], hold=[0, 1, 2, 3])
    game = game.score(0, "full house").game
    assert game.cards[0].filled == {Category.FULL_HOUSE: 25}
    assert (game.turn, game.current, game.round) == (Turn(), 0, 2)


def test_a_refused_score_leaves_the_turn_to_the_same_seat() -> None:
    game = take_turn(Game.new(1)).roll(0, ROLL).game
    with raises_code("box_filled", IllegalMoveError):
        game.score(0, Category.ONES)
    assert game.current == 0
    assert game.turn.dice == ROLL


def test_a_full_game_of_three_ends_after_thirteen_rounds() -> None:
    game = throw(Game.new(3), s0="1 1 1 1 1", s1="6 6 6 6 5", s2="3 3 3 3 3")
    order = seats_in_turn(game, 39)
    assert order == [1, 2, 0] * 13
    game = finished(game)
    assert game.phase is Phase.FINISHED
    assert game.is_over
    assert all(card.is_complete for card in game.cards)
    assert game.round == 13
    with raises_code("game_over", IllegalMoveError):
        game.roll(game.current, ROLL)  # type: ignore[arg-type]
    with raises_code("game_over", IllegalMoveError):
        game.score(0, Category.CHANCE)
    with raises_code("roll_off_decided", IllegalMoveError):
        throw(game, s0="6 6 6 6 6")


def test_tied_players_share_the_victory() -> None:
    game = throw(Game.new(3), s0="6 6 6 6 6", s1="1 1 1 1 1", s2="2 2 2 2 2")
    assert game.outcome().winners == ()
    game = finished(game)
    assert game.outcome().winners == (0, 1, 2)
    assert len({card.total for card in game.cards}) == 1


def test_highest_grand_total_wins() -> None:
    game = Game.new(2).throw_roll_off({0: dice("11111"), 1: dice("66666")}).game
    game = take_turn(game.roll(1, dice("66666")).game.score(1, Category.YAHTZEE).game)
    game = finished(game)
    assert game.outcome().winners == (1,)
    assert game.cards[1].total > game.cards[0].total


# -- leaving --------------------------------------------------------------------------------


def test_a_seat_that_leaves_is_skipped_and_its_card_stands() -> None:
    game = take_turn(four_seats_won_by_seat_2()).roll(3, ROLL).game  # seat 2 played, 3 is rolling
    card = game.cards[2]
    game = game.leave(2).game
    assert game.current == 3
    assert game.turn.dice == ROLL  # seat 3's turn goes on where it was
    assert game.active == (0, 1, 3)
    assert seats_in_turn(game, 7) == [3, 0, 1, 3, 0, 1, 3]
    game = finished(game)
    assert game.cards[2] == card
    assert len(card.filled) == 1
    assert all(game.cards[s].is_complete for s in (0, 1, 3))
    assert game.phase is Phase.FINISHED
    assert game.outcome().winners == (0, 1, 3)


def test_a_seat_leaving_on_its_turn_passes_the_turn() -> None:
    game = four_seats_won_by_seat_2().roll(2, ROLL).game
    game = game.leave(2).game
    assert game.current == 3
    assert game.turn == Turn()
    assert game.cards[2] == Scorecard()
    with raises_code("not_your_turn", IllegalMoveError):
        game.roll(2, ROLL)


def test_leaving_a_finished_game_is_refused() -> None:
    # Leaving after the end must not take a victory away: seat 0 (112) stays the winner.
    game = throw(Game.new(2), s0="6 6 6 6 6", s1="1 1 1 1 1")
    game = finished(game.roll(0, dice("6 6 6 6 6")).game.score(0, Category.YAHTZEE).game)
    assert game.outcome().winners == (0,)
    with raises_code("game_over", IllegalMoveError):
        game.leave(0)


def test_leaving_twice_or_from_no_seat_is_refused() -> None:
    game = Game.new(2).leave(1).game
    with raises_code("already_left", IllegalMoveError):
        game.leave(1)
    for seat in (2, -1, "0", None):
        with raises_code("invalid_seat", InvalidInputError):
            game.leave(seat)  # type: ignore[arg-type]


def test_leaving_the_roll_off_removes_the_seat_from_contention() -> None:
    game = Game.new(3).leave(0).game
    assert game.roll_off.contenders == (1, 2)
    with raises_code("invalid_roll_off", InvalidInputError):
        throw(game, s0="6 6 6 6 6", s1="1 1 1 1 1", s2="1 1 1 1 1")
    game = throw(game, s1="1 1 1 1 1", s2="1 1 1 1 2")
    assert game.current == 2
    assert seats_in_turn(game, 4) == [2, 1, 2, 1]


def test_tied_leaders_leaving_the_roll_off_one_by_one() -> None:
    game = throw(Game.new(4), s0="6 6 6 6 6", s1="6 6 6 6 6", s2="1 1 1 1 1", s3="2 2 2 2 2")
    assert game.roll_off.contenders == (0, 1)
    game = game.leave(1).game
    # Seat 0 is alone at the top: it has the highest total and starts without another throw.
    assert (game.phase, game.current) == (Phase.PLAYING, 0)
    game = game.leave(0).game
    # Seat 0 left on its own turn: the turn passes in seat order; there is no new roll-off.
    assert (game.phase, game.current) == (Phase.PLAYING, 2)
    assert len(game.roll_off.rounds) == 1
    assert seats_in_turn(game, 3) == [2, 3, 2]


def test_a_last_seat_left_in_the_roll_off_starts() -> None:
    game = Game.new(2).leave(0).game
    assert (game.phase, game.current) == (Phase.PLAYING, 1)


@pytest.mark.parametrize("start", ["roll_off", "playing"])
def test_a_game_everyone_left_is_over(start: str) -> None:
    game = Game.new(3)
    if start == "playing":
        game = take_turn(throw(game, s0="6 6 6 6 6", s1="1 1 1 1 1", s2="1 1 1 1 1"))
    for seat in (2, 0, 1):
        assert not game.is_over
        game = game.leave(seat).game
    assert game.is_over
    assert game.phase is Phase.FINISHED
    assert game.outcome().winners == ()
    with raises_code("game_over", IllegalMoveError):
        game.roll(1, ROLL)


@pytest.mark.parametrize("seat", [True, False, -1, 2, "0", None])
def test_commands_name_a_real_seat(seat: object) -> None:
    game = Game.new(1)
    for command in (
        lambda: game.roll(seat, dice("1 2 3 4 5")),  # type: ignore[arg-type]
        lambda: game.leave(seat),  # type: ignore[arg-type]
        lambda: game.hold(seat, []),  # type: ignore[arg-type]
    ):
        with raises_code("invalid_seat", InvalidInputError):
            command()


def test_a_hold_given_as_an_iterator_is_read_once() -> None:
    turn = Turn().roll([1, 2, 3, 4, 5])

    assert turn.roll([6, 6], hold=iter([1, 2, 3])).dice == (6, 2, 3, 4, 6)
