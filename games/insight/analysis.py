"""Post-game analysis: every decision of a finished game against optimal solitaire play.

A *decision* is a choice a player made with dice on the table: the position
the player was in (:meth:`games.engine.rules.Game.position` just before the event)
and what was played there:

* every score: the card before it, the dice, the rolls left, and the box chosen;
* every roll after the first of a turn: the dice showing before it, the rolls
  left before it, and the faces kept (the ``held`` positions the roll names).

The first roll of a turn decides nothing (all five dice are thrown), and a
``held`` event is only the player showing a plan: the hold that counts is the
one the next roll makes. A player who left is judged on what they did before
leaving.

A decision the turn clock made when a player's time ran out, or a bot playing
for an away player (the event's ``by``), is judged like any other and marked
with its ``by``, but it is not the player's own: it is left out of the
player's summary (:class:`PlayerAnalysis`), which counts it apart.

Each decision is compared with every choice that was open, as the strategy
engine (:mod:`games.strategy`) values them: the expected final grand total when
the choice is followed by optimal play. That is optimal *solitaire* play,
maximising one's own expected total with no regard for the other players'
scores, which is what the engine solves; in a race, a player behind may rightly
gamble for more than the average. What a choice *gives up* is how much lower
its expected total is than the best one's: 0 for an optimal move.

Like :mod:`games.engine.replay`, this module imports no Django: it reads an event log
as typed events (:mod:`games.engine.events`), so tools and tests can use it on any log.
It words nothing either: a decision holds figures and choices, and the review words
them when it is read, in the reader's language (:mod:`games.web.review_words`), so an
analysis cached once serves readers of every language.

>>> judged = analyse(events)                                    # doctest: +SKIP
>>> judged.players[0].average_loss                              # doctest: +SKIP
0.41...
>>> judged.at(57).loss                                          # doctest: +SKIP
2.06...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from games.engine import events, replay, rules
from games.strategy import Choice, Strategy, find_choice, load, points_given_up

#: Changes when what :func:`analyse` returns changes shape, so no cache serves an old one.
FORMAT = 2

#: Below this, a choice gives up nothing: it is as good as the best (rounding aside).
OPTIMAL_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Decision:
    """One decision of the game: what was open, what was best, and what was played."""

    #: The event that made it (a roll or a score): the review links to ``?at=<seq>``.
    seq: int
    seat: int
    kind: Literal["keep", "score"]
    #: The round being played, 1 to 13 (15 under Yatzy).
    round: int
    #: The dice showing when it was made (before the roll, for a keep).
    dice: tuple[int, ...]
    rolls_left: int
    best: Choice
    chosen: Choice
    #: Expected points given up against the best choice; exactly 0 for an optimal one.
    loss: float
    #: Who made it for the seat's player: ``"clock"`` (the time ran out) or ``"bot"`` (the
    #: player was away, or the host handed the seat to a bot); ``None``, the player.
    by: str | None = None

    @property
    def is_optimal(self) -> bool:
        return self.loss == 0

    def as_json(self) -> dict[str, Any]:
        """The decision's figures for the review page's script; its words (``best``,
        ``chosen`` and ``text``, what the page shows) are added in the reader's language by
        :func:`games.web.review_words.decision_json`."""
        return {
            "kind": self.kind,
            "bestExpected": round(self.best.expected, 4),
            "chosenExpected": round(self.chosen.expected, 4),
            "loss": round(self.loss, 6),
            "by": self.by,
        }


@dataclass(frozen=True)
class PlayerAnalysis:
    """One player's own decisions, summed up: the clock's and a bot's for them are not theirs."""

    seat: int
    name: str
    #: True if the player left before the end (judged up to leaving).
    left: bool
    decisions: int
    optimal: int
    total_loss: float
    #: The decision that gave up the most, or ``None`` if none gave up anything.
    biggest: Decision | None
    #: Decisions made for the player, left out of the figures above: by the turn clock
    #: when their time ran out, and by a bot while they were away.
    by_clock: int = 0
    by_bot: int = 0

    @property
    def average_loss(self) -> float | None:
        """Expected points given up per decision; ``None`` without a decision."""
        return self.total_loss / self.decisions if self.decisions else None

    @property
    def optimal_share(self) -> float | None:
        """The share of decisions that were optimal, 0 to 1; ``None`` without a decision."""
        return self.optimal / self.decisions if self.decisions else None


@dataclass(frozen=True)
class Analysis:
    """Every decision of a game, in order, and each player's summary, by seat."""

    preset: str
    decisions: tuple[Decision, ...]
    players: tuple[PlayerAnalysis, ...]

    def at(self, seq: int) -> Decision | None:
        """The decision event ``seq`` made, if it made one."""
        for decision in self.decisions:
            if decision.seq == seq:
                return decision
        return None

    @property
    def made_for_players(self) -> bool:
        """Whether the clock or a bot made any decision for a player."""
        return any(decision.by is not None for decision in self.decisions)


@dataclass(frozen=True)
class _Played:
    """A decision before it is judged: the event that made it, its position, and what was done."""

    seq: int
    position: rules.Position
    hold: tuple[int, ...] | None = None
    category: str | None = None
    by: str | None = None


def analyse(log: Iterable[events.AnyEvent], strategy: Strategy | None = None) -> Analysis:
    """Judge every decision of the game the events of ``log`` describe.

    ``strategy`` defaults to the solved strategy of the game's preset (see
    :func:`games.strategy.load`). The game may be unfinished: what was played
    so far is judged. Raises :class:`games.engine.replay.ReplayError` on a broken log.
    """
    played, room = _decisions(log)
    if room.game is None:
        raise replay.ReplayError("the game has not started: there is nothing to analyse")
    solved = strategy or load(room.preset)
    # Work out every turn's values at once: much quicker than one turn at a time.
    solved.prepare({decision.position.card for decision in played})
    decisions = tuple(_judge(solved, decision) for decision in played)
    players = tuple(
        _summary(seat, name, seat in room.game.left, decisions)
        for seat, name in enumerate(room.players)
    )
    return Analysis(preset=room.preset, decisions=decisions, players=players)


def _decisions(log: Iterable[events.AnyEvent]) -> tuple[list[_Played], replay.Room]:
    """Every decision of the log, unjudged, and the room the log leaves."""
    played: list[_Played] = []
    room: replay.Room | None = None
    for step in replay.steps(log):
        before = room.game if room is not None else None
        room = step.room
        event = step.event
        if before is None or not isinstance(event, events.Rolled | events.Scored):
            continue
        position = before.position()
        assert position is not None  # The replay has checked the event's seat was on turn.
        if not position.has_rolled:  # The first roll of a turn: nothing to decide.
            continue
        if isinstance(event, events.Rolled):
            played.append(_Played(step.seq, position, hold=event.held, by=event.by))
        else:
            played.append(_Played(step.seq, position, category=event.category.value, by=event.by))
    if room is None:
        raise replay.ReplayError("an empty log has no game")
    return played, room


def _judge(strategy: Strategy, played: _Played) -> Decision:
    position = played.position
    assert position.dice is not None  # Only positions after a roll are decisions.
    choices = strategy.advise_position(position)
    if played.hold is not None:
        chosen = find_choice(choices, position.dice, hold=played.hold)
    else:
        chosen = find_choice(choices, position.dice, category=played.category)
    loss = points_given_up(choices, chosen)
    return Decision(
        seq=played.seq,
        seat=position.seat,
        kind="keep" if played.hold is not None else "score",
        round=min(len(position.card.filled) + 1, len(position.rules.boxes)),
        dice=position.dice,
        rolls_left=position.rolls_left,
        best=choices[0],
        chosen=chosen,
        loss=0.0 if loss < OPTIMAL_TOLERANCE else loss,
        by=played.by,
    )


def _summary(seat: int, name: str, left: bool, decisions: Iterable[Decision]) -> PlayerAnalysis:
    seats = [d for d in decisions if d.seat == seat]
    own = [d for d in seats if d.by is None]
    mistakes = [d for d in own if not d.is_optimal]
    return PlayerAnalysis(
        seat=seat,
        name=name,
        left=left,
        decisions=len(own),
        optimal=len(own) - len(mistakes),
        total_loss=sum(d.loss for d in own),
        # The first of the biggest, if two give up as much.
        biggest=max(mistakes, key=lambda d: d.loss, default=None),
        by_clock=sum(d.by == events.BY_CLOCK for d in seats),
        by_bot=sum(d.by == events.BY_BOT for d in seats),
    )
