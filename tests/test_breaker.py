"""The database's circuit breaker (``yahtzee_site/db``): its states on an injected clock,
and the PostgreSQL backend behind it, against a port where no PostgreSQL listens.

The outage for real (a private PostgreSQL stopped and started) is in
``tests/faults/test_faults.py::test_postgres_away_refuses_commands_at_once``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import OperationalError, connections
from django.db.utils import load_backend

from yahtzee_site.db import DatabaseAway
from yahtzee_site.db.breaker import Breaker, Refused, State
from yahtzee_site.db.postgresql import base


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def breaker(clock: Clock) -> Breaker:
    return Breaker(clock=clock, first_window=0.1, longest_window=1.0, probe_patience=5.0)


def test_closed_it_lets_every_attempt_through_and_none_is_a_probe(breaker: Breaker) -> None:
    assert [breaker.admit() for _ in range(3)] == [False, False, False]
    assert breaker.state is State.CLOSED
    assert breaker.retry_in() == 0.0


def test_a_failure_opens_it_and_attempts_are_refused_until_the_window_passes(
    breaker: Breaker, clock: Clock
) -> None:
    breaker.failed(probe=False)

    assert breaker.state is State.OPEN
    with pytest.raises(Refused) as refused:
        breaker.admit()
    assert refused.value.retry_in == pytest.approx(0.1)
    clock.advance(0.06)
    with pytest.raises(Refused) as refused:
        breaker.admit()
    assert refused.value.retry_in == pytest.approx(0.04)
    assert breaker.retry_in() == pytest.approx(0.04)


def test_once_the_window_passes_one_attempt_probes_and_the_others_are_refused(
    breaker: Breaker, clock: Clock
) -> None:
    breaker.failed(probe=False)
    clock.advance(0.1)

    assert breaker.admit() is True
    assert breaker.state is State.HALF_OPEN
    for _ in range(3):
        with pytest.raises(Refused) as refused:
            breaker.admit()
        assert refused.value.retry_in == 0.0  # The probe is on its way.


def test_a_probe_that_connects_closes_it(breaker: Breaker, clock: Clock) -> None:
    breaker.failed(probe=False)
    clock.advance(0.1)
    assert breaker.admit() is True

    breaker.succeeded()

    assert breaker.state is State.CLOSED
    assert breaker.failures == 0
    assert breaker.admit() is False


def test_each_failed_probe_doubles_the_window_up_to_the_longest(
    breaker: Breaker, clock: Clock
) -> None:
    breaker.failed(probe=False)
    windows = [breaker.window]
    for _ in range(6):
        clock.advance(breaker.window)
        assert breaker.admit() is True
        breaker.failed(probe=True)
        windows.append(breaker.window)

    assert windows == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0])
    assert breaker.failures == 7
    # And after the database is back, the next outage starts from the first window again.
    clock.advance(1.0)
    assert breaker.admit() is True
    breaker.succeeded()
    breaker.failed(probe=False)
    assert breaker.window == pytest.approx(0.1)


def test_failures_of_attempts_let_through_before_it_opened_do_not_grow_the_window(
    breaker: Breaker, clock: Clock
) -> None:
    # Three attempts go while it is closed; all three fail.
    assert [breaker.admit() for _ in range(3)] == [False, False, False]
    for _ in range(3):
        breaker.failed(probe=False)

    assert breaker.window == pytest.approx(0.1)
    assert breaker.failures == 1
    assert breaker.retry_in() == pytest.approx(0.1)


def test_a_probe_that_never_reports_is_given_up_on_and_another_goes(
    breaker: Breaker, clock: Clock
) -> None:
    breaker.failed(probe=False)
    clock.advance(0.1)
    assert breaker.admit() is True  # This probe's thread is stuck for good.

    clock.advance(4.9)
    with pytest.raises(Refused):
        breaker.admit()
    clock.advance(0.1)
    assert breaker.admit() is True


def test_one_probe_among_threads_racing_for_it(breaker: Breaker, clock: Clock) -> None:
    breaker.failed(probe=False)
    clock.advance(0.1)
    probes: list[bool] = []
    refused: list[Refused] = []
    start = threading.Barrier(8)

    def attempt() -> None:
        start.wait()
        try:
            probes.append(breaker.admit())
        except Refused as error:
            refused.append(error)

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert probes == [True]
    assert len(refused) == 7


# -- the backend ---------------------------------------------------------------------


@pytest.fixture
def nowhere() -> Iterator[int]:
    """A port on which nothing listens (held bound, not listening, for the test)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.fixture
def fresh_breaker(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> Breaker:
    fresh = Breaker(clock=clock)
    monkeypatch.setattr(base, "BREAKER", fresh)
    # Each connection asks its class's circuit (the process's breaker unless a test swaps it).
    monkeypatch.setattr(base.DatabaseWrapper, "circuit", fresh)
    return fresh


def wrapper_for(port: int) -> base.DatabaseWrapper:
    settings_dict = dict(connections.settings["default"])
    settings_dict.update(
        ENGINE="yahtzee_site.db.postgresql",
        NAME="yahtzee",
        USER="postgres",
        HOST="127.0.0.1",
        PORT=str(port),
        OPTIONS={"connect_timeout": 2},
        CONN_HEALTH_CHECKS=False,
    )
    wrapper = load_backend("yahtzee_site.db.postgresql").DatabaseWrapper(
        settings_dict, alias="breaker-test"
    )
    assert isinstance(wrapper, base.DatabaseWrapper)
    return wrapper


def test_the_backend_tries_once_then_refuses_without_trying(
    nowhere: int,
    fresh_breaker: Breaker,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    django_db_blocker: Any,
) -> None:
    django_db_blocker.unblock()  # Only a port where nothing listens is reached.
    wrapper = wrapper_for(nowhere)
    tried: list[int] = []
    connect = wrapper.Database.connect

    def counted(*args: object, **kwargs: object) -> object:
        tried.append(1)
        return connect(*args, **kwargs)

    monkeypatch.setattr(wrapper.Database, "connect", counted)
    # A probe reaches PostgreSQL directly, within its own time (base._connect_within).
    reach = base._connect_within

    def reached(*args: Any, **kwargs: Any) -> None:
        tried.append(1)
        reach(*args, **kwargs)

    monkeypatch.setattr(base, "_connect_within", reached)

    with pytest.raises(OperationalError) as first:
        wrapper.ensure_connection()
    assert not isinstance(first.value, DatabaseAway)  # Tried: the connection was refused.
    assert fresh_breaker.state is State.OPEN
    for _ in range(5):
        with pytest.raises(DatabaseAway) as refused:
            wrapper.ensure_connection()
        assert refused.value.retry_in == pytest.approx(0.1)
    assert len(tried) == 1

    clock.advance(0.1)  # The window has passed: one probe, refused too; a longer window.
    with pytest.raises(OperationalError) as probed:
        wrapper.ensure_connection()
    assert not isinstance(probed.value, DatabaseAway)
    assert len(tried) == 2
    assert fresh_breaker.window == pytest.approx(0.2)


@pytest.mark.django_db
def test_the_backend_closes_the_breaker_once_the_database_answers(
    fresh_breaker: Breaker, clock: Clock
) -> None:
    """The PostgreSQL pass: after an outage, the probe finds the database, the pool is
    asked, and the breaker closes."""
    settings_dict = connections["default"].settings_dict
    if settings_dict["ENGINE"] != "yahtzee_site.db.postgresql":
        pytest.skip("the PostgreSQL pass checks a database that answers")
    fresh_breaker.failed(probe=False)
    clock.advance(0.1)
    # The test database, through a pool of its own (the test's alias).
    wrapper = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(
        dict(settings_dict), alias="breaker-test"
    )
    try:
        with wrapper.cursor() as cursor:  # The probe: it connects, and so does the pool.
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
    finally:
        wrapper.close()
        wrapper.close_pool()

    assert fresh_breaker.state is State.CLOSED
