"""Static files for the browser tests' Daphne, answered in its event loop.

Django's ``ASGIStaticFilesHandler`` serves each file through the finders and
``django.views.static.serve`` on a worker thread, and streams the body from another: about
a tenth of a second of the server's CPU for the two dozen styles, scripts and icons of one
room page, which every fresh browser context asks for again. The browser tests open
hundreds of pages. This answers the same files with the same status, type and body (a test
checks that) from a copy read once per server process.

A deployed site serves them with WhiteNoise or nginx, hashed and compressed
(``tests/test_static_files.py``, ``benchmarks/browser.py``); what is tested here is the
pages, not how their files travel.
"""

from __future__ import annotations

import mimetypes
import posixpath
from email.utils import formatdate
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation

Scope = dict[str, Any]


class StaticFiles:
    """An ASGI application: ``STATIC_URL`` from the finders, everything else to ``app``."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.prefix: str = settings.STATIC_URL
        self._answers: dict[str, tuple[int, list[tuple[bytes, bytes]], bytes]] = {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        status, headers, body = self._answer(scope["path"][len(self.prefix) :], scope["method"])
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if scope["method"] == "HEAD":
            body = b""
        await send({"type": "http.response.body", "body": body})

    def _answer(self, name: str, method: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        if method not in ("GET", "HEAD"):
            return 405, [(b"allow", b"GET, HEAD"), (b"content-length", b"0")], b""
        if name not in self._answers:
            self._answers[name] = self._read(name)
        return self._answers[name]

    @staticmethod
    def _read(name: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        name = posixpath.normpath(name).lstrip("/")  # As staticfiles' own view reads it.
        try:
            found = finders.find(name) if name not in ("", ".") else None
        except SuspiciousFileOperation:  # Outside the static folders.
            found = None
        path = Path(found) if found else None  # find() gives one path, or None.
        if path is None or not path.is_file():
            body = b"Not found"
            return 404, [(b"content-type", b"text/plain"), (b"content-length", b"9")], body
        body = path.read_bytes()
        # As django.views.static.serve types them.
        kind, encoding = mimetypes.guess_type(str(path))
        kind = kind or "application/octet-stream"
        headers = [
            (b"content-type", kind.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"last-modified", formatdate(path.stat().st_mtime, usegmt=True).encode()),
        ]
        if encoding:
            headers.append((b"content-encoding", encoding.encode()))
        return 200, headers, body
