"""Fixtures for the game server: dice the test chooses."""

from collections.abc import Iterator
from types import ModuleType

import pytest

from tests import dice


@pytest.fixture
def fixed_dice(settings) -> Iterator[ModuleType]:  # type: ignore[no-untyped-def]
    """The server's dice come from the test: ``fixed_dice.load(6, 6, 6, 6, 6)``."""
    settings.YAHTZEE_DICE = "tests.dice.scripted_roll"
    dice.clear()
    yield dice
    dice.clear()
