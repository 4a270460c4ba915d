"""The games one plays, as the page of "my games" lists them: in play, whose turn it is,
how long is left, those waiting for you first.

A guest's games are the seats its browser session holds; an account's, the seats its
account holds (:func:`games.web.history.games_of`, which the history's "mine" uses too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import Game, Player


@dataclass(frozen=True)
class GameInPlay:
    """One game in play, from the seat of the browser (or account) looking."""

    game: Game
    #: The names at the table, in seat order, and the seat that is yours.
    names: tuple[str, ...]
    seat: int
    #: The seat on turn; ``None`` while the roll-off decides who starts.
    on_turn: int | None
    #: The round being played (1 to the number of boxes) and how many there are.
    round: int
    rounds: int
    #: When the turn runs out, ``None`` for no clock (and during the roll-off).
    deadline: datetime | None
    now: datetime

    @property
    def yours(self) -> bool:
        """Whether the game waits for you."""
        return self.on_turn == self.seat

    @property
    def your_name(self) -> str:
        return self.names[self.seat]

    @property
    def on_turn_name(self) -> str | None:
        return None if self.on_turn is None else self.names[self.on_turn]

    @property
    def others(self) -> tuple[str, ...]:
        return tuple(name for seat, name in enumerate(self.names) if seat != self.seat)

    @property
    def left(self) -> timedelta | None:
        """How long the turn has left (never below nothing), or ``None`` for no clock."""
        if self.deadline is None:
            return None
        return max(self.deadline - self.now, timedelta(0))

    @property
    def left_words(self) -> str:
        """How long is left, for a person: "2 h 5 min left", "40 s left", "no clock"."""
        left = self.left
        if left is None:
            return _("no clock")
        seconds = int(left.total_seconds())
        days, rest = divmod(seconds, 86_400)
        hours, rest = divmod(rest, 3_600)
        minutes, seconds = divmod(rest, 60)
        if days:
            return _("%(days)s d %(hours)s h left") % {"days": days, "hours": hours}
        if hours:
            return _("%(hours)s h %(minutes)s min left") % {"hours": hours, "minutes": minutes}
        if minutes:
            return _("%(minutes)s min left") % {"minutes": minutes}
        return _("%(seconds)s s left") % {"seconds": seconds}


def games_in_play(*, user_id: int | None, session_key: str, now: datetime) -> list[GameInPlay]:
    """The games in play with a seat (not left) held by the account ``user_id`` or, for a
    guest, the browser session ``session_key``: those on your turn first, each part by
    the time left (soonest first, no clock last), then the oldest first."""
    if user_id is not None:
        yours = Q(user_id=user_id)
    elif session_key:
        yours = Q(session_key=session_key)
    else:
        return []
    seats = Player.objects.filter(yours, game__status=Game.Status.PLAYING, bot="")
    game_ids = seats.values_list("game_id", flat=True)
    games = Game.objects.filter(pk__in=game_ids)
    players: dict[int, list[Player]] = {}
    for player in Player.objects.filter(game__in=games):
        players.setdefault(player.game_id, []).append(player)  # In seat order.
    found = []
    for game in games:
        state = game.state
        if state is None:
            continue
        mine = [
            p
            for p in players.get(game.pk, [])
            if (p.user_id == user_id if user_id is not None else p.session_key == session_key)
            and p.seat not in state.left
            and not p.bot
        ]
        if not mine:
            continue
        on_turn = state.on_turn
        # Your seat: the one on turn if you hold several (a hot-seat game), else the first.
        seat = next((p.seat for p in mine if p.seat == on_turn), mine[0].seat)
        rounds = len(state.cards[0].boxes)
        found.append(
            GameInPlay(
                game=game,
                names=tuple(p.name for p in players[game.pk]),
                seat=seat,
                on_turn=on_turn,
                round=state.round,
                rounds=rounds,
                deadline=game.deadline,
                now=now,
            )
        )
    far = now + timedelta(days=10_000)
    found.sort(
        key=lambda g: (
            not g.yours,
            g.deadline or far,
            g.game.started_at or g.game.created_at,
            g.game.pk,
        )
    )
    return found
