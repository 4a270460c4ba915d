"""The coach: what the strategy engine advises the player on turn, as the room shows it.

The advice is every choice open (the dice to keep, or the box to score in) with
the expected final grand total each leads to under optimal play afterwards,
best first (:func:`games.strategy.advise`), and what each gives up against the
best. It measures one player's own expected score (optimal *solitaire* play):
it knows nothing of the other players' cards.
"""

from __future__ import annotations

from typing import Any

from games import rules
from games.strategy import load


def advice(position: rules.Position, version: int) -> dict[str, Any]:
    """The ``advice`` message for ``position``, for the play at ``version`` (``docs/protocol.md``).

    Loading a preset's table the first time in a process takes tens of
    milliseconds from the disk cache (seconds if it was never computed), so
    callers run this off the event loop and off the database thread. Raises
    :class:`~games.rules.IllegalMoveError` (``not_rolled``) before the turn's first roll.
    """
    choices = load(position.rules).advise_position(position)
    assert position.dice is not None  # advise_position has raised not_rolled without them.
    best = choices[0].expected
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
            }
            for choice in choices
        ],
    }
