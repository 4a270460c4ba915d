"""What the history pages read: games with their players, cards, totals and winners.

The pages list many games at once, so everything here works on a batch: the
games' rows carry their saved records, and one query reads the seats of them
all. The totals, places and winners are the rules' own
(:meth:`games.engine.rules.Game.outcome`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from games.engine import rules
from games.models import Game, Player


@dataclass(frozen=True)
class Seat:
    """One player of a listed game, with their card as it stands."""

    player: Player
    card: rules.Scorecard
    #: Among those who stayed, 1 for the best total (ties share); ``None`` for a seat that left.
    place: int | None
    is_winner: bool
    has_left: bool

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def total(self) -> int:
        return self.card.total

    @property
    def yahtzees(self) -> int:
        """Yahtzees rolled and scored as such: 50 in the Yahtzee (or Yatzy) box, and each bonus
        check."""
        five = next(c for c in self.card.rules.boxes if c in FIVE_OF_A_KIND)
        scored = self.card[five] == rules.YAHTZEE_SCORE
        return int(scored) + self.card.yahtzee_bonus_count


#: The box five of a kind scores 50 in, under each preset: Yahtzee's or Yatzy's.
FIVE_OF_A_KIND = (rules.Category.YAHTZEE, rules.Category.YATZY)


@dataclass(frozen=True)
class GameSummary:
    """A game as the history list shows it."""

    game: Game
    seats: tuple[Seat, ...]
    #: One seat: nobody to beat, so never a win.
    solo: bool

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if s.is_winner)

    @property
    def is_finished(self) -> bool:
        return self.game.status == Game.Status.FINISHED

    @property
    def is_abandoned(self) -> bool:
        """Ended unfinished: nobody played for a long while (:mod:`games.live.clock`)."""
        return self.game.status == Game.Status.ABANDONED

    @property
    def is_over(self) -> bool:
        """Finished or abandoned: nothing more will be played; it can be reviewed."""
        return self.is_finished or self.is_abandoned


def summaries(games: Iterable[Game]) -> list[GameSummary]:
    """Each game with its seats' cards and, once finished, its winners; in the order given."""
    games = list(games)
    players_by_game: dict[int, list[Player]] = defaultdict(list)
    for player in Player.objects.filter(game__in=[g.pk for g in games]):
        players_by_game[player.game_id].append(player)  # In seat order (Player.Meta.ordering).
    return [_summary(game, players_by_game[game.pk]) for game in games]


def summary(game: Game) -> GameSummary:
    """One game's :class:`GameSummary`."""
    return summaries([game])[0]


def _summary(game: Game, players: list[Player]) -> GameSummary:
    state = game.state or rules.Game.new(max(len(players), 1), game.rules)  # A lobby.
    outcome = state.outcome()
    seats = tuple(
        Seat(
            player=p,
            card=state.cards[p.seat],
            place=outcome.places[p.seat],
            is_winner=p.seat in outcome.winners,
            has_left=p.seat in outcome.left,
        )
        for p in players
    )
    return GameSummary(game=game, seats=seats, solo=outcome.solo)


def listed_games() -> QuerySet[Game]:
    """Games the history shows: started ones (in play or finished), newest first."""
    return Game.objects.exclude(status=Game.Status.LOBBY).order_by("-created_at", "-pk")


def games_of(*, user_id: int | None = None, session_key: str = "") -> QuerySet[Game]:
    """Games with a seat held by this account, or (for a guest) by this browser's session."""
    if user_id is not None:
        seats = Q(players__user_id=user_id)
    elif session_key:
        seats = Q(players__session_key=session_key)
    else:
        return listed_games().none()
    return listed_games().filter(seats).distinct()
