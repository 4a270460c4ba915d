"""Saving a move in one statement, and this process's copies of the games it played.

A roll or a score changes one game's row and appends its events. Done with the
ORM inside a transaction that is six statements (BEGIN, lock the row, read the
seats, update the row, insert the events, COMMIT). Here it is one, sent in
autocommit mode, that does both or neither, and only if the game's ``version``
is still the one the move was made on:

- on PostgreSQL a data-modifying ``WITH``: the ``UPDATE ... WHERE version = %s``
  feeds the ``INSERT`` of the events, so with a version that moved on, nothing
  is updated and no event is inserted;
- on SQLite, which has no such ``WITH``, an ``INSERT`` into the view
  ``games_move`` whose ``INSTEAD OF`` trigger (migrations 0007 and 0008) updates the row
  at that version, aborts the whole statement if no row matched, and inserts
  the events.

The version is the lock: two processes that made a move on the same version
cannot both save it, and the one that loses reads the game again. So a move
needs no row lock and no read when this process's copy of the game
(:class:`Copies`) is current: one statement in all; two when the game must be
read first. (On PostgreSQL the connection pool also checks each connection it
lends, with ``CONN_HEALTH_CHECKS``: one more round trip per command that
reaches the server by a websocket, which Django does not count as a statement.)
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, OperationalError, connection

if TYPE_CHECKING:
    from games.models import Game


def save_move(
    game: Game,
    expected_version: int,
    rows: Sequence[tuple[int, str, Any]],
    created_at: datetime,
) -> bool:
    """Save ``game``'s row and append ``rows`` (seq, kind, payload), which happened at
    ``created_at``, if its version is still ``expected_version``; whether it was.

    ``game`` carries the new record, versions, status, times, clock and attendance.
    Everything is one statement: saved whole, or not at all.
    """
    ops = connection.ops
    now = ops.adapt_datetimefield_value(created_at)
    events = json.dumps([{"seq": s, "kind": k, "payload": p} for s, k, p in rows])
    row: list[Any] = [
        json.dumps(game.record),
        game.version,
        game.state_version,
        game.status,
        ops.adapt_datetimefield_value(game.started_at),
        ops.adapt_datetimefield_value(game.finished_at),
        game.coach,
        ops.adapt_datetimefield_value(game.deadline),
        ops.adapt_datetimefield_value(game.wake_at),
        ops.adapt_datetimefield_value(game.acted_at),
        json.dumps(game.attendance),
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_POSTGRESQL, [*row, game.pk, expected_version, now, events])
            saved: int = cursor.rowcount
            return saved == len(rows)
        try:
            cursor.execute(_SQLITE, [game.pk, expected_version, *row, now, events])
        except IntegrityError as error:
            if "stale" in str(error):
                return False
            raise
        except OperationalError as error:  # Another process wrote since this statement began.
            if "locked" in str(error):
                return False
            raise
    return True


_POSTGRESQL = """
WITH moved AS (
    UPDATE games_game
    SET record = %s::jsonb, version = %s, state_version = %s, status = %s,
        started_at = %s, finished_at = %s, coach = %s,
        deadline = %s, wake_at = %s, acted_at = %s, attendance = %s::jsonb
    WHERE id = %s AND version = %s
    RETURNING id
)
INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
SELECT moved.id, e.seq, e.kind, e.payload, %s
FROM moved, jsonb_to_recordset(%s::jsonb) AS e(seq integer, kind text, payload jsonb)
"""

_SQLITE = """
INSERT INTO games_move (
    game_id, expected_version, record, version, state_version, status,
    started_at, finished_at, coach, deadline, wake_at, acted_at, attendance,
    created_at, events
) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
"""

#: Migration 0008 creates these on SQLite (see the module docstring).
SQLITE_VIEW = """
CREATE VIEW games_move (
    game_id, expected_version, record, version, state_version, status,
    started_at, finished_at, coach, deadline, wake_at, acted_at, attendance,
    created_at, events
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL
"""
SQLITE_TRIGGER = """
CREATE TRIGGER games_move_insert INSTEAD OF INSERT ON games_move
BEGIN
    UPDATE games_game
    SET record = NEW.record, version = NEW.version, state_version = NEW.state_version,
        status = NEW.status, started_at = NEW.started_at, finished_at = NEW.finished_at,
        coach = NEW.coach, deadline = NEW.deadline, wake_at = NEW.wake_at,
        acted_at = NEW.acted_at, attendance = NEW.attendance
    WHERE id = NEW.game_id AND version = NEW.expected_version;
    SELECT RAISE(ABORT, 'stale') WHERE changes() = 0;
    INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
    SELECT NEW.game_id, json_extract(value, '$.seq'), json_extract(value, '$.kind'),
           json(json_extract(value, '$.payload')), NEW.created_at
    FROM json_each(NEW.events);
END
"""


class Copies:
    """This process's copies of the games it moved last, by invite code, as of their version.

    A copy is what the move after it needs: the game's row, its seats and its
    record. It may be out of date (another process moved the game since): the
    move made on it then fails to save (:func:`save_move`), and the game is read
    again. The ``size`` games moved most recently are kept.
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
