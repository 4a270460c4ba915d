"""The watchers' chat: watchers talk among themselves, and players read it if they choose.

Watchers talk among themselves in the watchers' chat; players read it only if they
choose to (a preference of each connection, kept by the consumer), so that people
watching neither distract nor spoil the game. It is no event of the game: it is sent to
the room's sockets and kept nowhere. Watchers are anonymous and unlimited in number:
their talk is not part of the game's record, and kept in its log it could fill the log
(LIMIT_LOG_EVENTS) and close the players' own chat.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.conf import settings
from django.db import transaction
from django.db.models import Aggregate, Count, Max, Q, QuerySet

from games.engine import names
from games.live import clock, heartbeat, limits, outbox, presence
from games.live.commands import chat_text, clean_name
from games.live.pipeline import CommandError
from games.models import Connection, Game, Player

#: The handler of the consumers that relay a line of the watchers' chat.
WATCHER_CHAT = "game.watcher_chat"


def watcher_name(code: str, connection_id: int, name: object = None) -> str:
    """The name the watching connection ``connection_id`` goes by in the watchers' chat.

    With ``name``, it takes that name (:func:`clean_name`), refused as ``name_taken``
    when a player of the game or another watcher here has it, or one that looks the
    same (:func:`games.engine.names.clash`). Without it, it keeps the name it has, unless a
    player now has one that looks the same (someone sat down under it): then, as when
    it has none yet, it gets the first free ``Watcher N``. So no watcher ever speaks
    under a player's name. Refused as ``not_a_watcher`` for a connection with a seat.
    Under the game's row lock, so two watchers never take the same name at once.
    """
    chosen = clean_name(name) if name is not None else None
    with transaction.atomic():
        # The row locked, not the game read: a crowd's every join comes here.
        game = Game.objects.select_for_update().only("pk").filter(code=code).first()
        if game is None:
            raise CommandError("no_such_game", "there is no game at this link")
        row = _watching(game, connection_id)
        players = list(Player.objects.filter(game=game).values_list("name", flat=True))
        if chosen is None and row.name and names.is_free(row.name, names.keys_of(players)):
            return row.name  # Its own still (each chat line asks): the crowd's names unread.
        others = watching(game).exclude(pk=row.pk)
        if chosen is not None:
            # A name chosen is compared with every name here, default ones included.
            taken = names.keys_of(players + list(_names(others.exclude(name=""))))
            if not names.is_free(chosen, taken):
                raise CommandError(
                    "name_taken",
                    f"someone here is already called {chosen}, or a name that looks the same",
                )
            number = None
        else:
            number = default_number(others, players, Numbers.of(others))
            chosen = names.watcher_name(number)
        row.name, row.number = chosen, number
        row.save(update_fields=["name", "number"])
    return chosen


class Numbers(NamedTuple):
    """What one aggregate says of a room's watching rows, for a newcomer's default name."""

    #: The highest N of a default name ``Watcher N`` in use (0: none).
    most: int
    #: How many Ns are in use, counted distinct (a row the heartbeat wrote back may share
    #: its number with a newcomer's): ``most`` of them means no number is missing.
    distinct: int
    #: How many watchers chose a name of their own.
    chosen: int

    @classmethod
    def of(cls, rows: QuerySet[Connection]) -> Numbers:
        """The numbers of the watching ``rows`` (:func:`watching`)."""
        return cls.read(rows.aggregate(**_counting()))

    @classmethod
    def read(cls, used: dict[str, Any]) -> Numbers:
        """The numbers from the aggregates of :func:`_counting` (over no rows, ``MAX`` is
        ``None``)."""
        return cls(used["most"] or 0, used["distinct"] or 0, used["chosen"] or 0)


#: A watcher's row with a name it chose (a default name has its number).
CHOSEN = Q(number__isnull=True) & ~Q(name="")


def _counting() -> dict[str, Aggregate]:
    """The aggregates :class:`Numbers` is read from, by its fields."""
    return {
        "most": Max("number"),
        "distinct": Count("number", distinct=True),
        "chosen": Count("pk", filter=CHOSEN),
    }


def watching(game: Game) -> QuerySet[Connection]:
    """The rows of the sockets watching ``game`` now (alive, with no seat)."""
    return Connection.objects.filter(
        game=game, player__isnull=True, seen_at__gte=heartbeat.fresh_since()
    )


def here_and_numbers(game: Game) -> tuple[tuple[set[int], int], Numbers]:
    """Who is connected to ``game`` (:func:`games.live.presence.connected`) and its watchers'
    :class:`Numbers`, in one query: an arrival needs both, and a crowd's rows are counted,
    not read."""
    here, used = presence.counted(game, **_counting())
    return here, Numbers.read(used)


def default_number(others: QuerySet[Connection], players: list[str], used: Numbers) -> int:
    """The first N whose ``Watcher N`` is nobody's among ``others`` (the room's other
    watchers, :func:`watching`) and looks like no name here.

    A crowd's names are not read: the default names are known by their numbers, and
    with no number missing (a crowd arriving) the next one is found by the database.
    Only the names watchers chose, few, are compared by their look-alike keys, with the
    players'. (Reading every name and its keys at each join made a join in a room of
    1,000 cost half as much again as in a room of 20: benchmarks/README.md, crowd.py.)
    """
    if used.distinct == used.most:  # 1 to most, every one in use.
        taken_numbers: set[int] = set()
        number = used.most + 1
    else:
        taken_numbers = {
            n for n in others.filter(number__isnull=False).values_list("number", flat=True) if n
        }
        number = 1
    # The chosen names read only when there are some: a burst's arrivals have none.
    chosen = list(_names(others.filter(CHOSEN))) if used.chosen else []
    taken = names.keys_of(players + chosen)
    while number in taken_numbers or not names.is_free(names.watcher_name(number), taken):
        number += 1
    return number


def _names(rows: QuerySet[Connection]) -> QuerySet[Connection, str]:
    return rows.values_list("name", flat=True)


def _watching(game: Game, connection_id: int) -> Connection:
    """The row of a connection to ``game`` that watches (it holds no seat)."""
    row = Connection.objects.filter(pk=connection_id, game=game).first()
    if row is None or row.player_id is not None:
        raise CommandError(
            "not_a_watcher",
            "the watchers' chat is for watchers: players talk in the players' chat",
        )
    return row


def watcher_chat(
    code: str, connection_id: int, text: object, *, sender: str, address: str = ""
) -> str:
    """The watcher ``connection_id`` says ``text`` in the watchers' chat; the name it said it
    under (:func:`watcher_name`: it may have changed).

    The line goes to every watcher of the room and to the players who read the watchers'
    chat; it is kept nowhere. Within limits, ``chat_rate_limited`` past either: per
    ``sender``, the watcher's browser session (sockets without one, from scripts, count
    as one watcher per ``address``), and per ``address``, all its browsers together. Not
    per room: a flood from one address costs the other watchers nothing. The text is
    checked as the players' chat's (``invalid_message``, ``chat_too_long``).
    """
    text = chat_text(text)
    name = watcher_name(code, connection_id)  # Raises not_a_watcher, no_such_game.
    browser = sender or f"address-{address}"
    wait = limits.hit("watcher-chat", browser, settings.LIMIT_WATCHER_CHAT_PER_WATCHER)
    if wait:
        raise CommandError(
            "chat_rate_limited", f"too many chat messages: wait {limits.wait_text(wait)}"
        )
    wait = limits.hit("watcher-chat-address", address, settings.LIMIT_WATCHER_CHAT_PER_ADDRESS)
    if wait:
        raise CommandError(
            "chat_rate_limited",
            f"too many chat messages from your network: wait {limits.wait_text(wait)}",
        )
    line = {"type": "watcher_message", "name": name, "text": text, "at": clock.now().isoformat()}
    outbox.post(code, WATCHER_CHAT, [line])
    return name
