"""The coach at a table: each choice's chance to win, and both bests when they differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.rules import OFFICIAL, YAHTZEE_BOXES, Category, Position, Scorecard
from games.insight import coach
from games.strategy import Strategy

ONLY_CHANCE = Scorecard.from_filled(
    {c: 0 for c in YAHTZEE_BOXES if c is not Category.CHANCE}, rules=OFFICIAL
)


@pytest.fixture(autouse=True)
def tables(strategy_cache: Path, official: Strategy) -> None:
    """The session's tables (coach.advice loads them from the session's cache)."""


def test_the_coach_names_the_best_for_points_and_the_best_to_win() -> None:
    position = Position(OFFICIAL, 0, ONLY_CHANCE, (6, 6, 5, 4, 1), 1)
    # The other seat left with 27: a Chance of 28 wins, 27 ties.
    rival = Scorecard.from_filled({"chance": 27}, rules=OFFICIAL)
    message = coach.advice(position, 7, [ONLY_CHANCE, rival], frozenset({1}))

    assert message["to_win"] == {
        "points": {"label": "Keep 4 5 6 6", "expected": 24.5, "win": round(1 / 12, 4)},
        "win": {"label": "Keep 5 6 6", "expected": 24.0, "win": round(3 / 36 + 3 / 72, 4)},
    }
    by_label = {c["label"]: c for c in message["choices"]}
    assert by_label["Chance (22)"]["win"] == 0.0
    assert all(0.0 <= c["win"] <= 1.0 for c in message["choices"])


def test_alone_or_when_points_and_winning_agree_it_says_nothing_more() -> None:
    position = Position(OFFICIAL, 0, ONLY_CHANCE, (6, 6, 5, 4, 1), 1)
    alone = coach.advice(position, 7)
    assert alone["to_win"] is None
    assert {c["win"] for c in alone["choices"]} == {None}
    # Against 10 every keep of four or more wins: points decide.
    rival = Scorecard.from_filled({"chance": 10}, rules=OFFICIAL)
    agreed = coach.advice(position, 7, [ONLY_CHANCE, rival], frozenset({1}))
    assert agreed["to_win"] is None
    assert agreed["choices"][0]["win"] == 1.0
