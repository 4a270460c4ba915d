"""Django's PostgreSQL backend, with a circuit breaker in front of every new connection.

Every connection Django opens, for a request, a websocket command or the clock's
watch, goes through :meth:`DatabaseWrapper.get_new_connection` (with the pool, Django
"opens" a connection by taking one from it). The process's one :data:`BREAKER`
(:mod:`yahtzee_site.db.breaker`) decides first:

- closed, the connection is taken as Django takes it, and checked with one round trip
  (the pool's own check is off: on a broken connection it sleeps a second before trying
  the next, for up to its 3 s timeout). A broken one (PostgreSQL restarted under it) is
  handed back, and the database is reached for directly: away, the breaker opens at
  once; there, the pool drops its other broken connections and a good one is taken.
- open, :class:`~yahtzee_site.db.DatabaseAway` is raised at once, without trying;
- when its window has passed, one attempt is the probe: it connects directly, with a
  short timeout (a refused connection answers in a millisecond), and only once that
  works is the pool asked, after it has dropped the connections the outage broke.

A connection that breaks in use also opens the breaker, for its first short window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

from yahtzee_site.db import DatabaseAway, breaker

#: The process's breaker, shared by every thread's connections.
BREAKER: Final = breaker.Breaker()
#: Seconds the probe waits for PostgreSQL to accept its connection (libpq's least).
PROBE_CONNECT_TIMEOUT: Final = 1


class DatabaseWrapper(base.DatabaseWrapper):
    if TYPE_CHECKING:  # Django's, which django-stubs does not declare.
        pool: ConnectionPool[Any] | None

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        try:
            probe = BREAKER.admit()
        except breaker.Refused as refused:
            raise DatabaseAway(refused.retry_in) from None
        try:
            if probe:
                self._reach(conn_params)
            connection = super().get_new_connection(conn_params)
            if self.pool is not None and not _usable(connection):
                self.pool.putconn(connection)  # The pool discards it.
                self._reach(conn_params)
                connection = super().get_new_connection(conn_params)
        except Exception:
            BREAKER.failed(probe)
            raise
        BREAKER.succeeded()
        return connection

    def _reach(self, conn_params: dict[str, Any]) -> None:
        """Connect to PostgreSQL directly (not through the pool), or raise; then let the
        pool drop the connections an outage broke, so it hands out none of them."""
        params = {**conn_params, "connect_timeout": PROBE_CONNECT_TIMEOUT}
        psycopg.connect(**params).close()
        if self.pool is not None:
            self.pool.open()  # As Django opens it on first use; then nothing.
            self.pool.check()

    def close(self) -> None:
        if self.connection is not None and self.connection.broken:
            BREAKER.failed(probe=False)  # Broken in use: PostgreSQL may have gone.
        super().close()


def _usable(connection: Any) -> bool:
    """Whether ``connection`` answers: the pool's own check, one round trip."""
    try:
        ConnectionPool.check_connection(connection)
    except psycopg.Error:
        return False
    return True
