"""The strategy and odds tables the suite reads, solved into its own cache.

``python -m tests.tables`` solves every table the suite needs into :data:`STRATEGY_CACHE`
(ignored by git, like the rest of test-artifacts/), or finds it there already.
``scripts/test.sh`` starts it in the background before the linters and the page modules'
tests, which use one core each, so a fresh checkout solves its tables beside them instead of
holding pytest's first test back. A run of pytest alone solves what is missing itself
(``tests/conftest.py``): :data:`EVERY_RUN` and :data:`STRATEGY_ONLY` while its workers start,
:data:`KEPT` for the tests that ask for it.

Safe to keep from run to run: a table's file name and contents carry a hash of the preset
and of every module the solver runs (:mod:`games.strategy.cache`), so a change to the
rules or the solver is solved afresh, and a new file replaces the old one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
#: The suite's own strategy tables, kept from run to run.
STRATEGY_CACHE = ARTIFACTS / "strategy-cache"

#: The presets whose strategy and odds every run reads (every live server loads them).
EVERY_RUN = ("official", "free_joker")
#: Yatzy's strategy is read by every live server too. Its odds table takes a minute of CPU
#: (a card of fifteen boxes: four times the states, 839,680), and few tests need it.
STRATEGY_ONLY = ("yatzy",)
#: The presets whose odds only some tests read (:func:`tests.conftest.kept_tables`).
KEPT = ("yatzy",)


def every_run(directory: Path | str = STRATEGY_CACHE) -> list[str]:
    """The command that solves the tables of :data:`EVERY_RUN` and :data:`STRATEGY_ONLY`
    into ``directory`` (``python -m games.strategy``)."""
    presets = [*EVERY_RUN, *STRATEGY_ONLY, "--odds", *EVERY_RUN]
    return [sys.executable, "-m", "games.strategy", *presets, "--cache-dir", str(directory)]


def kept(directory: Path | str = STRATEGY_CACHE) -> list[str]:
    """The command that solves every table of :data:`KEPT` into ``directory``."""
    return [sys.executable, "-m", "games.strategy", *KEPT, "--cache-dir", str(directory)]


def main() -> None:
    """Every table the suite reads, in two solvers side by side: each odds table is built
    on two threads, but a strategy on one, and each preset's odds wait for its strategy.
    Into ``$YAHTZEE_STRATEGY_CACHE`` when it is set (as pytest then reads them there:
    ``.ci/run`` keeps them between runs), else into :data:`STRATEGY_CACHE`."""
    directory = Path(os.environ.get("YAHTZEE_STRATEGY_CACHE") or STRATEGY_CACHE)
    directory.mkdir(parents=True, exist_ok=True)
    lines = (every_run(directory), kept(directory))
    solvers = [subprocess.Popen(line, cwd=ROOT) for line in lines]

    def stop(signum: int, frame: object) -> None:  # scripts/test.sh stopped before pytest.
        for solver in solvers:
            solver.terminate()
        sys.exit(1)

    signal.signal(signal.SIGTERM, stop)
    failed = [solver.args for solver in solvers if solver.wait() != 0]
    if failed:
        sys.exit(f"the solver failed: {failed}")


if __name__ == "__main__":
    main()
