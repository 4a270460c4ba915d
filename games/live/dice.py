"""Where the server's dice come from.

Every die the game uses is thrown here, on the server, with the operating
system's cryptographic random source. Tests put a fixed sequence of faces in
its place through the ``YAHTZEE_DICE`` setting (a dotted path to a function
like :func:`secure_roll`); nothing a client sends can choose it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

from django.conf import settings
from django.utils.module_loading import import_string

DiceSource = Callable[[int], list[int]]


#: Random bytes at or above this are thrown away: 252 = 6 x 42, so each face is as likely.
_FAIR_BELOW = 252


def secure_roll(count: int) -> list[int]:
    """``count`` fair dice from the operating system's cryptographic source (as ``secrets``
    draws), which no one can predict from earlier rolls: one read for all of them (a
    read per die cost five system calls a roll)."""
    faces: list[int] = []
    while len(faces) < count:
        faces.extend(byte % 6 + 1 for byte in os.urandom(count) if byte < _FAIR_BELOW)
    return faces[:count]


@functools.cache
def _source(path: str) -> DiceSource:
    source: DiceSource = import_string(path)
    return source


def roll(count: int) -> list[int]:
    """``count`` fresh dice from the configured source (:func:`secure_roll` unless a test says)."""
    faces = _source(getattr(settings, "YAHTZEE_DICE", "games.live.dice.secure_roll"))(count)
    if len(faces) != count or not all(type(f) is int and 1 <= f <= 6 for f in faces):
        raise RuntimeError(f"the dice source gave {faces!r} for {count} dice")
    return faces
