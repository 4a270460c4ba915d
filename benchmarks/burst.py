"""A reconnect burst: many sockets opening at once, as every browser does after a restart.

Run it against the production shape (``deploy/run.sh``, nginx in front of several
Daphne processes), with the rate limits off for the run, since every room here is
opened from one address::

    YAHTZEE_RATE_LIMITS=false bash deploy/run.sh &
    .venv/bin/python benchmarks/burst.py --url http://127.0.0.1:8080 --sockets 1000

Without ``--url`` it starts a server of its own, as ``ws_load.py`` does (one
Daphne on a fresh SQLite file, the rate limits off), and stops it at the end.

It opens ``--rooms`` rooms through the API, then ``--sockets`` websockets spread
over them, all started within ``--within`` seconds, and waits for each one's
snapshot. It prints how many got their snapshot, how many were refused and how
(HTTP status of the handshake, or close code), and the time from a socket's start
to its snapshot (p50, p99, max), with the load average. It asserts nothing; it
exits with status 1 when a socket got no snapshot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import websockets
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import quick
from benchmarks.ws_load import Server, post_json


def open_room(url: str) -> str:
    return str(post_json(f"{url}/api/games/", {"name": "Host", "seats": 6})["code"])


async def one_socket(
    url: str, code: str, start_in: float, timeout: float
) -> tuple[str, float | None, websockets.ClientConnection | None]:
    """Open a socket to ``code`` after ``start_in`` seconds: how it went, and how long the
    snapshot took."""
    await asyncio.sleep(start_in)
    started = time.monotonic()
    ws_url = "ws" + url.removeprefix("http") + f"/ws/games/{code}/"
    try:
        ws = await websockets.connect(ws_url, origin=Origin(url), open_timeout=timeout, proxy=None)
    except websockets.InvalidStatus as error:
        return f"HTTP {error.response.status_code}", None, None
    except (OSError, TimeoutError) as error:
        return f"no connection ({type(error).__name__})", None, None
    try:
        async with asyncio.timeout(timeout):
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "snapshot":
                    return "snapshot", time.monotonic() - started, ws
    except websockets.ConnectionClosed as error:
        code_ = error.rcvd.code if error.rcvd else None
        return f"closed {code_}", None, None
    except TimeoutError:
        return "no snapshot in time", None, ws


async def burst(url: str, rooms: list[str], sockets: int, within: float, timeout: float) -> bool:
    """Open the sockets, print what came of them; whether every one got its snapshot."""
    load = os.getloadavg()[0]
    tasks = [
        one_socket(url, random.choice(rooms), random.uniform(0, within), timeout)
        for _ in range(sockets)
    ]
    began = time.monotonic()
    results = await asyncio.gather(*tasks)
    took = time.monotonic() - began
    outcomes = Counter(outcome for outcome, _, _ in results)
    waits = sorted(wait for _, wait, _ in results if wait is not None)
    print(f"{sockets} sockets over {len(rooms)} rooms, started within {within} s")
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; {took:.1f} s in all")
    for outcome, count in outcomes.most_common():
        print(f"  {outcome}: {count}")
    if waits:
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        print(
            f"time to snapshot: p50 {statistics.median(waits) * 1000:.0f} ms, "
            f"p99 {p99 * 1000:.0f} ms, max {waits[-1] * 1000:.0f} ms"
        )
    await asyncio.gather(*(ws.close() for _, _, ws in results if ws is not None))
    return outcomes["snapshot"] == sockets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url", help="the site, e.g. http://127.0.0.1:8080 (default: a server of its own)"
    )
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--within", type=float, default=2.0)
    parser.add_argument("--timeout", type=float, default=30.0)
    args = quick.parse_args(parser, {"sockets": 20, "rooms": 4, "within": 0.5})
    server = None
    if args.url is None:
        server = Server()
        server.start()
        print(f"a server of its own: {server.url} (one Daphne, SQLite, in-memory channel layer)")
    url = args.url or server.url
    try:
        rooms = [open_room(url) for _ in range(args.rooms)]
        everyone = asyncio.run(burst(url, rooms, args.sockets, args.within, args.timeout))
    finally:
        if server is not None:
            server.stop()
    return 0 if everyone else 1


if __name__ == "__main__":
    sys.exit(main())
