"""Helpers for browser tests: the screen sizes we check, what a page did behind the scenes,
and running the services from a test."""

from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from django.db import connections
from playwright.sync_api import Page, WebSocket

# The two screens every page is checked on: a laptop and a phone.
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

#: A browser's options for a test that opens one page and reads it (no later navigation in
#: the same browser): no service worker. Each page registers it once loaded, and it fetches
#: the whole shell to keep (every style, script and icon, the offline page): work that only a
#: later page of the same browser would use, which such a test never opens, and which none
#: of its checks sees. test_app.py tests the worker; tests that move between pages keep it.
ONE_VISIT = {"service_workers": "block"}

#: A browser's options for a test that plays a room but is not about its motion: reduced
#: motion (prefers-reduced-motion), as some players ask, so no dice tumble, smooth scroll or
#: confetti. The motion costs a quarter or more of Chromium's CPU in a game, and is tested
#: by test_room.py's whole game, test_clock.py, test_table.py and test_phone_first.py.
CALM = {"reduced_motion": "reduce"}


@dataclass
class PageWatch:
    """Which hosts a page asked, what failed, and what it complained of."""

    hosts: set[str] = field(default_factory=set)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: The last frames on the pages' websockets, each marked ``>`` (sent) or ``<`` (received):
    #: what a failing test says it saw last.
    frames: deque[str] = field(default_factory=lambda: deque(maxlen=40))

    @classmethod
    def on(cls, *pages: Page) -> "PageWatch":
        watch = cls()
        for page in pages:
            watch.add(page)
        return watch

    def add(self, page: Page) -> None:
        page.on("request", lambda request: self.hosts.add(urlsplit(request.url).netloc))
        # A request the page gave up itself as it navigated away (net::ERR_ABORTED, a
        # favicon still loading, say) is not a failure of the site.
        page.on(
            "requestfailed",
            lambda request: (
                request.failure != "net::ERR_ABORTED" and self.failed.append(request.url)
            ),
        )
        page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", self._listen)

    def _listen(self, socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: self.frames.append(f"> {payload!s:.300}"))
        socket.on("framereceived", lambda payload: self.frames.append(f"< {payload!s:.300}"))

    def story(self) -> str:
        """The last frames and complaints, for a failure's message."""
        return "\n".join(["last websocket frames:", *self.frames, "errors:", *self.errors])

    def assert_clean(self, site_url: str) -> None:
        """Nothing came from another host, nothing failed, nothing complained."""
        assert self.hosts == {urlsplit(site_url).netloc}
        assert self.failed == []
        assert self.errors == []


def off_the_loop(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``function`` (services, say) in a thread of its own and return what it returns.

    The services broadcast with ``async_to_sync``, which refuses to run in the test's
    thread: Playwright keeps an event loop running there. The thread's database
    connection is closed before it ends, so the test database can be dropped.
    """

    def run() -> Any:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(run).result()
