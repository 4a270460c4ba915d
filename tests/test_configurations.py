"""The list of tests that are the same in every configuration refuses a test that reads the
database (:mod:`tests.configurations`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests import configurations


class Item:
    """What the check reads of a collected test."""

    def __init__(self, nodeid: str, fixtures: tuple[str, ...] = (), marker: str = "") -> None:
        self.nodeid, self.fixturenames, self.marker = nodeid, list(fixtures), marker

    def get_closest_marker(self, name: str) -> Any:
        return object() if name == self.marker else None


def test_the_engine_s_tests_are_the_same_in_every_configuration() -> None:
    assert configurations.same_in_every_configuration(Item("tests/rules/test_joker.py::test_x"))
    assert configurations.same_in_every_configuration(Item("tests/test_settings.py::test_x"))
    assert not configurations.same_in_every_configuration(Item("tests/server/test_live.py::t"))
    assert not configurations.same_in_every_configuration(Item("tests/test_settings_page.py::t"))


@pytest.mark.parametrize(
    "item",
    [
        Item("tests/rules/test_joker.py::test_x", fixtures=("db",)),
        Item("tests/strategy/test_odds.py::test_x", fixtures=("live_server_url", "page")),
        Item("tests/test_protocol.py::test_x", marker="django_db"),
    ],
    ids=["db", "live server", "django_db"],
)
def test_a_listed_test_that_reads_the_database_is_refused(item: Item) -> None:
    with pytest.raises(pytest.UsageError, match="reads the database"):
        configurations.check_reads_no_database(item)  # type: ignore[arg-type]


def test_a_listed_test_that_reads_nothing_passes() -> None:
    configurations.check_reads_no_database(Item("tests/rules/t.py::t", fixtures=("tmp_path",)))  # type: ignore[arg-type]
