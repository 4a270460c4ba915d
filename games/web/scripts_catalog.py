"""The page scripts' translations: the catalog a page carries for static/js/i18n.js.

The scripts' messages are in the ``djangojs`` domain (``locale/<language>/LC_MESSAGES/
djangojs.po``, made by ``bash scripts/translations.sh update`` from the gettext calls in
static/js/). The page gets the active language's as JSON in the page itself (``json_script``),
which the Content-Security-Policy allows and which costs no second request. Only our own
catalogs (``LOCALE_PATHS``) are read, not Django's or the admin's: a page carries the words
its scripts use and nothing else.

Every template has ``page_catalog`` (:func:`scripts_catalog`, a context processor); a page
whose scripts have words puts it in its ``page_catalog`` block of base.html, and the others
carry none (the room's and the review's do). The service worker, which has no page, gets
its own words in its script (games/web/app.py).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Collection
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language

DOMAIN = "djangojs"


def page_catalog(only: Collection[str] | None = None) -> dict[str, Any]:
    """``{"lang": "de", "catalog": {message: translation or [forms]}}`` for the active
    language, keyed as Django's JavaScriptCatalog keys it (a context as ``context\\x04message``,
    a plural message by its singular). English has none: its messages are the keys.
    ``only``: just these keys (a script that needs a few)."""
    language = get_language() or settings.LANGUAGE_CODE
    catalog: dict[str, Any] = {}
    # The first of LOCALE_PATHS wins, as for the pages' own catalogs.
    for folder in reversed(settings.LOCALE_PATHS):
        try:
            found = gettext.translation(DOMAIN, str(folder), [language])
        except FileNotFoundError:
            continue
        table: dict[Any, str] = found._catalog  # type: ignore[attr-defined]
        plurals: dict[str, dict[int, str]] = {}
        for key, text in table.items():
            if key == "":  # The header.
                continue
            if isinstance(key, tuple):
                plurals.setdefault(key[0], {})[key[1]] = text
            else:
                catalog[key] = text
        for key, forms in plurals.items():
            catalog[key] = [forms[n] for n in sorted(forms)]
    if only is not None:
        catalog = {key: text for key, text in catalog.items() if key in only}
    return {"lang": language, "catalog": catalog}


def scripts_catalog(request: HttpRequest) -> dict[str, Callable[[], dict[str, Any]]]:
    """The context processor: ``page_catalog`` in every template, made only where a page
    puts it (a template calls a callable when it reads it)."""
    return {"page_catalog": page_catalog}
