"""The odds: the policy the distributions follow, known answers, and a Monte Carlo reference."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    YAHTZEE_BOXES,
    Category,
    Position,
    Scorecard,
    get_rules,
)
from games.strategy import Strategy
from games.strategy import odds as odds_module
from games.strategy.dice import LEVELS, ROLL_INDEX, outcome_probabilities, sub_keeps
from games.strategy.odds import Distribution, Odds, share_by_total, win_shares
from games.strategy.outcomes import ROLL_ROW, choices, final_roll_chances
from games.strategy.winning import win_turn

REFERENCE = Path(__file__).parent / "data" / "win_reference.json"
KEEP_FACES = [faces for level in LEVELS for faces in level]


@pytest.fixture(scope="session")
def odds_official(strategy_cache: Path, official: Strategy) -> Odds:
    return odds_module.load(OFFICIAL, cache_dir=strategy_cache)


@pytest.fixture(scope="session")
def odds_free_joker(strategy_cache: Path, free_joker: Strategy) -> Odds:
    return odds_module.load(FREE_JOKER, cache_dir=strategy_cache)


def random_cards(rules: Any, count: int, seed: int) -> list[Scorecard]:
    rng = random.Random(seed)
    cards = []
    for _ in range(count):
        card = Scorecard(rules)
        for _ in range(rng.randint(0, 12)):
            dice = [rng.randint(1, 6) for _ in range(5)]
            card = card.score(rng.choice(list(card.options(dice))), dice)
        cards.append(card)
    return cards


def test_it_plays_as_the_optimal_bot(odds_official: Odds, official: Strategy) -> None:
    # The simulations and the odds follow these choices; the Optimal bot plays Strategy.best.
    rng = random.Random(3)
    compared = 0
    for card in random_cards(OFFICIAL, 150, seed=1):
        chosen = odds_official.choices(odds_official.state_of(card))
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        roll = ROLL_INDEX[tuple(sorted(dice))]
        for rolls_left in (2, 1, 0):
            best = official.best(card, dice, rolls_left)
            if rolls_left == 0:
                ours = ("score", int(chosen.box[roll, 0]))
            else:
                keep = int((chosen.keep_2 if rolls_left == 2 else chosen.keep_1)[roll, 0])
                if keep == ROLL_ROW + roll and rolls_left == 2:
                    keep = int(chosen.keep_1[roll, 0])  # Standing now: decide with one roll left.
                if keep == ROLL_ROW + roll:
                    ours = ("score", int(chosen.box[roll, 0]))
                else:
                    ours = ("keep", KEEP_FACES[keep])
            theirs = (
                ("score", list(YAHTZEE_BOXES).index(best.category))
                if best.category is not None
                else ("keep", best.kept)
            )
            if ours != theirs:
                # Only a choice exactly as good may differ (a tie broken another way).
                values = {
                    (
                        c.kind,
                        list(YAHTZEE_BOXES).index(c.category) if c.category else c.kept,
                    ): c.expected
                    for c in official.advise(card, dice, rolls_left)
                }
                assert values[ours] == pytest.approx(best.expected, abs=1e-9)
            compared += 1
    assert compared == 450


@pytest.mark.parametrize("preset", ["official", "free_joker"])
def test_the_policy_earns_the_value_of_every_state(preset: str, request: Any) -> None:
    strategy: Strategy = request.getfixturevalue(preset)
    reachable = np.argwhere(strategy.model.reachable())
    rng = np.random.default_rng(2)
    pick = reachable[rng.choice(len(reachable), 400, replace=False)]
    pick = pick[pick[:, 0] != (1 << 13) - 1]
    masks, ups, ys = (pick[:, i].astype(np.int64) for i in range(3))
    chosen = choices(strategy.model, strategy._flat, masks, ups, ys)
    final = final_roll_chances(chosen)
    earned = (final * (chosen.gained + strategy._flat[chosen.after])).sum(axis=0)

    np.testing.assert_allclose(final.sum(axis=0), 1.0, atol=1e-12)
    np.testing.assert_allclose(earned, strategy.table[masks, ups, ys], atol=1e-9)


def test_a_last_yahtzee_box_is_fifty_with_the_known_chance(odds_official: Odds) -> None:
    # Going for a Yahtzee in three rolls: 2,783,176 / 60,466,176 (about 4.6%).
    only_yahtzee = Scorecard.from_filled(
        {c: 5 if c is Category.CHANCE else 0 for c in YAHTZEE_BOXES if c is not Category.YAHTZEE},
        rules=OFFICIAL,
    )
    dist = odds_official.distribution(only_yahtzee)

    assert (dist.offset, len(dist.chances)) == (5, 51)
    assert dist.chances[50] == pytest.approx(2_783_176 / 60_466_176, abs=1e-12)
    assert dist.chances.sum() == pytest.approx(1.0)
    assert dist.chance(lambda t: (t != 5) & (t != 55)) == 0.0


def test_mid_turn_the_last_roll_is_what_the_dice_show(odds_official: Odds) -> None:
    only_chance = Scorecard.from_filled(
        {c: 0 for c in YAHTZEE_BOXES if c is not Category.CHANCE}, rules=OFFICIAL
    )
    scored = odds_official.distribution(only_chance, dice=(6, 6, 5, 4, 1), rolls_left=0)
    assert (scored.offset, list(scored.chances)) == (22, [1.0])

    # With a roll left the policy keeps what the engine's best keeps and throws the rest:
    # the total is what is kept plus the dice thrown.
    one_left = odds_official.distribution(only_chance, dice=(6, 6, 5, 4, 1), rolls_left=1)
    best = odds_official.strategy.best(only_chance, (6, 6, 5, 4, 1), 1)
    chances = outcome_probabilities(best.kept)
    want: dict[int, float] = {}
    for roll, p in chances.items():
        want[sum(roll)] = want.get(sum(roll), 0.0) + float(p)
    got = {int(t): float(p) for t, p in zip(one_left.totals, one_left.chances, strict=True) if p}
    assert got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("preset", ["official", "free_joker"])
def test_distributions_have_the_strategy_mean(preset: str, request: Any) -> None:
    odds: Odds = request.getfixturevalue(f"odds_{preset}")
    for card in random_cards(get_rules(preset), 40, seed=5):
        if card.is_complete:
            continue
        dist = odds.distribution(card)
        assert dist.chances.sum() == pytest.approx(1.0)
        left = 13 - len(card.filled)
        # Exact distributions have exactly the mean; fitted ones within a few hundredths.
        tolerance = 1e-9 if left <= odds_module.EXACT_BOXES else 0.5
        assert dist.mean == pytest.approx(odds.strategy.value(card), abs=tolerance)


def test_win_shares_split_ties_and_add_up_to_one() -> None:
    coin = Distribution(10, np.array([0.5, 0.0, 0.5]))  # 10 or 12
    assert win_shares([coin, 11]) == pytest.approx((0.5, 0.5))
    assert win_shares([coin, 10]) == pytest.approx((0.75, 0.25))
    assert win_shares([12, 12, 12]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert win_shares([coin, coin]) == pytest.approx((0.5, 0.5))
    assert win_shares([coin, coin, 9]) == pytest.approx((0.5, 0.5, 0.0))
    assert win_shares([200, 150]) == (1.0, 0.0)
    # Three coins: each wins alone, ties two or three ways; it all adds up.
    shares = win_shares([coin, coin, coin])
    assert sum(shares) == pytest.approx(1.0)
    assert shares == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    share = share_by_total([coin])
    assert (share[9], share[10], share[11], share[12], share[13]) == (0.0, 0.25, 0.5, 0.75, 1.0)


def seats_of(position: dict[str, Any], odds: Odds) -> list[Distribution | int]:
    seats: list[Distribution | int] = []
    for seat in position["seats"]:
        if "final" in seat:
            seats.append(seat["final"])
            continue
        card = Scorecard(odds.rules, tuple(seat["boxes"]), seat.get("yahtzee_bonus_count", 0))
        seats.append(odds.distribution(card, seat.get("dice"), seat.get("rolls_left", 3)))
    return seats


def test_win_chances_agree_with_a_monte_carlo_of_the_optimal_bot(
    odds_official: Odds, odds_free_joker: Odds
) -> None:
    # 50 positions, 100,000 games each (benchmarks/odds_reference.py made them).
    reference = json.loads(REFERENCE.read_text())
    assert len(reference["positions"]) == 50
    assert reference["games"] == 100_000
    by_preset = {"official": odds_official, "free_joker": odds_free_joker}
    errors = {}
    for position in reference["positions"]:
        ours = win_shares(seats_of(position, by_preset[position["preset"]]))
        assert sum(ours) == pytest.approx(1.0)
        errors[position["name"]] = max(
            abs(a - b) for a, b in zip(ours, position["win"], strict=True)
        )
    worst = max(errors, key=errors.__getitem__)
    # Measured 0.0146 at most; the Monte Carlo's own standard error is about 0.0016.
    assert errors[worst] <= 0.02, f"{worst}: {errors[worst]:.4f}"


def test_win_probabilities_take_positions_cards_and_scores(odds_official: Odds) -> None:
    early = Scorecard.from_filled({"chance": 20}, rules=OFFICIAL)
    position = Position(OFFICIAL, 0, early, (6, 6, 6, 6, 6), 2)
    # Loads from the cache the session's tables were built in (YAHTZEE_STRATEGY_CACHE).
    shares = odds_module.win_probabilities(OFFICIAL, [position, Scorecard(OFFICIAL), 1_000])
    assert shares == pytest.approx((0.0, 0.0, 1.0), abs=1e-12)
    two = odds_module.win_probabilities(OFFICIAL, [position, Scorecard(OFFICIAL)])
    # A Yahtzee on the table and a box filled against an empty card: well ahead.
    assert 0.6 < two[0] < 0.9
    assert sum(two) == pytest.approx(1.0)


@functools.cache
def best_chance(target: int, dice: tuple[int, ...], rolls_left: int) -> float:
    """Brute force: the best chance that the dice's sum beats ``target`` (a tie: half)."""
    dice = tuple(sorted(dice))
    if rolls_left == 0:
        total = sum(dice)
        return 1.0 if total > target else 0.5 if total == target else 0.0
    best = best_chance(target, dice, 0)
    for kept in set(sub_keeps(tuple(sorted(dice)))):
        if len(kept) == 5:
            continue
        chance = sum(
            float(p) * best_chance(target, roll, rolls_left - 1)
            for roll, p in outcome_probabilities(kept).items()
        )
        best = max(best, chance)
    return best


def test_playing_to_win_a_last_chance_box_is_the_brute_force_optimum(
    odds_official: Odds,
) -> None:
    only_chance = Scorecard.from_filled(
        {c: 0 for c in YAHTZEE_BOXES if c is not Category.CHANCE}, rules=OFFICIAL
    )
    flat = odds_official.state_of(only_chance)
    # The opponent finished on 27: a Chance of 28 or more wins, 27 ties.
    turn = win_turn(odds_official, flat, only_chance.total, [27])
    dice = (6, 6, 5, 4, 1)
    for rolls_left in (2, 1, 0):
        chance = turn.decide(dice, rolls_left)[2]
        assert chance == pytest.approx(best_chance(27, dice, rolls_left), abs=1e-12)
    # With one roll left points keep 6 6 5 4 (21 + 3.5 on average), which can only tie;
    # keeping 6 6 5 and throwing two can (11 or 12 wins, 10 ties).
    for_points = odds_official.strategy.best(only_chance, dice, 1)
    _, to_win, chance = turn.decide(dice, 1)
    assert for_points.kept == (4, 5, 6, 6)
    assert to_win != for_points.kept
    assert (to_win, chance) == ((5, 6, 6), pytest.approx(3 / 36 + 3 / 36 / 2))
    assert turn.chance(dice, 1, kept=for_points.kept) == pytest.approx(1 / 6 / 2)  # A tie
    start = sum(
        float(p) * best_chance(27, roll, 2) for roll, p in outcome_probabilities(()).items()
    )
    assert turn.start == pytest.approx(start, abs=1e-12)
