"""Boundaries the design depends on."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "module",
    [
        "games.rules",
        "games.events",
        "games.codec",
        "games.replay",
        "games.room",
        "games.presentation",
        "games.strategy",
        "games.charts",
        "games.analysis",
        "games.chances",
        "games.review",
        "games.protocol",
        "games.names",
    ],
)
def test_pure_modules_import_without_django(module: str) -> None:
    # A fresh interpreter in which Django cannot be imported at all (in this one
    # pytest-django has imported it already); a package is imported module by module.
    script = (
        "import sys, pkgutil, importlib;"
        "sys.modules.update({'django': None, 'channels': None});"
        f"top = importlib.import_module('{module}');"
        "[importlib.import_module(m.name)"
        " for m in pkgutil.iter_modules(getattr(top, '__path__', []), top.__name__ + '.')];"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels'}"
        " and sys.modules[m] is not None))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_consumer_leaves_the_database_to_the_services() -> None:
    tree = ast.parse((ROOT / "games" / "consumers.py").read_text())
    from_models = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "games.models"
        for alias in node.names
    ]
    managers = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)]
    assert from_models == ["room_group"]  # A name, not a model.
    assert not {"objects", "save", "delete", "refresh_from_db"} & set(managers)
