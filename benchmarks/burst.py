"""A reconnect burst: many sockets opening at once, as every browser does after a restart.

Run it against the production shape (``deploy/run.sh``, nginx in front of several
Daphne processes), with the rate limits off for the run, since every room here is
opened from one address::

    YAHTZEE_RATE_LIMITS=false bash deploy/run.sh &
    .venv/bin/python benchmarks/burst.py --url http://127.0.0.1:8080 --sockets 1000

Without ``--url`` it starts a server of its own, as ``ws_load.py`` does (one
Daphne on a fresh SQLite file, the rate limits off), and stops it at the end; with
``--floor`` it first runs the same burst against a server of the bare relay
(``benchmarks/relay.py``: a socket joins its room's group and is sent a snapshot, no
database, no game), and prints the site's figures as multiples of the floor's, measured
in the same invocation and so at about the same load. Then it also prints the server's
CPU per handshake.

It opens ``--rooms`` rooms through the API, then ``--sockets`` websockets spread
over them, all started within ``--within`` seconds, and waits for each one's
snapshot. It prints how many got their snapshot, how many were refused and how
(HTTP status of the handshake, or close code), and the time from a socket's start
to its snapshot (p50, p99, max), with the load average. It also counts what each socket
was sent after its snapshot until the whole burst had its snapshots, by type: in a burst,
mostly the rooms' presence, which grows with the burst's length. It asserts nothing; it
exits with status 1 when a socket got no snapshot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import websockets
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import quick
from benchmarks.cpu import cpu_seconds
from benchmarks.ws_load import Server, post_json


def open_room(url: str) -> str:
    return str(post_json(f"{url}/api/games/", {"name": "Host", "seats": 6})["code"])


async def one_socket(
    ws_url: str,
    origin: str,
    start_in: float,
    timeout: float,
    sent_after: Counter[str] | None = None,
) -> tuple[str, float | None, websockets.ClientConnection | None]:
    """Open a socket to ``ws_url`` after ``start_in`` seconds: how it went, and how long
    the snapshot took. From then on, what it is sent is counted by type in ``sent_after``,
    if given (until :func:`burst` stops the counting)."""
    await asyncio.sleep(start_in)
    started = time.monotonic()
    try:
        ws = await websockets.connect(
            ws_url, origin=Origin(origin), open_timeout=timeout, proxy=None
        )
    except websockets.InvalidStatus as error:
        return f"HTTP {error.response.status_code}", None, None
    except (OSError, TimeoutError, websockets.InvalidHandshake) as error:
        # InvalidMessage: the server closed the connection without answering (a handshake
        # dropped).
        return f"no connection ({type(error).__name__})", None, None
    try:
        async with asyncio.timeout(timeout):
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "snapshot":
                    if sent_after is not None:
                        COUNTING.add(asyncio.create_task(count_sent(ws, sent_after)))
                    return "snapshot", time.monotonic() - started, ws
    except websockets.ConnectionClosed as error:
        code_ = error.rcvd.code if error.rcvd else None
        return f"closed {code_}", None, None
    except TimeoutError:
        return "no snapshot in time", None, ws


#: The tasks counting what sockets are sent after their snapshot.
COUNTING: set[asyncio.Task[None]] = set()


async def count_sent(ws: websockets.ClientConnection, sent: Counter[str]) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        while True:
            sent[json.loads(await ws.recv())["type"]] += 1


@dataclass
class Burst:
    """What came of one burst."""

    everyone: bool
    #: Seconds from each socket's start to its snapshot, sorted.
    waits: list[float]
    #: The server's CPU seconds over the burst (``None`` for a server not started here).
    cpu: float | None

    def p(self, q: float) -> float:
        return self.waits[min(len(self.waits) - 1, int(len(self.waits) * q))]


async def burst(
    url: str, paths: list[str], sockets: int, within: float, timeout: float, pids: list[int]
) -> Burst:
    """Open the sockets, print what came of them."""
    load = os.getloadavg()[0]
    ws_base = "ws" + url.removeprefix("http")
    sent_after: Counter[str] = Counter()
    tasks = [
        one_socket(
            ws_base + random.choice(paths), url, random.uniform(0, within), timeout, sent_after
        )
        for _ in range(sockets)
    ]
    cpu_before = cpu_seconds(pids) if pids else 0.0
    began = time.monotonic()
    results = await asyncio.gather(*tasks)
    took = time.monotonic() - began
    cpu = cpu_seconds(pids) - cpu_before if pids else None
    for counting in COUNTING:
        counting.cancel()
    await asyncio.gather(*COUNTING, return_exceptions=True)
    COUNTING.clear()
    outcomes = Counter(outcome for outcome, _, _ in results)
    waits = sorted(wait for _, wait, _ in results if wait is not None)
    print(f"{sockets} sockets over {len(paths)} rooms, started within {within} s")
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; {took:.1f} s in all")
    for outcome, count in outcomes.most_common():
        print(f"  {outcome}: {count}")
    found = Burst(outcomes["snapshot"] == sockets, waits, cpu)
    if waits:
        print(
            f"time to snapshot: p50 {statistics.median(waits) * 1000:.0f} ms, "
            f"p99 {found.p(0.99) * 1000:.0f} ms, max {waits[-1] * 1000:.0f} ms"
        )
    after = ", ".join(f"{kind} {count}" for kind, count in sent_after.most_common()) or "nothing"
    print(f"sent after their snapshots, until the last snapshot: {after}")
    if cpu is not None:
        print(f"server CPU: {cpu:.2f} s, {cpu / sockets * 1000:.2f} ms a socket")
    await asyncio.gather(*(ws.close() for _, _, ws in results if ws is not None))
    return found


def run(app: str, url: str | None, args: argparse.Namespace) -> Burst:
    """The burst against ``url``, or against a server of ``app`` started for it."""
    server = None
    if url is None:
        server = Server(app=app)
        server.start()
        print(f"a server of its own ({app}): {server.url} (one Daphne, SQLite, in memory)")
        url = server.url
    try:
        if app == "floor":
            paths = [f"/ws/relay/room-{n}/" for n in range(args.rooms)]
        else:
            paths = [f"/ws/games/{open_room(url)}/" for _ in range(args.rooms)]
        pids = server.pids if server is not None else []
        return asyncio.run(burst(url, paths, args.sockets, args.within, args.timeout, pids))
    finally:
        if server is not None:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url", help="the site, e.g. http://127.0.0.1:8080 (default: a server of its own)"
    )
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--within", type=float, default=2.0)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument(
        "--floor",
        action="store_true",
        help="first the same burst against the bare relay, for ratios (not with --url)",
    )
    args = quick.parse_args(parser, {"sockets": 8, "rooms": 2, "within": 0.5})
    if args.floor and args.url:
        parser.error("--floor starts servers of its own: leave out --url")
    floor = run("floor", None, args) if args.floor else None
    site = run("game", args.url, args)
    if floor is not None and floor.waits and site.waits:
        print(
            "the site against the floor: time to snapshot "
            f"p50 {statistics.median(site.waits) / statistics.median(floor.waits):.1f}x, "
            f"p99 {site.p(0.99) / floor.p(0.99):.1f}x"
            + (f"; server CPU {site.cpu / floor.cpu:.1f}x" if site.cpu and floor.cpu else "")
        )
    return 0 if site.everyone else 1


if __name__ == "__main__":
    sys.exit(main())
