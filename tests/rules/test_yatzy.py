"""Yatzy, the Scandinavian game: known answers for its fifteen boxes, and whole games.

The answers below were worked out by hand from the rules (``shared/RULES.md``'s Yatzy
section, issue 30): the kinds and the pairs count only their own dice, the straights are
1-2-3-4-5 (15) and 2-3-4-5-6 (20), a full house is three and two of different faces
scored as the sum, and there is neither a Yatzy bonus nor a Joker.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import events
from games.engine.rules import (
    OFFICIAL,
    YATZY,
    YATZY_BOXES,
    Category,
    Game,
    IllegalMoveError,
    InvalidInputError,
    Scorecard,
    box_score,
)

from .helpers import dice, raises_code

# Columns: Ones..Sixes, One pair, Two pairs, 3K, 4K, Small straight, Large straight,
# Full house, Chance, Yatzy (the card's order).
KNOWN = {
    "2 2 3 3 3": (0, 4, 9, 0, 0, 0, 6, 10, 9, 0, 0, 0, 13, 13, 0),  # a full house holds two pairs
    "3 2 3 2 3": (0, 4, 9, 0, 0, 0, 6, 10, 9, 0, 0, 0, 13, 13, 0),  # the same, in another order
    "3 3 3 3 5": (0, 0, 12, 0, 5, 0, 6, 0, 9, 12, 0, 0, 0, 17, 0),  # four of a kind: no two pairs
    "5 5 5 5 5": (0, 0, 0, 0, 25, 0, 10, 0, 15, 20, 0, 0, 0, 25, 50),  # five alike: no full house
    "1 2 3 4 5": (1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 15, 0, 0, 15, 0),  # the small straight only
    "2 3 4 5 6": (0, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 20, 0, 20, 0),  # the large straight only
    "6 5 4 3 2": (0, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 20, 0, 20, 0),
    "1 2 3 4 6": (1, 2, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 16, 0),  # a run of four is nothing
    "1 3 4 5 6": (1, 0, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 19, 0),
    "6 6 5 5 1": (1, 0, 0, 0, 10, 12, 12, 22, 0, 0, 0, 0, 0, 23, 0),  # the highest pair
    "6 6 6 5 5": (0, 0, 0, 0, 10, 18, 12, 22, 18, 0, 0, 0, 28, 28, 0),  # full house: the sum
    "4 4 4 4 2": (0, 2, 0, 16, 0, 0, 8, 0, 12, 16, 0, 0, 0, 18, 0),  # the kinds: their dice only
    "1 1 2 2 3": (2, 4, 3, 0, 0, 0, 4, 6, 0, 0, 0, 0, 0, 9, 0),
    "1 1 1 2 3": (3, 2, 3, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 8, 0),
}


def test_the_card_has_fifteen_boxes_in_its_order() -> None:
    assert [c.value for c in YATZY.boxes] == [
        "ones", "twos", "threes", "fours", "fives", "sixes",
        "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind",
        "small_straight", "large_straight", "full_house", "chance", "yatzy",
    ]  # fmt: skip
    assert [c.label for c in YATZY.lower] == [
        "One pair", "Two pairs", "Three of a kind", "Four of a kind",
        "Small straight", "Large straight", "Full house", "Chance", "Yatzy",
    ]  # fmt: skip


def test_every_box_scores_the_known_answers() -> None:
    for roll, answer in KNOWN.items():
        expected = dict(zip(YATZY_BOXES, answer, strict=True))
        assert Scorecard(YATZY).options(dice(roll)) == expected, roll
        assert {c: box_score(c, dice(roll), YATZY) for c in YATZY_BOXES} == expected, roll


def test_the_same_names_score_by_yahtzees_rules_under_its_presets() -> None:
    assert box_score(Category.FULL_HOUSE, dice("2 2 3 3 3"), OFFICIAL) == 25
    assert box_score(Category.THREE_OF_A_KIND, dice("3 3 3 3 5"), OFFICIAL) == 17
    assert box_score(Category.SMALL_STRAIGHT, dice("1 2 3 4 6"), OFFICIAL) == 30
    assert box_score(Category.LARGE_STRAIGHT, dice("1 2 3 4 5"), OFFICIAL) == 40


def test_boxes_of_the_other_game_are_refused() -> None:
    with raises_code("unknown_category", InvalidInputError):
        Scorecard(YATZY).score("yahtzee", dice("6 6 6 6 6"))
    with raises_code("unknown_category", InvalidInputError):
        Scorecard(OFFICIAL).score("two_pairs", dice("6 6 5 5 1"))
    with raises_code("unknown_category", InvalidInputError):
        box_score(Category.ONE_PAIR, dice("6 6 5 5 1"))
    with raises_code("unknown_category", InvalidInputError):
        Scorecard(YATZY)[Category.YAHTZEE]


def test_a_second_yatzy_is_no_joker_and_earns_no_bonus() -> None:
    card = Scorecard(YATZY).score("yatzy", dice("3 3 3 3 3"))
    assert card.total == 50
    assert not card.is_joker(dice("6 6 6 6 6"))
    assert not card.earns_yahtzee_bonus(dice("6 6 6 6 6"))
    # It goes in any empty box, by that box's own rule.
    options = card.options(dice("6 6 6 6 6"))
    assert len(options) == 14
    assert options[Category.FULL_HOUSE] == 0
    assert options[Category.LARGE_STRAIGHT] == 0
    assert options[Category.FOUR_OF_A_KIND] == 24
    card = card.score("full_house", dice("6 6 6 6 6"))
    assert (card.total, card.yahtzee_bonus_count, card.yahtzee_bonus) == (50, 0, 0)


def test_the_upper_bonus_is_50_at_63() -> None:
    three_each = {box: 3 * (i + 1) for i, box in enumerate(YATZY_BOXES[:6])}
    card = Scorecard.from_filled(three_each, rules=YATZY)
    assert (card.upper_total, card.upper_bonus, card.total) == (63, 50, 113)
    short = Scorecard.from_filled({**three_each, Category.ONES: 2}, rules=YATZY)
    assert (short.upper_total, short.upper_bonus) == (62, 0)


ZERO_IN = {
    Category.ONES: "2 2 3 4 6",
    Category.TWOS: "1 1 3 4 6",
    Category.THREES: "1 1 2 4 6",
    Category.FOURS: "1 1 2 3 6",
    Category.FIVES: "1 1 2 3 6",
    Category.SIXES: "1 1 2 3 5",
    Category.ONE_PAIR: "1 2 3 4 6",
    Category.TWO_PAIRS: "1 1 2 3 4",
    Category.THREE_OF_A_KIND: "1 1 2 3 4",
    Category.FOUR_OF_A_KIND: "1 1 1 3 4",
    Category.SMALL_STRAIGHT: "2 3 4 5 6",
    Category.LARGE_STRAIGHT: "1 2 3 4 5",
    Category.FULL_HOUSE: "2 2 2 2 2",
    Category.YATZY: "1 2 3 4 6",
}


def test_every_box_but_chance_may_take_a_zero() -> None:
    card = Scorecard(YATZY)
    for box, roll in ZERO_IN.items():
        card = card.score(box, dice(roll))
        assert card[box] == 0, box
    assert card.empty == (Category.CHANCE,)  # Five dice always add up to something.
    assert card.total == 0
    with raises_code("box_filled", IllegalMoveError):
        card.score("yatzy", dice("6 6 6 6 6"))


faces = st.integers(1, 6)
rolls = st.one_of(st.tuples(faces, faces, faces, faces, faces), faces.map(lambda f: (f,) * 5))


@settings(max_examples=40, deadline=None)
@given(players=st.integers(1, 4), data=st.data())
def test_every_game_ends_after_fifteen_turns_each(players: int, data: st.DataObject) -> None:
    game = Game.new(players, YATZY)
    if game.on_turn is None:
        game = game.throw_roll_off({s: (s + 1,) * 5 for s in range(players)}).game
    turns = 0
    finished: list[events.PlayEvent] = []
    while not game.is_over:
        seat = game.on_turn
        assert seat is not None
        assert game.round == len(game.cards[seat].filled) + 1 <= 15
        game = game.roll(seat, data.draw(rolls)).game
        box = data.draw(st.sampled_from(game.cards[seat].empty))
        game, happened = game.score(seat, box)
        finished.extend(e for e in happened if isinstance(e, events.Finished))
        turns += 1
    assert turns == 15 * players
    assert all(card.is_complete and len(card.filled) == 15 for card in game.cards)
    assert all(card.yahtzee_bonus_count == 0 for card in game.cards)
    assert len(finished) == 1
    assert finished[0] == events.Finished(game.outcome().winners, game.outcome().totals)
