"""Who is likely to win: each seat's chance, live in the room and over a whole game.

The strategy engine's odds (:mod:`games.strategy.odds`) give the distribution of
a player's final total from any moment, every turn played for points as the
Optimal bot plays; a seat's chance to win is the chance its total is the highest,
ties shared (:func:`games.strategy.odds.win_shares`). Here a game of the rules
engine becomes what those take (:func:`contest`), and the answers become what the
room and the review show:

* **live** (:func:`win_chances`, :func:`odds_message`): each seat's chance as the
  game stands, sent to watchers, and to players when the host allowed it
  (``Game.show_odds``; ``docs/protocol.md``, the ``odds`` request);
* **over the game** (:func:`over_the_game`): the chances at every moment of the
  review (:mod:`games.insight.review`), and the *turning points*, the decisions and the
  rolls that moved them most, as the review draws them (:func:`games.web.charts.
  win_chances_chart`) and the JSON export carries them (``win_chances``,
  ``docs/export.md``).

A seat that left cannot win (the rules place only the seats still in the game:
:meth:`games.engine.rules.Game.outcome`): its chance is 0, and the others play on
against each other only. A game that is over has its result: 1 for a winner,
shared by tied winners, 0 for everyone else. Seats play independently for points:
nobody here gambles because they are behind, so a chance is "if everyone plays
on for the best average score", which is what the engine solves.

A roll that keeps some dice is two things at once: a *decision* (which dice to
keep) and luck (what the others show). The review tells them apart: the chance
just after the keep, before the dice land, is the average over every way they
can land (worked out as the engine works out a turn from the dice on the table,
from the chances of each roll instead of one); the decision moved the chances
from before it to that, the roll from that to after. A score is a decision
alone; the first roll of a turn, luck alone.

Like :mod:`games.insight.analysis`, this module imports no Django and words nothing: a
swing holds the dice it was about, and the review words it when it is read, in the
reader's language (:mod:`games.web.review_words`); the chances are cached once for
readers of every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from games.engine import rules

if TYPE_CHECKING:
    from games.insight.review import Moment, Review
    from games.strategy.odds import Odds, Seat

#: Changes when what :func:`over_the_game` returns changes shape, so no cache serves an old one.
FORMAT = 1
#: Changes when the Python values :func:`over_the_game` returns change (they are cached
#: pickled), without a change to the export's JSON (:data:`FORMAT`).
SHAPE = 2
#: Chances are sent and exported with this many decimals.
DECIMALS = 4
#: How many turning points the review names: the moves that moved the chances most, at
#: most this many...
TURNING_POINTS = 5
#: ... and at least this many (however small) when the game had that many moves...
FEWEST_TURNING_POINTS = 3
#: ... beyond which a swing smaller than this (a twentieth of the chances) is no turning point.
SMALLEST_TURN = 0.05

#: What the engine takes for one seat: the position of the seat on turn after its roll, the
#: card of a seat between turns, or the final total of a seat whose card is full.
Contender: TypeAlias = "rules.Position | rules.Scorecard | int"


def contest(game: rules.Game) -> dict[int, Contender]:
    """The seats still in ``game`` (those that left cannot win), each as the odds take it.

    The seat on turn after a roll is its position (the dice, the rolls left); before
    its first roll, and every other seat, its card at the start of a turn; a full card
    is its total.
    """
    position = game.position()
    seats: dict[int, Contender] = {}
    for seat in game.active:
        card = game.cards[seat]
        if card.is_complete:
            seats[seat] = card.total
        elif position is not None and position.seat == seat and position.has_rolled:
            seats[seat] = position
        else:
            seats[seat] = card
    return seats


def result(game: rules.Game) -> tuple[float, ...]:
    """The chances of a game that is over: its winners share 1 (nobody won if all left)."""
    winners = game.outcome().winners
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(game.players))


def win_chances(game: rules.Game, odds: Odds | None = None) -> tuple[float, ...]:
    """Each seat's chance to win ``game`` from here, by seat; 0 for a seat that left.

    ``odds`` defaults to the engine's table of the game's preset (loaded from disk the
    first time in a process: run this off the event loop and off the database thread).
    """
    if game.is_over:
        return result(game)
    table = odds if odds is not None else _load(game.rules)
    seats = contest(game)
    return _shares(table, seats, game.players)


def odds_message(game: rules.Game, version: int, odds: Odds | None = None) -> dict[str, Any]:
    """The ``odds`` reply for ``game`` as it stands at ``version`` (``docs/protocol.md``)."""
    chances = win_chances(game, odds)
    return {
        "type": "odds",
        "version": version,
        "over": game.is_over,
        "seats": [
            {"seat": seat, "win": round(chance, DECIMALS), "left": seat in game.left}
            for seat, chance in enumerate(chances)
        ],
    }


def _load(preset: rules.Rules) -> Odds:
    from games.strategy import odds  # numpy and the tables: only when chances are asked for.

    return odds.load(preset)


def _shares(table: Odds, seats: dict[int, Contender], players: int) -> tuple[float, ...]:
    from games.strategy.odds import win_shares

    order = sorted(seats)
    table.prepare_seats(seats.values())  # Every seat's exact distributions in one pass.
    dists = [_distribution(table, seats[seat]) for seat in order]
    shares = dict(zip(order, win_shares(dists), strict=True)) if order else {}
    return tuple(shares.get(seat, 0.0) for seat in range(players))


def _distribution(table: Odds, seat: Contender) -> Seat:
    """What :func:`~games.strategy.odds.win_shares` takes for one seat."""
    if isinstance(seat, int):
        return seat
    if isinstance(seat, rules.Position):
        return table.distribution(seat.card, seat.dice, seat.rolls_left)
    return table.distribution(seat)


# --------------------------------------------------------------------------
# Over the whole game: the review's graph and its turning points
# --------------------------------------------------------------------------

Cause: TypeAlias = Literal["decision", "roll"]


@dataclass(frozen=True)
class Swing:
    """What one decision, or one roll, did to the chances.

    ``before`` and ``after`` are every seat's chances either side of it; for a keep
    (a decision) ``after`` is the chance once the dice are chosen and before the
    others land, for the roll that follows it ``before`` is that.
    """

    #: The event it happened in (a roll or a score): the review links to ``?at=<seq>``.
    seq: int
    #: The index of that moment in :attr:`games.insight.review.Review.moments`.
    index: int
    #: The round it was played in, 1 to 13 (15 under Yatzy).
    round: int
    seat: int
    cause: Cause
    before: tuple[float, ...]
    after: tuple[float, ...]
    #: Who decided for the seat's player, if not the player (the clock, a bot).
    by: str | None = None
    #: What was done, as the words need it (a score is told as its moment of the review is):
    #: the faces kept, ascending (a keep, or a roll beside them; none: all five thrown)...
    kept: tuple[int, ...] = ()
    #: ... and for a roll, the faces that landed (beside the kept ones, if any).
    thrown: tuple[int, ...] = ()

    @property
    def size(self) -> float:
        """How much chance changed hands: half the sum of every seat's change, 0 to 1 (with
        two seats, the change of either)."""
        return sum(abs(a - b) for a, b in zip(self.after, self.before, strict=True)) / 2

    @property
    def change(self) -> float:
        """The change of the seat's own chance (positive: it did the seat good)."""
        return self.after[self.seat] - self.before[self.seat]

    def as_json(self) -> dict[str, Any]:
        """The turning point for the export, without its words (``text``, which
        :func:`games.web.review_words.win_chances_json` adds in the reader's language)."""
        return {
            "seq": self.seq,
            "index": self.index,
            "round": self.round,
            "seat": self.seat,
            "cause": self.cause,
            "by": self.by,
            "swing": round(self.size, DECIMALS),
            "change": round(self.change, DECIMALS),
            "before": [round(c, DECIMALS) for c in self.before],
            "after": [round(c, DECIMALS) for c in self.after],
        }


@dataclass(frozen=True)
class WinChances:
    """Every seat's chance to win at every moment of the review, and the turning points."""

    names: tuple[str, ...]
    #: ``chances[i]``: every seat's chance just after the review's moment ``i``.
    chances: tuple[tuple[float, ...], ...]
    #: The event number of each moment, as the review has them.
    seqs: tuple[int, ...]
    kinds: tuple[str, ...]
    rounds: tuple[int, ...]
    #: Every decision and every roll, in the order of the game.
    swings: tuple[Swing, ...]

    def turning_points(self) -> tuple[Swing, ...]:
        """The swings that moved the chances most, biggest first (an earlier one first when
        two are as big): the :data:`FEWEST_TURNING_POINTS` biggest, and up to
        :data:`TURNING_POINTS` of those that moved them by :data:`SMALLEST_TURN` or more.
        A move that moved nothing is never one."""
        ranked = sorted(
            (s for s in self.swings if s.size > 1e-9),
            key=lambda s: (-round(s.size, 9), s.seq, s.cause == "roll"),
        )
        return tuple(
            s
            for rank, s in enumerate(ranked[:TURNING_POINTS])
            if rank < FEWEST_TURNING_POINTS or s.size >= SMALLEST_TURN
        )

    def as_json(self) -> dict[str, Any]:
        """The export's ``win_chances`` (``docs/export.md``) and the review page's data."""
        return {
            "format": FORMAT,
            "names": list(self.names),
            "moments": [
                {"seq": seq, "kind": kind, "round": round_, "chances": _rounded(chances)}
                for seq, kind, round_, chances in zip(
                    self.seqs, self.kinds, self.rounds, self.chances, strict=True
                )
            ],
            "turning_points": [s.as_json() for s in self.turning_points()],
        }


def _rounded(chances: Sequence[float]) -> list[float]:
    return [round(c, DECIMALS) for c in chances]


def over_the_game(review: Review, odds: Odds | None = None) -> WinChances:
    """The chances at every moment of ``review``, and what moved them.

    Holds and notes (someone away, a seat handed to a bot) change nobody's chances:
    they are worked out once per position of the game, not once per moment.
    """
    games = [_game(moment) for moment in review.moments]
    table = odds if odds is not None else _load(games[0].rules)
    known: dict[tuple[object, ...], tuple[float, ...]] = {}

    def at(game: rules.Game) -> tuple[float, ...]:
        key = _key(game)
        if key not in known:
            known[key] = win_chances(game, table)
        return known[key]

    chances = [at(game) for game in games]
    swings: list[Swing] = []
    for index, moment in enumerate(review.moments):
        if index == 0 or moment.kind not in ("rolled", "scored"):
            continue
        before = review.moments[index - 1]
        swings += _swings(table, index, before, moment, chances[index - 1], chances[index])
    return WinChances(
        names=review.names,
        chances=tuple(chances),
        seqs=tuple(m.seq for m in review.moments),
        kinds=tuple(m.kind for m in review.moments),
        rounds=tuple(m.round for m in review.moments),
        swings=tuple(swings),
    )


def _game(moment: Moment) -> rules.Game:
    assert moment.game is not None  # games.insight.review.build gives every moment its game.
    return moment.game


def _key(game: rules.Game) -> tuple[object, ...]:
    """What a seat's chances depend on: the cards, who left, the turn's dice and rolls left."""
    position = game.position()
    turn = (position.seat, position.dice, position.rolls_left) if position else None
    return (game.cards, game.left, turn, game.is_over)


def _swings(
    table: Odds,
    index: int,
    before: Moment,
    moment: Moment,
    chances_before: tuple[float, ...],
    chances_after: tuple[float, ...],
) -> list[Swing]:
    """The decision and the roll in one moment: a score is a decision, a first roll luck, and
    a roll keeping dice first the decision to keep them, then the luck of the others."""
    seat = moment.seat
    assert seat is not None  # Rolls and scores are some seat's.
    # The round the move was made in: the game's just before it (a score may end a round).
    swing = _maker(moment, index, before.round, seat)
    if moment.kind == "scored":  # Told as the review tells the score.
        return [swing("decision", chances_before, chances_after)]
    position = _game(before).position()
    dice = moment.dice
    assert dice is not None  # A roll shows dice.
    if position is None or not position.has_rolled or position.seat != seat:
        return [swing("roll", chances_before, chances_after, thrown=tuple(dice))]
    kept = tuple(sorted(dice[i] for i in moment.held))
    kept_chances = _after_keep(table, _game(before), position, kept)
    fresh = tuple(dice[i] for i in range(len(dice)) if i not in moment.held)
    return [
        swing("decision", chances_before, kept_chances, kept=kept),
        swing("roll", kept_chances, chances_after, kept=kept, thrown=fresh),
    ]


def _maker(moment: Moment, index: int, round_: int, seat: int) -> _Make:
    """Makes the swings of the moment ``index`` of the review, ``moment``, by ``seat``."""

    def make(
        cause: Cause,
        before: tuple[float, ...],
        after: tuple[float, ...],
        *,
        kept: tuple[int, ...] = (),
        thrown: tuple[int, ...] = (),
    ) -> Swing:
        return Swing(
            seq=moment.seq,
            index=index,
            round=round_,
            seat=seat,
            cause=cause,
            before=before,
            after=after,
            by=moment.by,
            kept=kept,
            thrown=thrown,
        )

    return make


class _Make(Protocol):
    def __call__(
        self,
        cause: Cause,
        before: tuple[float, ...],
        after: tuple[float, ...],
        *,
        kept: tuple[int, ...] = (),
        thrown: tuple[int, ...] = (),
    ) -> Swing: ...


def _after_keep(
    table: Odds, game: rules.Game, position: rules.Position, kept: tuple[int, ...]
) -> tuple[float, ...]:
    """Every seat's chance once the player on turn has kept ``kept`` and before the other
    dice land: the average over every way they can.

    Worked out as the engine works out a turn from the dice on the table
    (:meth:`~games.strategy.odds.Odds.distribution`), from the chances of each roll the
    throw can give instead of one roll: the turn played on by the engine's policy to its
    box, then the points still to come from the state it leaves.
    """
    import numpy as np

    from games.strategy.dice import ROLL_INDEX, outcome_probabilities
    from games.strategy.odds import Distribution, win_shares
    from games.strategy.outcomes import final_roll_chances

    landing = np.zeros((len(ROLL_INDEX), 1))
    for faces, likelihood in outcome_probabilities(kept).items():
        landing[ROLL_INDEX[faces], 0] = float(likelihood)
    chosen = table.choices(table.state_of(position.card))
    final = final_roll_chances(chosen, rolls=landing, rolls_left=position.rolls_left - 1)
    parts = [(c, g, table.known(a)) for c, g, a in table.outcomes(chosen, final[:, 0])]
    to_come = np.zeros(max(g + len(hist) for _, g, hist in parts))
    for weight, points, hist in parts:
        to_come[points : points + len(hist)] += weight * hist
    others = contest(game)
    table.prepare_seats(others.values())
    seats: dict[int, Seat] = {s: _distribution(table, c) for s, c in others.items()}
    seats[position.seat] = Distribution.after(position.card.total, to_come / to_come.sum())
    order = sorted(seats)
    shares = dict(zip(order, win_shares([seats[s] for s in order]), strict=True))
    return tuple(shares.get(seat, 0.0) for seat in range(game.players))
