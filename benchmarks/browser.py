"""What a person at the table feels, measured in real Chromium against a real Daphne.

Run it from the project's root, with the project's virtualenv and a system Chromium::

    .venv/bin/python benchmarks/browser.py
    .venv/bin/python benchmarks/browser.py --loads 30 --turns 26

It starts its own server the way one machine deploys it (see ``ws_load.py``:
a fresh SQLite file, one Daphne, ``DEBUG=false``, the in-memory channel layer,
static files collected and served by WhiteNoise with their hashed names), then
measures:

* **Page weight**: every byte the room page needs (HTML, styles, scripts, the
  favicon), as sent on the wire (compressed where WhiteNoise compresses).
* **Opening the invite link**: from navigation to the room drawn from its first
  snapshot (the page's status line no longer says "Connecting…"), in a fresh
  browser context each time (a first visit: nothing cached). p50 and p95.
* **Click to every screen**: two players and a watcher in three browser
  contexts play real (random) dice. For every Roll and every box clicked, the
  time from the click (a listener in the player's page notes it) to the new line
  in the feed of the *other* two pages (a ``MutationObserver`` there notes it).
  Both times are read from ``performance.timeOrigin + performance.now()`` in
  pages of one browser on one machine, so they share a clock. p50, p95, max.
* **Memory**: each page's JavaScript heap (``performance.memory``) at the end,
  and the Daphne process's RSS.

It prints figures and never asserts them; it exits non-zero only when a game
could not be played.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from ws_load import ROOT, Server, percentile, read_rss_mb

from benchmarks import quick
from tests.browser.chromium import CHROMIUM_ARGS, find_chromium

# Injected into every page: note clicks on the table, and each new line of the feed.
OBSERVER = """
window.__clicks = [];
window.__lines = [];
const now = () => performance.timeOrigin + performance.now();
addEventListener("click", (event) => {
  if (event.target.closest("#roll-button, .box-option")) window.__clicks.push(now());
}, true);
addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) window.__lines.push([now(), node.textContent]);
    }
  }).observe(document.getElementById("feed"), { childList: true });
});
"""


class StaticServer(Server):
    """The benchmark server, static files collected as a deployed site has them.

    They are collected into the server's own temporary directory (through a settings
    module there that changes only ``STATIC_ROOT``), not into ``var/``, which another
    run or a deployed copy may be using.
    """

    def start(self) -> None:
        settings = self.workdir / "benchmark_settings.py"
        settings.write_text(
            "from yahtzee_site.settings import *  # noqa: F403\n"
            f"STATIC_ROOT = {str(self.workdir / 'static')!r}\n"
        )
        self.env["DJANGO_SETTINGS_MODULE"] = "benchmark_settings"
        self.env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(self.workdir), str(ROOT), os.environ.get("PYTHONPATH")])
        )
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        super().start()


def page_weight(browser, url: str) -> tuple[int, dict[str, int]]:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on(
        "requestfinished",
        lambda request: sizes.__setitem__(
            request.url.rsplit("/", 1)[-1] or "page",
            request.sizes()["responseBodySize"] + request.sizes()["responseHeadersSize"],
        ),
    )
    page.goto(url)
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    page.wait_for_load_state("networkidle")
    context.close()
    return sum(sizes.values()), sizes


def opening_times(browser, url: str, loads: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(loads):
        context = browser.new_context()
        page = context.new_page()
        started = time.perf_counter()
        page.goto(url)
        page.wait_for_function(
            "() => document.getElementById('room-status').textContent !== 'Connecting…'", polling=5
        )
        times.append(time.perf_counter() - started)
        context.close()
    return times


def create_room(page, base: str, name: str) -> str:  # type: ignore[no-untyped-def]
    page.goto(base + "/")
    page.fill("#id_name", name)
    page.click(".new-game__more > summary")  # The seats are among its options.
    page.select_option("#id_seats", "2")
    page.click("form.new-game button[type=submit]")
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    return page.url


def play(browser, base: str, turns: int):  # type: ignore[no-untyped-def]
    """Two players and a watcher; returns click-to-other-screens latencies and the pages."""
    contexts = [browser.new_context(reduced_motion="reduce") for _ in range(3)]
    for context in contexts:
        context.add_init_script(OBSERVER)
    ana, bob, watcher = (context.new_page() for context in contexts)
    url = create_room(ana, base, "Ana")
    bob.goto(url)
    bob.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    bob.fill("#join-name", "Bob")
    bob.click("#join-form button")
    bob.wait_for_selector("#seats .badge--you")
    watcher.goto(url)
    watcher.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    ana.click("#start-button")
    pages = {0: ana, 1: bob}
    latencies: list[float] = []

    def state(page, expression: str):  # type: ignore[no-untyped-def]
        return page.evaluate(
            f"(() => {{ const s = window.yahtzeeRoom.state; return {expression}; }})()"
        )

    def act_and_measure(page, others, selector: str, phrase: str) -> None:  # type: ignore[no-untyped-def]
        seen = [other.evaluate("window.__lines.length") for other in others]
        page.click(selector)
        clicked = page.evaluate("window.__clicks[window.__clicks.length - 1]")
        for other, start in zip(others, seen, strict=True):
            other.wait_for_function(
                "([start, phrase]) => "
                "window.__lines.slice(start).some(([, t]) => t.includes(phrase))",
                arg=[start, phrase],
                polling=5,
            )
            lines = other.evaluate("window.__lines")[start:]
            arrived = next(t for t, text in lines if phrase in text)
            latencies.append((arrived - clicked) / 1000)

    ana.wait_for_function("() => window.yahtzeeRoom.state.turn !== null")
    for _ in range(turns):
        seat = state(ana, "s.turn.seat")
        page = pages[seat]
        others = [p for p in (ana, bob, watcher) if p is not page]
        page.wait_for_selector("#roll-button:enabled")
        act_and_measure(page, others, "#roll-button", " rolled ")
        page.wait_for_selector(".box-option:enabled")
        best = page.evaluate(
            """() => {
                const buttons = [...document.querySelectorAll('.box-option')];
                buttons.sort((a, b) => Number(b.textContent) - Number(a.textContent));
                return buttons[0].closest('td').dataset.box;
            }"""
        )
        act_and_measure(
            page, others, f'td[data-seat="{seat}"][data-box="{best}"] button', " scored "
        )
    heaps = [p.evaluate("performance.memory.usedJSHeapSize") for p in (ana, bob, watcher)]
    for context in contexts:
        context.close()
    return latencies, heaps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=20, help="times the invite link is opened")
    parser.add_argument(
        "--turns", type=int, default=26, help="turns played (26: a whole 2-player game)"
    )
    args = quick.parse_args(parser, {"loads": 1, "turns": 1}, argv)

    from playwright.sync_api import sync_playwright

    executable = find_chromium(shell=False)  # A person's browser, not the tests' headless shell.
    if executable is None:
        raise SystemExit("no Chromium: apt-get install chromium, or set CHROMIUM")
    server = StaticServer()
    server.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            setup = browser.new_page()
            url = create_room(setup, server.url, "Host")
            total, sizes = page_weight(browser, url)
            opening = opening_times(browser, url, args.loads)
            setup.close()
            latencies, heaps = play(browser, server.url, args.turns)
            rss = read_rss_mb(server.pids)
            browser.close()
    finally:
        server.stop()

    print(f"Page weight of a room (first visit, on the wire): {total / 1024:.1f} KiB")
    for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f"  {name:<40} {size / 1024:6.1f} KiB")
    print(
        f"Opening the invite link to the room drawn ({len(opening)} fresh contexts): "
        f"p50 {percentile(opening, 50) * 1000:.0f} ms, p95 {percentile(opening, 95) * 1000:.0f} ms"
    )
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    print(
        f"Click to the other two screens ({len(latencies)} arrivals, {args.turns} turns): "
        f"p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    print(
        "JS heap at the end (Ana, Bob, watcher): "
        + ", ".join(f"{h / 2**20:.1f} MiB" for h in heaps)
    )
    print(f"Daphne RSS at the end: {rss:.0f} MB" if rss else "Daphne RSS: -")
    return 0


if __name__ == "__main__":
    sys.exit(main())
