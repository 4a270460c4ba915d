"""The strategy engine stands apart from Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_strategy_engine_imports_without_django() -> None:
    # A fresh interpreter in which Django cannot be imported at all.
    script = (
        "import sys, pkgutil, importlib;"
        "sys.modules.update({'django': None, 'channels': None});"
        "import games.strategy as s;"
        "[importlib.import_module(m.name)"
        " for m in pkgutil.iter_modules(s.__path__, 'games.strategy.')];"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels'}"
        " and sys.modules[m] is not None))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
