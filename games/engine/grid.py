"""The duplicate dice: a game whose dice come from a fixed grid instead of fresh randomness.

A :class:`Grid` holds a face for every turn (1 to 13), every roll of a turn (1 to 3) and
every die position (1 to 5). On roll ``r`` of a seat's turn ``t``, each die that is not
held takes its position's value ``grid[t][r][i]``. So everyone playing the same grid sees
the same first roll of each turn, and two players who reroll the same position on the
same roll of the same turn get the same face, whatever they hold and whatever boxes
they have filled: the luck is the same for all, only the choices differ.

A grid comes from a seed (:meth:`Grid.from_seed`: the server derives the seed from a
secret, so nobody can compute the day's dice) or from the dice a finished game rolled
(:meth:`Grid.completed`). The rules engine never sees a grid: the server asks it for a
roll's fresh faces (:meth:`Grid.throw`) and hands them to :meth:`games.engine.rules.Game.roll`
as it hands any dice.

>>> grid = Grid.from_seed(b"an example")
>>> grid.faces(1, 1)
(1, 2, 6, 5, 5)
>>> grid.faces(1, 2)
(6, 1, 1, 4, 5)
>>> game = Game.new(1).roll(0, grid.throw(Game.new(1), 0)).game
>>> game.turn.dice
(1, 2, 6, 5, 5)
>>> grid.throw(game, 0, kept={0, 2, 4})  # Positions 2 and 4 (1-based) take roll 2's faces.
(1, 4)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from games.engine import events, replay
from games.engine.rules import DICE_COUNT, PRESETS, ROLLS_PER_TURN, Game, InvalidInputError

#: A grid has a turn for every box of the longest card (Yatzy's fifteen); a game of a
#: shorter card (Yahtzee's thirteen) plays the first turns of it.
TURNS: Final = max(len(preset.boxes) for preset in PRESETS.values())
#: How many faces a grid holds: 15 turns x 3 rolls x 5 positions.
SIZE: Final = TURNS * ROLLS_PER_TURN * DICE_COUNT
#: Random bytes at or above this are thrown away: 252 = 6 x 42, so each face is as likely.
_FAIR_BELOW: Final = 252


@dataclass(frozen=True)
class Grid:
    """Every face a game can roll, turn by turn, roll by roll, position by position.

    ``cells`` lists them in that order (turn 1's roll 1's five positions first).
    """

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != SIZE or not all(type(f) is int and 1 <= f <= 6 for f in self.cells):
            raise InvalidInputError(f"a grid has {SIZE} faces from 1 to 6", code="invalid_grid")

    @classmethod
    def from_seed(cls, seed: bytes) -> Grid:
        """The grid a secret ``seed`` stands for: the same seed, the same grid, on any
        machine; without the seed nobody can tell one face from the others."""
        return cls(tuple(_take(_fair_faces(seed), SIZE)))

    @classmethod
    def parse(cls, text: str) -> Grid:
        """The grid written as :meth:`text` writes it (its faces as digits, in order)."""
        if not isinstance(text, str) or len(text) != SIZE or not set(text) <= set("123456"):
            raise InvalidInputError(
                f"a grid is written as {SIZE} digits from 1 to 6", code="invalid_grid"
            )
        return cls(tuple(int(c) for c in text))

    @classmethod
    def completed(cls, rolled: Iterable[tuple[int, int, int, int]], filler: Iterable[int]) -> Grid:
        """The grid of a game whose dice were thrown fresh: each ``(turn, roll, position,
        face)`` it ``rolled`` (1-based), and in every cell nobody rolled, the next face of
        ``filler`` (fresh dice that no one has seen, so the grid is as random as one drawn
        before the game)."""
        cells: list[int | None] = [None] * SIZE
        for turn, roll, position, face in rolled:
            cells[_index(turn, roll, position)] = face
        more = iter(filler)
        return cls(tuple(next(more) if face is None else face for face in cells))

    def text(self) -> str:
        """The grid as one line of digits, the form a game's row and its export keep."""
        return "".join(str(f) for f in self.cells)

    def faces(self, turn: int, roll: int) -> tuple[int, ...]:
        """The five faces of roll ``roll`` of turn ``turn`` (both 1-based), by position."""
        start = _index(turn, roll, 1)
        return self.cells[start : start + DICE_COUNT]

    def throw(self, game: Game, seat: int, kept: Iterable[int] = ()) -> tuple[int, ...]:
        """The fresh faces of ``seat``'s next roll in ``game``, keeping the dice at ``kept``
        (0-based positions): each thrown position's face, in position order, as
        :meth:`games.engine.rules.Game.roll` takes them."""
        turn, roll = turn_and_roll(game, seat)
        held = frozenset(kept)
        faces = self.faces(turn, roll)
        return tuple(faces[i] for i in range(DICE_COUNT) if i not in held)


def turn_and_roll(game: Game, seat: int) -> tuple[int, int]:
    """Which turn (1 to 13: the boxes ``seat`` has filled, plus one) and which roll of it
    (1 to 3) ``seat``'s next roll is, when ``seat`` is on turn."""
    turn = len(game.cards[seat].filled) + 1
    roll = game.turn.rolls_used + 1 if game.current == seat else 1
    if not (1 <= turn <= TURNS and 1 <= roll <= ROLLS_PER_TURN):
        raise InvalidInputError("no roll is left in this game", code="no_rolls_left")
    return turn, roll


def rolled_cells(
    turn: int, roll: int, dice: Iterable[int], held: Iterable[int]
) -> Iterator[tuple[int, int, int, int]]:
    """The cells a roll filled: ``(turn, roll, position, face)`` (1-based) for each die it
    threw (not in ``held``, 0-based), as :meth:`Grid.completed` takes them."""
    kept = frozenset(held)
    for i, face in enumerate(dice):
        if i not in kept:
            yield turn, roll, i + 1, face


def daily_seed(secret: str, day: str) -> bytes:
    """The seed of ``day``'s grid (an ISO date): a keyed hash of the day under the server's
    ``secret``, so it is the same in every process and unguessable without the secret."""
    return hmac.new(secret.encode(), f"yahtzee daily dice {day}".encode(), hashlib.sha256).digest()


def _index(turn: int, roll: int, position: int) -> int:
    if not (1 <= turn <= TURNS and 1 <= roll <= ROLLS_PER_TURN and 1 <= position <= DICE_COUNT):
        raise InvalidInputError(f"no cell at turn {turn}, roll {roll}, position {position}")
    return ((turn - 1) * ROLLS_PER_TURN + (roll - 1)) * DICE_COUNT + (position - 1)


def _fair_faces(seed: bytes) -> Iterator[int]:
    """Fair faces from ``seed``: SHA-256 of the seed and a counter, block after block, each
    byte below :data:`_FAIR_BELOW` a face (as :func:`games.live.dice.secure_roll` does)."""
    block = 0
    while True:
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        yield from (byte % 6 + 1 for byte in digest if byte < _FAIR_BELOW)
        block += 1


def _take(faces: Iterator[int], count: int) -> list[int]:
    return [next(faces) for _ in range(count)]


def played_cells(log: Iterable[events.AnyEvent]) -> Iterator[tuple[int, int, int, int]]:
    """The cells a game's log rolled: ``(turn, roll, position, face)`` (1-based) for each die
    each of its rolls threw, as :meth:`Grid.completed` takes them. The turn and the roll
    are the game's just before the roll (:func:`turn_and_roll`)."""
    before: Game | None = None
    for step in replay.steps(log):
        if isinstance(step.event, events.Rolled) and before is not None:
            turn, roll = turn_and_roll(before, step.event.seat)
            yield from rolled_cells(turn, roll, step.event.dice, step.event.held)
        before = step.room.game
