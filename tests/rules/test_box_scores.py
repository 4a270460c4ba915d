"""Known answers for every box over all 252 distinct rolls of five dice.

``data/box_scores.csv`` was written by ``data/make_box_scores.py``, a reference
scorer that shares no code with the engine; the rows below were checked by hand.
"""

from __future__ import annotations

import csv
import importlib.util
import itertools
from pathlib import Path

import pytest

from games.engine.rules import FREE_JOKER, OFFICIAL, YAHTZEE_BOXES, Category, Scorecard, box_score

from .helpers import dice

DATA = Path(__file__).with_name("data")


def _read_csv() -> tuple[list[str], dict[str, tuple[int, ...]]]:
    with (DATA / "box_scores.csv").open(newline="") as f:
        header, *rows = list(csv.reader(f))
    return header, {row[0]: tuple(map(int, row[1:])) for row in rows}


HEADER, TABLE = _read_csv()

# Checked by hand. Columns: Ones..Sixes, 3K, 4K, FH, SS, LS, Yahtzee, Chance.
HAND_CHECKED = {
    "1 2 3 4 4": (1, 2, 3, 8, 0, 0, 0, 0, 0, 30, 0, 0, 14),  # a small straight with a pair
    "1 3 4 5 6": (1, 0, 3, 4, 5, 6, 0, 0, 0, 30, 0, 0, 19),  # 3-4-5-6 with a stray 1
    "1 1 2 3 4": (2, 2, 3, 4, 0, 0, 0, 0, 0, 30, 0, 0, 11),
    "2 3 4 4 5": (0, 2, 3, 8, 5, 0, 0, 0, 0, 30, 0, 0, 18),
    "3 4 5 6 6": (0, 0, 3, 4, 5, 12, 0, 0, 0, 30, 0, 0, 24),
    "1 2 3 4 5": (1, 2, 3, 4, 5, 0, 0, 0, 0, 30, 40, 0, 15),  # large is also small
    "2 3 4 5 6": (0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 40, 0, 20),
    "1 2 3 5 6": (1, 2, 3, 0, 5, 6, 0, 0, 0, 0, 0, 0, 17),  # five faces, no run of four
    "1 2 4 5 6": (1, 2, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 18),
    "1 3 3 4 5": (1, 0, 6, 4, 5, 0, 0, 0, 0, 0, 0, 0, 16),  # 3-4-5 and a 1: no straight
    "3 3 3 5 5": (0, 0, 9, 0, 10, 0, 19, 0, 25, 0, 0, 0, 19),  # full house is a 3 of a kind
    "2 2 5 5 5": (0, 4, 0, 0, 15, 0, 19, 0, 25, 0, 0, 0, 19),
    "2 2 2 3 3": (0, 6, 6, 0, 0, 0, 12, 0, 25, 0, 0, 0, 12),
    "1 1 2 2 3": (2, 4, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9),  # two pairs: nothing
    "1 1 1 2 3": (3, 2, 3, 0, 0, 0, 8, 0, 0, 0, 0, 0, 8),  # three of a kind, no full house
    "1 6 6 6 6": (1, 0, 0, 0, 0, 24, 25, 25, 0, 0, 0, 0, 25),  # four of a kind is three too
    "5 5 5 5 6": (0, 0, 0, 0, 20, 6, 26, 26, 0, 0, 0, 0, 26),
    "4 4 4 4 4": (0, 0, 0, 20, 0, 0, 20, 20, 0, 0, 0, 50, 20),  # five of a kind: FH 0
    "1 1 1 1 1": (5, 0, 0, 0, 0, 0, 5, 5, 0, 0, 0, 50, 5),
    "6 6 6 6 6": (0, 0, 0, 0, 0, 30, 30, 30, 0, 0, 0, 50, 30),
    "1 1 4 4 6": (2, 0, 0, 8, 0, 6, 0, 0, 0, 0, 0, 0, 16),  # seed 000's example
}


def _as_options(points: tuple[int, ...]) -> dict[Category, int]:
    return dict(zip(YAHTZEE_BOXES, points, strict=True))


def test_csv_header_names_every_box_in_card_order() -> None:
    assert ["dice", *(c.value for c in YAHTZEE_BOXES)] == HEADER


def test_csv_has_one_row_per_multiset_of_five_dice() -> None:
    multisets = {
        " ".join(map(str, roll)) for roll in itertools.combinations_with_replacement(range(1, 7), 5)
    }
    assert len(multisets) == 252
    assert len(TABLE) == 252
    assert set(TABLE) == multisets


def test_csv_is_what_the_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location("make_box_scores", DATA / "make_box_scores.py")
    assert spec is not None
    assert spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    regenerated = {" ".join(r): tuple(generator.reference_scores(r)) for r in generator.all_rolls()}
    assert regenerated == TABLE


@pytest.mark.parametrize(("roll", "expected"), HAND_CHECKED.items(), ids=HAND_CHECKED)
def test_hand_checked_rows(roll: str, expected: tuple[int, ...]) -> None:
    assert TABLE[roll] == expected
    assert {c: box_score(c, dice(roll)) for c in YAHTZEE_BOXES} == _as_options(expected)


@pytest.mark.parametrize(("roll", "expected"), TABLE.items(), ids=TABLE)
def test_box_score_and_options_in_every_order(roll: str, expected: tuple[int, ...]) -> None:
    answer = _as_options(expected)
    for order in set(itertools.permutations(dice(roll))):
        assert {c: box_score(c, order) for c in YAHTZEE_BOXES} == answer, order
        # An empty card with no Yahtzee scored offers every box at its ordinary score.
        assert Scorecard(OFFICIAL).options(order) == answer, order
        assert Scorecard(FREE_JOKER).options(order) == answer, order


def test_counts_of_scoring_rolls() -> None:
    scoring = {c: sum(1 for row in TABLE.values() if _as_options(row)[c]) for c in YAHTZEE_BOXES}
    assert scoring[Category.YAHTZEE] == 6
    assert scoring[Category.LARGE_STRAIGHT] == 2
    assert scoring[Category.SMALL_STRAIGHT] == 16
    assert scoring[Category.FULL_HOUSE] == 30  # 6 faces for the three, 5 for the pair
    assert scoring[Category.FOUR_OF_A_KIND] == 36
    assert scoring[Category.THREE_OF_A_KIND] == 126
    assert scoring[Category.CHANCE] == 252
