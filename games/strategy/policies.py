"""How the site's bots choose a move: pure functions of a :class:`~games.engine.rules.Position`.

Before the turn's first roll every bot rolls all five dice (:func:`choose`); with
dice on the table each level chooses its own way:

* **Optimal** plays the solved strategy (:meth:`Strategy.best`): the move with the
  highest expected final grand total. It averages 254.59 points a game under the
  official rules.
* **Casual** plays greedily, as many people do: it takes a made hand (a Yahtzee, a
  large straight, a full house, then a small straight) as soon as its box is open,
  otherwise keeps its most common face (the higher on a tie) and throws the rest,
  and when it must score it writes the dice where they score most now (on a
  tie, in the box highest on the card; a zero goes in the Yahtzee box last). It never
  looks ahead, and averages about 195 points a game (``benchmarks/bots.py``
  measures both).
* **To win** plays to finish first, not for points: in its last
  :data:`LATE_BOXES` turns it chooses, at every decision, what gives it the best
  chance of the highest final total against the cards on the table (the others
  and itself playing for points afterwards; :func:`.winning.win_turn`, exact
  there); before that, and alone at the table, it plays as Optimal. Against the
  Optimal bot it wins more than half the games (``benchmarks/duel.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from games.engine.rules import Category, IllegalMoveError, Position, Scorecard

from . import odds
from .engine import Strategy, load
from .winning import win_turn

#: The hands Casual takes as soon as the dice show them and the box is open, best first.
MADE_HANDS: Final = (
    Category.YAHTZEE,
    Category.YATZY,
    Category.LARGE_STRAIGHT,
    Category.FULL_HOUSE,
    Category.SMALL_STRAIGHT,
)


@dataclass(frozen=True)
class Move:
    """A bot's move: keep the dice at ``hold`` and throw the rest, or score in ``category``."""

    hold: tuple[int, ...] = ()
    category: Category | None = None

    @property
    def is_score(self) -> bool:
        return self.category is not None


#: The levels a bot plays at, as a seat names them.
LEVELS: Final = ("optimal", "casual", "win")
#: How many empty boxes the To-win bot starts playing to win with: its choices then lead
#: to states whose distributions are exact (:data:`.odds.EXACT_BOXES`), so it never acts
#: on a fitted shape's errors (acting on them early made an earlier attempt lose).
LATE_BOXES: Final = odds.EXACT_BOXES + 1


def optimal(strategy: Strategy, position: Position) -> Move:
    """The move with the highest expected final grand total (dice on the table)."""
    best = strategy.best_position(position)
    return Move(category=best.category) if best.category is not None else Move(hold=best.hold)


def casual(position: Position) -> Move:
    """The greedy move described in the module docstring (dice on the table)."""
    faces = position.dice
    if faces is None:
        raise IllegalMoveError("nothing to decide before the turn's first roll", code="not_rolled")
    # The boxes open to these dice (under a Joker, the allowed ones).
    options = position.card.options(faces)
    for hand in MADE_HANDS:
        if options.get(hand):
            return Move(category=hand)
    if position.rolls_left:
        counts = Counter(faces)
        face = max(counts, key=lambda f: (counts[f], f))
        return Move(hold=tuple(i for i, f in enumerate(faces) if f == face)[:4])
    # The most points now; on a tie the box highest on the card, the Yahtzee box last.
    order = position.rules.boxes
    last = (Category.YAHTZEE, Category.YATZY)
    category = max(options, key=lambda c: (options[c], c not in last, -order.index(c)))
    return Move(category=category)


def to_win(table: odds.Odds, position: Position, others: Sequence[odds.Seat]) -> Move:
    """The move with the best chance of finishing first against ``others`` (the other seats'
    final totals: distributions, or numbers for seats that finished or left)."""
    card = position.card
    if position.dice is None:
        raise IllegalMoveError("nothing to decide before the turn's first roll", code="not_rolled")
    if not others or len(card.empty) > LATE_BOXES:
        return optimal(table.strategy, position)
    turn = win_turn(table, table.state_of(card), card.total, others)
    box, kept, _ = turn.decide(position.dice, position.rolls_left)
    if box is not None:
        return Move(category=position.rules.boxes[box])
    free = list(position.dice)
    hold = []
    for face in kept:
        i = free.index(face)
        free[i] = 0
        hold.append(i)
    return Move(hold=tuple(sorted(hold)))


def others_of(
    table: odds.Odds, cards: Sequence[Scorecard], seat: int, left: Iterable[int] = ()
) -> list[odds.Seat]:
    """The final totals of the seats other than ``seat``, as the To-win bot weighs them:
    a distribution for a card still being played, the total of a complete card or of a
    seat that left (``left``)."""
    gone = set(left)
    result: list[odds.Seat] = []
    for s, card in enumerate(cards):
        if s == seat:
            continue
        if s in gone or card.is_complete:
            result.append(card.total)
        else:
            result.append(table.distribution(card))
    return result


def choose(level: str, position: Position, others: Sequence[odds.Seat] = ()) -> Move:
    """The move of a bot of ``level`` (``optimal``, ``casual`` or ``win``) in ``position``.

    Before the turn's first roll that is the roll, which throws all five dice
    (``Move()``). Optimal loads its preset's strategy; To win its odds too, and
    weighs ``others``, the other seats' final totals (see :func:`others_of`).
    """
    if level not in LEVELS:
        raise ValueError(f"no bot plays at level {level!r}")
    if position.dice is None:
        return Move()
    if level == "optimal":
        return optimal(load(position.rules), position)
    if level == "win":
        return to_win(odds.load(position.rules), position, others)
    return casual(position)
