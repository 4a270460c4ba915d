"""A game that is over told move by move, rebuilt from its event log: what the review page shows.

The log is replayed with the rules engine (:func:`games.engine.replay.steps`), so the
review shows what the rules make of the recorded dice, never what a table
says. Each *moment* is one thing that happened at the table: the start (after
the roll-off), a roll, a hold, a score, someone leaving or being removed by the
host, a player going away or coming back, a seat handed to a bot, and the end
(finished, or abandoned unfinished). A move the turn clock or a bot made for a
player (the event's ``by``) is told as such. Chat and the lobby are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

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


@dataclass(frozen=True)
class Moment:
    """The game just after one move, as the review page draws it."""

    seq: int
    kind: str
    text: str
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
    #: The rules engine's game just after the move (:mod:`games.insight.chances` reads it); always
    #: set by :func:`build`.
    game: rules.Game | None = field(default=None, repr=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        """The moment for the page's script.

        A score carries the points it wrote (``points``) and the totals of the
        card it leaves (``card``, without its boxes: the script has them already).
        """
        data: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "text": self.text,
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
        decision each made (:meth:`games.insight.analysis.Analysis.by_seq`); a moment
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
_RANKS = ("biggest", "second biggest", "third biggest")
MINUS = "\N{MINUS SIGN}"


@dataclass(frozen=True)
class Entry:
    """One moment in the move list, with what the analysis says of it if it was a decision."""

    index: int  # In :attr:`Review.moments`, which the page's script steps through.
    seq: int
    text: str
    #: The decision the moment made, if it made one.
    decision: Decision | None = None
    #: 1 for the player's biggest mistake, 2 and 3 for the next; ``None`` for any other.
    mistake_rank: int | None = None
    #: The player whose mistake it was, for the words that say so.
    player: str = ""

    @property
    def given_up(self) -> str:
        """The points the decision gave up, as the list shows them, after a minus sign: "4.00",
        "<0.01"; "" for a move that decided nothing, an optimal one or one made for the player."""
        decision = self.decision
        if decision is None or decision.is_optimal or decision.by is not None:
            return ""
        return MINUS + ("<0.01" if decision.loss < 0.005 else f"{decision.loss:.2f}")

    @property
    def mistake_words(self) -> str:
        """ "Ana's biggest mistake", "Ana's second biggest mistake"; "" for a lesser move."""
        if self.mistake_rank is None:
            return ""
        return f"{self.player}'s {_RANKS[self.mistake_rank - 1]} mistake"


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
            text=_brief(moment, review.names),
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


def _brief(moment: Moment, names: Sequence[str]) -> str:
    """A moment's words without the player's name, in the list under the name of the
    turn: "Rolled 6 5 4 2 1 (2 rolls left)." A move made for the player keeps its
    subject ("The clock, playing on for ana, ..."), and a note its own words."""
    if moment.kind not in TURN_MOVES or moment.by is not None or moment.seat is None:
        return moment.text
    name = names[moment.seat]
    if not moment.text.startswith(name + " "):
        return moment.text
    rest = moment.text[len(name) + 1 :]
    return rest[:1].upper() + rest[1:]


def _cards(moment: Moment) -> list[dict[str, Any]]:
    return [card_json(card) for card in moment.cards]


def build(log: Iterable[events.AnyEvent]) -> Review:
    """The review of the game these events describe, as :func:`games.live.services.replay_events`
    reads them. Raises :class:`replay.ReplayError` on a broken log or a game that never
    started."""
    names: tuple[str, ...] = ()
    moments: list[Moment] = []
    told = _Teller()
    for step in replay.steps(log):
        game = step.room.game
        if game is None:
            continue
        if step.kind == "started":
            names = step.room.players
        if step.kind in {"started", "roll_off"} and game.current is not None:
            # Play starts once the roll-off is decided (at once in a solo game).
            moments.append(_moment(step, game, names, _start_text(names, game)))
        elif moments and step.kind in MOVES | NOTES:  # A "left" before the start is the lobby's.
            moment = _moment(step, game, names, told(step, names))
            if step.kind in NOTES:  # The table is as it was: the last dice stay on it.
                moment = replace(moment, dice=moments[-1].dice, held=moments[-1].held)
            moments.append(moment)
    if not moments:
        raise replay.ReplayError("the game has not started: there is nothing to review")
    return Review(names=names, moments=tuple(moments))


def _moment(step: replay.Step, game: rules.Game, names: Sequence[str], text: str) -> Moment:
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
        text=text,
        seat=event.seat if isinstance(event, SEATED) else None,
        turn=None if over else game.current,
        round=game.round,
        dice=dice,
        held=held,
        rolls_left=game.turn.rolls_left,
        cards=game.cards,
        category=event.category.value if isinstance(event, events.Scored) else None,
        by=event.by if isinstance(event, MADE_FOR) else None,
        game=game,
    )


def _start_text(names: Sequence[str], game: rules.Game) -> str:
    first = names[game.current] if game.current is not None else "?"
    if len(names) == 1:
        return f"{first} starts a solo game."
    return f"{_and(names)} sit down; {first} won the roll-off and starts."


class _Teller:
    """Tells each moment in words, remembering what the words depend on: whether the
    clock was already playing the turn, and which seats the host handed to a bot."""

    def __init__(self) -> None:
        self.clock_playing: int | None = None  # The seat whose turn the clock plays on.
        self.handed: set[int] = set()

    def __call__(self, step: replay.Step, names: Sequence[str]) -> str:
        event, game = step.event, step.room.game
        assert game is not None  # Moments are told once the game has started.
        if isinstance(event, events.Handed):
            self.handed.add(event.seat)
        who = None
        if isinstance(event, MADE_FOR) and event.by in (events.BY_CLOCK, events.BY_BOT):
            who = self._stand_in(event.seat, event.by, names)
        if isinstance(event, events.Rolled) and event.by == events.BY_CLOCK:
            self.clock_playing = event.seat
        elif not isinstance(event, events.Held):
            self.clock_playing = None
        return describe(event, names, game, who=who, host=step.room.host)

    def _stand_in(self, seat: int, by: str | None, names: Sequence[str]) -> str:
        """Who made a move for the seat's player, as the subject of its sentence."""
        name = names[seat]
        if by == events.BY_CLOCK:
            if self.clock_playing == seat:
                return f"The clock, playing on for {name},"
            return f"{name}'s time ran out: the clock"
        if seat in self.handed:
            return f"The bot in {name}'s seat"
        return f"A bot, playing for {name} (away),"


def describe(
    event: events.Event,
    names: Sequence[str],
    after: rules.Game,
    *,
    who: str | None = None,
    host: int | None = None,
) -> str:
    """One moment in words: "Ana rolled 3 3 3 5 5.", "Ana kept 3 3 3.", "Ana scored 25 in
    Full house.", "The game was abandoned: nobody played for a long while."

    ``after`` is the game just after it (a hold names positions; the faces are on the
    table). ``who`` is the subject of a move made for its seat's player ("Ana's time ran
    out: the clock"), ``host`` the host's seat, who may remove a player.
    """
    if isinstance(event, events.Rolled | events.Held | events.Scored):
        subject = who or names[event.seat]
    if isinstance(event, events.Rolled):
        left = after.turn.rolls_left
        then = f" ({left} roll{'s' if left != 1 else ''} left)" if left else ""
        kept = f", keeping {_faces(event.dice, event.held)}" if event.held else ""
        return f"{subject} rolled {_faces(event.dice)}{kept}{then}."
    if isinstance(event, events.Held):
        if not event.held or after.turn.dice is None:
            return f"{subject} let go of every die."
        return f"{subject} kept {_faces(after.turn.dice, event.held)}."
    if isinstance(event, events.Scored):
        bonus = f" and a {rules.YAHTZEE_BONUS}-point Yahtzee bonus" if event.yahtzee_bonus else ""
        return f"{subject} scored {event.points} in {event.category.label}{bonus}."
    if isinstance(event, events.Left):
        name = names[event.seat]
        if event.by == events.BY_HOST:
            remover = f"{names[host]}, the host," if host is not None else "The host"
            return f"{remover} removed {name} from the game; {name}'s score stands."
        return f"{name} left the game."
    if isinstance(event, events.WentAway):
        name = names[event.seat]
        return (
            f"{name} is away: the clock played {name}'s last turns, "
            f"so a bot plays for {name} until {name} is back."
        )
    if isinstance(event, events.CameBack):
        return f"{names[event.seat]} is back: the bot stops playing for {names[event.seat]}."
    if isinstance(event, events.Handed):
        return (
            f"{names[event.host]}, the host, handed {names[event.seat]}'s seat "
            "to a bot for the rest of the game."
        )
    if isinstance(event, events.Abandoned):
        return "The game was abandoned: nobody played for a long while."
    if isinstance(event, events.Finished):
        winners = [names[s] for s in event.winners]
        if not winners:
            return "The game is over."
        best = event.totals[event.winners[0]]
        if len(names) == 1:  # A solo game: nobody to beat, a score to tell.
            return f"{winners[0]} finished with {best}."
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"{_and(winners)} {verb} with {best}."
    return event.kind


def _faces(dice: Sequence[int], positions: Iterable[int] | None = None) -> str:
    chosen = dice if positions is None else [dice[i] for i in sorted(positions)]
    return " ".join(str(face) for face in chosen)


def _and(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


#: The rows of a scorecard below and between the boxes: (key in the card's JSON, label).
BLANK_WHEN_ZERO = frozenset({"upper_bonus", "yahtzee_bonus"})


def card_rows(
    cards: Sequence[Mapping[str, Any]], preset: rules.Rules = rules.OFFICIAL
) -> list[dict[str, Any]]:
    """The rows of the scorecards table, one cell per seat, in the order a paper card of
    ``preset`` has them (Yatzy's has no Yahtzee bonus row).

    Each row is ``{"key", "label", "box", "blank_zero", "cells": [points or None, ...]}``;
    the page's script rewrites the same cells as the replay moves, by ``key``.
    A bonus not (yet) earned is left blank, as on paper.
    """

    def box(category: rules.Category) -> dict[str, Any]:
        cells = [card["boxes"][category.value] for card in cards]
        return {"key": category.value, "label": category.label, "box": True, "cells": cells}

    def total(key: str, label: str) -> dict[str, Any]:
        cells = [card[key] for card in cards]
        blank_zero = key in BLANK_WHEN_ZERO
        return {"key": key, "label": label, "box": False, "blank_zero": blank_zero, "cells": cells}

    upper_sums = (("upper_total", "Upper total"), ("upper_bonus", f"Bonus ({preset.upper_bonus})"))
    lower_sums = (("yahtzee_bonus", "Yahtzee bonus"),) if preset.yahtzee_bonus else ()
    return [
        *(box(c) for c in rules.UPPER),
        *(total(key, label) for key, label in upper_sums),
        *(box(c) for c in preset.lower),
        *(total(key, label) for key, label in (*lower_sums, ("lower_total", "Lower total"))),
    ]
