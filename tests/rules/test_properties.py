"""Properties of the rules engine over random legal play (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.rules import (
    FREE_JOKER,
    OFFICIAL,
    YAHTZEE_BOXES,
    Category,
    Game,
    Phase,
    RollOff,
    Rules,
    Scorecard,
)

from .helpers import yahtzee_of

FAST = settings(max_examples=150, deadline=None)
GAMES = settings(max_examples=40, deadline=None)

faces = st.integers(1, 6)
any_roll = st.tuples(faces, faces, faces, faces, faces)
# Yahtzees come up often, so the Joker and the bonus are exercised.
rolls = st.one_of(any_roll, faces.map(yahtzee_of))
not_yahtzees = any_roll.filter(lambda roll: len(set(roll)) > 1)
presets = st.sampled_from([OFFICIAL, FREE_JOKER])


@dataclass(frozen=True)
class Step:
    """One scoring on a card: the card before, the roll, the box chosen, the card after."""

    before: Scorecard
    roll: tuple[int, ...]
    box: Category
    after: Scorecard


@st.composite
def walks(draw: st.DrawFn) -> list[Step]:
    """A legal sequence of scorings from an empty card, of random length, choices among options."""
    card = Scorecard(draw(presets))
    steps = []
    for _ in range(draw(st.integers(1, 13))):
        roll = draw(rolls)
        box = draw(st.sampled_from(list(card.options(roll))))
        steps.append(Step(card, roll, box, card.score(box, roll)))
        card = steps[-1].after
    return steps


def parts(card: Scorecard) -> int:
    return card.upper_total + card.upper_bonus + card.lower_total + 100 * card.yahtzee_bonus_count


@FAST
@given(walks())
def test_grand_total_is_the_sum_of_its_parts(steps: list[Step]) -> None:
    for step in steps:
        assert step.after.total == parts(step.after)
        assert step.after.upper_bonus == (35 if step.after.upper_total >= 63 else 0)


@FAST
@given(walks(), rolls)
def test_options_offer_only_empty_boxes_and_at_least_one_until_complete(
    steps: list[Step], roll: tuple[int, ...]
) -> None:
    for card in [steps[0].before, *(step.after for step in steps)]:
        options = card.options(roll)
        assert set(options) <= set(card.empty)
        assert not set(options) & set(card.filled)
        assert all(points >= 0 for points in options.values())
        assert bool(options) is not card.is_complete


@FAST
@given(walks())
def test_score_writes_the_option_value_plus_the_bonus(steps: list[Step]) -> None:
    for step in steps:
        value = step.before.options(step.roll)[step.box]
        bonus = int(step.before.earns_yahtzee_bonus(step.roll))
        assert step.after[step.box] == value
        assert step.after.yahtzee_bonus_count == step.before.yahtzee_bonus_count + bonus
        assert step.after.filled == step.before.filled | {step.box: value}
        upper_bonus_gained = step.after.upper_bonus - step.before.upper_bonus
        assert step.after.total - step.before.total == value + 100 * bonus + upper_bonus_gained
        assert upper_bonus_gained in (0, 35)


@FAST
@given(
    presets,
    st.lists(not_yahtzees, min_size=13, max_size=13),
    st.permutations(list(YAHTZEE_BOXES)),
    st.permutations(range(13)),
)
def test_same_boxes_with_same_dice_in_any_order_give_the_same_card(
    rules: Rules, dice: list[tuple[int, ...]], boxes: list[Category], order: list[int]
) -> None:
    """With no Yahtzee rolled, every empty box is open to every roll and nothing hangs on order.

    (A Yahtzee makes order matter: the Joker and the bonus depend on what the
    Yahtzee box already holds; see the next test.)
    """
    pairs = list(zip(boxes, dice, strict=True))

    def fill(order: list[tuple[Category, tuple[int, ...]]]) -> Scorecard:
        card = Scorecard(rules)
        for box, roll in order:
            card = card.score(box, roll)
        return card

    forward, backward = fill(pairs), fill(pairs[::-1])
    shuffled = fill([pairs[i] for i in order])
    assert forward.total == backward.total == shuffled.total
    assert forward == backward == shuffled
    assert forward.yahtzee_bonus_count == 0


def test_with_yahtzees_the_order_matters() -> None:
    first = Scorecard(FREE_JOKER).score(Category.YAHTZEE, yahtzee_of(3))
    first = first.score(Category.FULL_HOUSE, yahtzee_of(3))
    last = Scorecard(FREE_JOKER).score(Category.FULL_HOUSE, yahtzee_of(3))
    last = last.score(Category.YAHTZEE, yahtzee_of(3))
    assert (first.total, last.total) == (50 + 25 + 100, 0 + 50)


def roll_for(rnd: random.Random, count: int) -> list[int]:
    """``count`` fresh faces; now and then all alike, so Yahtzees and Jokers come up."""
    if rnd.random() < 0.2:
        return [rnd.randint(1, 6)] * count
    return [rnd.randint(1, 6) for _ in range(count)]


def play_turn(game: Game, rnd: random.Random) -> Game:
    """The current seat rolls one to three times with random holds and scores a random option.

    Now and then it holds dice between rolls first, as a player does die by die; that
    changes only which dice are held.
    """
    seat = game.current
    assert seat is not None
    game = game.roll(seat, roll_for(rnd, 5)).game
    for _ in range(rnd.randint(0, 2)):
        if rnd.random() < 0.5:
            held = game.hold(seat, rnd.sample(range(5), rnd.randint(0, 4))).game
            assert (held.turn.dice, held.turn.rolls_used) == (game.turn.dice, game.turn.rolls_used)
            game = held
        hold = rnd.sample(range(5), rnd.randint(0, 4))
        game = game.roll(seat, roll_for(rnd, 5 - len(hold)), hold=hold).game
        assert game.turn.held == frozenset(hold)
    assert game.turn.dice is not None
    box = rnd.choice(list(game.cards[seat].options(game.turn.dice)))
    return game.score(seat, box.value).game


@GAMES
@given(st.integers(1, 6), presets, st.randoms(use_true_random=False))
def test_every_legal_game_ends_after_thirteen_turns_each(
    players: int, rules: Rules, rnd: random.Random
) -> None:
    game = Game.new(players, rules)
    while game.phase is Phase.ROLL_OFF:
        game = game.throw_roll_off({s: roll_for(rnd, 5) for s in game.roll_off.contenders}).game
    first = game.roll_off.winner
    assert first is not None
    assert game.current == first
    turns: Counter[int] = Counter()
    seats = []
    while game.phase is Phase.PLAYING:
        seat = game.current
        assert seat is not None
        seats.append(seat)
        turns[seat] += 1
        game = play_turn(game, rnd)
    assert turns == dict.fromkeys(range(players), 13)
    assert seats == [(first + i) % players for i in range(13 * players)]
    assert all(card.is_complete for card in game.cards)
    best = max(card.total for card in game.cards)
    assert game.outcome().winners == tuple(s for s in range(players) if game.cards[s].total == best)


@FAST
@given(st.integers(2, 6), st.data())
def test_roll_off_winner_has_the_highest_total_of_the_last_round(
    players: int, data: st.DataObject
) -> None:
    roll_off = RollOff(tuple(range(players)))
    for _ in range(8):  # ties can repeat; the invariants hold after every round
        throws = {seat: data.draw(any_roll) for seat in roll_off.contenders}
        previous, roll_off = roll_off.contenders, roll_off.throw(throws)
        best = max(map(sum, throws.values()))
        assert [seat for seat, _ in roll_off.rounds[-1]] == list(previous)
        assert roll_off.contenders == tuple(s for s in previous if sum(throws[s]) == best)
        if roll_off.winner is not None:
            assert sum(throws[roll_off.winner]) == best
            assert all(sum(d) < best for s, d in throws.items() if s != roll_off.winner)
            break
