"""The bots' policies: Optimal is the engine's best move; Casual is greedy, with known answers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.rules import (
    OFFICIAL,
    YAHTZEE_BOXES,
    Category,
    IllegalMoveError,
    Position,
    Scorecard,
)
from games.strategy import Strategy, odds
from games.strategy.policies import Move, casual, choose, optimal, to_win

EMPTY = Scorecard(OFFICIAL)


def card(**filled: int) -> Scorecard:
    return Scorecard.from_filled(filled, rules=OFFICIAL)


def at(scorecard: Scorecard, dice: list[int], rolls_left: int) -> Position:
    """Seat 0's position with ``dice`` on the table and nothing held."""
    return Position(OFFICIAL, 0, scorecard, tuple(dice), rolls_left)


@pytest.mark.parametrize(
    ("scorecard", "dice", "rolls_left", "move"),
    [
        # Made hands are taken at once, the best first.
        (EMPTY, [6, 6, 6, 6, 6], 2, Move(category=Category.YAHTZEE)),
        (EMPTY, [2, 3, 4, 5, 6], 2, Move(category=Category.LARGE_STRAIGHT)),
        (EMPTY, [2, 2, 3, 3, 3], 1, Move(category=Category.FULL_HOUSE)),
        (EMPTY, [1, 2, 3, 4, 4], 2, Move(category=Category.SMALL_STRAIGHT)),
        # ... unless their box is filled: then the most common face is kept.
        (card(full_house=25), [2, 2, 3, 3, 3], 1, Move(hold=(2, 3, 4))),
        # Ties go to the higher face; the positions are where those faces lie.
        (EMPTY, [5, 1, 5, 1, 3], 2, Move(hold=(0, 2))),
        (EMPTY, [1, 2, 4, 5, 6], 2, Move(hold=(4,))),
        # Four of one face keeps four and throws one.
        (card(yahtzee=0), [4, 4, 4, 4, 4], 2, Move(hold=(0, 1, 2, 3))),
        # With no roll left: the most points now.
        # Three of a kind and Chance both score 25: the box higher on the card.
        (EMPTY, [6, 6, 6, 5, 2], 0, Move(category=Category.THREE_OF_A_KIND)),
        (card(three_of_a_kind=20, chance=20), [6, 6, 6, 5, 2], 0, Move(category=Category.SIXES)),
        # Nothing scores: a zero goes in the highest box on the card, not the Yahtzee.
        (
            card(
                ones=1,
                twos=2,
                threes=3,
                fours=4,
                fives=5,
                sixes=6,
                chance=20,
                three_of_a_kind=20,
                small_straight=30,
                large_straight=40,
            ),
            [1, 1, 2, 3, 6],
            0,
            Move(category=Category.FOUR_OF_A_KIND),
        ),
    ],
)
def test_casual_plays_greedily(
    scorecard: Scorecard, dice: list[int], rolls_left: int, move: Move
) -> None:
    assert casual(at(scorecard, dice, rolls_left)) == move


def test_optimal_makes_the_engines_best_move(official: Strategy) -> None:
    rng = random.Random(7)
    for _ in range(200):
        scorecard = EMPTY
        for _ in range(rng.randint(0, 12)):
            dice = [rng.randint(1, 6) for _ in range(5)]
            scorecard = scorecard.score(rng.choice(list(scorecard.options(dice))), dice)
        dice = [rng.randint(1, 6) for _ in range(5)]
        left = rng.randint(0, 2)
        best = official.advise(scorecard, dice, left)[0]
        move = optimal(official, at(scorecard, dice, left))
        assert move == (Move(category=best.category) if best.category else Move(hold=best.hold))
        assert choose("optimal", at(scorecard, dice, left)) == move


@settings(max_examples=200, deadline=None)
@given(
    dice=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    rolls_left=st.integers(0, 2),
    filled=st.sets(st.sampled_from(list(YAHTZEE_BOXES)), max_size=12),
)
def test_casual_always_makes_a_legal_move(
    dice: list[int], rolls_left: int, filled: set[Category]
) -> None:
    scorecard = Scorecard.from_filled({c.value: 0 for c in filled}, rules=OFFICIAL)
    move = casual(at(scorecard, dice, rolls_left))
    if move.category is not None:
        assert move.category in scorecard.options(dice)
    else:
        assert rolls_left > 0
        assert 0 < len(move.hold) < 5 or move.hold == ()
        kept = {dice[i] for i in move.hold}
        assert len(kept) == 1  # One face kept.


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="genius"):
        choose("genius", at(EMPTY, [1, 2, 3, 4, 6], 2))
    with pytest.raises(ValueError, match="genius"):
        choose("genius", Position(OFFICIAL, 0, EMPTY))


@pytest.mark.parametrize("level", ["optimal", "casual"])
def test_every_level_throws_all_five_before_the_first_roll(level: str) -> None:
    assert choose(level, Position(OFFICIAL, 0, card(chance=20))) == Move()


def test_the_policies_decide_nothing_before_the_first_roll(official: Strategy) -> None:
    with pytest.raises(IllegalMoveError, match="first roll"):
        casual(Position(OFFICIAL, 0, EMPTY))
    with pytest.raises(IllegalMoveError, match="first roll"):
        optimal(official, Position(OFFICIAL, 0, EMPTY))


def test_the_to_win_bot_gambles_when_points_cannot_win(
    strategy_cache: Path, official: Strategy
) -> None:
    table = odds.load(OFFICIAL, cache_dir=strategy_cache)
    only_chance = Scorecard.from_filled(
        {c: 0 for c in YAHTZEE_BOXES if c is not Category.CHANCE}, rules=OFFICIAL
    )
    position = at(only_chance, [6, 6, 5, 4, 1], 1)
    # For points: keep 6 6 5 4 (21, and a die). Against a final 27 that can only tie: keeping
    # 6 6 5 and throwing two can win (11 or 12).
    assert optimal(official, position) == Move(hold=(0, 1, 2, 3))
    assert to_win(table, position, [27]) == Move(hold=(0, 1, 2))
    # Alone, or early in the game, it plays for points.
    assert to_win(table, position, []) == Move(hold=(0, 1, 2, 3))
    early = at(card(chance=20), [6, 6, 5, 4, 1], 1)
    assert to_win(table, early, [27]) == optimal(official, early)
    assert choose("win", Position(OFFICIAL, 0, EMPTY)) == Move()
