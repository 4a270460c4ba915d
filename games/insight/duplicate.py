"""The engine on the duplicate dice: what optimal play scores on a grid.

:func:`engine_game` plays a solo game on a :class:`~games.engine.grid.Grid` as the
Optimal bot plays (:func:`games.strategy.policies.optimal`: the move with the highest
expected final total), every roll taken from the grid as a player's is. Its score
is the mark a daily game is compared with: the same dice, played as the strategy
engine would.
"""

from __future__ import annotations

from games.engine.grid import Grid
from games.engine.rules import OFFICIAL, Game, Rules
from games.strategy import Strategy, load
from games.strategy.policies import optimal


def engine_game(grid: Grid, rules: Rules = OFFICIAL, strategy: Strategy | None = None) -> Game:
    """The finished solo game the optimal strategy (``strategy``, the preset's by default)
    plays on ``grid``."""
    solved = strategy or load(rules)
    game = Game.new(1, rules)
    while not game.is_over:
        position = game.position()
        assert position is not None  # A solo game in play always has its seat on turn.
        if position.dice is None:
            game = game.roll(0, grid.throw(game, 0)).game
            continue
        move = optimal(solved, position)
        if move.category is not None:
            game = game.score(0, move.category).game
        else:
            game = game.roll(0, grid.throw(game, 0, move.hold), move.hold).game
    return game
