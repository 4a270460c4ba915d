"""Reading gettext catalogs (.po) without gettext's tools, for tests/test_translations.py.

A .po file is a list of entries separated by blank lines: comments (``#, fuzzy`` marks a
guess nobody checked), ``msgctxt``, ``msgid``, ``msgid_plural`` and ``msgstr`` or
``msgstr[n]``, each a string in C quotes that may go on over several lines. This reads
exactly that (and ``#~`` obsolete entries, skipped); it is not a general parser.
"""

from __future__ import annotations

import ast
import re
import struct
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


def plural_forms(path: Path) -> int:
    """How many plural forms the catalog at ``path`` declares (its header's ``nplurals``)."""
    found = re.search(r"nplurals=\s*(\d+)", path.read_text(encoding="utf-8"))
    return int(found.group(1)) if found else 2


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


def write_mo(path: Path, messages: dict[str, str | list[str]], plural_forms: str) -> None:
    """A compiled catalog (GNU .mo) of ``messages`` at ``path``, as msgfmt writes one, for
    tests that need a catalog of their own without gettext's tools. A plural message is
    keyed by its singular, and its value is its forms; context goes in the key as
    ``context\\x04message``. English plurals are not known here, so a plural key's own
    plural is written as the singular followed by "s" (only the key's first part is looked up)."""
    header = f"Content-Type: text/plain; charset=UTF-8\nPlural-Forms: {plural_forms}\n"
    table: dict[bytes, bytes] = {b"": header.encode()}
    for key, value in messages.items():
        if isinstance(value, list):
            original = f"{key}\x00{key}s"
            table[original.encode()] = "\x00".join(value).encode()
        else:
            table[key.encode()] = value.encode()
    keys = sorted(table)
    start = 7 * 4 + 16 * len(keys)  # The header, then the two tables of (length, offset).
    originals, translations, blob = [], [], b""
    for key in keys:
        originals.append((len(key), start + len(blob)))
        blob += key + b"\x00"
    for key in keys:
        translations.append((len(table[key]), start + len(blob)))
        blob += table[key] + b"\x00"
    count = len(keys)
    head = struct.pack("<7I", 0x950412DE, 0, count, 28, 28 + 8 * count, 0, 0)
    pairs = b"".join(struct.pack("<2I", *pair) for pair in originals + translations)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(head + pairs + blob)
