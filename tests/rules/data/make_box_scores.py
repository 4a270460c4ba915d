"""Write ``box_scores.csv``: the points of every box for each of the 252 distinct rolls.

This is an independent reference scorer for the engine's ``box_score``. It
shares no code with ``games.engine.rules`` and works another way: each roll is the
sorted string of its faces ("11346"), and every lower box is a regular
expression or substring test on that string. Re-run it with::

    python tests/rules/data/make_box_scores.py

and review the diff; the CSV is committed and the tests read it.
"""

from __future__ import annotations

import csv
import itertools
import re
from pathlib import Path

BOXES = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
CSV_PATH = Path(__file__).with_name("box_scores.csv")

# Patterns on the sorted string of five faces.
THREE_SAME = re.compile(r"(.)\1\1")
FOUR_SAME = re.compile(r"(.)\1\1\1")
FIVE_SAME = re.compile(r"(.)\1\1\1\1")
# AAABB or AABBB with A != B (the lookaheads forbid five of a kind).
FULL_HOUSE = re.compile(r"(.)\1\1(?!\1)(.)\2|(.)\3(?!\3)(.)\4\4")


def reference_scores(roll: str) -> list[int]:
    """The 13 box scores of ``roll``, a sorted string of five faces such as ``"11346"``."""
    digits = sum(int(ch) for ch in roll)
    distinct = "".join(sorted(set(roll)))
    upper = [roll.count(str(face)) * face for face in range(1, 7)]
    lower = [
        digits if THREE_SAME.search(roll) else 0,
        digits if FOUR_SAME.search(roll) else 0,
        25 if FULL_HOUSE.fullmatch(roll) else 0,
        30 if any(run in distinct for run in ("1234", "2345", "3456")) else 0,
        40 if distinct in ("12345", "23456") else 0,
        50 if FIVE_SAME.fullmatch(roll) else 0,
        digits,
    ]
    return upper + lower


def all_rolls() -> list[str]:
    """Every multiset of five dice as a sorted string, in lexicographic order."""
    return ["".join(map(str, c)) for c in itertools.combinations_with_replacement(range(1, 7), 5)]


def main() -> None:
    with CSV_PATH.open("w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["dice", *BOXES])
        for roll in all_rolls():
            writer.writerow([" ".join(roll), *reference_scores(roll)])


if __name__ == "__main__":
    main()
