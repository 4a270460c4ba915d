"""The solver against brute force on cards with one or two boxes left.

:mod:`.brute` plays every such position the slow way, through the rules
engine, so these check the solver's whole chain: the turn (keeps and
rerolls), the upper and Yahtzee bonuses, and the Joker under each preset.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import combinations

import pytest

from games.engine.rules import FREE_JOKER, OFFICIAL, Rules, Scorecard
from games.strategy import Strategy

from .brute import BruteForce

# Every box filled with a possible score except the ones named open.
_FILLED: Mapping[str, int] = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 22,
    "four_of_a_kind": 0,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 0,
    "yahtzee": 0,
    "chance": 21,
}


def card(rules: Rules, open_boxes: tuple[str, ...], **points: int) -> Scorecard:
    """A card with ``open_boxes`` empty, ``points`` where given and the usual scores elsewhere."""
    filled = {**_FILLED, **points}
    return Scorecard.from_filled(
        {box: p for box, p in filled.items() if box not in open_boxes}, rules=rules
    )


@pytest.fixture(scope="module")
def brute() -> BruteForce:
    """One brute force for the module (in floats): positions shared by tests are played once."""
    return BruteForce(exact=False)


def solved(strategy_official: Strategy, strategy_free: Strategy, rules: Rules) -> Strategy:
    return strategy_official if rules is OFFICIAL else strategy_free


ONE_BOX = [
    pytest.param(("yahtzee",), {}, id="only-yahtzee"),
    pytest.param(("chance",), {}, id="only-chance"),
    pytest.param(("sixes",), {"fives": 20}, id="sixes-for-the-bonus"),  # 50: three sixes needed
    pytest.param(("full_house",), {"yahtzee": 50}, id="full-house-jokers-earn-100"),
    pytest.param(("fours",), {"yahtzee": 0}, id="fours-jokers-earn-nothing"),
    pytest.param(("small_straight",), {"yahtzee": 50, "twos": 10}, id="straight-above-63"),
]

TWO_BOXES = [
    # Under the official rules a Yahtzee of fives must go in Fives; the free Joker may
    # take it to Large straight for 40 (and, the bonus out of reach, keep Fives for later).
    pytest.param(
        ("fives", "large_straight"), {"yahtzee": 50, "sixes": 0}, id="fives-or-joker-straight"
    ),
    pytest.param(("threes", "full_house"), {}, id="threes-for-the-bonus"),  # 54: three threes
    pytest.param(("yahtzee", "small_straight"), {}, id="yahtzee-and-straight"),
]


@pytest.mark.parametrize("rules", [OFFICIAL, FREE_JOKER], ids=["official", "free_joker"])
@pytest.mark.parametrize(("open_boxes", "points"), ONE_BOX)
def test_one_box_left_matches_exact_brute_force(
    official: Strategy,
    free_joker: Strategy,
    rules: Rules,
    open_boxes: tuple[str, ...],
    points: dict[str, int],
) -> None:
    position = card(rules, open_boxes, **points)
    exact = BruteForce(exact=True).total(position)

    assert isinstance(exact, Fraction)
    assert solved(official, free_joker, rules).value(position) == pytest.approx(
        float(exact), abs=1e-9
    )


def test_only_yahtzee_left_is_worth_fifty_times_the_chance_of_one(official: Strategy) -> None:
    # The chance of a Yahtzee in a turn spent chasing it is 2,783,176 / 60,466,176 (about
    # 4.6%), a figure known since the 1970s.
    position = card(OFFICIAL, ("yahtzee",))
    chance = Fraction(2_783_176, 60_466_176)

    assert official.value(position) == pytest.approx(position.total + 50 * float(chance), abs=1e-9)


@pytest.mark.parametrize("rules", [OFFICIAL, FREE_JOKER], ids=["official", "free_joker"])
@pytest.mark.parametrize(("open_boxes", "points"), TWO_BOXES)
def test_two_boxes_left_match_brute_force(
    brute: BruteForce,
    official: Strategy,
    free_joker: Strategy,
    rules: Rules,
    open_boxes: tuple[str, ...],
    points: dict[str, int],
) -> None:
    position = card(rules, open_boxes, **points)

    expected = brute.total(position)

    assert solved(official, free_joker, rules).value(position) == pytest.approx(expected, abs=1e-9)


def test_the_presets_differ_where_the_joker_rule_does(
    official: Strategy, free_joker: Strategy
) -> None:
    # Fives and Large straight open, 50 in Yahtzee, the upper bonus out of reach: the free
    # Joker may score a Yahtzee of fives as a straight (40) and keep Fives for later.
    strict = card(OFFICIAL, ("fives", "large_straight"), yahtzee=50, sixes=0)
    free = card(FREE_JOKER, ("fives", "large_straight"), yahtzee=50, sixes=0)

    assert free_joker.value(free) > official.value(strict) + 0.01


@pytest.mark.parametrize("rules", [OFFICIAL, FREE_JOKER], ids=["official", "free_joker"])
@pytest.mark.parametrize(
    ("open_boxes", "points", "dice", "rolls_left"),
    [
        (("fives", "large_straight"), {"yahtzee": 50}, (5, 5, 5, 5, 5), 0),
        (("fives", "large_straight"), {"yahtzee": 50, "sixes": 0}, (5, 5, 5, 5, 5), 0),
        (("fives", "large_straight"), {"yahtzee": 50, "sixes": 0}, (5, 5, 5, 5, 5), 1),
        (("fives", "large_straight"), {"yahtzee": 50, "sixes": 0}, (2, 3, 4, 5, 5), 2),
        (("threes", "full_house"), {}, (3, 3, 6, 1, 3), 1),
        (("threes", "full_house"), {}, (3, 6, 6, 5, 2), 2),
        (("yahtzee", "small_straight"), {}, (1, 2, 3, 4, 4), 2),
    ],
)
def test_every_choice_is_valued_as_brute_force_values_it(
    brute: BruteForce,
    official: Strategy,
    free_joker: Strategy,
    rules: Rules,
    open_boxes: tuple[str, ...],
    points: dict[str, int],
    dice: tuple[int, ...],
    rolls_left: int,
) -> None:
    position = card(rules, open_boxes, **points)
    turn = brute.turn(position)

    choices = solved(official, free_joker, rules).advise(position, dice, rolls_left)

    assert {c.category for c in choices if c.kind == "score"} == set(position.options(dice))
    keeps = len(_sub_multisets(dice)) - 1 if rolls_left else 0  # Holding all five is no roll.
    assert sum(c.kind == "keep" for c in choices) == keeps
    for choice in choices:
        if choice.kind == "score":
            truth = turn.score_value(dice, choice.category)
        else:
            assert tuple(sorted(dice[i] for i in choice.hold)) == choice.kept
            truth = turn.kept(choice.kept, rolls_left)
        assert choice.expected == pytest.approx(truth, abs=1e-9), choice.label
    assert choices[0].expected == pytest.approx(turn.rolled(dice, rolls_left), abs=1e-9)
    assert [c.expected for c in choices] == sorted((c.expected for c in choices), reverse=True)


def _sub_multisets(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(sorted(p)) for size in range(6) for p in combinations(dice, size)}
