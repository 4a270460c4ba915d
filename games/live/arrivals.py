"""A socket arriving in a room: the seat it acts for, its connection's row, its snapshot.

A browser's seat is found by its session or its account; another client's by the
seat's token (:func:`resume`). A guest who logs in keeps their seats
(:func:`claim_guest_seats`).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib import auth
from django.db import transaction
from django.http import HttpRequest

from games.engine import names
from games.live import clock, watchers
from games.live.pipeline import CommandError, load
from games.live.presence import move_connection, tell
from games.live.queries import snapshot_of
from games.models import Connection, Player


class Arrival(NamedTuple):
    """What a socket found on arriving in a room (:func:`arrive`)."""

    #: The browser's account (``None``: a guest).
    user_id: int | None
    #: The seat it acts for (``None``: it watches).
    player_id: int | None
    #: Its connection's row.
    connection_id: int
    #: The name it goes by in the watchers' chat ("" for a seat's socket).
    watcher_name: str
    snapshot: dict[str, Any]


def arrive(code: str, *, session_key: str = "", user_id: int | None = None) -> Arrival:
    """A new connection to the room: the seat it acts for, its row, its name when it watches,
    and the room's snapshot for it.

    The seat is the one this browser session took, or the one its logged-in account holds
    (taken in another browser). The connection's row makes it count for presence
    (:mod:`games.live.heartbeat`) and the room is told; a bot on turn with no driver (after
    a restart) is started again. A watcher is given the first free default name
    (:func:`games.live.watchers.default_number`) with its row: the one query that counts
    who is here counts the watchers' numbers too. One transaction, one trip to the
    database thread: in a burst of reconnections every socket makes one.
    """
    with transaction.atomic():
        table = load(code, lock=True)  # Raises no_such_game. Presence leaves in order.
        player = table.held_by(session_key, user_id)
        player_id = player.pk if player else None
        (seats, watching), numbers = watchers.here_and_numbers(table.game)
        name, number = "", None
        if player_id is None:
            others = watchers.watching(table.game)
            number = watchers.default_number(others, [p.name for p in table.players], numbers)
            name = names.watcher_name(number)
            watching += 1
        else:
            seats.add(player_id)
        row = Connection.objects.create(
            game=table.game, player_id=player_id, seen_at=clock.now(), name=name, number=number
        )
        here = (seats, watching)
        tell(table, here, bot=table.bot_on_turn())
        snapshot = snapshot_of(table, player_id, here)
    return Arrival(user_id, player_id, row.pk, name, snapshot)


def arrive_from(code: str, session_key: str) -> Arrival:
    """:func:`arrive`, for the browser whose session cookie holds ``session_key``, in one
    trip to the database thread: its account first, then the arrival.

    Channels' ``AuthMiddlewareStack`` read the account before the consumer even
    started, in two trips of their own (the session, then the user), so a handshake
    waited behind every other's database work before it could be accepted: in a burst
    of reconnections Daphne dropped those that waited past its 5 s.
    """
    return arrive(code, session_key=session_key, user_id=account_of(session_key))


def account_of(session_key: str) -> int | None:
    """The id of the account logged in in the browser session ``session_key`` (``None``: a
    guest, or no such session), as Django finds it for a request: the session's copy of
    the password's hash must still match, so a password changed elsewhere logs it out."""
    if not session_key:
        return None
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = auth.get_user(request)
    return user.pk if user.is_authenticated else None


def session_key_of(cookies: dict[str, str]) -> str:
    """The session key a handshake's cookies carry ("" for none, or one that is no key),
    checked for its form only: no database."""
    key = cookies.get(settings.SESSION_COOKIE_NAME, "")
    store = import_module(settings.SESSION_ENGINE).SessionStore(key or None)
    return str(store.session_key or "")


def resume(code: str, token: str, *, connection_id: int) -> int:
    """Take a seat back with its token (for clients without the browser's session)."""
    table = load(code)
    player = None
    if isinstance(token, str) and token:
        player = next((p for p in table.players if p.token == token), None)
    if player is None or table.has_left(player):
        raise CommandError("invalid_token", "no seat in this game has that token")
    move_connection(code, connection_id, player.pk)
    return player.pk


def seat_of(code: str, *, session_key: str = "", user_id: int | None = None) -> Player | None:
    """The seat in this game held by this browser session or this account, if any."""
    return load(code).held_by(session_key, user_id)


def claim_guest_seats(old_session_key: str, new_session_key: str, user_id: int) -> int:
    """A guest who logs in or signs up keeps their seats, and their games join the account.

    Logging in gives the browser a new session key (Django cycles it against
    session fixation). The seats taken under the old key that no account holds
    yet become the account's, and the account's seats move to the new key. A
    seat another account holds stays where it is: that account reaches it. Returns
    how many games joined the account.
    """
    if not old_session_key:
        return 0
    with transaction.atomic():
        seats = Player.objects.filter(session_key=old_session_key)
        claimed = seats.filter(user__isnull=True).update(user_id=user_id)
        if new_session_key and new_session_key != old_session_key:
            seats.filter(user_id=user_id).update(session_key=new_session_key)
    return claimed
