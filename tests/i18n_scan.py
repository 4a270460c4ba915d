"""Finding words a person reads that do not go through the translation machinery.

Used by tests/test_translations.py. Nothing is rendered: a template is read with Django's
own lexer (the tokens its parser would see), and every piece of it that is not plain
text (a ``{{ variable }}``, a ``{% tag %}``, a comment) becomes an opaque mark, as does
the text inside ``{% blocktranslate %}`` and ``{% comment %}``. What is left is HTML whose
text nodes and read-aloud attributes (``aria-label``, ``title``, ``placeholder``, ``alt``,
a meta description's ``content``) are what a person reads untranslated; any of them with
a word in it (two letters or more) is reported, with its line.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

#: Replaces every piece of a template that is not plain text outside a translation.
MARK = "\x00"
#: Text a person reads: a word of two letters or more (any alphabet).
WORD = re.compile(r"[^\W\d_]{2,}")
#: Attributes whose values are read (or read aloud) as text.
READ_ATTRIBUTES = frozenset({"aria-label", "title", "placeholder", "alt", "aria-roledescription"})
#: Elements whose content is not prose: code, keys, scripts, styles, SVG drawings.
NOT_PROSE = frozenset({"code", "kbd", "script", "style", "svg", "pre"})
#: Names, not words: left as they are in every language (the brand, the rules' example players).
NOT_TRANSLATED = frozenset({"Yahtzee Live", "Yahtzee", "Live", "Ann", "Ben", "Cy"})


def plain_text(source: str) -> str:
    """``source`` with everything but the text outside translations replaced by marks."""
    pieces = []
    skipping: str | None = None  # The tag that closes the block being skipped.
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.split_contents()[0]
            bits = token.split_contents()
            if skipping is None and name in ("blocktranslate", "blocktrans", "comment"):
                skipping = "end" + name
            elif skipping is None and bits[1:2] == ["body_class"]:
                skipping = "endblock"  # A class name, not text.
            elif name == skipping:
                skipping = None
            pieces.append(f" {MARK} ")  # Spaced: a tag inside an HTML tag stays parseable.
        elif token.token_type == TokenType.TEXT and skipping is None:
            pieces.append(token.contents)
        else:  # A variable, a comment, or text being skipped; its lines are kept.
            pieces.append(MARK + "\n" * token.contents.count("\n"))
    return "".join(pieces)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
            self.inside.append(tag)
        named = dict(attrs)
        read = [v for k, v in attrs if k in READ_ATTRIBUTES]
        if tag == "meta" and named.get("name") == "description":
            read.append(named.get("content"))
        for value in read:
            self._check(value or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.inside:
            while self.inside and self.inside.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not NOT_PROSE & set(self.inside):
            self._check(data)

    def _check(self, text: str) -> None:
        for part in text.split(MARK):
            words = " ".join(part.split()).strip(" ·|-\N{EN DASH}\N{EM DASH}:,()")
            if WORD.search(words) and words not in NOT_TRANSLATED:
                self.found.append((self.getpos()[0], words))


def untranslated(path: Path) -> list[tuple[int, str]]:
    """The (line, text) of every text in the template at ``path`` that a person reads and
    no translation tag wraps."""
    reader = _Reader()
    reader.feed(plain_text(path.read_text()))
    reader.close()
    return reader.found
