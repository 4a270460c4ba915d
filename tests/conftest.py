"""Fixtures shared by the whole suite: a live Daphne server and a real Chromium."""

import contextlib
import fcntl
import os
import subprocess
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import pytest_asyncio
from daphne.testing import DaphneProcess
from django.db import connections
from hypothesis import settings
from playwright.sync_api import expect

from tests import configurations, dice, sockets, tables
from tests.browser.chromium import CHROMIUM_ARGS, find_chromium

# Hypothesis's deadline (200 ms an example) is a timed assertion: with both cores kept
# busy an example of the names' tests took 428 ms and failed. A property test's examples
# are judged by their answers only; a hang is pytest-timeout's to catch.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# Playwright's expect waits 5 s for a page to agree: at a load of 40 on 2 cores (five suites
# side by side) a room's answer once took longer (test_room.py's coach switch). A bound on
# a failure, never a measure: a page that agrees sooner passes as soon.
expect.set_options(timeout=15_000)

# Helpers' asserts explain themselves as a test's own do.
pytest.register_assert_rewrite("tests.browser.watch")

ARTIFACTS = tables.ARTIFACTS
STRATEGY_CACHE = tables.STRATEGY_CACHE
#: The process solving the strategy tables for pytest-xdist's workers (:func:`solve_every_preset`).
SOLVER = pytest.StashKey["subprocess.Popen[bytes]"]()


def pytest_configure(config: pytest.Config) -> None:
    """Solve the strategy tables once, into the suite's own cache (:data:`STRATEGY_CACHE`).

    Set here, before any test or forked server runs, so the strategy tests, the
    coach, the analysis and the bots, in this process and in the Daphne children
    forked from it, all share one computation, and none touches ``var/strategy``.
    pytest-xdist's workers inherit the variable from the process that starts them,
    which solves every preset while they start (:func:`pytest_xdist_node_collection_finished`).
    The tables outlive the run: solving them took 40 to 150 s of a run's wall time on
    2 cores (more under load), and the next run (CI's second pass, a developer's next
    run) reads them in about a second.
    """
    if not os.environ.get("YAHTZEE_STRATEGY_CACHE"):
        STRATEGY_CACHE.mkdir(parents=True, exist_ok=True)
        config._strategy_cache = str(STRATEGY_CACHE)  # type: ignore[attr-defined]
        os.environ["YAHTZEE_STRATEGY_CACHE"] = config._strategy_cache  # type: ignore[attr-defined]
        if config.getoption("numprocesses", None):
            config.stash[SOLVER] = solve_every_preset(config._strategy_cache)  # type: ignore[attr-defined]


def solve_every_preset(directory: str) -> subprocess.Popen[bytes]:
    """Start solving every preset's tables into ``directory`` (``python -m games.strategy``).

    Each worker that met a missing table would compute it as well (a few seconds of
    both cores per preset, for each worker); the files would be whole (they are written
    beside and renamed) but the work repeated. Solved once here, while the workers
    start and collect, they are read by all of them. The odds of the presets
    :data:`tests.tables.KEPT` are not solved here: a test that needs them asks :func:`kept_tables`.
    """
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / "strategy-cache.log").open("wb") as log:
        return subprocess.Popen(
            tables.every_run(directory), cwd=ARTIFACTS.parent, stdout=log, stderr=subprocess.STDOUT
        )


@pytest.fixture(scope="session")
def kept_tables() -> None:
    """Every table of the presets :data:`tests.tables.KEPT` (Yatzy), for the tests that play
    them: read from the suite's cache, or solved into it first (a minute of CPU, once per
    change of the rules or the solver; ``scripts/test.sh`` solves them before pytest starts).
    One worker solves; the others wait on the lock, then read."""
    directory = Path(os.environ["YAHTZEE_STRATEGY_CACHE"])
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / "kept.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # Released when the file closes.
        solve = tables.kept(directory)
        subprocess.run(solve, cwd=ARTIFACTS.parent, check=True, capture_output=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """Hold the first test back until the tables are solved.

    Called in the process that leads pytest-xdist's workers. Had the solving failed
    (its output is in test-artifacts/strategy-cache.log), the tests that need a table
    would compute it themselves, and fail with the engine's own traceback.
    """
    solver = node.config.stash.get(SOLVER, None)
    if solver is not None:
        solver.wait()


def pytest_unconfigure(config: pytest.Config) -> None:
    solver = config.stash.get(SOLVER, None)
    if solver is not None and solver.poll() is None:  # The run stopped before the workers did.
        solver.kill()
        solver.wait()
    if getattr(config, "_strategy_cache", None) is not None:
        del os.environ["YAHTZEE_STRATEGY_CACHE"]
    CHROMIUM.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Remove the SQLite test database's write-ahead log, which outlives the database.

    Django deletes the test database's file at the end of the run, but SQLite's ``-wal``
    and ``-shm`` files beside it stay (a few MB each, per run and per worker, in var/).
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    name = database.get("TEST", {}).get("NAME")
    if database["ENGINE"] != "django.db.backends.sqlite3" or not name:
        return
    if not Path(name).exists():
        for suffix in ("-wal", "-shm"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)


#: pytest-timeout's bound for a browser test (pyproject's ``timeout`` bounds the others). A
#: whole game in Chromium takes 40-45 s at a load of 10 on two cores, and passed 120 s at a
#: load of 32 (the hog and two other suites): a bound on a hang, not a measure of speed.
BROWSER_TIMEOUT = 360
#: pytest-timeout's bound for a test that asks for :func:`kept_tables`: the first one in a fresh
#: checkout solves Yatzy's odds (a minute of CPU on a quiet machine), the others wait for it on
#: the lock. At a load of about 40 it had used 33 s of CPU when the 300 s bound stopped it, and
#: the 14 tests of tests/strategy/test_yatzy.py failed in their set-up. A bound on a hang.
KEPT_TABLES_TIMEOUT = 1200


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last, so a process starts Chromium once (:class:`Chromium`), and
    give them :data:`BROWSER_TIMEOUT` unless they set a bound of their own (the tests that
    need :func:`kept_tables`, :data:`KEPT_TABLES_TIMEOUT`). Every async test ends with its
    sockets closed (:func:`sockets_closed`). The PostgreSQL + Redis pass skips the tests that
    are the same in every configuration (:mod:`tests.configurations`)."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    for item in items:
        if configurations.same_in_every_configuration(item):
            configurations.check_reads_no_database(item)
            if configurations.POSTGRES_AND_REDIS:
                item.add_marker(pytest.mark.skip(reason=configurations.RAN_IN_THE_DEFAULT_PASS))
        fixtures = getattr(item, "fixturenames", None)
        if item.get_closest_marker("asyncio") and fixtures is not None:
            # Last, so it is torn down first: before the database is flushed.
            fixtures.append("sockets_closed")
        if item.get_closest_marker("timeout"):
            continue
        if "kept_tables" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.timeout(KEPT_TABLES_TIMEOUT))
        elif item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Close Chromium before a test that is not a browser test (see :class:`Chromium`)."""
    if item.get_closest_marker("browser") is None:
        CHROMIUM.stop()


@pytest_asyncio.fixture
async def sockets_closed() -> Any:
    """The test's websockets closed, and their presence settled, before its database goes
    (:mod:`tests.sockets`)."""
    sockets.opened.clear()
    yield
    await sockets.close_all()


def close_connections_before_fork() -> None:
    """A forked child must not share the parent's database connections, or its pool."""
    for connection in connections.all():
        connection.close()
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()


def make_application():  # type: ignore[no-untyped-def]
    """The site for a Daphne forked from the test run, called in the child after the fork.

    The child inherits what the websocket tests left in the parent: a channel layer
    whose queues belong to the parent's event loops, and asgiref's database thread,
    which a fork does not copy (work sent to it would wait forever). It starts with
    fresh ones instead. Its static files are answered in its event loop
    (:mod:`tests.live_static`), not on Django's threads.
    """
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.conf import settings

    from games.live import watch
    from tests.live_static import StaticFiles
    from yahtzee_site.asgi import application

    channel_layers.backends = {}
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    # A live server keeps the clock's watch, as a deployed process does, from its start.
    settings.YAHTZEE_CLOCK_WATCH = True
    watch.start_when_serving()
    return StaticFiles(application)


@pytest.fixture
def fixed_dice(settings) -> Iterator[ModuleType]:  # type: ignore[no-untyped-def]
    """The server's dice come from the test: ``fixed_dice.load(6, 6, 6, 6, 6)``."""
    settings.YAHTZEE_DICE = "tests.dice.scripted_roll"
    dice.clear()
    yield dice
    dice.clear()


@pytest.fixture
def server_dice() -> list[int] | None:
    """The faces the live server throws, in order, or ``None`` for real dice.

    Override it in a test module (or parametrize it) to play a scripted game
    in a browser: the server runs in a child process, so its dice must be
    loaded before it is forked.
    """
    return None


@pytest.fixture
def live_server_url(transactional_db: None, settings, server_dice) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The site served by a real Daphne in a child process, on the test database.

    The child is forked after the test database exists, so it inherits the
    settings that point at it; rows a test creates must be committed to be
    seen there (hence ``transactional_db``).
    """
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost", "127.0.0.1"]
    # The official preset's odds (and its strategy) in memory before the fork, so the
    # server's first chances to win (a watcher's bar, a review's graph) come at once
    # instead of building the table inside a request (about 20 s, once per test run).
    from games.strategy import odds

    odds.load("official")
    dice.clear()
    if server_dice is not None:
        settings.YAHTZEE_DICE = "tests.dice.scripted_roll"
        dice.load(*server_dice)
    close_connections_before_fork()
    server = DaphneProcess("127.0.0.1", make_application)
    server.start()
    try:
        if not server.ready.wait(timeout=20):
            raise RuntimeError("Daphne did not start for the browser tests")
        yield f"http://127.0.0.1:{server.port.value}"
    finally:
        server.terminate()
        server.join(timeout=10)
        if server.is_alive():
            # Still closing after 10 s (a busy machine): a server left running holds its
            # connection, and the run's last test database could not be dropped.
            server.kill()
            server.join()
        dice.clear()


class FakeClock:
    """The time as the services see it (:func:`games.live.clock.now`), moved on by the test."""

    def __init__(self) -> None:
        from django.utils import timezone

        self.at = timezone.now()

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)

    def until(self, moment: datetime | None) -> None:
        """Move on to ``moment`` (and a microsecond past it)."""
        assert moment is not None, "nothing to wait for"
        self.at = max(self.at, moment + timedelta(microseconds=1))


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """Time stands still for the services until the test moves it on."""
    from games.live import clock

    fake = FakeClock()
    monkeypatch.setattr(clock, "now", fake)
    return fake


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Each test starts with a new channel layer.

    Every async test runs on an event loop of its own, and a Redis layer's
    connections and locks belong to the loop that made them.
    """
    from channels.layers import channel_layers

    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture(autouse=True)
def english_first() -> Iterator[None]:
    """Each test starts in the site's own language, English.

    A request through the test client leaves its language active in the thread
    (``LocaleMiddleware`` activates one for every request and keeps it), so a test that
    words something outside a request, as ``mine.games_in_play`` does, would otherwise
    read in whatever language the worker's last request asked for (a Swedish "ingen
    klocka" once). The site itself words nothing outside a request or an ``override``.
    """
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    """Each test counts toward the limits (games/live/limits.py) from nothing.

    The whole suite comes from one address and one process: without this, the rooms
    it opens would add up to the limit on opening rooms.
    """
    from django.core.cache import caches

    from games.live import limits

    caches[limits.CACHE].clear()
    yield
    caches[limits.CACHE].clear()


class Chromium:
    """This process's headless Chromium, driven by Playwright, open only while browser tests run.

    Playwright's sync API keeps an event loop running in the main thread while it is
    open, and a test that runs a loop of its own (pytest-asyncio's, ``asyncio.run``,
    ``async_to_sync``) cannot start beside it. The browser tests are sorted last, but
    pytest-xdist may still hand a worker another test after a browser test (a group
    scheduled whole, a test taken from another worker's queue): Playwright is then
    stopped before it (:func:`pytest_runtest_setup`) and started again by the next
    browser test. Each xdist worker is a process of its own, with its own Chromium.
    """

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browsers: dict[str, Any] = {}
        self._allowed_async_unsafe = False

    def browser(self, executable: str) -> Any:
        """The running Chromium of ``executable``, launched first if it is not."""
        if self._playwright is None:
            # Playwright's sync API runs an event loop in this thread; Django refuses ORM
            # calls from a thread with a running loop unless told this is deliberate
            # (and only for as long as the loop runs: the other tests keep the check).
            if "DJANGO_ALLOW_ASYNC_UNSAFE" not in os.environ:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
                self._allowed_async_unsafe = True
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
        if executable not in self._browsers:
            self._browsers[executable] = self._playwright.chromium.launch(
                executable_path=executable, args=CHROMIUM_ARGS
            )
        return self._browsers[executable]

    def stop(self) -> None:
        """Close the browsers and stop Playwright's loop, if they run."""
        if self._playwright is None:
            return
        try:
            for browser in self._browsers.values():
                browser.close()
        finally:
            self._playwright.stop()
            self._playwright = None
            self._browsers = {}
            if self._allowed_async_unsafe:
                del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
                self._allowed_async_unsafe = False


CHROMIUM = Chromium()


def _launched(*, shell: bool) -> Any:
    executable = find_chromium(shell=shell)
    if executable is None:
        message = "no Chromium on this machine: apt-get install chromium, or set CHROMIUM"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM.browser(executable)


@pytest.fixture
def browser():  # type: ignore[no-untyped-def]
    """A headless Chromium driven by Playwright, shared by the browser tests of this process:
    Debian's headless shell where it is installed (:func:`find_chromium`)."""
    return _launched(shell=True)


@pytest.fixture
def full_browser():  # type: ignore[no-untyped-def]
    """The whole Chromium, headless, for what the headless shell leaves out (it shows no
    notifications); launched beside :func:`browser` on first use."""
    return _launched(shell=False)


@pytest.fixture
def screenshot_dir() -> Path:
    """Where browser tests save what they saw: test-artifacts/screenshots (not committed),
    or ``$YAHTZEE_SCREENSHOTS_DIR`` (scripts/screenshots.sh takes the README's from there).

    A test run writes nothing that git tracks.
    """
    path = Path(os.environ.get("YAHTZEE_SCREENSHOTS_DIR") or ARTIFACTS / "screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """pytest-django's test databases; before they are dropped, the connections of the
    database threads the tests used are closed (:func:`close_threads_connections`)."""
    yield
    close_threads_connections()


def close_threads_connections() -> None:
    """Close the database connections of every long-lived thread the tests ran work on.

    Django keeps a connection per thread. Async tests call the database on asgiref's one
    thread, the outbox's game threads and its presence thread; a connection one of them
    left open (a test's plain ``sync_to_async`` closes nothing) is never given back to
    PostgreSQL's pool, which closes only the connections it holds: the likely cause of the
    PostgreSQL pass's warning, about once a run, that a worker's test database could not be
    dropped, "being accessed by other users (2 other sessions)".
    """
    from asgiref.sync import SyncToAsync

    from games.live import outbox

    threads = [SyncToAsync.single_thread_executor, *outbox._threads, *outbox._presence_thread]
    for thread in threads:
        # RuntimeError: shut down already, its thread gone and its connections with it.
        with contextlib.suppress(RuntimeError):
            thread.submit(connections.close_all).result(timeout=30)
    connections.close_all()
