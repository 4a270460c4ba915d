"""How soon a command is answered while PostgreSQL is away, and how soon play resumes.

It brings up the fault tests' stack (``tests/faults/stack.py``: nginx, two Daphne
processes, a private PostgreSQL and Redis) and, ``--outages`` times, opens ``--rooms``
solo games, stops PostgreSQL as a crash does (``--hang``: freezes it, as a hung host
or a network that drops packets), sends ``--commands`` rolls from every
room while it is away (each waits for its answer before the next: a player clicking
again), starts it again and plays the games to their end (``tests/faults/outage.py``).
Printed: the time to each answer while the database was away (p50, p90, max), the
time from its return to each room's first accepted move, what the answers were, any
move lost or applied twice, the CPU of this client and of the server, and the load.

To compare with the code before the breaker, run the same script from a checkout of
it (copy this file and ``tests/faults/outage.py`` there). It asserts nothing. Run it
as root (the private PostgreSQL runs as ``postgres``)::

    .venv/bin/python benchmarks/outage.py --rooms 8 --commands 5 --outages 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import quick
from benchmarks.cpu import cpu_seconds
from tests.faults import outage, stack


async def measure(site: stack.Stack, args: argparse.Namespace) -> outage.Outage:
    total = outage.Outage()
    for n in range(args.outages):
        found = await outage.through_an_outage(
            site, args.rooms, args.commands, args.away, hang=args.hang
        )
        print(f"outage {n + 1}: {found}; load {os.getloadavg()[0]:.1f}", flush=True)
        total.answers_away += found.answers_away
        total.codes_away += found.codes_away
        total.resumed += found.resumed
        total.problems += found.problems
        total.moves_accepted += found.moves_accepted
        if found.versions_after != found.versions_before:
            total.problems.append(
                f"applied while away: {found.versions_before} -> {found.versions_after}"
            )
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=8, help="solo games at once")
    parser.add_argument("--commands", type=int, default=5, help="rolls per room while away")
    parser.add_argument("--outages", type=int, default=3, help="outages, one after another")
    parser.add_argument(
        "--away", type=float, default=0.0, help="seconds PostgreSQL stays away after the rolls"
    )
    parser.add_argument(
        "--hang",
        action="store_true",
        help="freeze PostgreSQL (SIGSTOP: a hung host) instead of stopping it as a crash does",
    )
    args = quick.parse_args(parser, {"rooms": 2, "commands": 2, "outages": 1})
    reason = stack.missing()
    if reason:
        sys.exit(f"cannot run: {reason}")
    with stack.running() as site:
        roots = [site.site.pid] if site.site else []
        server_before = cpu_seconds(roots)
        client_before = resource.getrusage(resource.RUSAGE_SELF)
        started = time.monotonic()
        total = asyncio.run(measure(site, args))
        took = time.monotonic() - started
        server = cpu_seconds(roots) - server_before
    client_after = resource.getrusage(resource.RUSAGE_SELF)
    client = (client_after.ru_utime - client_before.ru_utime) + (
        client_after.ru_stime - client_before.ru_stime
    )
    print(f"all outages: {total}")
    print(f"moves lost or applied twice, or applied while away: {len(total.problems)}")
    for problem in total.problems[:10]:
        print(f"  {problem}")
    print(
        f"CPU: this client {client:.1f} s, the server {server:.1f} s, over {took:.1f} s; "
        f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
