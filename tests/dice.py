"""Dice the tests choose: set ``YAHTZEE_DICE = "tests.dice.scripted_roll"`` and load faces."""

from collections import deque

_faces: deque[int] = deque()


def load(*faces: int) -> None:
    """Queue faces for the next throws, in the order the server will take them."""
    _faces.extend(faces)


def clear() -> None:
    _faces.clear()


def remaining() -> int:
    return len(_faces)


def scripted_roll(count: int) -> list[int]:
    """The next ``count`` queued faces; a test that runs out has a wrong script."""
    if len(_faces) < count:
        raise AssertionError(f"the test's dice ran out: {count} needed, {len(_faces)} left")
    return [_faces.popleft() for _ in range(count)]
