"""Optimal play, simulated through the real rules, scores what the table says it should."""

from __future__ import annotations

import random
import statistics

from games.engine.rules import YAHTZEE_BOXES, Game
from games.strategy import Strategy

GAMES = 2_000


def play(strategy: Strategy, games: int, rng: random.Random) -> list[int]:
    """Final grand totals of ``games`` solitaire games played by ``strategy``'s best choices.

    The games advance together, a turn at a time, so each turn's values are
    worked out for all of them at once (:meth:`Strategy.prepare`).
    """
    tables = [Game.new(1, strategy.rules) for _ in range(games)]
    for _ in YAHTZEE_BOXES:
        strategy.prepare(game.cards[0] for game in tables)
        for i, game in enumerate(tables):
            game = game.roll(0, [rng.randint(1, 6) for _ in range(5)]).game
            while True:
                assert game.turn.dice is not None
                choice = strategy.best(game.cards[0], game.turn.dice, game.turn.rolls_left)
                if choice.category is not None:
                    game = game.score(0, choice.category).game
                    break
                fresh = [rng.randint(1, 6) for _ in range(5 - len(choice.hold))]
                game = game.roll(0, fresh, choice.hold).game
            tables[i] = game
    assert all(game.is_over for game in tables)
    return [game.cards[0].total for game in tables]


def test_optimal_play_averages_the_expected_score(official: Strategy) -> None:
    totals: list[int] = []
    rng = random.Random(2024)
    for _ in range(GAMES // 250):  # In batches, to stay within the strategy's turn cache.
        totals += play(official, 250, rng)

    mean = statistics.fmean(totals)
    standard_error = statistics.stdev(totals) / len(totals) ** 0.5

    assert len(totals) == GAMES
    assert abs(mean - official.expected_score) < 4 * standard_error
