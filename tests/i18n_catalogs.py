"""Reading gettext catalogs (.po) without gettext's tools, for tests/test_translations.py.

A .po file is a list of entries separated by blank lines: comments (``#, fuzzy`` marks a
guess nobody checked), ``msgctxt``, ``msgid``, ``msgid_plural`` and ``msgstr`` or
``msgstr[n]``, each a string in C quotes that may go on over several lines. This reads
exactly that (and ``#~`` obsolete entries, skipped); it is not a general parser.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


@dataclass
class Entry:
    """One message of a catalog."""

    msgid: str = ""
    context: str | None = None
    plural: str | None = None
    #: The translation; a plural message has one per form, in order.
    strings: list[str] = field(default_factory=list)
    fuzzy: bool = False
    #: Where the message is used (``#:`` comments), for a failure to point at.
    locations: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        """As gettext keys it in a compiled catalog: ``context\\x04msgid``."""
        return self.msgid if self.context is None else f"{self.context}\x04{self.msgid}"

    @property
    def translated(self) -> bool:
        """Whether a person has translated it: not fuzzy, and no form left empty."""
        return not self.fuzzy and bool(self.strings) and all(self.strings)


def _unquote(text: str) -> str:
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def read_po(path: Path) -> list[Entry]:
    """The entries of the catalog at ``path``, its header (the empty msgid) left out."""
    entries: list[Entry] = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        entry, target = Entry(), None
        forms: dict[int, str] = {}
        seen = False
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#~"):
                continue
            if line.startswith("#,") and "fuzzy" in line:
                entry.fuzzy = True
            elif line.startswith("#:"):
                entry.locations.extend(line[2:].split())
            elif line.startswith('"') and target is not None:
                kind, index = target
                if kind == "msgstr":
                    forms[index] += _unquote(line)
                else:
                    setattr(entry, kind, (getattr(entry, kind) or "") + _unquote(line))
            elif match := _KEYWORD.match(line):
                keyword, index, text = match.groups()
                seen = True
                if keyword.startswith("msgstr"):
                    target = ("msgstr", int(index or 0))
                    forms[target[1]] = _unquote(text)
                else:
                    attribute = {"msgctxt": "context", "msgid_plural": "plural"}.get(
                        keyword, keyword
                    )
                    target = (attribute, 0)
                    setattr(entry, attribute, _unquote(text))
        entry.strings = [forms[i] for i in sorted(forms)]
        if seen and entry.msgid:
            entries.append(entry)
    return entries
