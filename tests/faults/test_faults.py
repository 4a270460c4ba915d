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

They run in the PostgreSQL + Redis pass of CI (``.ci/run``), which sets both URLs.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator

import pytest

from tests.faults import play, stack

pytestmark = [
    pytest.mark.skipif(
        not (
            os.environ.get("REDIS_URL")
            and os.environ.get("DATABASE_URL", "").startswith("postgres")
        ),
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


def test_redis_restarted(site: stack.Stack) -> None:
    report = asyncio.run(games_through(site, site.restart_redis))
    assert not report.closes, "a socket was closed while Redis was away"


def test_postgres_restarted(site: stack.Stack) -> None:
    report = asyncio.run(games_through(site, site.restart_postgres))
    assert not report.closes, "a socket was closed while PostgreSQL was away"


async def games_through(site: stack.Stack, fault: Callable[[], None]) -> play.Report:
    games = list(await asyncio.gather(*(play.open_game(site.url, n, THINK) for n in range(GAMES))))
    try:
        deadline = time.monotonic() + 60
        while min(game.seat.version for game in games) < FAULT_AT_VERSION:
            assert time.monotonic() < deadline, "the games did not get going"
            await asyncio.sleep(0.1)
        await asyncio.to_thread(fault)

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
        print(f"\n{site.faults[-1][0]}: {report}")
        return report
    finally:
        await asyncio.gather(*(play.close_game(game) for game in games))
