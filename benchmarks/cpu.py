"""CPU time of processes and their descendants, read from ``/proc``: what a benchmark's
server processes used, beside the load average of the moment."""

from __future__ import annotations

import os
from pathlib import Path


def cpu_seconds(roots: list[int]) -> float:
    """CPU seconds used so far by the live processes ``roots`` and their descendants."""
    return sum(cpu_by_process(roots).values())


def cpu_since(before: dict[int, float], roots: list[int]) -> float:
    """CPU seconds the live processes under ``roots`` used since ``before``
    (:func:`cpu_by_process` then): a process that ended meanwhile is not counted, one
    started meanwhile is counted whole."""
    return sum(now - before.get(pid, 0.0) for pid, now in cpu_by_process(roots).items())


def cpu_by_process(roots: list[int]) -> dict[int, float]:
    """CPU seconds used so far by each live process among ``roots`` and their descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # It ended meanwhile.
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        used[pid] = (int(fields[11]) + int(fields[12])) / ticks
    mine = {}
    for pid, seconds in used.items():
        ancestor = pid
        while ancestor not in roots and ancestor > 1:
            ancestor = parent.get(ancestor, 0)
        if ancestor in roots:
            mine[pid] = seconds
    return mine
