"""Saving a game at its version in one statement, and this process's copies of the games.

A command (:mod:`games.live.pipeline`) changes one game's row and appends its events.
Done with the ORM inside a transaction that is six statements (BEGIN, lock the row,
read the seats, update the row, insert the events, COMMIT). Here it is one, sent in
autocommit mode, that does both or neither, and only if the game's ``version`` is
still the one the command was applied to:

- on PostgreSQL a data-modifying ``WITH``: the ``UPDATE ... WHERE version = %s``
  feeds the ``INSERT`` of the events, so with a version that moved on, nothing is
  updated and no event is inserted;
- on SQLite, which has no such ``WITH``, an ``INSERT`` into the view ``games_move``
  whose ``INSTEAD OF`` trigger updates the row at that version, aborts the whole
  statement if no row matched, and inserts the events.

What is saved is :data:`SAVED_FIELDS`, listed once: both statements, the view and its
trigger are written from it (:func:`sqlite_view`, :func:`sqlite_trigger`; the
migration that last changed the list creates them, and a test checks that the
database's trigger is the one written here).

The version is the lock: two processes that applied a command to the same version
cannot both save it, and the one that loses reads the game again. So a move needs no
row lock and no read when this process's copy of the game (:class:`Copies`) is
current: one statement in all; two when the game must be read first. (On
PostgreSQL the connection pool also checks each connection it lends, with
``CONN_HEALTH_CHECKS``: one more round trip per command that reaches the server by a
websocket, which Django does not count as a statement.)
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from django.db import IntegrityError, OperationalError, connection
from django.db.models import Field

from games.models import Game

#: What a command may change on the game's row, in the order the statements list them
#: (the presence counts, the invite code, the preset and the seats are not among them).
SAVED_FIELDS: Final = (
    "record",
    "version",
    "state_version",
    "status",
    "started_at",
    "finished_at",
    "coach",
    "bot_pace",
    "show_odds",
    "deadline",
    "wake_at",
    "acted_at",
    "attendance",
)


def _fields() -> list[Field[Any, Any]]:
    fields = [Game._meta.get_field(name) for name in SAVED_FIELDS]
    return [field for field in fields if isinstance(field, Field)]


def _columns() -> list[str]:
    return [field.column for field in _fields()]


def save_game(
    game: Game,
    expected_version: int,
    rows: Sequence[tuple[int, str, Any]],
    created_at: datetime,
) -> bool:
    """Save ``game``'s :data:`SAVED_FIELDS` and append ``rows`` (seq, kind, payload), which
    happened at ``created_at``, if its version is still ``expected_version``; whether it was.

    Everything is one statement: saved whole, or not at all.
    """
    if not rows:  # The clock's wake-up time alone: no event.
        saved = {name: getattr(game, name) for name in SAVED_FIELDS}
        return Game.objects.filter(pk=game.pk, version=expected_version).update(**saved) == 1
    values = [
        field.get_db_prep_save(getattr(game, field.attname), connection) for field in _fields()
    ]
    now = connection.ops.adapt_datetimefield_value(created_at)
    logged = json.dumps([{"seq": s, "kind": k, "payload": p} for s, k, p in rows])
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_postgresql(), [*values, game.pk, expected_version, now, logged])
            return bool(cursor.rowcount == len(rows))
        try:
            cursor.execute(_sqlite(), [game.pk, expected_version, *values, now, logged])
        except IntegrityError as error:
            if "stale" in str(error):
                return False
            raise
        except OperationalError as error:  # Another process wrote since this statement began.
            if "locked" in str(error):
                return False
            raise
    return True


_statements: dict[str, str] = {}


def _postgresql() -> str:
    if "postgresql" not in _statements:
        assignments = ", ".join(f"{column} = %s" for column in _columns())
        _statements["postgresql"] = f"""
WITH saved AS (
    UPDATE games_game SET {assignments}
    WHERE id = %s AND version = %s
    RETURNING id
)
INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
SELECT saved.id, e.seq, e.kind, e.payload, %s
FROM saved, jsonb_to_recordset(%s::jsonb) AS e(seq integer, kind text, payload jsonb)
"""
    return _statements["postgresql"]


def _sqlite() -> str:
    if "sqlite" not in _statements:
        columns = ["game_id", "expected_version", *_columns(), "created_at", "events"]
        _statements["sqlite"] = (
            f"INSERT INTO games_move ({', '.join(columns)}) "
            f"VALUES ({', '.join(['%s'] * len(columns))})"
        )
    return _statements["sqlite"]


def sqlite_view() -> str:
    """The SQLite view a move is inserted into (see the module's docstring)."""
    columns = ["game_id", "expected_version", *_columns(), "created_at", "events"]
    nulls = ", ".join(["NULL"] * len(columns))
    return f"CREATE VIEW games_move ({', '.join(columns)}) AS SELECT {nulls}"


def sqlite_trigger() -> str:
    """The SQLite trigger that saves a move inserted into the view, or aborts it as stale."""
    assignments = ", ".join(f"{column} = NEW.{column}" for column in _columns())
    return f"""CREATE TRIGGER games_move_insert INSTEAD OF INSERT ON games_move
BEGIN
    UPDATE games_game SET {assignments}
    WHERE id = NEW.game_id AND version = NEW.expected_version;
    SELECT RAISE(ABORT, 'stale') WHERE changes() = 0;
    INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
    SELECT NEW.game_id, json_extract(value, '$.seq'), json_extract(value, '$.kind'),
           json(json_extract(value, '$.payload')), NEW.created_at
    FROM json_each(NEW.events);
END"""


class Copies:
    """This process's copies of the games it saved last, by invite code, as of their version.

    A copy is what the command after it needs: the game's row, its seats and its room.
    It may be out of date (another process saved the game since): the command applied
    to it then fails to save (:func:`save_game`), and the game is read again. The
    ``size`` games saved most recently are kept.
    """

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self._copies: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()  # Several database threads share the copies.

    def get(self, code: str) -> Any:
        with self._lock:
            copy = self._copies.get(code)
            if copy is not None:
                self._copies.move_to_end(code)
            return copy

    def put(self, code: str, copy: Any) -> None:
        with self._lock:
            self._copies[code] = copy
            self._copies.move_to_end(code)
            while len(self._copies) > self.size:
                self._copies.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._copies.clear()
