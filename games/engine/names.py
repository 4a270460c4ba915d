"""Names people choose: display names at a table and account usernames.

Pure (no Django), so the rules for a name can be read and tested on their own.

A name is NFKC-normalised with its whitespace collapsed (:func:`normalise`), then
refused when a reader could not see what it says (:func:`check`): control, format
and invisible characters (Unicode's default-ignorable code points such as the
Hangul fillers U+3164, U+115F, U+1160 and U+FFA0), unassigned or private-use code
points, and names with no visible base character (combining marks only).

Two names *clash* when a reader could take one for the other (:func:`clash`):
their Unicode TR39 skeletons match, so "Ann" spelt with a Cyrillic capital A
(U+0410) clashes with "Ann", as do "ann" and "ANN" in Greek capitals. Marks drawn
through a letter (Unicode's overlay marks, combining class 1: the strokes and slashes
U+0334-U+0338, the vertical lines U+20D2-U+20D3, the rings U+20D8-U+20DA, ...) leave
the letter readable underneath, so the skeleton drops them: "A\u0336n\u0336n\u0336"
(struck through) clashes with "Ann". TR39 leaves them in; people read past them.

The skeleton is computed here from Unicode's own ``confusables.txt`` (TR39's data,
version 18.0.0, shipped unchanged in ``games/data/`` with its licence) rather than
from a package, because neither package on offer gives a TR39 skeleton:
``confusable-homoglyphs`` keeps a two-way list of look-alikes parsed from the
file's comments, which loses which character is the prototype (and wraps
right-to-left characters in direction marks), so it can say that a character has
look-alikes but not map two strings to one form; ``confusables`` (last released
in 2021, Unicode 13) offers candidate ASCII spellings, lowercased, not the
skeleton. The algorithm is a few lines (TR39 section 4), and updating the data
is replacing one file with Unicode's next release.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from pathlib import Path

# The data stays at the top of the app (games/data/, pyproject.toml ships it).
CONFUSABLES_FILE = Path(__file__).resolve().parent.parent / "data" / "confusables.txt"

#: Account names nobody may take, compared by :func:`clash` with separators
#: (``._-+@`` and spaces) removed: "Admin", "ADMIN", "admin" with a Cyrillic a
#: (U+0430) and "yahtzee_live" are all reserved. The bots' names are here so no account
#: passes for a bot.
RESERVED_USERNAMES = (
    "admin",
    "administrator",
    "root",
    "superuser",
    "staff",
    "support",
    "help",
    "moderator",
    "mod",
    "system",
    "server",
    "official",
    "yahtzee",
    "yahtzee live",
    "bot",
    "optimal bot",
    "casual bot",
    "anonymous",
    "guest",
)

#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): code points
#: that render as nothing. Python's unicodedata does not carry the property.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)

#: Visible-looking characters that draw a blank all the same.
BLANKS = frozenset("\u2800")  # BRAILLE PATTERN BLANK, a symbol with no dots.

#: Invisible characters that belong inside emoji (❤️, 👩‍💻): allowed after a symbol.
ZERO_WIDTH_JOINER = "\u200d"
EMOJI_SELECTORS = frozenset("\ufe0e\ufe0f")

_SEPARATORS = str.maketrans("", "", "._-+@ ")


class InvalidName(ValueError):
    """A name a reader could not see or read; the message says why, for the person, and
    :attr:`reason` names why, for a page that words it in its reader's language: one of
    ``empty``, ``control``, ``unassigned``, ``invisible``, ``no_letter``, ``combining_start``."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def normalise(name: str) -> str:
    """``name`` in NFKC with runs of whitespace made one space, and none at the ends.

    >>> normalise("  \uff22\uff4f\uff42\u3000 the\\tgreat ")  # Fullwidth letters
    'Bob the great'
    """
    return " ".join(unicodedata.normalize("NFKC", name).split())


def check(name: str) -> str:
    """``name`` normalised, or :class:`InvalidName` when it cannot be seen or read.

    >>> check("  Ann ")
    'Ann'
    >>> check("\u3164")  # HANGUL FILLER, a letter that draws nothing
    Traceback (most recent call last):
    ...
    games.engine.names.InvalidName: a name cannot hold invisible characters
    """
    name = normalise(name)
    if not name:
        raise InvalidName("choose a name", "empty")
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if category == "Cc":
            raise InvalidName("a name cannot hold control characters", "control")
        if category in ("Cn", "Co", "Cs"):
            raise InvalidName(
                "a name cannot hold unassigned or private-use characters", "unassigned"
            )
        if (is_invisible(char) or category == "Cf") and not _inside_emoji(name, index):
            raise InvalidName("a name cannot hold invisible characters", "invisible")
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise InvalidName("a name needs a letter, digit or symbol", "no_letter")
    if unicodedata.category(name[0]).startswith("M"):
        raise InvalidName("a name cannot start with a combining mark", "combining_start")
    return name


def is_invisible(char: str) -> bool:
    """Whether the character draws nothing: a default-ignorable code point, or a blank."""
    code = ord(char)
    return char in BLANKS or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text``: equal for strings that look alike.

    Only for comparing: the skeleton mixes scripts and is no name to show.

    >>> skeleton("\u0410nn") == skeleton("Ann")  # CYRILLIC CAPITAL LETTER A
    True
    >>> skeleton("A\u0336nn")  # COMBINING LONG STROKE OVERLAY
    'Ann'
    """
    prototypes = _prototypes()
    text = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(char, char) for char in text if not _unseen(char))
    return "".join(char for char in unicodedata.normalize("NFD", mapped) if not _overlay(char))


@functools.lru_cache(maxsize=16_384)
def clash_keys(name: str) -> frozenset[str]:
    """The forms compared by :func:`clash`: the skeleton of each casing, folded.

    Every casing is needed, as a name is the same name in any case and the
    skeleton depends on case: a capital I becomes an l, so "ALICE" (which is
    "alice") looks like "ALlCE"; a Cyrillic capital VE looks like B, but its
    small letter looks like nothing Latin.

    Kept once worked out (the last 16,384 names): a room's names are compared again
    at every join, and a crowd's default names ("Watcher 12") are the same in every room.
    """
    name = normalise(name)
    casings = (name, name.lower(), name.upper(), name.casefold())
    return frozenset(skeleton(casing).casefold() for casing in casings)


def clash(first: str, second: str) -> bool:
    """Whether a reader could take one name for the other, ignoring case.

    >>> clash("Ann", "\u0410NN")  # CYRILLIC CAPITAL LETTER A
    True
    >>> clash("Ann", "Anna")
    False
    """
    return not clash_keys(first).isdisjoint(clash_keys(second))


#: A watcher's name until it chooses one (``Watcher N``): the first number free in the
#: room (:func:`games.live.watchers.watcher_name`).
WATCHER_NAME = "Watcher {}"


def watcher_name(number: int) -> str:
    """The default name of the watcher given ``number``.

    >>> watcher_name(12)
    'Watcher 12'
    """
    return WATCHER_NAME.format(number)


def watcher_number(name: str) -> int | None:
    """The N of ``name`` when it is a default name ``Watcher N`` as :func:`watcher_name`
    writes it, else ``None``.

    >>> watcher_number("Watcher 12"), watcher_number("Watcher 012"), watcher_number("Sam")
    (12, None, None)
    """
    digits = name.removeprefix(WATCHER_NAME.format(""))
    if digits == name or not (digits.isascii() and digits.isdigit()) or digits[0] == "0":
        return None
    return int(digits)


def keys_of(taken: Iterable[str]) -> set[str]:
    """Every clash key of the names ``taken``: a name clashes with one of them exactly when
    its own keys meet these (:func:`is_free`), so many names are tried in one pass.

    >>> is_free("Ann", keys_of(["Bob", "\u0410NN"]))
    False
    """
    keys: set[str] = set()
    for name in taken:
        keys.update(clash_keys(name))
    return keys


def is_free(name: str, taken_keys: set[str]) -> bool:
    """Whether ``name`` clashes with none of the names whose keys are ``taken_keys``."""
    return taken_keys.isdisjoint(clash_keys(name))


def is_reserved(username: str) -> bool:
    """Whether ``username`` is, or looks like, one of :data:`RESERVED_USERNAMES`.

    >>> is_reserved("Yahtzee_Live"), is_reserved("annie")
    (True, False)
    """
    keys = clash_keys(normalise(username).translate(_SEPARATORS))
    return any(not keys.isdisjoint(key) for key in _reserved_keys())


def _inside_emoji(name: str, index: int) -> bool:
    """Whether ``name[index]`` is a joiner or a presentation selector within an emoji."""
    char = name[index]
    after_symbol = index > 0 and unicodedata.category(name[index - 1]) in ("So", "Sk")
    if char in EMOJI_SELECTORS:
        return after_symbol
    if char == ZERO_WIDTH_JOINER:
        before = name[index - 1] if index > 0 else ""
        follows = name[index + 1] if index + 1 < len(name) else ""
        joins = after_symbol or before in EMOJI_SELECTORS
        return joins and follows != "" and unicodedata.category(follows) == "So"
    return False


def _ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


#: Unicode's canonical combining class of the marks drawn over or through a letter.
OVERLAY = 1


def _overlay(char: str) -> bool:
    return unicodedata.combining(char) == OVERLAY


def _unseen(char: str) -> bool:
    """Whether the skeleton drops ``char``: it draws nothing, or draws through a letter."""
    return _ignorable(char) or _overlay(char)


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as {character: its prototype}; read once, when first needed."""
    prototypes = {}
    with CONFUSABLES_FILE.open(encoding="utf-8-sig") as lines:
        for line in lines:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            source, prototype, *_ = (field.strip() for field in data.split(";"))
            prototypes[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return prototypes


@functools.cache
def _reserved_keys() -> tuple[frozenset[str], ...]:
    return tuple(clash_keys(word.translate(_SEPARATORS)) for word in RESERVED_USERNAMES)
