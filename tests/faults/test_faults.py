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
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from tests.faults import play, stack

pytestmark = pytest.mark.skipif(
    not (os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postgres")),
    reason="the PostgreSQL + Redis pass runs the fault tests",
)

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


class Report:
    """What the browsers lived through, added up over the games."""

    def __init__(self, games: list[play.Game]) -> None:
        clients = [c for g in games for c in (g.seat, g.watcher)]
        self.closes: Counter[str] = sum((c.record.closes for c in clients), Counter())
        self.refusals: Counter[str] = sum((c.record.refusals for c in clients), Counter())
        self.errors: Counter[str] = sum((c.record.errors for c in clients), Counter())
        self.reconnects = sorted(r for c in clients for r in c.record.reconnects)
        self.in_doubt = sum(c.record.in_doubt for c in clients)

    def __str__(self) -> str:
        times = self.reconnects
        p50 = f"{statistics.median(times):.2f}" if times else "-"
        worst = f"{times[-1]:.2f}" if times else "-"
        return (
            f"closes {dict(self.closes)}, refusals {dict(self.refusals)}, errors "
            f"{dict(self.errors)}, {len(times)} reconnections (p50 {p50} s, max {worst} s), "
            f"{self.in_doubt} commands in doubt"
        )


async def games_through(site: stack.Stack, fault: Callable[[], None]) -> Report:
    games = list(await asyncio.gather(*(play.open_game(site.url, n, THINK) for n in range(GAMES))))
    codes = [game.code for game in games]
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
        settled = time.monotonic()

        while True:  # Presence heals within PRESENCE_WITHIN of settling.
            audits = await asyncio.to_thread(site.audit, codes)
            wrong = [a for a in audits if (a["connected"], a["watchers"]) != ([True, True], 1)]
            if not wrong:
                break
            assert time.monotonic() - settled < PRESENCE_WITHIN, f"presence still wrong: {wrong}"
            await asyncio.sleep(1)

        assert [a["problems"] for a in audits] == [[] for _ in audits]
        assert {a["status"] for a in audits} == {"finished"}
        problems = []
        for game in games:
            exported = await asyncio.to_thread(play.export, site.url, game.code)
            problems += play.lost_or_changed(game, exported)
        assert problems == [], "\n".join(problems[:4])
        report = Report(games)
        assert set(report.errors) <= play.EXPECTED_ERRORS, report
        print(f"\n{site.faults[-1][0]}: {report}")
        return report
    finally:
        await asyncio.gather(*(play.close_game(game) for game in games))
