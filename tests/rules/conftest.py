"""Fixtures for the rules tests."""

from __future__ import annotations

import pytest

from games.engine.rules import FREE_JOKER, OFFICIAL, Rules


@pytest.fixture(params=[OFFICIAL, FREE_JOKER], ids=["official", "free_joker"])
def rules(request: pytest.FixtureRequest) -> Rules:
    """Each preset in turn, for tests that hold under both."""
    return request.param
