"""Who is here: the connections to a room, the seats they act for, and telling the room.

A connection is a row (:class:`games.models.Connection`), alive while its server
process refreshes it (:mod:`games.live.heartbeat`). Who is here is a state, not an
event of the game: it changes no version and is kept in no log. Each change is told
under the game's row lock, so two processes' presence messages for one room leave in
the order their changes were made.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Aggregate, Count

from games.live import clock, heartbeat, outbox
from games.live.pipeline import Table, load
from games.models import Connection, Game, Player


def release(connection_ids: list[int]) -> None:
    """Connections that ended: their rows go, in one statement for however many closed at
    once (a mass close). The rooms are told after (:func:`tell_presence`), each under its
    lock, by :mod:`games.live.leaving`.
    """
    Connection.objects.filter(pk__in=connection_ids).delete()


def move_connection(code: str, connection_id: int, player_id: int | None) -> None:
    """A connection that took a seat (``player_id``), or gave one up (``None``)."""
    with transaction.atomic():
        table = load(code, lock=True)
        Connection.objects.filter(pk=connection_id).update(player_id=player_id, seen_at=clock.now())
        tell(table)


def tell_presence(code: str) -> None:
    """Tell the room who is here now (after the heartbeat swept or wrote back rows)."""
    with transaction.atomic():
        tell(load(code, lock=True))


def tell(table: Table, here: tuple[set[int], int] | None = None, *, bot: bool = False) -> None:
    """Once committed, tell the room who is ``here`` (read now if not given), and start its
    bot's driver if ``bot``."""
    message = presence(table.game, table.players, here)
    code = table.game.code
    transaction.on_commit(lambda: outbox.post(code, outbox.PRESENCE, [message], bot=bot))


def connected(game: Game) -> tuple[set[int], int]:
    """The seats (player ids) with a live connection to ``game``, and how many watch.

    Counted by the database, a row per seat and one for the watchers: a crowd's thousand
    rows are not read at every join.
    """
    return counted(game)[0]


def counted(game: Game, **watching: Aggregate) -> tuple[tuple[set[int], int], dict[str, Any]]:
    """:func:`connected`, and the aggregates ``watching`` over the watchers' rows in the same
    query (``None`` each when nobody watches)."""
    counts = list(
        Connection.objects.filter(game=game, seen_at__gte=heartbeat.fresh_since())
        .values("player_id")
        .annotate(sockets=Count("pk"), **watching)
        .order_by()
    )
    seats = {row["player_id"] for row in counts if row["player_id"] is not None}
    watchers = next((row for row in counts if row["player_id"] is None), {})
    return (seats, watchers.get("sockets", 0)), {name: watchers.get(name) for name in watching}


def connected_seat(table: Table, seat: object) -> bool:
    """Whether the seat ``seat`` of ``table`` has a live connection now."""
    other = next((p for p in table.players if p.seat == seat), None)
    return other is not None and other.pk in connected(table.game)[0]


def presence(
    game: Game, players: list[Player], here: tuple[set[int], int] | None = None
) -> dict[str, Any]:
    """Who is connected: each seat (a bot always is), and how many watch."""
    seats, watchers = here or connected(game)
    return {
        "type": "presence",
        "players": [{"seat": p.seat, "connected": is_here(p, seats)} for p in players],
        "watchers": watchers,
    }


def is_here(player: Player, seats: set[int]) -> bool:
    """Whether ``player``'s seat is connected: a bot always is."""
    return bool(player.bot) or player.pk in seats
