"""The score tables are what the rules engine says, Jokers included."""

from __future__ import annotations

import random

import pytest

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    YAHTZEE_BONUS,
    Category,
    Rules,
    box_score,
)
from games.strategy import Strategy
from games.strategy.dice import ROLLS
from games.strategy.tables import Layout, card_for_mask

# How the solver numbers the Yahtzee card (both Yahtzee presets share it).
_LAYOUT = Layout.of(OFFICIAL)
CATEGORIES, FULL_MASK, YAHTZEE_BIT = _LAYOUT.categories, _LAYOUT.full_mask, _LAYOUT.yahtzee_bit


def test_ordinary_points_are_the_box_scores(strategy: Strategy) -> None:
    points = strategy.model.tables.points
    for c, category in enumerate(CATEGORIES):
        assert [int(p) for p in points[c]] == [box_score(category, roll) for roll in ROLLS]


def test_the_jokers_are_the_six_yahtzees(strategy: Strategy) -> None:
    tables = strategy.model.tables
    assert [ROLLS[r] for r in tables.joker_rolls] == [(f,) * 5 for f in range(1, 7)]
    for r, roll in enumerate(ROLLS):
        earns = len(set(roll)) == 1
        assert tables.bonus[1, r] == (YAHTZEE_BONUS if earns else 0)
        assert tables.bonus[0, r] == 0


@pytest.mark.parametrize("rules", [OFFICIAL, FREE_JOKER], ids=["official", "free_joker"])
def test_where_a_joker_may_go_is_what_the_rules_say_with_0_in_yahtzee_too(
    official: Strategy, free_joker: Strategy, rules: Rules
) -> None:
    # The tables were made from cards holding 50 in Yahtzee; 0 must make no difference.
    tables = (official if rules is OFFICIAL else free_joker).model.tables
    masks = [m for m in range(FULL_MASK) if m & YAHTZEE_BIT]
    rng = random.Random(3)
    sample = [m for m in masks if bin(m).count("1") <= 3 or bin(m).count("1") >= 11]
    sample += rng.sample(masks, 600)
    for mask in sample:
        card = card_for_mask(rules, mask, yahtzee=0)
        for j, r in enumerate(tables.joker_rolls):
            options = card.options(ROLLS[r])
            allowed = {c for c in CATEGORIES if tables.joker_allowed[mask, j, CATEGORIES.index(c)]}
            assert allowed == set(options), (mask, ROLLS[r])
            for category, points in options.items():
                assert tables.joker_points[CATEGORIES.index(category), j] == points


def test_the_forced_joker_goes_to_its_upper_box_first(official: Strategy) -> None:
    tables = official.model.tables
    mask = YAHTZEE_BIT
    for j in range(6):
        allowed = [c for c in CATEGORIES if tables.joker_allowed[mask, j, CATEGORIES.index(c)]]
        assert allowed == [CATEGORIES[j]]
    assert tables.joker_points[CATEGORIES.index(Category.LARGE_STRAIGHT)].tolist() == [40] * 6
