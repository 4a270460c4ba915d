"""The two configurations the suite runs in, and the tests that read neither.

CI (``.ci/run``) runs the README's test command twice: on the embedded default (SQLite and
the in-memory channel layer), then with ``DATABASE_URL`` on PostgreSQL and ``REDIS_URL`` on
Redis. A test that reads neither the database nor the channel layer gives the same answer in
both, so the PostgreSQL + Redis pass leaves it to the default pass: the rules engine, the
room, the solver and the odds, the wire protocol, the names' look-alikes, the translations'
catalogues, and the settings (each case read in a fresh interpreter whose environment the
test chooses, ``DATABASE_URL`` and ``REDIS_URL`` included). So do the benchmarks' quick runs
that bring up databases of their own (``tests/test_benchmarks.py``).

What keeps the list honest: pytest-django refuses the database to a test that has not
asked for it, and :func:`check_reads_no_database` refuses to collect a test listed here that
asks for it. The engine and the solver import no Django at all (``test_architecture.py``).
"""

from __future__ import annotations

import os

import pytest

#: Whether this run is the PostgreSQL + Redis pass (both URLs set).
POSTGRES_AND_REDIS = bool(
    os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postgres")
)

#: The tests that read neither the database nor the channel layer, by path.
SAME_IN_EVERY_CONFIGURATION = (
    "tests/rules/",
    "tests/room/",
    "tests/strategy/",
    "tests/test_protocol.py",
    "tests/test_names.py",
    "tests/test_settings.py",
    "tests/test_translations.py",
)

#: Why the PostgreSQL + Redis pass skips them.
RAN_IN_THE_DEFAULT_PASS = (
    "the same in every configuration (it reads no database and no channel layer): "
    "the default pass runs it (tests/configurations.py)"
)

#: The fixtures that give a test the database.
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server_url"}


def same_in_every_configuration(item: pytest.Item) -> bool:
    """Whether ``item`` is one of :data:`SAME_IN_EVERY_CONFIGURATION`."""
    path = item.nodeid.split("::")[0]
    return path.startswith(SAME_IN_EVERY_CONFIGURATION)


def check_reads_no_database(item: pytest.Item) -> None:
    """Refuse to run a test listed as the same in every configuration that asks for the
    database: the list would be wrong, and the PostgreSQL pass would miss it."""
    asks = set(getattr(item, "fixturenames", ())) & DATABASE_FIXTURES
    if item.get_closest_marker("django_db") or asks:
        raise pytest.UsageError(
            f"{item.nodeid} reads the database ({sorted(asks) or 'django_db'}), but "
            "tests/configurations.py lists it as the same in every configuration"
        )
