"""Boundaries the design depends on."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_rules_engine_imports_nothing_from_django():
    # A fresh interpreter: in this one pytest-django has imported Django already.
    script = (
        "import sys, games.rules;"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels'});"
        "print(loaded)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
