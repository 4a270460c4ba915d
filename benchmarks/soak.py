"""A soak: games for ten minutes in the production shape, with a fault every two minutes.

It brings up the fault tests' stack (``tests/faults/stack.py``: nginx, two Daphne
processes run by ``deploy/run.sh``, a private PostgreSQL and Redis on ports of
their own) and keeps ``--games`` games going at once, each a person's seat
against an Optimal bot with a watcher (``tests/faults/play.py``), opening a new
one whenever one ends. Every ``--fault-every`` seconds it breaks something, in
turn: kill -9 a Daphne, restart Redis, restart PostgreSQL. After ``--minutes`` it
opens no more games, lets the last ones finish, and prints:

- games finished, and games whose log does not replay to their tables
  (``manage.py audit_games``: a move lost or applied twice shows there);
- events a browser was sent that the log does not hold as sent;
- reconnections: how many, and the time from a lost socket to a snapshot on
  the next one (p50, p99, max); refusals and errors met on the way;
- rooms whose presence was still wrong 30 s after everything settled (each game's
  person and watcher close their sockets when it ends, so every room must come to
  show the bot alone, with no ghost of a socket a fault cut);
- CPU time of this client and of the server's processes, and the load average.

With ``--churn R``, watchers also come into the rooms in play, R a second on average,
and leave after about ``--stay`` seconds. Every ``--sample-every`` seconds it prints
each Daphne's resident memory (RSS), the presence rows in the database and the sockets
its clients hold, and at the end whether memory and presence stayed flat: the RSS's
growth a minute after the first fifth of the run, the most presence rows above the
sockets open, and the rows left once every socket has closed (0). ``--faults`` with
no fault named runs none (a process killed starts its memory again from nothing).

It asserts nothing. Run it as root (the private PostgreSQL runs as ``postgres``)::

    .venv/bin/python benchmarks/soak.py --minutes 10 --fault-every 120
    .venv/bin/python benchmarks/soak.py --minutes 30 --faults --churn 1 --games 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import quick
from tests.faults import play, stack


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


def stack_processes(site: stack.Stack) -> list[int]:
    """The stack's root processes: deploy/run.sh, Redis, PostgreSQL's postmaster."""
    assert site.site is not None
    assert site.redis.process is not None
    postmaster = int((site.postgres.data / "postmaster.pid").read_text().split()[0])
    return [site.site.pid, site.redis.process.pid, postmaster]


async def soak(site: stack.Stack, args: argparse.Namespace) -> None:
    every = {
        "kill": site.kill_daphne,
        "redis": site.restart_redis,
        "postgres": site.restart_postgres,
    }
    faults = [every[name] for name in args.faults]
    started = time.monotonic()
    stop_at = started + args.minutes * 60
    done: list[play.Game] = []
    playing: set[play.Game] = set()
    failed: list[str] = []
    opened = 0

    async def one_game() -> None:
        nonlocal opened
        opened += 1
        try:
            game = await play.open_game(site.url, opened, args.think)
        except Exception as error:  # Counted and shown: a room nobody could open.
            failed.append(f"opening room {opened}: {error!r}")
            return
        playing.add(game)
        await game.seat.finished.wait()
        await asyncio.gather(*(c.connected.wait() for c in (game.seat, game.watcher)))
        await play.close_game(game)  # Its person and watcher leave: the room must say so.
        playing.discard(game)
        done.append(game)

    async def keep_playing() -> None:
        running: set[asyncio.Task[None]] = set()
        while time.monotonic() < stop_at:
            while len(running) < args.games:
                task = asyncio.create_task(one_game())
                running.add(task)
                task.add_done_callback(running.discard)
            await asyncio.sleep(0.2)
        await asyncio.gather(*running)

    churned = Churn()

    async def churn() -> None:
        """Watchers come and go: ``--churn`` a second, each into a room in play, staying
        ``--stay`` seconds on average (half to one and a half times it)."""
        if args.churn <= 0:
            return
        while time.monotonic() < stop_at:
            await asyncio.sleep(random.expovariate(args.churn))
            if playing:
                churned.visit(random.choice(list(playing)), args.stay)
        await churned.all_gone()

    samples: list[Sample] = []

    async def sample() -> None:
        """Every ``--sample-every`` seconds: the Daphnes' memory, the presence rows and the
        sockets open (the clients that hold one)."""
        while True:
            clients = [c for g in playing for c in (g.seat, g.watcher)] + churned.here()
            rows = int(await asyncio.to_thread(site.postgres.query, PRESENCE_ROWS))
            open_now = sum(c.connected.is_set() for c in clients)
            samples.append(Sample(time.monotonic() - started, site.daphne_rss(), rows, open_now))
            print(f"{samples[-1]}; load {os.getloadavg()[0]:.1f}", flush=True)
            if time.monotonic() >= stop_at:
                return
            await asyncio.sleep(min(args.sample_every, max(0.0, stop_at - time.monotonic())))

    async def break_things() -> None:
        if not faults:
            return
        n = 0
        while True:
            next_fault = started + (n + 1) * args.fault_every
            if next_fault >= stop_at:
                return
            await asyncio.sleep(next_fault - time.monotonic())
            fault = faults[n % len(faults)]
            await asyncio.to_thread(fault)
            name, began, ended = site.faults[-1]
            print(f"{began - started:6.1f} s: {name} ({ended - began:.1f} s)", flush=True)
            n += 1

    try:
        await asyncio.gather(keep_playing(), break_things(), churn(), sample())
        print(f"{time.monotonic() - started:6.1f} s: the last game finished", flush=True)
        findings = await play.settle_and_check(site, done, within=30, open_=False)
        rows_left = int(await asyncio.to_thread(site.postgres.query, PRESENCE_ROWS))
        report = play.Report(done)
        print()
        print(f"games finished: {len(done)}; rooms that could not be opened: {len(failed)}")
        for problem in failed[:5]:
            print(f"  {problem}")
        print(f"games whose log does not replay to their tables: {len(findings.unsound)}")
        for problem in findings.unsound[:5]:
            print(f"  {problem}")
        print(f"events sent but not logged as sent: {len(findings.lost)}")
        for problem in findings.lost[:5]:
            print(f"  {problem}")
        print(f"browsers: {report}")
        presence = (
            f"right after {findings.presence_after:.1f} s"
            if findings.presence_after is not None
            else f"{len(findings.wrong_presence)} rooms still wrong after 30 s"
        )
        print(f"presence after settling: {presence}")
        print(
            f"watchers who came and went: {churned.joined} ({churned.refused} could not open "
            f"a socket); presence rows left once every socket closed: {rows_left}"
        )
        print(memory_and_presence(samples))
    finally:
        await asyncio.gather(*(play.close_game(game) for game in playing))
        await churned.all_gone()


#: The presence rows: one per open socket (games/live/leaving.py).
PRESENCE_ROWS = "SELECT count(*) FROM games_connection"


@dataclass
class Sample:
    """The server at one moment of the soak."""

    at: float
    rss: list[float]
    rows: int
    sockets: int

    def __str__(self) -> str:
        memory = ", ".join(f"{mib:.0f}" for mib in self.rss)
        return (
            f"{self.at:6.1f} s: Daphnes' RSS {memory} MiB; presence rows {self.rows}, "
            f"sockets open {self.sockets}"
        )


def memory_and_presence(samples: list[Sample]) -> str:
    """Whether memory and presence stayed flat: the Daphnes' RSS from the first sample
    after the first fifth of the run (imports and caches warm) to the last, and the
    presence rows beside the sockets open over all samples."""
    if len(samples) < 2:
        return "memory: too few samples"
    warm = samples[len(samples) // 5]
    last = samples[-1]
    minutes = max(1e-9, (last.at - warm.at) / 60)
    growth = [end - start for start, end in zip(warm.rss, last.rss, strict=True)]
    rows_over = max(sample.rows - sample.sockets for sample in samples)
    return (
        f"memory: Daphnes' RSS {', '.join(f'{m:.0f}' for m in warm.rss)} MiB at "
        f"{warm.at:.0f} s, {', '.join(f'{m:.0f}' for m in last.rss)} MiB at {last.at:.0f} s "
        f"({', '.join(f'{g / minutes:+.2f}' for g in growth)} MiB a minute; a process "
        f"restarted by a fault starts again from nothing); presence rows above the sockets "
        f"open, at most {rows_over} (a socket that is opening or closing may be counted on "
        f"one side only)"
    )


class Churn:
    """Watchers who come into a room, stay a while and leave."""

    def __init__(self) -> None:
        self.joined = 0
        self.refused = 0
        self._visits: dict[asyncio.Task[None], play.Watcher] = {}

    def visit(self, game: play.Game, stay: float) -> None:
        watcher = play.Watcher(game.seat.url, game.code)
        self.joined += 1

        async def stay_a_while() -> None:
            running = asyncio.create_task(watcher.run())
            try:
                await asyncio.wait_for(watcher.connected.wait(), 30)
                await asyncio.sleep(stay * random.uniform(0.5, 1.5))
            except TimeoutError:
                self.refused += 1
            finally:
                await watcher.stop()
                await asyncio.gather(running, return_exceptions=True)

        task = asyncio.create_task(stay_a_while())
        self._visits[task] = watcher
        task.add_done_callback(self._visits.pop)

    def here(self) -> list[play.Client]:
        return list(self._visits.values())

    async def all_gone(self) -> None:
        """Every watcher still here leaves now."""
        for task in list(self._visits):
            task.cancel()
        await asyncio.gather(*self._visits, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--fault-every", type=float, default=120, help="seconds")
    parser.add_argument("--games", type=int, default=20, help="games going at once")
    parser.add_argument("--think", type=float, default=0.2, help="a player's pause, seconds")
    parser.add_argument("--bot-pause-ms", type=int, default=200)
    parser.add_argument(
        "--churn", type=float, default=0.0, help="watchers coming into rooms, a second"
    )
    parser.add_argument("--stay", type=float, default=20, help="a watcher's stay, seconds")
    parser.add_argument(
        "--sample-every", type=float, default=60, help="seconds between memory samples"
    )
    parser.add_argument(
        "--faults",
        nargs="*",
        choices=["kill", "redis", "postgres"],
        default=["kill", "redis", "postgres"],
        help="the faults, in turn: kill -9 a Daphne, restart Redis, restart PostgreSQL "
        "(none given: no fault)",
    )
    args = quick.parse_args(
        parser,
        {
            "minutes": 0.2,
            "fault_every": 6,
            "games": 2,
            "faults": ["redis"],
            "think": 0.02,
            "bot_pause_ms": 0,
            "churn": 1.0,
            "stay": 2.0,
            "sample_every": 4.0,
        },
    )
    reason = stack.missing()
    if reason:
        sys.exit(reason)
    load_before = os.getloadavg()
    with stack.running(bot_pause_ms=args.bot_pause_ms) as site:
        asyncio.run(soak(site, args))
        server_cpu = cpu_seconds(stack_processes(site))
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"CPU: this client {own.ru_utime + own.ru_stime:.0f} s; the server's processes alive "
        f"at the end {server_cpu:.0f} s (a process killed or restarted took its own with "
        f"it); load average "
        f"{load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after"
    )


if __name__ == "__main__":
    main()
