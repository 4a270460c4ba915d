"""Finding words a person reads in a page script (static/js/*.js) outside the translation
functions of static/js/i18n.js.

The script is split into tokens (comments, strings, template literals, regular expressions,
names and punctuation) by a small tokenizer that knows just enough of JavaScript for that;
nothing runs. A string is translated when it is an argument of ``gettext``, ``ngettext``,
``pgettext``, ``npgettext`` or ``interpolate`` (directly in that call's parentheses). Any
other string or template text that reads as words is reported: two words or more of
letters, or one capitalised word ("Roll", "Invite"), less the names the platform uses (key
names, header names) listed in :data:`NOT_WORDS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: The functions whose arguments are messages (static/js/i18n.js).
TRANSLATING = frozenset({"gettext", "ngettext", "pgettext", "npgettext", "interpolate"})
#: Capitalised words that are the platform's names, not words for people.
NOT_WORDS = frozenset(
    {
        "Enter", "Escape", "Space", "Home", "End", "ArrowLeft", "ArrowRight", "ArrowUp",
        "ArrowDown", "Tab", "Backspace", "Delete", "PageUp", "PageDown", "Content-Type",
        "Accept", "POST", "GET", "GMT", "UTC", "Yahtzee Live", "X-CSRFToken", "Notification",
        "Date", "Object", "Array", "Error", "Map", "Set", "JSON", "Intl",
    }
)  # fmt: skip
_SENTENCE = re.compile(r"[^\W\d_]{2,}\S*\s+\S*[^\W\d_]{2,}")
_CAPITALISED = re.compile(r"^[A-Z][a-z]{2,}[.!?…:]?$")
#: After these a "/" starts a regular expression, not a division.
_BEFORE_A_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "of", "in", ""}


@dataclass(frozen=True)
class Found:
    line: int
    text: str


#: CSS selectors and media queries: "#chart svg", "[data-seat]", "(hover: none)".
_SELECTOR = re.compile(r"^[#.\[(]|\[[\w-]+[\]=]")
#: A class attribute's names, one of them BEM's block__element or block--modifier:
#: "button button--small", "seat seat__name". Lowercase words alone could be a sentence.
_CLASS_NAME = r"[a-z][a-z0-9-]*(?:__[a-z0-9-]+)?(?:--[a-z0-9-]+)?"
_CLASS_LIST = re.compile(rf"^(?=.*(?:__|--)){_CLASS_NAME}(?: {_CLASS_NAME})*$")


def reads_as_words(text: str) -> bool:
    text = " ".join(text.split())
    if text in NOT_WORDS or _SELECTOR.search(text) or _CLASS_LIST.match(text):
        return False
    return bool(_SENTENCE.search(text) or _CAPITALISED.match(text))


def untranslated(source: str) -> list[Found]:
    """Every string of ``source`` that reads as words and is not a translation's argument."""
    found: list[Found] = []
    calls: list[str] = []  # For each open parenthesis, the name called ("" for none).
    previous = ""  # The last name or punctuation, to tell a regex from a division.
    i, line, size = 0, 1, len(source)

    def report(text: str, at_line: int) -> None:
        inside = calls[-1] if calls else ""
        if inside not in TRANSLATING and reads_as_words(text):
            found.append(Found(at_line, " ".join(text.split())))

    while i < size:
        char = source[i]
        if char == "\n":
            line += 1
            i += 1
        elif char.isspace():
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else size
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = size if end < 0 else end + 2
            line += source.count("\n", i, end)
            i = end
        elif char in "'\"":
            start, i = i, i + 1
            while i < size and source[i] != char:
                i += 2 if source[i] == "\\" else 1
            report(source[start + 1 : i], line)
            i += 1
            previous = "string"
        elif char == "`":
            i, line = _template(source, i + 1, line, report)
            previous = "string"
        elif char == "/" and previous in _BEFORE_A_REGEX:
            i += 1
            in_class = False
            while i < size and (source[i] != "/" or in_class) and source[i] != "\n":
                if source[i] == "\\":
                    i += 1
                elif source[i] == "[":
                    in_class = True
                elif source[i] == "]":
                    in_class = False
                i += 1
            i += 1
            while i < size and source[i].isalpha():  # Its flags.
                i += 1
            previous = "regex"
        elif char.isalnum() or char in "_$":
            match = re.compile(r"[\w$]+").match(source, i)
            assert match
            previous = match.group(0)
            i = match.end()
        else:
            if char == "(":
                calls.append(previous if re.fullmatch(r"[A-Za-z_$][\w$]*", previous) else "")
            elif char == ")" and calls:
                calls.pop()
            previous = char
            i += 1
    return found


def _template(source: str, i: int, line: int, report: object) -> tuple[int, int]:
    """Read a template literal from just after its backtick; report its text parts."""
    text, start_line = "", line
    while i < len(source) and source[i] != "`":
        if source[i] == "\\":
            text += source[i : i + 2]
            i += 2
            continue
        if source.startswith("${", i):
            depth, i = 1, i + 2
            text += " \x00 "
            while i < len(source) and depth:
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                line += source[i] == "\n"
                i += 1
            continue
        line += source[i] == "\n"
        text += source[i]
        i += 1
    # The text around the ${...} parts is one message: "Scored ${points} in ${box}".
    report(text.replace(" \x00 ", " "), start_line)  # type: ignore[operator]
    return i + 1, line


def untranslated_in(path: Path) -> list[Found]:
    return untranslated(path.read_text())
