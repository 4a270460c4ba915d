"""Sentences in Python outside Django's translations: string literals with words people read.

The catalog test reads the gettext calls; a plain English f-string beside them (``f"{name}
rolled {dice}."``) is invisible to it. This reads a module's syntax tree instead and reports
every string literal (an f-string as a whole, its fields as ``{}``) that reads as words,
leaving out:

- docstrings (an attribute's too), types written as strings, and the arguments of the
  gettext functions (those are the catalog's messages);
- what a ``raise`` or an ``assert`` says (for developers, in the log: never on a page);
- markup: SVG and HTML tags, and ``name="value"`` attributes, are taken out before reading.

What is left reads as words when it holds a word of two letters or more beside another word
or a field, with a space or punctuation between ("Throw all", "{} rolled {}.", "at the
start"), a capital starting a word ("Round"), or a word set apart by a space to be glued to
others (" and ", "a bot"). A lone lowercase word ("keep", "chart__label", "clock_ran_out")
is a code, not a sentence: the analysis's kinds, CSS classes and JSON keys look like that;
so a lone English word glued to others without a space ("wins") goes unseen.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

#: The gettext functions: a literal inside one of their calls is a message of the catalog.
GETTEXT = frozenset(
    {
        "gettext", "gettext_lazy", "gettext_noop", "_", "ngettext", "ngettext_lazy",
        "pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy",
    }
)  # fmt: skip
_TAG = re.compile(r"<[^<>]*>|</?[\w-]+|/?>")
_ATTRIBUTE = re.compile(r"[\w:-]+=\"[^\"]*\"?|[\w:-]+=\"")
_WORD = r"[^\W\d_]{2,}"
_GAP = r"[\s,.:;!?'\N{RIGHT SINGLE QUOTATION MARK}()]+"
_PROSE = re.compile(
    rf"{_WORD}{_GAP}(?:{_WORD}|\{{\}})|\{{\}}{_GAP}{_WORD}|(?<![\w-])[A-Z][a-z]+\b"
    # A word set apart by a space, to be glued to others: " and ", "a bot".
    rf"|(?:^|\s)[^\W\d_]+\s|\s{_WORD}$"
)
_FIELD = "{}"


def _literal(node: ast.Constant | ast.JoinedStr) -> str:
    if isinstance(node, ast.Constant):
        return str(node.value)
    return "".join(
        str(part.value) if isinstance(part, ast.Constant) else _FIELD for part in node.values
    )


def reads_as_words(text: str) -> bool:
    """Whether ``text``, markup taken out, reads as words a person would read."""
    bare = _ATTRIBUTE.sub(" ", _TAG.sub(" ", text))
    return bool(_PROSE.search(bare))


def _left_out(tree: ast.AST) -> set[int]:
    """The ids of the nodes whose literals are no sentence to translate (see the module)."""
    skipped: set[int] = set()

    def skip(node: ast.AST) -> None:
        skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip(node)  # A docstring (of a module, a class, a function or an attribute).
        if isinstance(node, ast.AnnAssign) and getattr(node.annotation, "id", "") == "TypeAlias":
            skip(node)  # A type, written as a string.
        if isinstance(node, ast.Raise | ast.Assert):
            skip(node)
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in GETTEXT:
                skip(node)
        if isinstance(node, ast.JoinedStr):  # Read whole, not part by part.
            skipped.update(id(part) for part in node.values)
    return skipped


def untranslated(path: Path, allowed: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """Every string literal of ``path`` outside the translations that reads as words, as
    (line, text); ``allowed`` holds literals known not to be for people (a font's name)."""
    tree = ast.parse(path.read_text(), str(path))
    left_out = _left_out(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in left_out:
            continue
        if isinstance(node, ast.Constant) and not isinstance(node.value, str):
            continue
        if isinstance(node, ast.Constant | ast.JoinedStr):
            text = _literal(node)
            if text not in allowed and reads_as_words(text):
                found.append((node.lineno, text))
    return sorted(found)
