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


def find_chromium() -> str | None:
    """A system Chromium: $CHROMIUM, else chromium (or chromium-browser) on the PATH."""
    for candidate in (
        os.environ.get("CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None
