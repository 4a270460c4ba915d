"""Today's dice: one grid a day (UTC) for everyone, one attempt each, and the day's board.

The day's grid comes from the server's secret and the date (:func:`day_grid`), so every
process agrees on it and nobody can compute it; each daily game keeps it on its row
(:mod:`games.live.duplicate`). An attempt is a :class:`~games.models.DailyEntry`: the
database allows one per account and one per browser each day, so two tabs asking at
once get the same game (:func:`play_today`).

When a daily game is over its entry is scored (:func:`settle`): the score, the card's
share symbols and the points given away against the optimal strategy
(:mod:`games.insight.analysis`). An attempt that ended with boxes still empty (abandoned
after a day without a move, or left) is not finished: as on any daily-puzzle site it is not
ranked with the finished ones, it is shown as not finished (:class:`Board`), and it still
was that day's one attempt. The engine's own score on the day's dice (the Optimal
bot playing the same grid, :func:`games.insight.duplicate.engine_game`) is computed once
a day and kept (:func:`engine_of`).
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.engine import grid, rules
from games.engine.grid import Grid
from games.insight import analysis
from games.insight.duplicate import engine_game
from games.live import clock, duplicate, queries
from games.live.pipeline import CommandError, save
from games.models import DailyEngine, DailyEntry, Game

#: Day 1 of the daily dice; the share text numbers the days from it.
FIRST_DAY = datetime.date(2026, 11, 26)


def today() -> datetime.date:
    """The day (UTC) whose dice are played now."""
    return clock.now().astimezone(datetime.UTC).date()


def day_number(day: datetime.date) -> int:
    """The day's number in the share text: 1 on :data:`FIRST_DAY`."""
    return (day - FIRST_DAY).days + 1


def day_grid(day: datetime.date) -> Grid:
    """The grid of ``day``: the same in every process, unguessable without the secret key."""
    return Grid.from_seed(grid.daily_seed(settings.SECRET_KEY, day.isoformat()))


def entry_of(day: datetime.date, session_key: str, user_id: int | None) -> DailyEntry | None:
    """The attempt of this account or this browser at ``day``'s dice, if it made one."""
    who = Q(session_key=session_key) if session_key else Q(pk__in=[])
    if user_id is not None:
        who |= Q(user_id=user_id)
    return DailyEntry.objects.filter(who, day=day).select_related("game").first()


def play_today(name: str, *, session_key: str, user_id: int | None = None) -> Game:
    """Today's game of this browser (``session_key``) or account (``user_id``): the one it
    started already, else a new one on today's dice under ``name`` (the account's name for
    an account). Two tabs asking at once get the same game: the entry's constraints let
    only one be saved, and the other tab reads it."""
    day = today()
    found = entry_of(day, session_key, user_id)
    if found is not None:
        return found.game
    table = duplicate.on_grid(day_grid(day), name, session_key=session_key, user_id=user_id)
    table.game.daily = day
    try:
        with transaction.atomic():
            save(table)
            DailyEntry.objects.create(
                day=day,
                game=table.game,
                user_id=user_id,
                session_key=session_key,
                name=table.room.players[0],
            )
    except IntegrityError:  # Another tab saved its attempt first: that one is the day's.
        found = entry_of(day, session_key, user_id)
        if found is None:
            raise
        return found.game
    return table.game


def practice(day: object, name: str, *, session_key: str = "", user_id: int | None = None) -> Game:
    """A solo game on the dice of ``day`` (an ISO date), a day that is over: to practise on,
    off the board. Refused: ``invalid_day`` (not a date, or before :data:`FIRST_DAY`),
    ``dice_secret`` (today's dice, or a day to come)."""
    try:
        when = datetime.date.fromisoformat(day) if isinstance(day, str) else None
    except ValueError:
        when = None
    if when is None or when < FIRST_DAY:
        raise CommandError("invalid_day", f"name a day from {FIRST_DAY.isoformat()} on")
    if when >= today():
        raise CommandError(
            "dice_secret", "today's dice stay secret until the day is over: play them on the site"
        )
    table = duplicate.on_grid(day_grid(when), name, session_key=session_key, user_id=user_id)
    table.game.daily = when  # Its dice are that day's; with no entry, it is not on the board.
    save(table)
    return table.game


def claim_guest_entries(old_session_key: str, new_session_key: str, user_id: int) -> None:
    """A guest who logs in keeps their daily attempts: each becomes the account's, unless the
    account played that day already (then it stays a guest's); either way it moves to the
    browser's new session key, so the browser still has had its attempt."""
    if not old_session_key:
        return
    with transaction.atomic():
        for entry in DailyEntry.objects.select_for_update().filter(session_key=old_session_key):
            played = DailyEntry.objects.filter(day=entry.day, user_id=user_id).exists()
            if entry.user_id is None and not played:
                entry.user_id = user_id
            entry.session_key = new_session_key
            entry.save(update_fields=["user", "session_key"])


@dataclass(frozen=True)
class History:
    """An account's daily results, newest first (those not finished among them), and the
    average of points given away over the finished ones."""

    entries: list[DailyEntry]

    @property
    def finished(self) -> list[DailyEntry]:
        return [e for e in self.entries if e.finished]

    @property
    def average_given_away(self) -> float | None:
        given = [e.given_away for e in self.finished if e.given_away is not None]
        return sum(given) / len(given) if given else None


def history_of(user_id: int) -> History:
    """The account's daily games that are over (settled now if they were not yet)."""
    entries = [
        settle(e)
        for e in DailyEntry.objects.filter(user_id=user_id).select_related("game").order_by("-day")
    ]
    return History([e for e in entries if e.score is not None])


def engine_of(day: datetime.date) -> DailyEngine:
    """The engine's score on ``day``'s dice, computed the first time it is asked for and
    kept (with how long it took): two processes computing it at once keep the first."""
    found = DailyEngine.objects.filter(day=day).first()
    if found is not None:
        return found
    started = time.perf_counter()
    score = engine_game(day_grid(day)).cards[0].total
    seconds = time.perf_counter() - started
    kept, _created = DailyEngine.objects.get_or_create(
        day=day, defaults={"score": score, "seconds": seconds}
    )
    return kept  # The first process's row, when another saved it meanwhile.


#: The share text's symbol for a box by how it scored: nothing, some, or its best; or left
#: empty, by an attempt that was not finished.
SHARE_SYMBOLS = {"zero": "⬛", "some": "🟨", "best": "🟩", "empty": "⬜"}
#: A box's best score, for the share symbols (the upper boxes: five of the face).
BEST = {
    **{c: 5 * face for face, c in enumerate(rules.UPPER, start=1)},
    rules.Category.THREE_OF_A_KIND: 30,
    rules.Category.FOUR_OF_A_KIND: 30,
    rules.Category.FULL_HOUSE: rules.FULL_HOUSE_SCORE,
    rules.Category.SMALL_STRAIGHT: rules.SMALL_STRAIGHT_SCORE,
    rules.Category.LARGE_STRAIGHT: rules.LARGE_STRAIGHT_SCORE,
    rules.Category.YAHTZEE: rules.YAHTZEE_SCORE,
    rules.Category.CHANCE: 30,
}


def card_symbols(card: rules.Scorecard) -> str:
    """The card as 13 small symbols in card order, no dice shown: a box scored nothing,
    scored some, or scored the most it can (a full upper box, a made hand, 30 in Chance
    or a kind), or was left empty (a game not finished)."""

    def symbol(category: rules.Category) -> str:
        points = card[category]
        if points is None:
            return SHARE_SYMBOLS["empty"]
        if points == 0:
            return SHARE_SYMBOLS["zero"]
        return SHARE_SYMBOLS["best" if points >= BEST[category] else "some"]

    return "".join(symbol(c) for c in rules.YAHTZEE_BOXES)  # The daily game is Yahtzee's.


def settle(entry: DailyEntry) -> DailyEntry:
    """``entry`` with its score, card symbols and boxes filled written, once its game is
    over, and the points given away for a finished one (an entry already settled, or whose
    game is still played, is as it was). An attempt not finished keeps its score as it
    stood, but none given away: its empty boxes were never played, so it does not compare."""
    game = entry.game
    if entry.score is not None or not duplicate.is_over(game) or game.state is None:
        return entry
    card = game.state.cards[0]
    entry.score = card.total
    entry.card = card_symbols(card)
    entry.boxes = len(card.filled)
    if entry.finished:
        judged = analysis.analyse(queries.replay_events(game.code))
        entry.given_away = round(judged.players[0].total_loss, 2)
    DailyEntry.objects.filter(pk=entry.pk, score=None).update(
        score=entry.score, card=entry.card, boxes=entry.boxes, given_away=entry.given_away
    )
    return entry


@dataclass(frozen=True)
class Place:
    """A line of the day's board: the place (shared by equal scores) and the entry."""

    place: int
    entry: DailyEntry


@dataclass(frozen=True)
class Board:
    """A day's board: the finished attempts in their places, then the attempts that ended
    with boxes empty, which have no place (most boxes filled first, then the score)."""

    places: list[Place]
    unfinished: list[DailyEntry]

    def place_of(self, entry: DailyEntry) -> int | None:
        """``entry``'s place, if it is ranked."""
        return next((p.place for p in self.places if p.entry.pk == entry.pk), None)


def board(day: datetime.date) -> Board:
    """The day's board. The finished attempts by score, highest first; equal scores share
    a place (1, 2, 2, 4), and among them the fewer points given away comes first. Attempts
    still played are on neither list."""
    entries = [
        settle(e)
        for e in DailyEntry.objects.filter(day=day).select_related("game", "user").order_by("pk")
    ]
    done = sorted(
        (e for e in entries if e.finished),
        key=lambda e: (-(e.score or 0), e.given_away or 0.0, e.pk),
    )
    places: list[Place] = []
    for i, entry in enumerate(done):
        shared = places and places[-1].entry.score == entry.score
        places.append(Place(places[-1].place if shared else i + 1, entry))
    unfinished = sorted(
        (e for e in entries if e.score is not None and not e.finished),
        key=lambda e: (-(e.boxes or 0), -(e.score or 0), e.pk),
    )
    return Board(places, unfinished)


@dataclass(frozen=True)
class Result:
    """How one attempt did, as the day's page and the room's end show it: the entry, its
    place among the ``ranked`` finished attempts (``None`` if it was not finished), and the
    engine's score on the same dice."""

    entry: DailyEntry
    place: int | None
    ranked: int
    engine: DailyEngine

    def share_text(self, url: str) -> str:
        """What a player pastes anywhere after the day's game: the day's number, the score
        (or how far an unfinished game went), the engine's, the card as symbols (no dice),
        and the link to the day's page ``url``."""
        entry, boxes = self.entry, len(rules.YAHTZEE_BOXES)
        if entry.finished:
            line = _("Yahtzee Live daily #%(number)s: %(score)s (engine %(engine)s)")
        else:
            line = _(
                "Yahtzee Live daily #%(number)s: not finished, %(score)s after %(filled)s of "
                "%(boxes)s boxes (engine %(engine)s)"
            )
        words = {
            "number": day_number(entry.day),
            "score": entry.score,
            "filled": entry.boxes,
            "boxes": boxes,
            "engine": self.engine.score,
        }
        return f"{line % words}\n{entry.card}\n{url}"


def result_of(entry: DailyEntry, day_board: Board | None = None) -> Result | None:
    """``entry``'s result once its game is over (``None`` while it is played), on
    ``day_board`` when the caller has the day's board already."""
    entry = settle(entry)
    if entry.score is None:
        return None
    day_board = day_board if day_board is not None else board(entry.day)
    return Result(entry, day_board.place_of(entry), len(day_board.places), engine_of(entry.day))
