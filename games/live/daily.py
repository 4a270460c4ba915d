"""Today's dice: one grid a day (UTC) for everyone, one attempt each, and the day's board.

The day's grid comes from the server's secret and the date (:func:`day_grid`), so every
process agrees on it and nobody can compute it; each daily game keeps it on its row
(:mod:`games.live.duplicate`). An attempt is a :class:`~games.models.DailyEntry`: the
database allows one per account and one per browser each day, so two tabs asking at
once get the same game (:func:`play_today`).

When a daily game is over its entry is scored (:func:`settle`): the score, the card's
share symbols and the points given away against the optimal strategy
(:mod:`games.insight.analysis`). The engine's own score on the day's dice (the Optimal
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
    """An account's daily results, newest first, and the average of points given away."""

    entries: list[DailyEntry]

    @property
    def average_given_away(self) -> float | None:
        given = [e.given_away for e in self.entries if e.given_away is not None]
        return sum(given) / len(given) if given else None


def history_of(user_id: int) -> History:
    """The account's finished daily games (settled now if they were not yet)."""
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


#: The share text's symbol for a box by how it scored: nothing, some, or its best.
SHARE_SYMBOLS = {"zero": "⬛", "some": "🟨", "best": "🟩"}
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
    or a kind)."""

    def symbol(category: rules.Category) -> str:
        points = card[category] or 0
        if points == 0:
            return SHARE_SYMBOLS["zero"]
        return SHARE_SYMBOLS["best" if points >= BEST[category] else "some"]

    return "".join(symbol(c) for c in rules.YAHTZEE_BOXES)  # The daily game is Yahtzee's.


def settle(entry: DailyEntry) -> DailyEntry:
    """``entry`` with its score, card symbols and points given away written, once its game
    is over (an entry already settled, or whose game is still played, is as it was)."""
    game = entry.game
    if entry.score is not None or not duplicate.is_over(game) or game.state is None:
        return entry
    card = game.state.cards[0]
    judged = analysis.analyse(queries.replay_events(game.code))
    entry.score = card.total
    entry.card = card_symbols(card)
    entry.given_away = round(judged.players[0].total_loss, 2)
    DailyEntry.objects.filter(pk=entry.pk, score=None).update(
        score=entry.score, card=entry.card, given_away=entry.given_away
    )
    return entry


@dataclass(frozen=True)
class Place:
    """A line of the day's board: the place (shared by equal scores) and the entry."""

    place: int
    entry: DailyEntry


def board(day: datetime.date) -> list[Place]:
    """The day's finished attempts by score, highest first; equal scores share a place
    (1, 2, 2, 4), and among them the fewer points given away comes first."""
    entries = [
        settle(e)
        for e in DailyEntry.objects.filter(day=day).select_related("game", "user").order_by("pk")
    ]
    done = sorted(
        (e for e in entries if e.score is not None),
        key=lambda e: (-(e.score or 0), e.given_away or 0.0, e.pk),
    )
    places: list[Place] = []
    for i, entry in enumerate(done):
        shared = places and places[-1].entry.score == entry.score
        places.append(Place(places[-1].place if shared else i + 1, entry))
    return places


def place_of(places: list[Place], entry: DailyEntry) -> int | None:
    """``entry``'s place on the board ``places``, if it is on it."""
    return next((p.place for p in places if p.entry.pk == entry.pk), None)


def share_text(entry: DailyEntry, engine: DailyEngine, url: str) -> str:
    """What a player pastes anywhere after the day's game: the day's number, the score, the
    engine's, the card as symbols (no dice), and the link to the day's page."""
    line = _("Yahtzee Live daily #%(number)s: %(score)s (engine %(engine)s)") % {
        "number": day_number(entry.day),
        "score": entry.score,
        "engine": engine.score,
    }
    return f"{line}\n{entry.card}\n{url}"
