"""The translations: every message a person reads goes through Django's machinery, and every
catalog (locale/<language>/LC_MESSAGES/django.po) translates every one of them.

How the messages are found without gettext's tools (so the test runs anywhere):
- in templates, Django's own ``templatize`` (what ``makemessages`` hands to xgettext) turns
  every ``{% translate %}`` and ``{% blocktranslate %}`` into a gettext call, read here;
- in Python, the calls to ``gettext``, ``pgettext``, ``ngettext`` and their lazy forms
  (``_`` too) with literal arguments, read from the syntax tree;
- and the template text that is NOT in a translation tag is found by ``tests/i18n_scan.py``
  (Django's lexer, then the HTML's text nodes and read-aloud attributes): any word there is
  a sentence outside the machinery;
- in the Python modules that word the game (the review, the analysis, the chances, the
  charts), a plain f-string is invisible to the catalog: ``tests/i18n_python.py`` reads their
  syntax trees and finds every string literal outside a gettext call, a docstring, a
  ``raise`` or an ``assert`` that reads as words.
"""

from __future__ import annotations

import ast
import gettext
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation.template import templatize

from games.live import refusals
from games.web import charts
from tests.i18n_catalogs import Entry, plural_forms, read_po
from tests.i18n_python import untranslated as untranslated_in_python
from tests.i18n_scan import untranslated
from tests.i18n_scripts import untranslated as untranslated_in_a_script
from tests.i18n_scripts import untranslated_in

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SCRIPTS = ROOT / "static" / "js"
#: The Python that makes what people read: the app and the site, not the migrations.
PYTHON = sorted(
    path
    for folder in ("games", "yahtzee_site")
    for path in (ROOT / folder).rglob("*.py")
    if "migrations" not in path.parts
)

#: A message's identity in a catalog: (context, msgid, plural).
Key = tuple[str | None, str, str | None]

#: The gettext functions and where their arguments are: (context, singular, plural).
CALLS = {
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "_": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}


def _key(name: str, args: list[object]) -> Key | None:
    context, singular, plural = CALLS[name]
    texts = [args[i] if i is not None and i < len(args) else None for i in CALLS[name]]
    wanted = zip(texts, (context, singular, plural), strict=True)
    if not all(isinstance(text, str) for text, place in wanted if place is not None):
        return None  # A variable, not a literal: nothing to extract.
    return (texts[0], str(texts[1]), texts[2])  # type: ignore[return-value]


def python_messages(path: Path) -> Iterator[Key]:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in CALLS:
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            key = _key(name, args)
            if key is not None:
                yield key


_CALL = re.compile(r"\b(n?p?gettext)\(")


def template_messages(path: Path) -> Iterator[Key]:
    """The messages of a template, from Django's ``templatize`` (gettext calls among filler)."""
    code = templatize(path.read_text(), origin=str(path))
    for match in _CALL.finditer(code):
        # The call's arguments are string literals (and a count's name): parse up to the
        # first closing parenthesis that makes a whole expression.
        start = match.end() - 1
        for end in (m.end() for m in re.finditer(r"\)", code[start:])):
            try:
                call = ast.parse(match.group(1) + code[start : start + end], mode="eval").body
            except SyntaxError:
                continue
            assert isinstance(call, ast.Call)
            args = [a.value if isinstance(a, ast.Constant) else None for a in call.args]
            key = _key(match.group(1), args)
            if key is not None:
                yield key
            break


#: A JavaScript string literal in double or single quotes (what a message must be written as
#: in a page script: xgettext reads a template literal too, this does not).
_JS_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_JS_CALL = re.compile(rf"\b(n?p?gettext)\(\s*({_JS_STRING}(?:\s*,\s*{_JS_STRING})*)")


def _js_literal(text: str) -> str:
    if text.startswith("'"):
        text = '"' + text[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'
    value = json.loads(text)
    assert isinstance(value, str)
    return value


def script_messages(path: Path) -> Iterator[Key]:
    """The messages of a page script: its gettext calls' literal arguments (as xgettext,
    which ``makemessages -d djangojs`` runs, reads them)."""
    for match in _JS_CALL.finditer(path.read_text()):
        args: list[object] = [_js_literal(t) for t in re.findall(_JS_STRING, match.group(2))]
        key = _key(match.group(1), args)
        if key is not None:
            yield key


#: The catalogs: the pages' and the server's messages, and the page scripts' (djangojs).
DOMAINS = ["django", "djangojs"]


def source_messages(domain: str = "django") -> set[Key]:
    found: set[Key] = set()
    if domain == "djangojs":
        for path in sorted(SCRIPTS.rglob("*.js")):
            if path.name != "i18n.js":  # Its examples in comments are not messages.
                found.update(script_messages(path))
        return found
    for path in PYTHON:
        found.update(python_messages(path))
    for path in TEMPLATES:
        found.update(template_messages(path))
    return found


def po_path(language: str, domain: str = "django") -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def catalog(language: str, domain: str = "django") -> list[Entry]:
    return read_po(po_path(language, domain))


@pytest.fixture(scope="module")
def in_the_source() -> dict[str, set[Key]]:
    return {domain: source_messages(domain) for domain in DOMAINS}


def test_the_source_has_the_messages_people_read(in_the_source: dict[str, set[Key]]) -> None:
    # The extraction itself works: a template's, a Python module's, a box name's context,
    # a page script's.
    assert (None, "Open a room", None) in in_the_source["django"]
    assert ("Yatzy box", "Full house", None) in in_the_source["django"]
    assert (None, "%(count)s minute", "%(count)s minutes") in in_the_source["django"]
    assert (None, "Write 0 in %(box)s?", None) in in_the_source["djangojs"]


def test_the_scripts_extraction_reads_each_kind_of_call(tmp_path: Path) -> None:
    script = tmp_path / "page.js"
    script.write_text(
        'a = gettext("Roll the dice");\n'
        "b = pgettext('Yatzy box', 'Full house');\n"
        'c = ngettext("%(count)s die", "%(count)s dice",\n  count);\n'
        'd = npgettext("feed", "\\u201c%s\\u201d left", "%s left", n); e = gettext(name);\n'
    )

    assert sorted(script_messages(script), key=str) == sorted(
        [
            (None, "Roll the dice", None),
            ("Yatzy box", "Full house", None),
            (None, "%(count)s die", "%(count)s dice"),
            ("feed", "\u201c%s\u201d left", "%s left"),
        ],
        key=str,
    )


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_holds_exactly_the_messages_of_the_source(
    language: str, domain: str, in_the_source: dict[str, set[Key]]
) -> None:
    in_the_catalog = {(e.context, e.msgid, e.plural) for e in catalog(language, domain)}

    missing = sorted(in_the_source[domain] - in_the_catalog, key=str)
    stale = sorted(in_the_catalog - in_the_source[domain], key=str)
    update = "bash scripts/translations.sh update"
    assert not missing, f"not in {language}'s catalog ({update}): {missing}"
    assert not stale, f"no longer in the source ({update}): {stale}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_translates_every_message(language: str, domain: str) -> None:
    # Fuzzy (a guess nobody checked) or empty counts as missing.
    untranslated_here = [
        f"{e.msgid!r} ({', '.join(e.locations)})"
        for e in catalog(language, domain)
        if not e.translated
    ]

    assert not untranslated_here, f"{language} lacks: " + "; ".join(untranslated_here)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_plural_has_every_form_its_language_declares(language: str, domain: str) -> None:
    # A form missing is English on the page: Spanish once declared CLDR's three forms
    # (one, many, other) while its messages gave gettext's two, and "6 players" read English.
    forms = plural_forms(po_path(language, domain))
    short = [e.msgid for e in catalog(language, domain) if e.plural and len(e.strings) != forms]

    assert not short, f"{language} declares {forms} plural forms; these have another count: {short}"


_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%|\{\w+\}")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_their_placeholders(language: str, domain: str) -> None:
    wrong = []
    for entry in catalog(language, domain):
        wanted = sorted(set(_PLACEHOLDER.findall(entry.msgid + (entry.plural or ""))))
        for text in entry.strings:
            if sorted(set(_PLACEHOLDER.findall(text))) != wanted:
                wrong.append((entry.msgid, text))

    assert not wrong


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_the_one_written(language: str, domain: str) -> None:
    # The .mo files are committed (a deployment needs no gettext tools); one compiled from
    # an older .po would serve old words. bash scripts/translations.sh compile rebuilds them.
    path = po_path(language, domain).with_suffix(".mo")
    with path.open("rb") as compiled:
        table = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    written: dict[object, str] = {}
    for entry in catalog(language, domain):
        if entry.plural is None:
            written[entry.key] = entry.strings[0]
        else:
            written.update({(entry.key, n): text for n, text in enumerate(entry.strings)})
    compiled_messages = {k: v for k, v in table.items() if k != ""}

    assert compiled_messages == written, "stale .mo: run bash scripts/translations.sh compile"


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_holds_a_sentence_outside_the_translation_tags(template: Path) -> None:
    assert untranslated(template) == []


def test_the_scan_finds_a_sentence_outside_the_tags(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}<p title="Hello there">{% translate "Fine" %}</p>\n'
        "<p>{% blocktranslate %}Also {{ fine }}{% endblocktranslate %}</p>\n"
        "<p>{{ name }}: not fine</p><code>roll 2 5</code>{# a comment #}"
    )

    assert untranslated(page) == [(1, "Hello there"), (3, "not fine")]


#: The Python that makes sentences people read: every module of games/insight (a new one
#: too), the charts, and the modules that word the engine's and the review's facts.
WORDING = sorted(
    [
        *(ROOT / "games" / "insight").glob("*.py"),
        ROOT / "games" / "web" / "charts.py",
        ROOT / "games" / "web" / "review_words.py",
        ROOT / "games" / "words.py",
    ]
)
#: Literals of those modules that read as words but are for no person: a font's name.
NOT_FOR_PEOPLE = frozenset({charts.FONT_FAMILY})


@pytest.mark.parametrize("module", WORDING, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_that_words_the_game_holds_a_sentence_outside_gettext(module: Path) -> None:
    assert untranslated_in_python(module, NOT_FOR_PEOPLE) == []


def test_the_python_scan_finds_a_sentence_outside_gettext(tmp_path: Path) -> None:
    module = tmp_path / "told.py"
    module.write_text(
        '"""A docstring."""\n'
        "def told(name, dice, names):\n"
        '    """Words."""\n'
        "    if not dice:\n"
        '        raise ValueError(f"no dice for {name}")\n'
        '    kind, css = "keep", "chart__turn-label"\n'
        '    fine = gettext("%(who)s rolled %(dice)s.") % {"who": name, "dice": dice}\n'
        '    svg = f\'<text class="{css}" x="{dice}">{fine}</text>\'\n'
        '    axis = "Round"\n'
        '    joined = ", ".join(names[:-1]) + " and " + names[-1]\n'
        '    return f"{name} rolled {dice}."\n'
    )

    assert untranslated_in_python(module) == [
        (9, "Round"), (10, " and "), (11, "{} rolled {}."),
    ]  # fmt: skip


def _codes_raised() -> set[str]:
    """Every refusal code the source raises or sends."""
    codes: set[str] = set()
    patterns = [
        re.compile(r'code="([a-z_]+)"'),
        re.compile(r'(?:CommandError|ProtocolError|BadSubscription)\(\s*"([a-z_]+)"'),
        re.compile(r'send_error\(\s*"([a-z_]+)"'),
        re.compile(r'refusal\(\s*[^,]+,\s*"([a-z_]+)"'),  # The HTTP API's (games/web/api.py).
    ]
    for path in PYTHON:
        text = path.read_text()
        for pattern in patterns:
            codes.update(pattern.findall(text))
    return codes


def test_every_refusal_a_player_can_meet_has_its_words() -> None:
    # Codes that only a bug of ours could raise, never a player (the replay's own checks,
    # the push subscription's, which a browser's script sends; the HTTP API's to a client
    # that is not our page: another site's, or one that sends no JSON).
    internal = {"does_not_follow", "bad_keys", "bad_endpoint", "too_many", "rule_error"}
    internal |= {"forbidden_origin", "unsupported_media_type"}
    missing = _codes_raised() - set(refusals.REFUSALS) - internal

    assert not missing, f"refusal codes without words for other languages: {sorted(missing)}"


# -- the page's scripts ----------------------------------------------------------------------


def _scripts() -> list[str]:
    """Every page script, by its path under static/js/ (the panels' folder included)."""
    return sorted(path.relative_to(SCRIPTS).as_posix() for path in SCRIPTS.rglob("*.js"))


@pytest.mark.parametrize("script", _scripts())
def test_no_page_script_holds_words_outside_the_translation_functions(script: str) -> None:
    # Every page script is checked, a new one included: each word a person reads goes
    # through static/js/i18n.js (tests/i18n_scripts.py says how the words are found).
    assert untranslated_in(SCRIPTS / script) == []


def test_every_page_script_is_read() -> None:
    # The panels' folder too: the scan once read static/js/*.js only.
    assert {"room.js", "panels/feed.js", "panels/cards.js", "sw.js"} <= set(_scripts())


def test_the_scripts_scan_finds_words_outside_the_functions() -> None:
    source = (
        'button.textContent = gettext("Roll the dice");\n'
        'status.textContent = "Waiting for the others";\n'
        "feed.append(`Scored ${points} in ${box}`);\n"
        'label = pgettext("Yahtzee box", "Full house"); if (event.key === "Enter") go(x / 2);\n'
        'const pattern = /roll (\\d) now/g; query("#chart svg"); title = "Invite";\n'
        'text = interpolate(ngettext("%s die", "%s dice", n), [n]);\n'
        'el("li", { class: "seat seat--empty" }, "two dice"); el("b", { class: "badge" });\n'
    )

    found = [(f.line, f.text) for f in untranslated_in_a_script(source)]

    assert found == [
        (2, "Waiting for the others"),
        (3, "Scored in"),
        (5, "Invite"),
        (7, "two dice"),
    ]


def test_a_class_attribute_is_not_words() -> None:
    source = (
        'li = el("li", { class: `feed__item feed__item--${kind}` });\n'
        'name = face ? `die die--${face}` : "die die--blank";\n'
        'text = "left the table";\n'
    )

    found = [(f.line, f.text) for f in untranslated_in_a_script(source)]

    assert found == [(3, "left the table")]
