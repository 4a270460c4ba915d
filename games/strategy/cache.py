"""Where solved tables are kept on disk, and how a stale or damaged file is told apart.

A table is about 5 MB per preset and takes seconds to compute, so it is saved
after the first computation and loaded afterwards (a few tens of milliseconds).
The file name and contents carry a *key*: a hash of the preset and of the
source of every module the solver runs: the rules engine's (the rules, the boxes,
the events they make) and the solver's own. Changing a rule, a box or the solver
changes the key, so an old file is simply not used (and is replaced).

Where (first that applies):

1. the ``cache_dir`` argument;
2. the ``YAHTZEE_STRATEGY_CACHE`` environment variable;
3. ``var/strategy/`` in the project, when the code runs from a checkout
   (``var/`` is not committed);
4. ``$XDG_CACHE_HOME/yahtzee-live/strategy`` (``~/.cache/...``) otherwise.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

import games.engine
from games.engine.rules import Rules

logger = logging.getLogger(__name__)

ENV_VAR: Final = "YAHTZEE_STRATEGY_CACHE"
FORMAT: Final = 1
"""Bump when the file layout changes."""

_PACKAGE: Final = Path(__file__).resolve().parent
_ENGINE: Final = Path(games.engine.__file__).resolve().parent
#: The engine's modules the solver imports, directly or not (a test keeps the list whole).
_ENGINE_SOURCES: Final = ("rules.py", "boxes.py", "events.py")
_SOLVER_SOURCES: Final = ("dice.py", "tables.py", "solver.py")
#: The odds are worked out from the solved strategy (``engine.py`` reads it).
_KIND_SOURCES: Final = {
    "odds": ("outcomes.py", "odds.py", "engine.py", "choices.py", "heap.py"),
}

Arrays = dict[str, npt.NDArray[np.generic]]


def cache_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The directory tables are kept in (see the module docstring for the order)."""
    if path is not None:
        return Path(path)
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    project_var = _PACKAGE.parent.parent / "var"
    if project_var.is_dir():
        return project_var / "strategy"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "yahtzee-live" / "strategy"


def table_key(rules: Rules, kind: str = "") -> str:
    """A hash naming the table of ``rules``: it changes when the rules or the solver change.

    ``kind`` names another table made from the strategy (``"odds"``, :mod:`.odds`):
    its own sources count too."""
    digest = hashlib.sha256()
    preset = [
        rules.name,
        rules.forced_joker,
        [box.value for box in rules.boxes],
        rules.upper_bonus,
        rules.yahtzee_bonus,
        rules.joker,
    ]
    digest.update(json.dumps([FORMAT, *preset, kind]).encode())
    sources = _SOLVER_SOURCES + _KIND_SOURCES.get(kind, ())
    engine = (_ENGINE / name for name in _ENGINE_SOURCES)
    for source in (*engine, *(_PACKAGE / name for name in sources)):
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return digest.hexdigest()


def table_path(rules: Rules, directory: Path, key: str | None = None, kind: str = "") -> Path:
    """The file for ``rules`` in ``directory`` (the start of the key is part of the name)."""
    return directory / f"{_stem(rules, kind)}-{(key or table_key(rules, kind))[:16]}.npz"


def _stem(rules: Rules, kind: str) -> str:
    # The kind comes first: "official-*.npz" must not match another kind's files.
    return f"{kind}-{rules.name}" if kind else rules.name


def read(rules: Rules, directory: Path, kind: str = "") -> Arrays | None:
    """The arrays saved for ``rules``, or None when there is no usable file.

    A file that cannot be read, or whose key is not the current one, counts as
    missing: the caller computes the table again and overwrites it.
    """
    key = table_key(rules, kind)
    path = table_path(rules, directory, key, kind)
    try:
        with np.load(path, allow_pickle=False) as saved:
            arrays: Arrays = {name: saved[name] for name in saved.files}
        meta = json.loads(str(arrays.pop("meta")))
    except FileNotFoundError:
        return None
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as error:
        logger.warning("ignoring the damaged strategy table %s: %s", path, error)
        return None
    if meta.get("key") != key:
        logger.warning("ignoring the strategy table %s: it was made for other rules", path)
        return None
    return arrays


def write(rules: Rules, directory: Path, arrays: Arrays, kind: str = "") -> Path | None:
    """Save ``arrays`` for ``rules``; returns the file, or None if it could not be written.

    The file appears whole or not at all (written beside it, then renamed), so
    several processes may compute and save the same table at once. Files left
    by earlier keys for the same preset are removed.
    """
    key = table_key(rules, kind)
    path = table_path(rules, directory, key, kind)
    meta = np.array(json.dumps({"key": key, "rules": rules.name, "format": FORMAT}))
    temp: Path | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, suffix=".tmp", delete=False) as file:
            temp = Path(file.name)
            np.savez(file, meta=meta, **arrays)  # type: ignore[arg-type]
        temp.chmod(0o644)  # Readable by other users' processes, as a plain file would be.
        os.replace(temp, path)
    except OSError as error:
        logger.warning("could not save the strategy table in %s: %s", directory, error)
        if temp is not None:
            temp.unlink(missing_ok=True)
        return None
    for old in directory.glob(f"{_stem(rules, kind)}-*.npz"):
        if old != path:
            old.unlink(missing_ok=True)
    return path
