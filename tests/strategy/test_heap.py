"""A table build keeps the memory it frees (games/strategy/heap.py), counted in page faults.

Each case runs in a new process, so that the C library's malloc starts from its
own defaults. The first counts the minor page faults (``getrusage``) of the
pattern a build repeats block after block: some megabytes of arrays made,
written and freed; the second, the resident memory given back after it. Counts,
not times: the same on a busy machine.
"""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PATTERN = """
import resource, sys
from contextlib import nullcontext
import numpy as np
from games.strategy import heap

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

mode = sys.argv[1]
with heap.keep_freed_memory() if mode == "kept" else nullcontext():
    for block in range(30):
        if block == 5:  # The first blocks fault in any case: the heap grows once.
            start = faults()
        arrays = [np.ones(2**19) for _ in range(8)]  # 8 x 4 MiB, every page written
        del arrays
    print(faults() - start)
"""


def run(script: str, *args: str) -> int:
    """The number ``script`` prints, run in a new Python process from the project's root."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return int(done.stdout)


def faults(mode: str) -> int:
    return run(PATTERN, mode)


GLIBC = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="the thresholds are glibc's",
)
PLAIN_FLOOR = 25 * 8_192 // 4
"""25 blocks of 32 MiB: glibc gives the freed top of its heap back every time, so each block
faults its 8,192 pages in again (a quarter of that is plenty to tell)."""


@GLIBC
def test_freed_memory_is_reused_instead_of_faulted_in_again() -> None:
    plain, kept = faults("plain"), faults("kept")
    assert plain > PLAIN_FLOOR
    assert kept < plain // 20


RETURNED = """
import sys
import numpy as np
from games.strategy import heap

def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096

with heap.keep_freed_memory():
    arrays = [np.ones(2**19) for _ in range(50)]  # 200 MiB in blocks of 4 MiB
    del arrays
    held = resident()
print(held - resident())
"""


@GLIBC
def test_what_the_build_kept_goes_back_to_the_system_after_it() -> None:
    assert run(RETURNED) > 150 * 2**20
