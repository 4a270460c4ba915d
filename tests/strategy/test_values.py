"""The headline figures, and advice that agrees with the table and with the rules."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    UPPER,
    YAHTZEE_BONUS,
    YAHTZEE_BOXES,
    Category,
    Position,
    Scorecard,
)
from games.strategy import (
    Strategy,
    advise,
    expected_score,
    find_choice,
    points_given_up,
)
from games.strategy.dice import ROLL_PROBABILITY, ROLLS

OFFICIAL_VALUE = 254.58772873
FREE_JOKER_VALUE = 254.71127259


def test_the_official_value(official: Strategy, strategy_cache: Path) -> None:
    assert official.expected_score == pytest.approx(OFFICIAL_VALUE, abs=1e-6)
    assert expected_score(OFFICIAL, cache_dir=strategy_cache) == official.expected_score
    assert expected_score("official", cache_dir=strategy_cache) == official.expected_score


def test_the_free_joker_value(free_joker: Strategy, strategy_cache: Path) -> None:
    assert free_joker.expected_score == pytest.approx(FREE_JOKER_VALUE, abs=1e-6)
    assert expected_score("free_joker", cache_dir=strategy_cache) == free_joker.expected_score


def test_an_empty_card_is_worth_the_expected_score(strategy: Strategy) -> None:
    assert strategy.value(Scorecard(strategy.rules)) == strategy.expected_score


def test_a_complete_card_is_worth_its_total(strategy: Strategy) -> None:
    card = Scorecard.from_filled({box: 0 for box in YAHTZEE_BOXES}, rules=strategy.rules)
    card = Scorecard.from_filled({**card.filled, Category.CHANCE: 17}, rules=strategy.rules)

    assert strategy.value(card) == 17.0


def random_card(strategy: Strategy, rng: random.Random, filled: int) -> Scorecard:
    """A card from a game in progress: ``filled`` boxes, each scored from a random roll."""
    card = Scorecard(strategy.rules)
    for _ in range(filled):
        dice = [rng.randint(1, 6) for _ in range(5)]
        card = card.score(rng.choice(list(card.options(dice))), dice)
    return card


@pytest.mark.parametrize("filled", [0, 4, 9, 12])
def test_a_turn_start_is_worth_the_average_best_choice_after_the_first_roll(
    strategy: Strategy, filled: int
) -> None:
    # The table's value of a state, and advice's values within the turn, are worked
    # out by different code; the first must be the average of the second.
    card = random_card(strategy, random.Random(filled), filled)

    best = [strategy.advise(card, roll, 2)[0].expected for roll in ROLLS]

    assert float(ROLL_PROBABILITY @ np.array(best)) == pytest.approx(strategy.value(card), abs=1e-9)


def test_advice_offers_exactly_what_the_rules_allow(strategy: Strategy) -> None:
    rng = random.Random(7)
    for _ in range(300):
        card = random_card(strategy, rng, rng.randint(0, 12))
        dice = [rng.randint(1, 6) for _ in range(5)]
        if rng.random() < 0.2:  # Plenty of Yahtzees, to meet the Joker and the bonus.
            dice = [dice[0]] * 5
        rolls_left = rng.randint(0, 2)

        choices = strategy.advise(card, dice, rolls_left)

        scores = {c.category: c.points for c in choices if c.kind == "score"}
        assert scores == card.options(dice)
        for choice in choices:
            if choice.kind == "keep":
                assert rolls_left > 0
                assert len(choice.hold) < 5
                assert tuple(sorted(dice[i] for i in choice.hold)) == choice.kept
            else:
                # Scoring ends the turn: what follows is the next card's own value.
                after = card.score(choice.category, dice)  # type: ignore[arg-type]
                assert choice.expected == pytest.approx(strategy.value(after), abs=1e-9)
        assert strategy.best(card, dice, rolls_left) == choices[0]


def test_a_position_is_advised_as_its_card_dice_and_rolls_left(strategy: Strategy) -> None:
    rng = random.Random(5)
    for _ in range(40):
        card = random_card(strategy, rng, rng.randint(0, 12))
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        left = rng.randint(0, 2)
        held = tuple(sorted(rng.sample(range(5), rng.randint(0, 4))))
        position = Position(strategy.rules, rng.randint(0, 5), card, dice, left, held)

        # What the player shows held changes nothing: the next roll names its own.
        assert strategy.advise_position(position) == strategy.advise(card, dice, left)
        assert strategy.best_position(position) == strategy.best(card, dice, left)


def test_advice_is_the_same_after_preparing_the_turns(strategy: Strategy) -> None:
    rng = random.Random(11)
    cards = [random_card(strategy, rng, rng.randint(0, 12)) for _ in range(40)]
    rolls = [[rng.randint(1, 6) for _ in range(5)] for _ in cards]
    fresh = Strategy(strategy.rules, strategy.model, strategy.table)
    before = [strategy.advise(card, dice, 2) for card, dice in zip(cards, rolls, strict=True)]

    fresh.prepare(cards)

    assert [fresh.advise(c, d, 2) for c, d in zip(cards, rolls, strict=True)] == before


def test_a_yahtzee_with_50_in_the_box_earns_the_bonus_wherever_it_goes(official: Strategy) -> None:
    card = Scorecard.from_filled({"yahtzee": 50, "fours": 12}, rules=OFFICIAL)

    choices = official.advise(card, [4, 4, 4, 4, 4], 0)

    # The upper box is filled, so the forced Joker allows the lower boxes only.
    assert {c.category for c in choices} == {
        Category.THREE_OF_A_KIND,
        Category.FOUR_OF_A_KIND,
        Category.FULL_HOUSE,
        Category.SMALL_STRAIGHT,
        Category.LARGE_STRAIGHT,
        Category.CHANCE,
    }
    straight = find_choice(choices, [4] * 5, category="large_straight")
    after = card.score(Category.LARGE_STRAIGHT, [4] * 5)
    assert after.yahtzee_bonus == YAHTZEE_BONUS
    assert straight.expected == pytest.approx(official.value(after), abs=1e-9)


def test_the_forced_joker_leaves_one_choice_where_the_free_joker_leaves_many(
    official: Strategy, free_joker: Strategy
) -> None:
    filled = {"yahtzee": 50}
    strict = official.advise(Scorecard.from_filled(filled, rules=OFFICIAL), [2] * 5, 0)
    free = free_joker.advise(Scorecard.from_filled(filled, rules=FREE_JOKER), [2] * 5, 0)

    assert [c.category for c in strict] == [Category.TWOS]
    assert len(free) == 12


def test_choices_for_a_move_and_the_points_it_gives_up(official: Strategy) -> None:
    card = Scorecard(OFFICIAL)
    dice = [6, 1, 6, 2, 6]

    choices = official.advise(card, dice, 2)

    best = choices[0]
    assert best.kind == "keep"
    assert best.kept == (6, 6, 6)
    assert best.hold == (0, 2, 4)
    assert best.label == "Keep 6 6 6"
    assert find_choice(choices, dice, hold=[4, 0, 2]) is best
    assert points_given_up(choices, best) == 0.0
    chance = find_choice(choices, dice, category=Category.CHANCE)
    assert chance.label == "Chance (21)"
    assert points_given_up(choices, chance) == pytest.approx(best.expected - chance.expected)
    assert points_given_up(choices, chance) > 5
    rethrow = find_choice(choices, dice, hold=[])
    assert rethrow.label == "Throw all"


def test_the_module_functions_load_the_preset_of_the_card(
    free_joker: Strategy, strategy_cache: Path
) -> None:
    card = Scorecard.from_filled({box: 0 for box in UPPER}, rules=FREE_JOKER)

    by_card = advise(card, [1, 2, 3, 4, 6], 1, cache_dir=strategy_cache)
    by_name = advise(card, [1, 2, 3, 4, 6], 1, "free_joker", cache_dir=strategy_cache)

    assert by_card == by_name == free_joker.advise(card, [1, 2, 3, 4, 6], 1)
