"""Where a run's CPU goes, test by test: ``.venv/bin/python -m pytest -p tests.cputime ...``
(``python -m`` puts the checkout on the path; any -n).

Each worker writes ``test-artifacts/cpu/<worker>.tsv``: per test, the CPU seconds (user +
system) of the test process itself, of its Chromium (Playwright's driver and the browser's
processes) and of everything else it started (the live servers, the benchmarks'
processes), read from /proc over the whole tree of live descendants plus what was
reaped; then when the test began and ended (the clock's seconds). A test's share of a
Chromium that outlives it (one per worker) is what the browser spent while the test ran.
The run ends with the totals, the costliest tests, and each worker's time: when it began
its first test and ended its last, and how much of that was in tests (the rest: waiting
for the tables, and the tail, where a worker that has finished waits for the others).
Linux only; figures for people, never assertions. On a shared machine the figures move
with the load (a process starved of CPU spends more of it on the same work): compare
runs made under the same load, and say which.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

TICK = os.sysconf("SC_CLK_TCK")
OUT = Path(__file__).resolve().parent.parent / "test-artifacts" / "cpu"


def _stat(pid: int) -> tuple[int, float, float, str] | None:
    """(parent, own CPU, reaped children's CPU, command name) of ``pid``."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    utime, stime, cutime, cstime = (int(v) / TICK for v in fields[11:15])
    return int(fields[1]), utime + stime, cutime + cstime, name


def tree() -> dict[str, float]:
    """CPU seconds so far of this process and of its descendants, by kind."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (found := _stat(int(entry))) is not None:
            stats[int(entry)] = found
    children: dict[int, list[int]] = {}
    for pid, (parent, *_rest) in stats.items():
        children.setdefault(parent, []).append(pid)
    totals = {"test": 0.0, "chromium": 0.0, "other": 0.0}
    me = os.getpid()
    _, own, reaped, _name = stats[me]
    totals["test"] = own
    totals["other"] = reaped  # Servers and scripts that ended (Chromium is reaped by its driver).

    def walk(pid: int, kind: str) -> None:
        for child in children.get(pid, []):
            _, cpu, gone, name = stats[child]
            kind_here = kind or ("chromium" if name.startswith(("node", "chrom")) else "other")
            totals[kind_here] += cpu + gone
            walk(child, kind_here)

    walk(me, "")
    return totals


KINDS = ("test", "chromium", "other")


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # The run's first process: a fresh record.
        for old in OUT.glob("*.tsv"):
            old.unlink()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    rows = []
    spans: dict[str, list[tuple[float, float]]] = {}
    for path in OUT.glob("*.tsv"):
        for line in path.read_text().splitlines():
            name, *fields = line.split("\t")
            used, (began, ended) = [float(v) for v in fields[:3]], map(float, fields[3:])
            rows.append((sum(used), name, used))
            spans.setdefault(path.stem, []).append((began, ended))
    if not rows:
        return
    totals = [sum(row[2][k] for row in rows) for k in range(len(KINDS))]
    write = terminalreporter.write_line
    terminalreporter.section("CPU seconds by test (tests/cputime.py)")
    write("  ".join(f"{kind} {total:.1f}" for kind, total in zip(KINDS, totals, strict=True)))
    for spent, name, used in sorted(rows, reverse=True)[:25]:
        write(f"{spent:7.2f}  ({' + '.join(f'{v:.1f}' for v in used)})  {name}")
    first = min(began for times in spans.values() for began, _ in times)
    write("worker: first test began, last ended (s after the run's first test), time in tests")
    for worker, times in sorted(spans.items()):
        began, ended = min(t[0] for t in times), max(t[1] for t in times)
        busy = sum(end - start for start, end in times)
        write(f"  {worker}: {began - first:6.1f} {ended - first:7.1f} {busy:7.1f}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    before, began = tree(), time.time()
    yield
    after, ended = tree(), time.time()
    OUT.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with (OUT / f"{worker}.tsv").open("a") as out:
        used = [max(0.0, after[k] - before[k]) for k in KINDS]
        times = (f"{began:.2f}", f"{ended:.2f}")
        out.write("\t".join([item.nodeid, *(f"{v:.2f}" for v in used), *times]) + "\n")
