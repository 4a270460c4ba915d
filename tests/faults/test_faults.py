"""Faults, for real, in the production shape: kill -9 a Daphne, restart Redis, restart PostgreSQL.

Each test plays 20 games through nginx (a person's seat against an Optimal bot,
and a watcher, in every room; ``play.py``) on a stack of its own
(``stack.py``: a private PostgreSQL and Redis, two Daphnes run by deploy/run.sh),
breaks one thing mid-game, and then checks what a player would:

- every game finishes;
- nothing lost or applied twice: every event any browser was sent is in the
  game's log as it was sent, and each log replays with the rules to the saved
  game (``manage.py audit_games``);
- presence is right within 30 s once everything has settled: the person's seat
  connected, one watcher, and no ghost of a socket the fault ended.

And hundreds of sockets closed at once leave no ghost
(:func:`test_a_mass_close_leaves_presence_true`); while PostgreSQL is away, commands are
refused with ``unavailable`` and nothing is applied
(:func:`test_postgres_away_refuses_commands_at_once`).

They run in the PostgreSQL + Redis pass of CI (``.ci/run``), which sets both URLs.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterator

import pytest
import websockets
from websockets.typing import Origin

from tests import configurations
from tests.faults import outage, play, stack

pytestmark = [
    pytest.mark.skipif(
        not configurations.POSTGRES_AND_REDIS,
        reason="the PostgreSQL + Redis pass runs the fault tests",
    ),
    # One pytest-xdist worker runs them all, on one stack (the module's ``site``): two
    # stacks would cost twice, and could pick the same free ports at the same moment.
    pytest.mark.xdist_group("faults"),
    # A stack to start, then 20 games that may take 240 s, 60 s to reconnect and 30 s for
    # presence: the tests' own bounds, which say more than pytest-timeout's would.
    pytest.mark.timeout(600),
]

GAMES = 20
#: A quick player's pause before each command, in seconds (0.5 to 1.5 times this).
THINK = 0.05
#: The fault comes once every game has reached this version (about round 3).
FAULT_AT_VERSION = 25
#: Presence must be right this soon after the last game finished and every socket is back.
PRESENCE_WITHIN = 30
#: How long after a fault began its rooms' presence is watched for the truth (the promise
#: is 10 s; the time is printed, not asserted: it says how loaded the machine is too).
PRESENCE_AFTER_FAULT = 60


@pytest.fixture(scope="module")
def site() -> Iterator[stack.Stack]:
    reason = stack.missing()
    if reason and not os.environ.get("CI"):
        pytest.skip(reason)
    with stack.running() as running:
        yield running


def test_a_daphne_killed_with_sigkill(site: stack.Stack) -> None:
    report = asyncio.run(games_through(site, site.kill_daphne))
    assert report.closes.get("1006", 0) > 0, "the killed process held no socket"


def test_a_daphne_stopped_with_sigterm(site: stack.Stack) -> None:
    report = asyncio.run(games_through(site, site.terminate_daphne))
    assert report.closes.get("1012", 0) > 0, "the stopped process held no socket"


def test_redis_restarted(site: stack.Stack) -> None:
    report = asyncio.run(games_through(site, site.restart_redis))
    assert not report.closes, "a socket was closed while Redis was away"


def test_postgres_restarted(site: stack.Stack) -> None:
    report = asyncio.run(games_through(site, site.restart_postgres))
    assert not report.closes, "a socket was closed while PostgreSQL was away"


#: The outage's solo rooms, and the rolls each sends while PostgreSQL is away.
OUTAGE_ROOMS = 8
OUTAGE_COMMANDS = 5


def test_postgres_away_refuses_commands_at_once(site: stack.Stack) -> None:
    """While PostgreSQL is away every command is answered ``unavailable`` and nothing is
    applied; once it is back, play resumes and every move accepted is in the log once.

    How soon the answers come is printed, not asserted (``benchmarks/outage.py`` measures
    it against the code before the breaker): the breaker (``yahtzee_site/db``) answers
    from memory, where each command waited out the pool's 3 s before."""
    found = asyncio.run(outage.through_an_outage(site, OUTAGE_ROOMS, OUTAGE_COMMANDS))
    print(f"\nPostgreSQL away: {found}")

    assert found.codes_away == ["unavailable"] * OUTAGE_ROOMS * OUTAGE_COMMANDS
    assert found.versions_after == found.versions_before, "a command was applied while away"
    assert found.problems == []
    assert found.moves_accepted >= OUTAGE_ROOMS * 26  # 13 turns of a roll and a score at least.


#: The mass close: this many watchers' sockets in :data:`MASS_ROOMS` rooms, closed at once.
MASS_SOCKETS = 400
MASS_ROOMS = 20
#: How long the rooms may take to show the truth after a mass close: the promise is 10 s;
#: this cap only bounds a failure on a loaded machine, the time taken is printed.
MASS_CLOSE_CAP = 60


def test_a_mass_close_leaves_presence_true(site: stack.Stack) -> None:
    """Hundreds of watchers close at once (half with a close frame, half cut): every room
    shows nobody watching soon after (issue 28: 384 ghosts 30 s after a close of 1,000)."""
    took = asyncio.run(mass_close(site))
    print(f"\nmass close of {MASS_SOCKETS} sockets: presence true {took:.2f} s after")


#: The crowd that fails over: this many watchers over :data:`CROWD_ROOMS` rooms, one of
#: the two Daphnes killed under them (``benchmarks/failover.py`` does it with 500 sockets
#: and games in play, and prints the figures).
CROWD_SOCKETS = 200
CROWD_ROOMS = 10
#: How long the crowd may take to be back: the promise is 15 s with 500 sockets; this cap
#: only bounds a failure on a loaded machine, the time taken is printed.
CROWD_BACK_CAP = 90


def test_a_crowd_fails_over_to_the_other_daphne(site: stack.Stack) -> None:
    """A Daphne holding about half of 200 watchers is killed with SIGKILL: every one of its
    sockets comes back (to the other, or to its replacement) with a snapshot, and every
    room then counts its watchers right, none lost and no ghost."""
    asyncio.run(crowd_fails_over(site))


async def crowd_fails_over(site: stack.Stack) -> None:
    created = [
        await play.patiently(play.post_json, f"{site.url}/api/games/", {"name": f"Host {n}"})
        for n in range(CROWD_ROOMS)
    ]
    codes = [room["code"] for room in created]
    crowd = [play.Watcher(site.url, codes[n % CROWD_ROOMS]) for n in range(CROWD_SOCKETS)]
    tasks = [asyncio.create_task(watcher.run()) for watcher in crowd]
    try:
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in crowd)), 120)
        each = [CROWD_SOCKETS // CROWD_ROOMS] * CROWD_ROOMS
        took, shown = await play.until_watchers(site.url, codes, lambda: each, cap=60)
        assert took is not None, f"the crowd did not all count: {shown}"

        killed_at = time.monotonic()
        await asyncio.to_thread(site.kill_daphne)
        deadline = killed_at + CROWD_BACK_CAP
        while not all(w.connected.is_set() for w in crowd):
            assert time.monotonic() < deadline, "sockets of the killed Daphne did not come back"
            await asyncio.sleep(0.05)
        lost = [w for w in crowd if w.record.closes]
        assert lost, "the killed Daphne held none of the crowd"
        assert all(w.record.reconnected_at for w in lost)
        back = max(w.record.reconnected_at[-1] for w in lost) - killed_at
        handshakes = play.quantiles([t for w in lost for t in w.record.handshakes[1:]])
        took, shown = await play.until_watchers(site.url, codes, lambda: each, cap=60)
        assert took is not None, f"presence wrong after the failover: {shown}"
        print(
            f"\nkill -9 under {CROWD_SOCKETS} watchers: its {len(lost)} sockets back within "
            f"{back:.2f} s (handshakes {handshakes}); presence right {took:.2f} s later"
        )
    finally:
        for watcher in crowd:
            await watcher.stop()
        await asyncio.gather(*tasks, return_exceptions=True)


async def mass_close(site: stack.Stack) -> float:
    created = [
        await play.patiently(play.post_json, f"{site.url}/api/games/", {"name": f"Host {n}"})
        for n in range(MASS_ROOMS)
    ]
    codes = [room["code"] for room in created]
    ws_url = "ws" + site.url.removeprefix("http")
    sockets = []
    try:
        for n in range(MASS_SOCKETS):
            ws = await websockets.connect(
                f"{ws_url}/ws/games/{codes[n % MASS_ROOMS]}/", origin=Origin(site.url)
            )
            sockets.append(ws)
            while json.loads(await ws.recv())["type"] != "snapshot":
                pass
        each = [MASS_SOCKETS // MASS_ROOMS] * MASS_ROOMS
        took, shown = await play.until_watchers(site.url, codes, lambda: each, cap=60)
        assert took is not None, f"the watchers did not all count: {shown}"

        for ws in sockets[1::2]:
            ws.transport.abort()  # Cut, as a browser killed or a network gone.
        # The others say goodbye (each waits for the server's answer: read beside it).
        closing = asyncio.gather(*(ws.close() for ws in sockets[::2]), return_exceptions=True)
        took, shown = await play.until_watchers(
            site.url, codes, lambda: [0] * MASS_ROOMS, cap=MASS_CLOSE_CAP
        )
        await closing
        assert took is not None, f"ghosts {MASS_CLOSE_CAP} s after a mass close: {shown}"
        return took
    finally:
        for ws in sockets:
            ws.transport.abort()


async def games_through(site: stack.Stack, fault: Callable[[], None]) -> play.Report:
    games = list(await asyncio.gather(*(play.open_game(site.url, n, THINK) for n in range(GAMES))))
    try:
        deadline = time.monotonic() + 60
        while min(game.seat.version for game in games) < FAULT_AT_VERSION:
            assert time.monotonic() < deadline, "the games did not get going"
            await asyncio.sleep(0.1)
        began = time.monotonic()
        faulting = asyncio.create_task(asyncio.to_thread(fault))
        clients = [c for g in games for c in (g.seat, g.watcher)]
        # Presence is watched from the fault's start, once it has done harm: a socket lost,
        # or the fault over (a Redis restart closes none).
        while not faulting.done() and all(c.connected.is_set() for c in clients):
            await asyncio.sleep(0.05)
        presence_after = await play.until_presence_true(
            site.url, games, began, PRESENCE_AFTER_FAULT
        )
        await faulting

        finished = [game.seat.finished.wait() for game in games]
        await asyncio.wait_for(asyncio.gather(*finished), 240)
        back = [c.connected.wait() for g in games for c in (g.seat, g.watcher)]
        await asyncio.wait_for(asyncio.gather(*back), 60)
        findings = await play.settle_and_check(site, games, within=PRESENCE_WITHIN)

        assert findings.wrong_presence == [], "presence still wrong"
        assert findings.unsound == []
        assert findings.lost == [], "\n".join(findings.lost[:4])
        report = play.Report(games, fault_ended=site.faults[-1][2])
        assert set(report.errors) <= play.EXPECTED_ERRORS, report
        took = "not within the cap" if presence_after is None else f"{presence_after:.2f} s"
        print(f"\n{site.faults[-1][0]}: {report}; presence true {took} after the fault began")
        return report
    finally:
        await asyncio.gather(*(play.close_game(game) for game in games))
