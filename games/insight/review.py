"""A game that is over told move by move, rebuilt from its event log: what the review page shows.

The log is replayed with the rules engine (:func:`games.engine.replay.steps`), so the
review shows what the rules make of the recorded dice, never what a table
says. Each *moment* is one thing that happened at the table: the start (after
the roll-off), a roll, a hold, a score, someone leaving or being removed by the
host, a player going away or coming back, a seat handed to a bot, and the end
(finished, or abandoned unfinished). A move the turn clock or a bot made for a
player (the event's ``by``) is told as such. Chat and the lobby are left out.

Like :mod:`games.insight.analysis`, this module imports no Django, and so words nothing:
a moment holds the facts of what happened (its event, who stood in for the player), and
the pages word them when they are read, in the reader's language
(:mod:`games.web.review_words`). Nothing here is saved in words, so a review read in
German and one read in Swedish come from the same moments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from games.engine import events, replay, rules
from games.wire.presentation import card_json

if TYPE_CHECKING:
    from games.insight.analysis import Decision

#: The events that are moments of play, besides the start (once the roll-off is decided).
MOVES = {"rolled", "held", "scored", "left", "finished"}
#: The events that are moments without a move: who plays a seat changed, or the game ended.
#: The table stays as it was: the last dice stay shown.
NOTES = {"away", "back", "handed", "abandoned", "finished"}
#: The events that may be made for a seat by someone else than its player (their ``by``).
MADE_FOR = (events.Rolled, events.Held, events.Scored, events.Left)
#: The moments that concern one seat.
SEATED = (*MADE_FOR, events.WentAway, events.CameBack, events.Handed)

#: Who made a move for a seat's player, as its words need it: the clock when the player's
#: time ran out (its first move of the turn) or playing on with the turn (the next ones), the
#: bot in a seat the host handed to it, or a bot playing for a player who is away.
StandIn: TypeAlias = Literal["clock_ran_out", "clock_playing_on", "bot_handed", "bot_away"]


@dataclass(frozen=True)
class Moment:
    """The game just after one move, as the review page draws it."""

    seq: int
    kind: str
    seat: int | None
    turn: int | None
    round: int
    dice: tuple[int, ...] | None
    held: tuple[int, ...]
    rolls_left: int
    cards: tuple[rules.Scorecard, ...]
    #: The box just written in, on a score.
    category: str | None = None
    #: Who made the move for the seat when its player did not (:data:`games.engine.events.BY_CLOCK`,
    #: :data:`~games.engine.events.BY_BOT`, :data:`~games.engine.events.BY_HOST` for a removal).
    by: str | None = None
    #: How the words name who made the move for the seat's player, when ``by`` is the clock
    #: or a bot.
    stand_in: StandIn | None = None
    #: The host's seat when the move was made (the host may remove a player).
    host: int | None = None
    #: What happened: the event (the start's is the one that decided who starts).
    event: events.AnyEvent | None = field(default=None, repr=False, compare=False)
    #: The rules engine's game just after the move (:mod:`games.insight.chances` reads it); always
    #: set by :func:`build`.
    game: rules.Game | None = field(default=None, repr=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        """The moment for the page's script, without its words (``text``, which
        :func:`games.web.review_words.moments_json` adds in the reader's language).

        A score carries the points it wrote (``points``) and the totals of the
        card it leaves (``card``, without its boxes: the script has them already).
        """
        data: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "turn": self.turn,
            "round": self.round,
            "dice": list(self.dice) if self.dice else None,
            "held": list(self.held),
            "rollsLeft": self.rolls_left,
            "category": self.category,
            "by": self.by,
        }
        if self.category is not None and self.seat is not None:  # A score.
            card = self.cards[self.seat]
            data["points"] = card[rules.Category(self.category)]
            data["card"] = {k: v for k, v in card_json(card).items() if k != "boxes"}
        return data


@dataclass(frozen=True)
class Review:
    """Everything the review page needs about one game."""

    names: tuple[str, ...]
    moments: tuple[Moment, ...]
    #: The rules preset's name: the boxes are named as on its card.
    preset: str = rules.OFFICIAL.name

    def at(self, seq: object) -> int:
        """The index of the moment a link points at: the last one at or before event ``seq``.

        A missing or malformed ``seq`` means the end of the game.
        """
        try:
            wanted = int(str(seq))
        except ValueError:
            return len(self.moments) - 1
        index = 0
        for i, moment in enumerate(self.moments):
            if moment.seq <= wanted:
                index = i
        return index

    def removed(self) -> set[int]:
        """The seats the host removed from the game (they left, but not of their own will)."""
        return {
            m.seat
            for m in self.moments
            if m.kind == "left" and m.by == events.BY_HOST and m.seat is not None
        }

    def running_totals(self) -> list[list[int]]:
        """For each seat, its grand total after each of its rounds."""
        totals: list[list[int]] = [[] for _ in self.names]
        for moment in self.moments:
            if moment.kind == "scored" and moment.seat is not None:
                totals[moment.seat].append(moment.cards[moment.seat].total)
        return totals

    def moments_json(
        self, analysis: Mapping[int, Mapping[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Every moment for the page's script; cards travel only with scores (and the start).

        ``analysis`` maps event numbers to what the post-game analysis says of the
        decision each made (:func:`games.web.review_words.decision_json`); a moment
        that was a decision carries it as ``analysis``.
        """
        judged = analysis or {}
        return [
            m.as_json()
            | ({"cards": _cards(m)} if i == 0 else {})
            | ({"analysis": dict(judged[m.seq])} if m.seq in judged else {})
            for i, m in enumerate(self.moments)
        ]


#: The moves of a turn; any other moment is a note, told in the turn it falls in, if any.
TURN_MOVES = {"rolled", "held", "scored"}
#: The moments after which no move of the same turn follows (besides its player leaving).
ENDS_A_TURN = {"scored", "finished", "abandoned"}
#: How many of each player's costliest decisions the move list marks as big mistakes.
BIG_MISTAKES_PER_PLAYER = 3


@dataclass(frozen=True)
class Entry:
    """One moment in the move list, with what the analysis says of it if it was a decision."""

    index: int  # In :attr:`Review.moments`, which the page's script steps through.
    seq: int
    #: The decision the moment made, if it made one.
    decision: Decision | None = None
    #: 1 for the player's biggest mistake, 2 and 3 for the next; ``None`` for any other.
    mistake_rank: int | None = None
    #: The player whose mistake it was, for the words that say so.
    player: str = ""
    #: The words, in the reader's language (:func:`games.web.review_words.worded_turns`):
    #: the moment's without the player's name ("Rolled 6 5 4 2 1 (2 rolls left)."), the
    #: points given up after a minus sign ("4.00"), and whose mistake it was.
    text: str = ""
    given_up: str = ""
    mistake_words: str = ""


@dataclass
class Turn:
    """One player's turn in the move list (or, with no ``seat``, a moment between turns)."""

    round: int
    seat: int | None
    name: str
    entries: list[Entry] = field(default_factory=list)
    ended: bool = False


def big_mistakes(decisions: Iterable[Decision]) -> dict[int, int]:
    """Each player's :data:`BIG_MISTAKES_PER_PLAYER` costliest decisions of their own, by event
    number: ``{seq: rank}``, rank 1 the costliest. Ties go to the earlier decision, as the
    analysis table's "biggest mistake" does; optimal decisions are no mistake at all."""
    by_seat: dict[int, list[Decision]] = {}
    for decision in decisions:
        if decision.by is None and not decision.is_optimal:
            by_seat.setdefault(decision.seat, []).append(decision)
    ranked: dict[int, int] = {}
    for mistakes in by_seat.values():
        mistakes.sort(key=lambda d: (-d.loss, d.seq))
        for rank, decision in enumerate(mistakes[:BIG_MISTAKES_PER_PLAYER], start=1):
            ranked[decision.seq] = rank
    return ranked


def move_list(review: Review, decisions: Iterable[Decision]) -> list[Turn]:
    """Every moment of the review, grouped into turns: the page's clickable list of moves.

    A turn holds one player's rolls, holds and score, and any note (someone away, a
    seat handed to a bot) that fell in it; a note between turns, the start and the end
    stand alone. Each decision carries its analysis, and each player's biggest mistakes
    their rank (:func:`big_mistakes`).
    """
    decisions = list(decisions)
    by_seq = {d.seq: d for d in decisions}
    ranks = big_mistakes(decisions)
    turns: list[Turn] = []
    for index, moment in enumerate(review.moments):
        decision = by_seq.get(moment.seq)
        entry = Entry(
            index=index,
            seq=moment.seq,
            decision=decision,
            mistake_rank=ranks.get(moment.seq),
            player=review.names[decision.seat] if decision else "",
        )
        open_turn = turns[-1] if turns and not turns[-1].ended else None
        if moment.kind in TURN_MOVES and (open_turn is None or open_turn.seat != moment.seat):
            assert moment.seat is not None  # A move is some seat's.
            open_turn = Turn(round=moment.round, seat=moment.seat, name=review.names[moment.seat])
            turns.append(open_turn)
        if open_turn is None:  # A note between turns.
            turns.append(Turn(round=moment.round, seat=None, name="", entries=[entry], ended=True))
            continue
        open_turn.entries.append(entry)
        if moment.kind in ENDS_A_TURN or (moment.kind == "left" and moment.seat == open_turn.seat):
            open_turn.ended = True
    return turns


def _cards(moment: Moment) -> list[dict[str, Any]]:
    return [card_json(card) for card in moment.cards]


def build(log: Iterable[events.AnyEvent]) -> Review:
    """The review of the game these events describe, as :func:`games.live.services.replay_events`
    reads them. Raises :class:`replay.ReplayError` on a broken log or a game that never
    started."""
    names: tuple[str, ...] = ()
    preset = rules.OFFICIAL.name
    moments: list[Moment] = []
    stand_ins = _StandIns()
    for step in replay.steps(log):
        game = step.room.game
        if game is None:
            continue
        if step.kind == "started":
            names, preset = step.room.players, step.room.preset
        if step.kind in {"started", "roll_off"} and game.current is not None:
            # Play starts once the roll-off is decided (at once in a solo game).
            moments.append(_moment(step, game))
        elif moments and step.kind in MOVES | NOTES:  # A "left" before the start is the lobby's.
            moment = replace(_moment(step, game), stand_in=stand_ins(step))
            if step.kind in NOTES:  # The table is as it was: the last dice stay on it.
                moment = replace(moment, dice=moments[-1].dice, held=moments[-1].held)
            moments.append(moment)
    if not moments:
        raise replay.ReplayError("the game has not started: there is nothing to review")
    return Review(names=names, moments=tuple(moments), preset=preset)


def _moment(step: replay.Step, game: rules.Game) -> Moment:
    event = step.event
    if isinstance(event, events.Scored):
        # The dice stay on the table to show what was scored; the turn has passed on.
        dice: tuple[int, ...] | None = event.dice
        held: tuple[int, ...] = ()
    else:
        dice = game.turn.dice
        held = tuple(sorted(game.turn.held))
    over = game.is_over or step.room.status == "abandoned"
    return Moment(
        seq=step.seq,
        kind="start" if step.kind in {"started", "roll_off"} else step.kind,
        seat=event.seat if isinstance(event, SEATED) else None,
        turn=None if over else game.current,
        round=game.round,
        dice=dice,
        held=held,
        rolls_left=game.turn.rolls_left,
        cards=game.cards,
        category=event.category.value if isinstance(event, events.Scored) else None,
        by=event.by if isinstance(event, MADE_FOR) else None,
        host=step.room.host,
        event=event,
        game=game,
    )


class _StandIns:
    """Who made each move for a seat's player, as its words name them, remembering what that
    depends on: whether the clock was already playing the turn, and which seats the host
    handed to a bot."""

    def __init__(self) -> None:
        self.clock_playing: int | None = None  # The seat whose turn the clock plays on.
        self.handed: set[int] = set()

    def __call__(self, step: replay.Step) -> StandIn | None:
        event = step.event
        if isinstance(event, events.Handed):
            self.handed.add(event.seat)
        stand_in: StandIn | None = None
        if isinstance(event, MADE_FOR) and event.by == events.BY_CLOCK:
            stand_in = "clock_playing_on" if self.clock_playing == event.seat else "clock_ran_out"
        elif isinstance(event, MADE_FOR) and event.by == events.BY_BOT:
            stand_in = "bot_handed" if event.seat in self.handed else "bot_away"
        if isinstance(event, events.Rolled) and event.by == events.BY_CLOCK:
            self.clock_playing = event.seat
        elif not isinstance(event, events.Held):
            self.clock_playing = None
        return stand_in


#: The rows of a scorecard that stay blank while they hold 0 (a bonus not earned yet).
BLANK_WHEN_ZERO = frozenset({"upper_bonus", "yahtzee_bonus"})


def card_rows(
    cards: Sequence[Mapping[str, Any]], preset: rules.Rules = rules.OFFICIAL
) -> list[dict[str, Any]]:
    """The rows of the scorecards table, one cell per seat, in the order a paper card of
    ``preset`` has them (Yatzy's has no Yahtzee bonus row).

    Each row is ``{"key", "box", "blank_zero", "cells": [points or None, ...]}``, without its
    label (:func:`games.words.worded_rows` adds it in the reader's language); the page's
    script rewrites the same cells as the replay moves, by ``key``.
    A bonus not (yet) earned is left blank, as on paper.
    """

    def box(category: rules.Category) -> dict[str, Any]:
        cells = [card["boxes"][category.value] for card in cards]
        return {"key": category.value, "box": True, "cells": cells}

    def total(key: str) -> dict[str, Any]:
        cells = [card[key] for card in cards]
        return {"key": key, "box": False, "blank_zero": key in BLANK_WHEN_ZERO, "cells": cells}

    lower_sums = ("yahtzee_bonus", "lower_total") if preset.yahtzee_bonus else ("lower_total",)
    return [
        *(box(c) for c in rules.UPPER),
        *(total(key) for key in ("upper_total", "upper_bonus")),
        *(box(c) for c in preset.lower),
        *(total(key) for key in lower_sums),
    ]
