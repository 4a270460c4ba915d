"""Every benchmark still runs: each script under ``benchmarks/`` in its quick mode.

A benchmark prints figures and asserts nothing, so nothing else notices when a change
breaks one (issue 26 found two broken). Here each one runs as a subprocess, with the
project's Python and ``--quick`` (a few games, a few seconds, the smallest sizes), and
must exit 0 and print its table. The figures themselves are never checked: a quick
run's are not worth reading, and a benchmark's figures are for people to judge.

The strategy and odds tables come from the suite's cache (``YAHTZEE_STRATEGY_CACHE``,
set in ``tests/conftest.py``), filled once by the ``tables`` fixture when a run needs
them; a benchmark never builds them again. The runs on PostgreSQL and Redis (the
PostgreSQL + Redis pass, which sets both URLs) get a database made for them on that
PostgreSQL and a Redis of their own, since the benchmarks flush the Redis database
they are given. Nothing is written beside the code: each script keeps its databases
and files in temporary directories of its own, and its servers on free ports.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests import configurations
from tests.browser.chromium import find_chromium

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
#: Modules under benchmarks/ that are not scripts: the relay ws_load.py's floor serves
#: (run by its quick runs), the --quick option itself, and the CPU time of processes.
NOT_SCRIPTS = {"relay.py", "quick.py", "cpu.py"}
#: A bound on a hang, not a measure: a quick run takes seconds, more on a busy machine.
TIMEOUT = 600

POSTGRES_AND_REDIS = configurations.POSTGRES_AND_REDIS


@dataclass(frozen=True)
class Run:
    """One quick run of a script: its extra arguments, and what its output must show."""

    script: str
    prints: tuple[str, ...]
    args: tuple[str, ...] = ()
    #: "tables": the strategy and odds tables in the cache first; "yatzy": those and
    #: Yatzy's odds too (tests/conftest.py, kept_tables); "postgres+redis": a
    #: database and a Redis of its own (the PostgreSQL + Redis pass only); "chromium";
    #: "stack": the fault tests' stack (the PostgreSQL + Redis pass only).
    needs: str = ""

    @property
    def name(self) -> str:
        return " ".join([self.script.removesuffix(".py"), *self.args])


RUNS = [
    Run("bot_pace.py", ("== Modelled", "== Live"), needs="tables"),
    Run("bots.py", ("== Strength", "== The coach", "== Bots at a table"), needs="tables"),
    Run("daily.py", ("loading the official strategy", "engine score of a day"), needs="tables"),
    Run(
        "browser.py",
        ("Page weight of a room", "Click to the other two screens", "Daphne RSS"),
        needs="chromium",
    ),
    Run("burst.py", ("sockets over", "time to snapshot")),
    Run("crowd.py", ("one room,", "roll to all", "CPU: this client")),
    Run("clock.py", ("look p50", "load average")),
    Run("duel.py", ("To win wins", "paired with the same dice"), needs="tables"),
    Run(
        "history.py",
        ("review, 6 players, 1st view", "analysis of the 6-player game"),
        needs="tables",
    ),
    Run("layer_capacity.py", ("in-memory, capacity",)),
    Run(
        "layer_capacity.py",
        ("in-memory, capacity", "redis,     capacity"),
        args=("--redis-url",),
        needs="postgres+redis",
    ),
    Run(
        "odds.py",
        ("load strategy + odds from disk", "random positions of 2-4 seats"),
        needs="tables",
    ),
    Run("odds_reference.py", ("positions made in", "no file written"), needs="tables"),
    Run(
        "soak.py",
        (
            "games finished",
            "presence after settling",
            "presence watched every second",
            "a burst of 30 sockets",
            "HTTP 5xx from nginx",
            "CPU: this client",
        ),
        needs="stack",
    ),
    Run("outage.py", ("while PostgreSQL was away", "CPU: this client"), needs="stack"),
    Run("failover.py", ("sockets back", "games finished", "CPU: this client"), needs="stack"),
    Run("push.py", ("turn start to receipt", "score command, push off", "load average after")),
    Run("solver.py", ("== official", "advise, median", "expected score")),
    Run("win_chances.py", ("over the game",), needs="tables"),
    Run("wire.py", ("msgspec", "json.loads", "load average after")),
    Run("yatzy.py", ("solver's expected score", "Monte Carlo, 2,000 games"), needs="yatzy"),
    Run("ws_load.py", ("Game against floor", "CPU x")),
    Run("ws_load.py", ("whole solo games", "CPU x"), args=("--whole-games",)),
    Run(
        "ws_load.py",
        ("2 Daphne process(es), PostgreSQL, Redis", "CPU x"),
        args=("--processes", "2", "--database-url", "--redis-url"),
        needs="postgres+redis",
    ),
]


def test_every_script_has_a_quick_run() -> None:
    scripts = {path.name for path in BENCHMARKS.glob("*.py")} - NOT_SCRIPTS
    assert scripts == {run.script for run in RUNS}


@pytest.fixture(scope="session")
def tables() -> None:
    """The tables the benchmarks load, in the suite's cache (computed there if missing):
    both presets' strategies and the official preset's odds."""
    from games.strategy import load, odds

    load("free_joker")
    odds.load("official")


def on_server(statement: str) -> None:
    """Run ``statement`` on the suite's PostgreSQL server, outside a transaction (CREATE
    and DROP DATABASE), from its ``postgres`` database."""
    import psycopg

    admin = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(statement)


@pytest.fixture(scope="session")
def drop_database() -> Iterator[Callable[[str], None]]:
    """Drops a database of the suite's PostgreSQL on a thread of its own, while the next
    tests run; the session waits for the drops at its end. DROP DATABASE waits for a
    checkpoint of the whole server: 61 and 85 s of two tests' teardowns in a hogged run
    (37 s for one drop alone at a load of 10)."""

    def drop(name: str) -> None:
        on_server(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="drop-database") as dropper:
        drops: list[Future[None]] = []
        yield lambda name: drops.append(dropper.submit(drop, name))
    for done in drops:
        done.result()  # A drop that failed fails the session's end.


@pytest.fixture
def private_database(drop_database: Callable[[str], None]) -> Iterator[str]:
    """A fresh database on the suite's PostgreSQL (the PostgreSQL + Redis pass): its URL,
    dropped afterwards."""
    if not POSTGRES_AND_REDIS:
        pytest.skip("the PostgreSQL + Redis pass runs it (DATABASE_URL and REDIS_URL set)")
    name = f"bench_{secrets.token_hex(4)}"
    on_server(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))
    finally:
        drop_database(name)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[str]:
    """A Redis of its own (a benchmark flushes the Redis database it is given): its URL."""
    if not POSTGRES_AND_REDIS:
        pytest.skip("the PostgreSQL + Redis pass runs it (DATABASE_URL and REDIS_URL set)")
    from tests.faults.stack import PrivateRedis

    redis = PrivateRedis(free_port(), tmp_path / "redis.log")
    try:
        redis.start()
        yield redis.url
    finally:
        redis.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def command_line(run: Run, request: pytest.FixtureRequest) -> list[str]:
    """The script's command line, the URLs of its own services filled in."""
    args = list(run.args)
    # Only the services the run names: layer_capacity's Redis run has no database.
    services = {"--database-url": "private_database", "--redis-url": "private_redis"}
    args = [
        part
        for arg in args
        for part in ((arg, request.getfixturevalue(services[arg])) if arg in services else (arg,))
    ]
    return [sys.executable, str(BENCHMARKS / run.script), "--quick", *args]


def benchmark_environment() -> dict[str, str]:
    """The suite's environment, less what would point a benchmark at the suite's own
    database, Redis or settings: each benchmark chooses its own."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    return env


#: The runs that bring up backends of their own, whatever the suite's (the environment above):
#: the same in both of CI's passes, so the PostgreSQL + Redis pass leaves them to the first.
OWN_BACKENDS = ("", "tables", "yatzy", "chromium")


def skip_unless_possible(run: Run, request: pytest.FixtureRequest) -> None:
    if POSTGRES_AND_REDIS and run.needs in OWN_BACKENDS:
        pytest.skip(
            "its own database and channel layer, the same in every pass: the default pass runs it"
        )
    if run.needs == "tables":
        request.getfixturevalue("tables")
    elif run.needs == "yatzy":
        request.getfixturevalue("tables")
        request.getfixturevalue("kept_tables")
    elif run.needs == "chromium" and find_chromium(shell=False) is None:
        message = "no Chromium on this machine: apt-get install chromium, or set CHROMIUM"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    elif run.needs == "stack":
        from tests.faults import stack

        if not POSTGRES_AND_REDIS:
            pytest.skip("the PostgreSQL + Redis pass runs it, beside the fault tests")
        reason = stack.missing()
        if reason and not os.environ.get("CI"):
            pytest.skip(reason)


def _param(run: Run) -> Any:
    """The run as a fixture parameter; the soak shares the fault tests' worker (loadgroup):
    both bring up the same stack on ports found by scanning up from one number."""
    marks = [pytest.mark.xdist_group("faults")] if run.needs == "stack" else []
    return pytest.param(run, marks=marks, id=run.name)


@pytest.fixture(params=[_param(run) for run in RUNS])
def quick_run(request: pytest.FixtureRequest) -> tuple[Run, list[str]]:
    """A run and its command line, with what it needs ready (or the test skipped)."""
    run: Run = request.param
    skip_unless_possible(run, request)
    return run, command_line(run, request)


# The subprocess's own bound, not pytest-timeout's 300 s: a ws_load quick run took more than
# 120 s with both cores kept busy (scripts/flakes.sh, load 20).
@pytest.mark.timeout(TIMEOUT + 30)
def test_the_quick_run_prints_its_figures(quick_run: tuple[Run, list[str]]) -> None:
    run, command = quick_run

    finished = subprocess.run(
        command,
        cwd=ROOT,
        env=benchmark_environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )

    output = f"{finished.stdout}\n--- stderr ---\n{finished.stderr[-5000:]}"
    assert finished.returncode == 0, output
    for text in run.prints:
        assert text in finished.stdout, output
