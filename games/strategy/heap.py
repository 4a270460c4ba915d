"""Keep freed memory in the process while a table is built, where the C library allows it.

Building the odds table (:func:`.odds.build`) works through 622 blocks of states
a preset, and each block makes and frees some tens of megabytes of numpy
arrays. glibc's ``malloc`` gives the top of its heap back to the system as soon
as more than its *trim threshold* lies free there (a few megabytes by then), so
every block asked for those pages again: about a million page faults a build,
a fifth to a quarter of its time spent in the kernel (counted with
``getrusage``; ``strace`` showed some 4,000 ``brk`` calls). Raising the
thresholds for the length of the build keeps the pages. Afterwards they are
set to the top of the range glibc slides them in by itself, and the memory
freed in the meantime is given back (``malloc_trim``).

Elsewhere (macOS, musl) this does nothing, and the build is only slower.
"""

from __future__ import annotations

import ctypes
import platform
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

# mallopt's parameters (malloc.h).
_M_TRIM_THRESHOLD: Final = -1
_M_MMAP_THRESHOLD: Final = -3
KEPT: Final = 256 * 2**20
"""Free memory the heap may hold at its top during a build before giving it back."""
_LARGEST_MMAP_THRESHOLD: Final = 32 * 2**20
"""The highest size from which glibc maps a block on its own (64-bit). It starts at
128 KiB and slides up to the size of the largest such block freed, up to this; its trim
threshold follows at twice that. Setting either by hand stops the sliding, so after a
build both are left at the top of that range: put back at 128 KiB, every array of more
than 16,384 numbers would be mapped and unmapped again (a strategy solve right after an
odds build took about 1.5 times as long)."""


def _glibc() -> ctypes.CDLL | None:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


@contextmanager
def keep_freed_memory() -> Iterator[None]:
    """While inside, freed blocks of up to :data:`KEPT` stay in the heap for reuse.

    Process-wide (``mallopt`` has no per-thread setting), so meant for a build,
    not for code that runs beside requests. On leaving, the memory freed in the
    meantime goes back to the system, and from then on at most
    ``2 * _LARGEST_MMAP_THRESHOLD`` is kept, as glibc's own sliding keeps at most.
    """
    libc = _glibc()
    if libc is None:
        yield
        return
    libc.mallopt(_M_MMAP_THRESHOLD, _LARGEST_MMAP_THRESHOLD)
    libc.mallopt(_M_TRIM_THRESHOLD, KEPT)
    try:
        yield
    finally:
        libc.mallopt(_M_TRIM_THRESHOLD, 2 * _LARGEST_MMAP_THRESHOLD)
        libc.malloc_trim(0)
