"""The examples in the docstrings of games.rules run and hold."""

from __future__ import annotations

import doctest

import games.rules


def test_rules_doctests_pass() -> None:
    flags = doctest.IGNORE_EXCEPTION_DETAIL | doctest.ELLIPSIS
    failed, attempted = doctest.testmod(games.rules, optionflags=flags, verbose=False)
    assert attempted > 0
    assert failed == 0
