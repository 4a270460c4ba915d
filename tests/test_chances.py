"""The chances to win (issue 18): what the odds are asked for each seat, the answers at
moments whose answer is known, and over a whole game the decisions and rolls told apart.

The engine's own accuracy is tested in tests/strategy/test_odds.py (against a Monte
Carlo of the Optimal bot); here, what this module makes of a game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

import pytest

from games.engine import events, rules
from games.engine.rules import OFFICIAL, YAHTZEE_BOXES, Category, Position, Scorecard
from games.insight import chances, review
from games.strategy import odds as odds_module
from games.strategy import policies
from games.strategy.odds import Odds
from games.web import review_words


@pytest.fixture(scope="module")
def table() -> Odds:
    return odds_module.load(OFFICIAL)


def started(seats: int) -> rules.Game:
    """A game whose roll-off seat 0 won: seat 0 on turn, nothing rolled yet."""
    throws = {seat: [6] * 5 if seat == 0 else [1] * 5 for seat in range(seats)}
    game = rules.Game.new(seats).throw_roll_off(throws).game
    assert game.current == 0
    return game


def log_of(seats: int, moves: Iterable[tuple[str, object]]) -> list[events.AnyEvent]:
    """The log of a game of ``seats`` players as the server keeps it, its moves applied in
    turn: ``("roll", (fresh, hold))``, ``("hold", positions)`` or ``("score", box)``."""
    names = tuple(["Ana", "Ben", "Cy", "Dee", "Eve", "Flo"][:seats])
    log: list[events.AnyEvent] = [events.Created(OFFICIAL.name, seats, False)]
    log += [events.Joined(s, n, s == 0) for s, n in enumerate(names)]
    log.append(events.Started(names, None))
    game = rules.Game.new(seats)
    progress = game.throw_roll_off({s: [6] * 5 if s == 0 else [1] * 5 for s in range(seats)})
    game = progress.game
    log += progress.events
    for kind, what in moves:
        seat = game.current
        assert seat is not None
        if kind == "roll":
            fresh, hold = what  # type: ignore[misc]
            progress = game.roll(seat, fresh, hold)
        elif kind == "hold":
            progress = game.hold(seat, what)  # type: ignore[arg-type]
        else:
            progress = game.score(seat, what)  # type: ignore[arg-type]
        game = progress.game
        log += progress.events
    return log


# -- what the odds are asked -----------------------------------------------------------------


def test_each_seat_goes_to_the_odds_as_it_stands() -> None:
    game = started(3)
    empty = Scorecard(OFFICIAL)
    # Before the first roll every seat is a card at the start of a turn.
    assert chances.contest(game) == {0: empty, 1: empty, 2: empty}
    rolled = game.roll(0, [6, 6, 1, 2, 6]).game
    assert chances.contest(rolled) == {
        0: Position(OFFICIAL, 0, empty, (6, 6, 1, 2, 6), 2, ()),
        1: empty,
        2: empty,
    }
    # A seat that left cannot win: it is not in the contest at all.
    gone = rolled.leave(2).game
    assert set(chances.contest(gone)) == {0, 1}


def test_a_full_card_is_its_total() -> None:
    game = rules.Game.new(1)
    for box in list(YAHTZEE_BOXES):
        game = game.roll(0, [5, 5, 5, 5, 5]).game.score(0, box).game
    assert game.is_over
    assert chances.contest(game) == {0: game.cards[0].total}


# -- known answers ---------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_before_anyone_rolls_every_seat_has_the_same_chance(table: Odds, seats: int) -> None:
    assert chances.win_chances(started(seats), table) == pytest.approx([1 / seats] * seats)


def test_the_chances_are_the_engines_for_those_positions(table: Odds) -> None:
    game = started(2).roll(0, [6, 6, 2, 6, 3]).game.score(0, Category.SIXES).game
    game = game.roll(1, [4, 4, 4, 4, 1]).game
    position = game.position()
    assert position is not None
    expected = odds_module.win_probabilities(OFFICIAL, [game.cards[0], position])
    assert chances.win_chances(game, table) == pytest.approx(expected, abs=1e-12)
    # A Yahtzee on the first roll does the roller a lot of good.
    yahtzee = started(2).roll(0, [6, 6, 6, 6, 6]).game
    ana, ben = chances.win_chances(yahtzee, table)
    assert ana > 0.7
    assert ana + ben == pytest.approx(1)


def test_a_seat_that_left_has_no_chance_and_the_others_share_it(table: Odds) -> None:
    game = started(3).leave(2).game
    assert chances.win_chances(game, table) == pytest.approx([0.5, 0.5, 0.0])
    message = chances.odds_message(game, 9, table)
    assert message == {
        "type": "odds",
        "version": 9,
        "over": False,
        "seats": [
            {"seat": 0, "win": 0.5, "left": False},
            {"seat": 1, "win": 0.5, "left": False},
            {"seat": 2, "win": 0.0, "left": True},
        ],
    }


def test_a_game_that_is_over_gives_its_result_ties_shared(table: Odds) -> None:
    game = started(2)
    for box in list(YAHTZEE_BOXES):  # Both fill every box with the same dice: a tie.
        for seat in (0, 1):
            game = game.roll(seat, [3, 3, 3, 5, 5]).game.score(seat, box).game
    assert game.is_over
    assert game.outcome().winners == (0, 1)
    assert chances.win_chances(game, table) == (0.5, 0.5)
    assert chances.odds_message(game, 60, table)["over"] is True
    won = started(2)
    for box in list(YAHTZEE_BOXES):
        won = won.roll(0, [6, 6, 6, 6, 6]).game.score(0, box).game
        won = won.roll(1, [1, 2, 3, 4, 6]).game.score(1, box).game
    assert chances.win_chances(won, table) == (1.0, 0.0)


# -- over the game ---------------------------------------------------------------------------

YAHTZEE_IN_ONES = [
    ("roll", ([6, 6, 6, 6, 6], ())),  # Ana: five sixes on the first roll...
    ("score", Category.ONES),  # ... written in Ones for 0: a dreadful decision.
    ("roll", ([1, 2, 3, 4, 6], ())),
    ("hold", [0, 1, 2, 3]),
    ("roll", ([5], (0, 1, 2, 3))),  # Ben keeps 1 2 3 4 and throws a 5: a large straight.
    ("score", Category.LARGE_STRAIGHT),
    ("roll", ([2, 2, 5, 6, 1], ())),
    ("roll", ([6, 6, 6], (2, 3))),  # Ana keeps 5 6 (not the best keep) and throws 6 6 6.
]


def test_every_moment_has_every_seats_chance_and_holds_change_nothing(table: Odds) -> None:
    told = review.build(log_of(2, YAHTZEE_IN_ONES))
    over = chances.over_the_game(told, table)
    kinds = [m.kind for m in told.moments]
    assert kinds == [
        "start", "rolled", "scored", "rolled", "held", "rolled", "scored", "rolled", "rolled"
    ]  # fmt: skip
    assert over.seqs == tuple(m.seq for m in told.moments)
    assert over.chances[0] == pytest.approx((0.5, 0.5))
    for index, moment in enumerate(told.moments):
        assert moment.game is not None
        assert over.chances[index] == chances.win_chances(moment.game, table)
        assert sum(over.chances[index]) == pytest.approx(1)
    assert over.chances[4] == over.chances[3]  # Ben's hold shows a plan; the roll decides.


def test_a_roll_that_keeps_dice_is_a_decision_then_luck_and_they_add_up(table: Odds) -> None:
    told = review.build(log_of(2, YAHTZEE_IN_ONES))
    over = chances.over_the_game(told, table)
    swings = {(s.seq, s.cause): s for s in over.swings}
    # The first roll of a turn is luck alone; a score is a decision alone.
    first, ones = told.moments[1], told.moments[2]
    assert [s.cause for s in over.swings if s.seq == first.seq] == ["roll"]
    assert [s.cause for s in over.swings if s.seq == ones.seq] == ["decision"]
    assert review_words.swing_text(swings[(ones.seq, "decision")], told) == "Ana scored 0 in Ones"
    assert swings[(ones.seq, "decision")].change < -0.2  # Fifty points thrown away.
    # Ana's second roll: keeping 5 6 of 2 2 5 6 1, then 6 6 6 came.
    last = told.moments[-1]
    keep, luck = swings[(last.seq, "decision")], swings[(last.seq, "roll")]
    assert review_words.swing_text(keep, told) == "Ana kept 5 6 and threw the other 3"
    assert review_words.swing_text(luck, told) == "Ana rolled 6 6 6 beside the 5 6 kept"
    assert keep.before == over.chances[-2]
    assert luck.after == over.chances[-1]
    assert keep.after == luck.before
    # The chances once the dice are kept are the average over every way the other three
    # can land: the law of total probability, worked out here the long way.
    before = told.moments[-2].game
    assert before is not None
    average = [0.0, 0.0]
    for fresh in itertools.product(range(1, 7), repeat=3):
        after = before.roll(0, list(fresh), hold=[2, 3]).game
        for seat, chance in enumerate(chances.win_chances(after, table)):
            average[seat] += chance / 6**3
    assert keep.after == pytest.approx(average, abs=1e-9)


def test_the_best_keep_costs_nothing(table: Odds) -> None:
    # Ben keeps 1 2 3 4 for the straight: what the engine plays, so the chances stand.
    told = review.build(log_of(2, YAHTZEE_IN_ONES))
    over = chances.over_the_game(told, table)
    ben_keep = next(s for s in over.swings if s.seat == 1 and s.cause == "decision")
    assert review_words.swing_text(ben_keep, told) == "Ben kept 1 2 3 4 and threw the other 1"
    assert ben_keep.size == pytest.approx(0, abs=1e-9)


def test_the_turning_points_are_the_biggest_swings_each_named_and_linked(table: Odds) -> None:
    told = review.build(log_of(2, YAHTZEE_IN_ONES))
    over = chances.over_the_game(told, table)
    points = over.turning_points()
    assert chances.FEWEST_TURNING_POINTS <= len(points) <= chances.TURNING_POINTS
    sizes = [p.size for p in points]
    assert sizes == sorted(sizes, reverse=True)
    # The three biggest, and after them only swings of a twentieth or more.
    assert sorted(s.size for s in over.swings)[-3:] == sorted(sizes[:3])
    assert all(p.size >= chances.SMALLEST_TURN for p in points[3:])
    smaller = [s for s in over.swings if s not in points]
    assert all(s.size <= points[-1].size or s.size < chances.SMALLEST_TURN for s in smaller)
    biggest = max(over.swings, key=lambda s: s.size)
    assert points[0] == biggest
    # The Yahtzee rolled and the Yahtzee thrown away are both there, told apart.
    by_move = {(p.seq, p.cause) for p in points}
    assert (told.moments[1].seq, "roll") in by_move
    assert (told.moments[2].seq, "decision") in by_move
    exported = review_words.win_chances_json(over, told)  # The export's, worded.
    assert exported["names"] == ["Ana", "Ben"]
    assert [m["seq"] for m in exported["moments"]] == [m.seq for m in told.moments]
    first = exported["turning_points"][0]
    assert set(first) == {
        "seq", "index", "round", "seat", "cause", "text", "by", "swing", "change", "before",
        "after",
    }  # fmt: skip
    assert told.moments[first["index"]].seq == first["seq"]
    assert first["text"] == review_words.swing_text(points[0], told)


def test_a_whole_game_ends_on_its_result(table: Odds) -> None:
    rng = random.Random(5)
    game, moves = started(3), []
    while not game.is_over:
        position = game.position()
        assert position is not None
        move = policies.choose("casual", position)
        if move.category is not None:
            moves.append(("score", move.category))
            game = game.score(position.seat, move.category).game
        else:
            fresh = [rng.randint(1, 6) for _ in range(5 - len(move.hold))]
            moves.append(("roll", (fresh, move.hold)))
            game = game.roll(position.seat, fresh, move.hold).game
    told = review.build(log_of(3, moves))
    over = chances.over_the_game(told, table)
    assert told.moments[-1].kind == "finished"
    assert over.chances[-1] == chances.result(game)
    assert sum(over.chances[-1]) == 1
    assert len(over.turning_points()) == chances.TURNING_POINTS
