"""The examples in the docstrings of the pure modules run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "games.engine.rules",
        "games.engine.codec",
        "games.engine.events",
        "games.engine.room",
        "games.engine.grid",
    ],
)
def test_doctests_pass(module: str) -> None:
    flags = doctest.IGNORE_EXCEPTION_DETAIL | doctest.ELLIPSIS
    failed, attempted = doctest.testmod(
        importlib.import_module(module), optionflags=flags, verbose=False
    )
    assert attempted > 0
    assert failed == 0
