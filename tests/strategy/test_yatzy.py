"""Yatzy solved: its expected score, the solver against brute force on its endgames, the odds,
the bots and the coach on its card.

Its odds table takes a minute of CPU, so it is solved only for the tests that ask (the
``kept_tables`` fixture of ``tests/conftest.py``), into the suite's cache, which outlives the run.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

from games.engine.rules import YATZY, Category, Position, Scorecard
from games.insight import coach
from games.strategy import Strategy, load, odds
from games.strategy.dice import ROLL_PROBABILITY, ROLLS
from games.strategy.policies import choose, others_of

from .brute import BruteForce

#: Checked by a second method: ``benchmarks/yatzy.py`` plays the policy out (Monte Carlo).
YATZY_VALUE = 248.43998938


@pytest.fixture(scope="module")
def yatzy(kept_tables: None, strategy_cache: Path) -> Strategy:
    return load(YATZY, cache_dir=strategy_cache)


@pytest.fixture(scope="module")
def yatzy_odds(yatzy: Strategy, strategy_cache: Path) -> odds.Odds:
    return odds.load(YATZY, cache_dir=strategy_cache)


def test_the_yatzy_value(yatzy: Strategy) -> None:
    assert yatzy.expected_score == pytest.approx(YATZY_VALUE, abs=1e-6)
    assert yatzy.value(Scorecard(YATZY)) == yatzy.expected_score


# Every box filled with a possible score except the ones named open.
_FILLED: Mapping[str, int] = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "one_pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "four_of_a_kind": 0,
    "small_straight": 15,
    "large_straight": 0,
    "full_house": 22,
    "chance": 21,
    "yatzy": 0,
}


def card(open_boxes: tuple[str, ...], **points: int) -> Scorecard:
    filled = {**_FILLED, **points}
    return Scorecard.from_filled(
        {box: p for box, p in filled.items() if box not in open_boxes}, rules=YATZY
    )


@pytest.mark.parametrize(
    ("open_boxes", "points"),
    [
        (("two_pairs",), {}),
        (("full_house",), {}),
        (("large_straight",), {}),
        (("yatzy",), {}),
        (("sixes",), {"fives": 20}),  # 50 on the card: three sixes win the 50-point bonus
        (("one_pair", "two_pairs"), {}),
        (("four_of_a_kind", "yatzy"), {}),
        (("small_straight", "large_straight"), {"small_straight": 0}),
    ],
)
def test_endgames_agree_with_brute_force(
    yatzy: Strategy, open_boxes: tuple[str, ...], points: dict[str, int]
) -> None:
    position = card(open_boxes, **points)
    assert yatzy.value(position) == pytest.approx(
        float(BruteForce(exact=False).total(position)), abs=1e-9
    )


def test_a_turn_start_is_worth_the_average_best_choice_after_the_first_roll(
    yatzy: Strategy,
) -> None:
    rng = random.Random(30)
    for filled in (0, 7, 13):
        position = Scorecard(YATZY)
        for _ in range(filled):
            dice = [rng.randint(1, 6) for _ in range(5)]
            position = position.score(rng.choice(position.empty), dice)
        best = [yatzy.advise(position, roll, 2)[0].expected for roll in ROLLS]
        assert float(ROLL_PROBABILITY @ np.array(best)) == pytest.approx(
            yatzy.value(position), abs=1e-9
        )


def test_advice_names_only_the_cards_boxes(yatzy: Strategy) -> None:
    choices = yatzy.advise(Scorecard(YATZY), (6, 6, 6, 5, 5), 0)
    assert {c.category for c in choices} == set(YATZY.boxes)
    points = {c.category: c.points for c in choices}
    assert points[Category.FULL_HOUSE] == 28
    assert points[Category.TWO_PAIRS] == 22


def test_the_odds_mean_is_the_strategys_value(yatzy: Strategy, yatzy_odds: odds.Odds) -> None:
    for open_boxes in (("yatzy",), ("one_pair", "two_pairs", "chance"), ("sixes", "fives")):
        position = card(open_boxes)
        dist = yatzy_odds.distribution(position)
        assert dist.mean == pytest.approx(yatzy.value(position), abs=1e-6)
    # From an empty card the distribution is the fitted mixture: close, not exact.
    start = yatzy_odds.distribution(Scorecard(YATZY))
    assert start.mean == pytest.approx(yatzy.expected_score, abs=0.5)
    assert start.chances.sum() == pytest.approx(1.0)


def test_the_bots_play_a_yatzy_card_to_its_end(yatzy_odds: odds.Odds) -> None:
    rng = random.Random(15)
    cards = [Scorecard(YATZY), Scorecard(YATZY)]
    levels = ("win", "optimal")
    while not all(c.is_complete for c in cards):
        for seat, level in enumerate(levels):
            own = cards[seat]
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            for rolls_left in (2, 1, 0):
                position = Position(YATZY, seat, own, dice, rolls_left)
                others = others_of(yatzy_odds, cards, seat)
                move = choose(level, position, others)
                if move.category is not None:
                    break
                assert rolls_left > 0
                dice = tuple(d if i in move.hold else rng.randint(1, 6) for i, d in enumerate(dice))
            assert move.category is not None
            cards[seat] = own.score(move.category, dice)
    assert all(len(c.filled) == 15 for c in cards)
    assert all(c.total == sum(c.filled.values()) + c.upper_bonus for c in cards)


def test_the_coach_advises_on_a_yatzy_card(yatzy: Strategy, yatzy_odds: odds.Odds) -> None:
    own = card(("full_house", "yatzy"))
    rival = card(("chance", "yatzy"))
    position = Position(YATZY, 0, own, (6, 6, 6, 5, 5), 0)
    message = coach.advice(position, 3, [own, rival])
    assert [c["label"] for c in message["choices"]] == ["Full house (28)", "Yatzy (0)"]
    assert all(0.0 <= c["win"] <= 1.0 for c in message["choices"])
    alone = coach.advice(position, 3)
    after = yatzy.value(own.score("full_house", (6, 6, 6, 5, 5)))
    assert alone["choices"][0]["expected"] == pytest.approx(after, abs=1e-4)
    assert alone["choices"][0]["win"] is None
