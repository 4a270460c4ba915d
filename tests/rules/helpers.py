"""Small helpers shared by the rules tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from games.engine.rules import UPPER, Category, RuleError


def dice(text: str) -> tuple[int, ...]:
    """``"1 3 4 5 6"`` (or ``"13456"``) as a tuple of faces."""
    return tuple(int(ch) for ch in text if not ch.isspace())


def yahtzee_of(face: int) -> tuple[int, ...]:
    """Five dice showing ``face``."""
    return (face,) * 5


def upper_box(face: int) -> Category:
    """The upper box that counts ``face``: 1 is Ones."""
    return UPPER[face - 1]


@contextmanager
def raises_code(code: str, error: type[RuleError] = RuleError) -> Iterator[None]:
    """Expect a rule error of type ``error`` whose stable ``code`` is ``code``."""
    with pytest.raises(error) as caught:
        yield
    assert caught.value.code == code
