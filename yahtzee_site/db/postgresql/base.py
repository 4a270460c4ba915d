"""Django's PostgreSQL backend, with a circuit breaker in front of every new connection.

Every connection Django opens, for a request, a websocket command or the clock's
watch, goes through :meth:`DatabaseWrapper.get_new_connection` (with the pool, Django
"opens" a connection by taking one from it). The process's one :data:`BREAKER`
(:mod:`yahtzee_site.db.breaker`) decides first:

- closed, the connection is taken as Django takes it, and checked with one round trip
  that must come back within :data:`CHECK_WITHIN` (the pool's own check is off: on a
  broken connection it sleeps a second before trying the next, and it waits as long as
  the socket does, for ever when PostgreSQL hangs). A broken one (PostgreSQL restarted
  or frozen under it) is handed back, and the database is reached for directly: away,
  the breaker opens at once; there, the pool drops its other broken connections and a
  good one is taken.
- when the pool has no free connection within its ``timeout`` (0.25 s in settings:
  a glance), the database is reached for too: away, the breaker opens at once (the
  pool, trying to connect in the background, would have kept the command waiting its
  whole timeout); there, the pool is only busy, and the wait goes on up to
  :data:`POOL_PATIENCE`, the back-pressure of a burst.
- open, :class:`~yahtzee_site.db.DatabaseAway` is raised at once, without trying;
- when its window has passed, one attempt is the probe: it connects directly, and only
  once that works is the pool asked, after it has dropped the connections the outage
  broke.

Reaching the database directly is bounded by :data:`CONNECT_WITHIN`: libpq's and
psycopg's ``connect_timeout`` take no less than 2 s, so it is libpq's asynchronous
connect, waited for here. The first command of an outage, a crash or a hang, is thus
answered within :data:`CHECK_WITHIN` + :data:`CONNECT_WITHIN` at worst (0.8 s),
or the pool's glance + :data:`CONNECT_WITHIN` when no connection is free (0.75 s).

A connection that breaks in use also opens the breaker, for its first short window.
"""

from __future__ import annotations

import select
import time
from typing import TYPE_CHECKING, Any, Final

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from yahtzee_site.db import DatabaseAway, breaker

#: The process's breaker, shared by every thread's connections.
BREAKER: Final = breaker.Breaker()
#: Seconds a pooled connection is given to answer its check: an empty query's round trip
#: takes a millisecond, tens on a loaded machine. One that does not answer in time is
#: closed, and the database reached for directly.
CHECK_WITHIN: Final = 0.3
#: Seconds PostgreSQL is given to accept a direct connection that asks whether it is
#: there: a refused one fails in a millisecond, a live server's takes a few, a loaded
#: one's tens (a new backend process).
CONNECT_WITHIN: Final = 0.5
#: Seconds a command waits in all for a free connection while PostgreSQL answers.
POOL_PATIENCE: Final = 3.0
#: Keyword arguments of :meth:`psycopg.Connection.connect` that are not libpq's.
_NOT_CONNINFO: Final = {
    "autocommit",
    "context",
    "cursor_factory",
    "prepare_threshold",
    "row_factory",
}


class PoolBusy(PoolTimeout):
    """No connection came free in time while PostgreSQL answers: a burst, not an outage,
    so the breaker stays as it is (the command is answered ``unavailable`` all the same)."""

    def __init__(self, waited: float) -> None:
        super().__init__(f"no free connection in the pool after {waited:.1f} s")


class DatabaseWrapper(base.DatabaseWrapper):
    if TYPE_CHECKING:  # Django's, which django-stubs does not declare.
        pool: ConnectionPool[Any] | None

    #: The process's; a test gives its connection one of its own.
    circuit: breaker.Breaker = BREAKER

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        try:
            probe = self.circuit.admit()
        except breaker.Refused as refused:
            raise DatabaseAway(refused.retry_in) from None
        try:
            if probe:
                self._reach(conn_params)
            connection = self._take(conn_params)
        except PoolBusy:
            if probe:
                self.circuit.succeeded()  # It answered: only the pool is short.
            raise
        except Exception:
            self.circuit.failed(probe)
            raise
        self.circuit.succeeded()
        return connection

    def _take(self, conn_params: dict[str, Any]) -> Any:
        """A connection that answers: from the pool if there is one, or raise."""
        if self.pool is None:
            return super().get_new_connection(conn_params)
        patience = time.monotonic() + POOL_PATIENCE
        reached = False
        while True:
            try:
                connection = super().get_new_connection(conn_params)  # The pool's timeout.
            except PoolTimeout:
                # None free: the pool is busy, or cannot connect because PostgreSQL is away.
                if not reached:
                    self._reach(conn_params)
                    reached = True
                if self.circuit.retry_in() > 0:  # Found away meanwhile, by another thread.
                    raise
                if time.monotonic() >= patience:
                    raise PoolBusy(POOL_PATIENCE) from None
                continue
            if _answers(connection, CHECK_WITHIN):
                return connection
            connection.close()  # Broken or hung: the pool discards a closed connection.
            self.pool.putconn(connection)
            self._reach(conn_params)
            reached = True

    def _reach(self, conn_params: dict[str, Any]) -> None:
        """Connect to PostgreSQL directly (not through the pool) within
        :data:`CONNECT_WITHIN`, or raise; then let the pool drop the connections an outage
        broke, so it hands out none of them."""
        _connect_within(conn_params, CONNECT_WITHIN)
        if self.pool is not None:
            self.pool.open()  # As Django opens it on first use; then nothing.
            self.pool.check()

    def close(self) -> None:
        if self.connection is not None and self.connection.broken:
            self.circuit.failed(probe=False)  # Broken in use: PostgreSQL may have gone.
        super().close()


def _answers(connection: psycopg.Connection[Any], within: float) -> bool:
    """Whether ``connection`` answers an empty query within ``within`` seconds. If not, it
    is left in the middle of that query, good only for closing."""
    pgconn = connection.pgconn
    deadline = time.monotonic() + within
    try:
        pgconn.send_query(b"")
        while pgconn.flush():
            if not _wait(pgconn.socket, write=True, until=deadline):
                return False
        pgconn.consume_input()
        while pgconn.is_busy():
            if not _wait(pgconn.socket, write=False, until=deadline):
                return False
            pgconn.consume_input()
        while (result := pgconn.get_result()) is not None:
            if result.status != pq.ExecStatus.EMPTY_QUERY:
                return False
    except psycopg.Error:
        return False
    return True


def _connect_within(conn_params: dict[str, Any], within: float) -> None:
    """Open and close a connection to PostgreSQL, or raise
    :class:`psycopg.OperationalError` if it is refused or not made within ``within``
    seconds."""
    libpq = {k: v for k, v in conn_params.items() if k not in _NOT_CONNINFO and v is not None}
    deadline = time.monotonic() + within
    pgconn = pq.PGconn.connect_start(make_conninfo("", **libpq).encode())
    try:
        while True:
            bad = pgconn.status == pq.ConnStatus.BAD
            polling = pq.PollingStatus.FAILED if bad else pq.PollingStatus(pgconn.connect_poll())
            if polling == pq.PollingStatus.OK:
                return
            if polling == pq.PollingStatus.FAILED:
                message = pgconn.error_message.decode(errors="replace").strip()
                raise psycopg.OperationalError(f"connection failed: {message}")
            if not _wait(pgconn.socket, polling == pq.PollingStatus.WRITING, deadline):
                raise psycopg.errors.ConnectionTimeout(
                    f"PostgreSQL did not accept a connection within {within} s"
                )
    finally:
        pgconn.finish()


def _wait(fileno: int, write: bool, until: float) -> bool:
    """Wait until ``fileno`` is ready to read (or write); ``False`` if ``until`` came first."""
    remaining = until - time.monotonic()
    if remaining <= 0:
        return False
    ready = (
        select.select([], [fileno], [], remaining)
        if write
        else select.select([fileno], [], [], remaining)
    )
    return any(ready)
