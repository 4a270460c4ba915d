"""Where the server's dice come from.

Every die the game uses is thrown here, on the server, with the operating
system's cryptographic random source. Tests put a fixed sequence of faces in
its place through the ``YAHTZEE_DICE`` setting (a dotted path to a function
like :func:`secure_roll`); nothing a client sends can choose it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.utils.module_loading import import_string

DiceSource = Callable[[int], list[int]]


def secure_roll(count: int) -> list[int]:
    """``count`` fair dice from ``secrets``, which no one can predict from earlier rolls."""
    return [secrets.randbelow(6) + 1 for _ in range(count)]


def roll(count: int) -> list[int]:
    """``count`` fresh dice from the configured source (:func:`secure_roll` unless a test says)."""
    source: DiceSource = import_string(
        getattr(settings, "YAHTZEE_DICE", "games.live.dice.secure_roll")
    )
    faces = source(count)
    if len(faces) != count or not all(type(f) is int and 1 <= f <= 6 for f in faces):
        raise RuntimeError(f"the dice source gave {faces!r} for {count} dice")
    return faces
