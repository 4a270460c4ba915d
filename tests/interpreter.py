"""A script run in a fresh interpreter of the project's Python: what a process imports is
seen there, where this one has imported everything the suite needs already."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def printed(script: str) -> str:
    """What ``script`` (``python -c``, from the project's root) printed; it must succeed."""
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()
