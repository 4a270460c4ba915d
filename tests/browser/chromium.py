"""Debian's Chromium, as the browser tests and the browser benchmark launch it."""

import os
import shutil
from pathlib import Path

# Playwright cannot download its own browser here; these keep a system Chromium quiet and offline.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium(*, shell: bool = True) -> str | None:
    """A system Chromium: $CHROMIUM, else Debian's chromium-headless-shell (unless ``shell``
    is false), else chromium (or chromium-browser) on the PATH.

    The headless shell is the same Blink without the browser's windows and features that
    need them, the build Playwright itself runs headless. The browser tests run in it: the
    same tests took 40.5 s of Chromium's CPU in it against 73.8 s in the full browser
    (test_room.py and test_table.py, -n 0, load 3-4). The full browser is asked for where
    the shell falls short (it shows no notifications) and where what a person's browser
    does is measured (benchmarks/browser.py).
    """
    for candidate in (
        os.environ.get("CHROMIUM"),
        shutil.which("chromium-headless-shell") if shell else None,
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None
