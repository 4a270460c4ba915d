"""Failover under load: hundreds of sockets on two Daphnes, one killed; how soon all are back.

It brings up the fault tests' stack (``tests/faults/stack.py``: nginx in front of
two Daphne processes run by ``deploy/run.sh``, a private PostgreSQL and Redis), opens
``--games`` games (a person's seat against an Optimal bot, and a watcher:
``tests/faults/play.py``) and as many more watchers spread over their rooms as make
``--sockets`` sockets, every client behaving as the room's page does. Once the games
are going it kills one Daphne (``--signal kill``: SIGKILL; ``term``: SIGTERM), and
every socket it held comes back through nginx to the other (or to its replacement,
which run.sh starts a second later). Printed:

- the time from the kill to the last of its sockets holding a snapshot again, and how
  many came back; the handshakes (from starting to open a socket to its snapshot)
  p50/p99/max, for the first burst and for the failover;
- whether anything was lost or doubled: every event any client was sent is in the
  game's log as sent, and each log replays to its table (``manage.py audit_games``);
  and every room's presence right afterwards (the person, one watcher and the extras);
- the server's CPU (nginx and the Daphnes) over the failover and over the run, this
  client's, and the load average.

It asserts nothing; it exits 1 when something was lost or a socket did not come back.
Run it as root (the private PostgreSQL runs as ``postgres``)::

    .venv/bin/python benchmarks/failover.py --sockets 500 --games 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import quick
from benchmarks.cpu import cpu_by_process, cpu_since
from tests.faults import play, stack

#: The fault comes once every game has reached this version (about round 2).
FAULT_AT_VERSION = 15


async def failover(site: stack.Stack, args: argparse.Namespace) -> bool:
    roots = [site.site.pid] if site.site else []
    games = list(
        await asyncio.gather(*(play.open_game(site.url, n, args.think) for n in range(args.games)))
    )
    extra = max(0, args.sockets - 2 * len(games))
    watchers = [play.Watcher(site.url, games[n % len(games)].code) for n in range(extra)]
    tasks = [asyncio.create_task(w.run()) for w in watchers]
    clients: list[play.Client] = [c for g in games for c in (g.seat, g.watcher)] + list(watchers)
    try:
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 120)
        first = [t for c in clients for t in c.record.handshakes]
        print(f"{len(clients)} sockets open: handshakes {play.quantiles(first)}", flush=True)
        while min(g.seat.version for g in games) < FAULT_AT_VERSION:
            await asyncio.sleep(0.1)

        closes_before = {id(c): sum(c.record.closes.values()) for c in clients}
        handshakes_before = {id(c): len(c.record.handshakes) for c in clients}
        cpu_before = cpu_by_process(roots)
        killed_at = time.monotonic()
        signum = signal.SIGKILL if args.signal == "kill" else signal.SIGTERM
        await asyncio.to_thread(site.stop_daphne, 0, signum, f"{args.signal} a Daphne")
        deadline = killed_at + args.cap
        while not all(c.connected.is_set() for c in clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        lost = [c for c in clients if sum(c.record.closes.values()) > closes_before[id(c)]]
        back = [c for c in lost if c.connected.is_set()]
        last = max((c.record.reconnected_at[-1] for c in back), default=killed_at)
        cpu_failover = cpu_since(cpu_before, roots)
        again = [t for c in lost for t in c.record.handshakes[handshakes_before[id(c)] :]]
        print(
            f"{args.signal} a Daphne: {len(back)} of its {len(lost)} sockets back, the last "
            f"{last - killed_at:.2f} s after the kill; handshakes {play.quantiles(again)}; "
            f"server CPU {cpu_failover:.1f} s over those {last - killed_at:.2f} s; "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        closes = sum((c.record.closes for c in lost), Counter())
        refusals = sum((c.record.refusals for c in clients), Counter())
        print(f"how they closed {dict(closes)}; refused on the way {dict(refusals)}")

        await asyncio.wait_for(asyncio.gather(*(g.seat.finished.wait() for g in games)), 600)
        await asyncio.wait_for(asyncio.gather(*(c.connected.wait() for c in clients)), 60)
        each = {g.code: 1 + sum(w.code == g.code for w in watchers) for g in games}
        took, _ = await play.until_watchers(
            site.url, list(each), lambda: list(each.values()), cap=60
        )
        print(
            f"presence after the failover: {'right' if took is not None else 'WRONG'} "
            f"(read {'-' if took is None else f'{took:.2f} s'} after the games ended)"
        )
        for watcher in watchers:  # The extras leave; then each room has its one watcher.
            await watcher.stop()
        findings = await play.settle_and_check(site, games, within=30)
        print(
            f"games finished {len(games) - len(findings.unsound)} of {len(games)}; events "
            f"lost or changed {len(findings.lost)}; logs that do not replay "
            f"{len(findings.unsound)}"
        )
        for problem in (findings.unsound + findings.lost)[:10]:
            print(f"  {problem}")
        return (
            len(back) == len(lost)
            and took is not None
            and not (findings.unsound or findings.lost or findings.wrong_presence)
        )
    finally:
        for watcher in watchers:
            await watcher.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(play.close_game(g) for g in games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=500, help="sockets in all")
    parser.add_argument("--games", type=int, default=10, help="games played meanwhile")
    parser.add_argument("--signal", choices=("kill", "term"), default="kill")
    parser.add_argument("--think", type=float, default=0.3, help="a player's pause, seconds")
    parser.add_argument(
        "--cap", type=float, default=120, help="seconds to wait for every socket to be back"
    )
    args = quick.parse_args(parser, {"sockets": 20, "games": 2, "think": 0.02})
    reason = stack.missing()
    if reason:
        sys.exit(f"cannot run: {reason}")
    client_before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.monotonic()
    with stack.running() as site:
        roots = [site.site.pid] if site.site else []
        server_before = cpu_by_process(roots)
        ok = asyncio.run(failover(site, args))
        server = cpu_since(server_before, roots)
    took = time.monotonic() - started
    used = resource.getrusage(resource.RUSAGE_SELF)
    client = (used.ru_utime - client_before.ru_utime) + (used.ru_stime - client_before.ru_stime)
    print(
        f"CPU: this client {client:.1f} s, the server {server:.1f} s, over {took:.1f} s; "
        f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
