"""Fixtures for the strategy tests: each preset's table, computed once per test run.

The tables are computed into the run's own cache directory (a few seconds each;
``pytest_configure`` in ``tests/conftest.py`` makes it), never into the project's
own cache, so every run checks a fresh computation, and the rest of the suite
(coach, analysis, bots) loads the same tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.rules import FREE_JOKER, OFFICIAL
from games.strategy import Strategy, load
from games.strategy.cache import cache_dir


@pytest.fixture(scope="session")
def strategy_cache() -> Path:
    """The cache directory shared by the whole run."""
    return cache_dir()


@pytest.fixture(scope="session")
def official(strategy_cache: Path) -> Strategy:
    """The solved official preset."""
    return load(OFFICIAL, cache_dir=strategy_cache)


@pytest.fixture(scope="session")
def free_joker(strategy_cache: Path) -> Strategy:
    """The solved free-Joker preset."""
    return load(FREE_JOKER, cache_dir=strategy_cache)


@pytest.fixture(params=["official", "free_joker"])
def strategy(request: pytest.FixtureRequest) -> Strategy:
    """Each solved preset in turn."""
    solved: Strategy = request.getfixturevalue(request.param)
    return solved
