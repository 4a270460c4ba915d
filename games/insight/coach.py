"""The coach: what the strategy engine advises the player on turn, as the room shows it.

The advice is every choice open (the dice to keep, or the box to score in) with
the expected final grand total each leads to under optimal play afterwards,
best first (:func:`games.strategy.advise`), and what each gives up against the
best: the player's own expected score (optimal *solitaire* play).

At a table of two or more it also weighs the other seats' cards
(:mod:`games.strategy.winning`): each choice carries its chance to finish first
(``win``: playing the rest of this turn to win, every later turn for points),
and when the best choice to win is not the best for points, ``to_win`` names
both, each with its expected total and its chance to win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import rules
from games.strategy import Choice, load, odds
from games.strategy.policies import others_of
from games.strategy.winning import WinTurn, win_turn

#: How much more likely to win a choice must be before the coach calls it better than the
#: best for points (the chances differ in the last digits between equals).
TO_WIN_MARGIN = 0.001


def advice(
    position: rules.Position,
    version: int,
    cards: Sequence[rules.Scorecard] = (),
    left: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """The ``advice`` message for ``position``, for the play at ``version`` (``docs/protocol.md``).

    ``cards`` are every seat's cards (``left``: the seats that left): with another seat
    than the player's, each choice gets its chance to win and ``to_win`` is filled when
    the best to win is not the best for points. Loading a preset's tables the first time
    in a process takes tens of milliseconds from the disk cache (seconds to build), so
    callers run this off the event loop and off the database thread. Raises
    :class:`~games.engine.rules.IllegalMoveError` (``not_rolled``) before the turn's first roll.
    """
    choices = load(position.rules).advise_position(position)
    assert position.dice is not None  # advise_position has raised not_rolled without them.
    best = choices[0].expected
    turn: WinTurn | None = None
    if len(cards) > 1:
        table = odds.load(position.rules)
        card = position.card
        others = others_of(table, cards, position.seat, left)
        turn = win_turn(table, table.state_of(card), card.total, others)
    chances = [None if turn is None else _chance(turn, position, c) for c in choices]
    return {
        "type": "advice",
        "version": version,
        "dice": list(position.dice),
        "rolls_left": position.rolls_left,
        "choices": [
            {
                "kind": choice.kind,
                "label": choice.label,
                "expected": round(choice.expected, 4),
                "loss": round(best - choice.expected, 4),
                "hold": list(choice.hold),
                "kept": list(choice.kept),
                "category": choice.category.value if choice.category else None,
                "points": choice.points if choice.category else None,
                "win": None if chance is None else round(chance, 4),
            }
            for choice, chance in zip(choices, chances, strict=True)
        ],
        "to_win": _to_win(choices, chances),
    }


def _chance(turn: WinTurn, position: rules.Position, choice: Choice) -> float:
    assert position.dice is not None
    category = choice.category
    box = position.rules.index(category) if category is not None else None
    return turn.chance(position.dice, position.rolls_left, box=box, kept=choice.kept)


def _to_win(choices: list[Choice], chances: list[float | None]) -> dict[str, Any] | None:
    """Both bests when they differ: ``{"points": {...}, "win": {...}}``, else ``None``."""
    if chances[0] is None:
        return None
    known = [(c, w) for c, w in zip(choices, chances, strict=True) if w is not None]
    winner, chance = max(known, key=lambda pair: pair[1])
    if chance < known[0][1] + TO_WIN_MARGIN:
        return None

    def said(choice: Choice, win: float) -> dict[str, Any]:
        return {"label": choice.label, "expected": round(choice.expected, 4), "win": round(win, 4)}

    return {"points": said(*known[0]), "win": said(winner, chance)}
