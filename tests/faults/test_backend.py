"""The first command of a PostgreSQL outage is answered by the breaker's backend without
waiting out the pool (``yahtzee_site/db/postgresql/base.py``).

A private PostgreSQL (``stack.PrivatePostgres``), and a connection to it configured as the
site configures its own (``settings.POSTGRES_OPTIONS``), with a breaker of its own so the
test process's other connections are not touched. Each test says which path answered,
by what it raised, not by how long it took; the times are printed.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import dj_database_url
import psycopg
import pytest
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import ConnectionHandler

from tests.faults import stack
from yahtzee_site.db import DatabaseAway, breaker
from yahtzee_site.db.postgresql.base import PoolBusy
from yahtzee_site.settings import POSTGRES_OPTIONS

pytestmark = [pytest.mark.xdist_group("faults"), pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def postgres() -> Iterator[stack.PrivatePostgres]:
    if stack.postgres_bin() is None:
        pytest.skip("no PostgreSQL server binaries under /usr/lib/postgresql")
    server = stack.PrivatePostgres(stack.free_ports(1)[0])
    try:
        server.start()
        server.create_database()
        yield server
    finally:
        server.remove()


@pytest.fixture
def database(
    postgres: stack.PrivatePostgres, django_db_blocker: Any
) -> Iterator[BaseDatabaseWrapper]:
    """A connection to the private server, as the site's, with a breaker of its own; the
    server running again afterwards. (Outside the site's connections: pytest-django's
    block on the test database does not concern it.)"""
    handler = ConnectionHandler(
        {
            "default": {
                **dj_database_url.parse(postgres.url),
                "ENGINE": "yahtzee_site.db.postgresql",
                "CONN_HEALTH_CHECKS": False,
                "OPTIONS": POSTGRES_OPTIONS,
            }
        }
    )
    wrapper = handler["default"]
    wrapper.circuit = breaker.Breaker()  # type: ignore[attr-defined]
    with django_db_blocker.unblock(), contextlib.ExitStack() as cleanup:
        cleanup.callback(postgres.start_if_stopped)
        cleanup.callback(postgres.thaw)
        cleanup.callback(wrapper.close_pool)
        cleanup.callback(wrapper.close)
        command(wrapper)  # The pool open, with idle connections.
        yield wrapper


def command(database: BaseDatabaseWrapper) -> None:
    """What a websocket command does with the database: a connection, a query, and the
    connection back to the pool."""
    try:
        with database.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        database.close()


def timed(action: Callable[[], Any]) -> tuple[BaseException | None, float]:
    started = time.monotonic()
    try:
        action()
    except Exception as raised:
        return raised, time.monotonic() - started
    return None, time.monotonic() - started


def every_connection_taken(database: BaseDatabaseWrapper) -> list[Any]:
    """Take every connection the pool may open, as a burst of requests would."""
    pool = database.pool  # type: ignore[attr-defined]
    return [pool.getconn(timeout=10) for _ in range(pool.max_size)]


def test_it_answers_the_first_command_of_a_crash_without_waiting_for_the_pool(
    database: BaseDatabaseWrapper, postgres: stack.PrivatePostgres
) -> None:
    """No connection free when PostgreSQL crashes: the pool, trying to open one, would keep
    the command waiting its whole timeout. PostgreSQL itself is asked, and refuses."""
    taken = every_connection_taken(database)
    postgres.stop("immediate")

    first, took = timed(lambda: command(database))
    print(f"\nthe first command of a crash, no connection free: answered in {took:.3f} s")
    assert isinstance(first, OperationalError)
    assert isinstance(first.__cause__, psycopg.OperationalError)
    assert "refused" in str(first), "answered by the pool's timeout, not by PostgreSQL"
    assert isinstance(timed(lambda: command(database))[0], DatabaseAway)
    for connection in taken:
        database.pool.putconn(connection)  # type: ignore[attr-defined]


def test_it_answers_the_first_command_of_a_hang_without_waiting_for_the_socket(
    database: BaseDatabaseWrapper, postgres: stack.PrivatePostgres
) -> None:
    """PostgreSQL frozen: a pooled connection's check is never answered, and a new
    connection is accepted by the kernel but never answered either. Before, the check
    waited for ever."""
    postgres.freeze()

    first, took = timed(lambda: command(database))
    print(f"\nthe first command of a hang: answered in {took:.3f} s")
    assert isinstance(first, OperationalError)
    assert isinstance(first.__cause__, psycopg.errors.ConnectionTimeout)
    assert isinstance(timed(lambda: command(database))[0], DatabaseAway)

    postgres.thaw()
    while isinstance(error := timed(lambda: command(database))[0], DatabaseAway):
        time.sleep(error.retry_in)  # The window of the breaker: then the probe goes.
    assert error is None


def test_a_busy_pool_is_waited_for_and_does_not_open_the_breaker(
    database: BaseDatabaseWrapper,
) -> None:
    """Every connection in use while PostgreSQL answers: a burst, not an outage. The command
    waits for the pool's patience, then fails as busy, and the next one goes through."""
    taken = every_connection_taken(database)

    busy, took = timed(lambda: command(database))
    print(f"\na command while every connection is taken: refused as busy after {took:.3f} s")
    assert isinstance(busy, OperationalError)
    assert isinstance(busy.__cause__, PoolBusy)
    assert database.circuit.state is breaker.State.CLOSED  # type: ignore[attr-defined]

    for connection in taken:
        database.pool.putconn(connection)  # type: ignore[attr-defined]
    assert timed(lambda: command(database))[0] is None


def test_freezing_and_thawing_spare_a_backend_that_has_just_exited(
    postgres: stack.PrivatePostgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backend may exit between being listed and being signalled (the pool closing its
    connections, as each test's cleanup does right before it thaws the server): that is
    no error, and the rest of the cluster is still frozen and thawed."""
    exited = subprocess.Popen(["true"])
    exited.wait()
    listed = postgres._processes
    monkeypatch.setattr(postgres, "_processes", lambda: [*listed(), exited.pid])

    postgres.freeze()
    postgres.thaw()

    assert postgres.query("SELECT 1") == "1"
