"""A crowd watching one room: what a watcher's join costs as the room grows, and how long
a roll takes to reach every watcher.

    .venv/bin/python benchmarks/crowd.py                          # 10, 100, 500, 1000
    .venv/bin/python benchmarks/crowd.py --watchers 10 100 --probe 20
    .venv/bin/python benchmarks/crowd.py --url http://127.0.0.1:8000 --server-pid 1234

Without ``--url`` it starts a server of its own, as ``ws_load.py`` does (one Daphne on
a fresh SQLite file, the in-memory channel layer, the rate limits off); with
``--database-url`` and ``--redis-url``, on PostgreSQL and Redis.

A host opens a solo room and starts it. Then, for each size in ``--watchers``, the
room grows to that many watchers, ``--batch`` sockets opening at once (each waits for
its snapshot and its ``watching``, the end of a join): the server's CPU over the growth,
a join's share. ``--probe`` watchers more join one after another: the server's CPU
while they join and for ``--settle`` seconds after (a crowd's presence count is sent
at most once a second), less its CPU at rest, is a join's CPU at that size. Then the
host rolls ``--rolls`` times: the time from a roll sent to the event read by the last
watcher (the median; this client's own reading of every socket is in it), and the
server's CPU a roll (a score first when the rolls run out, sent to all as well). It
prints one row per size, with the load average; it exits with status 1 when a join
failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import websockets
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import quick
from benchmarks.ws_load import Server, post_json, read_cpu_seconds

#: The boxes the host scores in when its rolls run out, in order.
BOXES = ["chance", "ones", "twos", "threes", "fours", "fives", "sixes"]


class Room:
    """The room's sockets as this client holds them, and when each event reached them."""

    def __init__(self, url: str, code: str, timeout: float) -> None:
        self.url = url
        self.code = code
        self.timeout = timeout
        self.watchers: list[websockets.ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        #: How many watchers have read each event version, and when the last one did.
        self.reached: Counter[int] = Counter()
        self.last_at: dict[int, float] = {}
        self.everyone: dict[int, asyncio.Future[None]] = {}

    async def connect(self) -> websockets.ClientConnection:
        return await websockets.connect(
            "ws" + self.url.removeprefix("http") + f"/ws/games/{self.code}/",
            origin=Origin(self.url),
            compression=None,  # Keep this client's work per message small.
            proxy=None,
            open_timeout=self.timeout,
            max_size=2**20,
        )

    async def join(self) -> tuple[str, float]:
        """One watcher joins: how it went, and how long it took (to its ``watching``)."""
        started = time.perf_counter()
        try:
            ws = await self.connect()
        except websockets.InvalidStatus as error:
            return f"HTTP {error.response.status_code}", 0.0
        except (OSError, TimeoutError) as error:
            return f"no connection ({type(error).__name__})", 0.0
        try:
            async with asyncio.timeout(self.timeout):
                while json.loads(await ws.recv())["type"] != "watching":
                    pass
        except websockets.ConnectionClosed as error:
            return f"closed {error.rcvd.code if error.rcvd else None}", 0.0
        except TimeoutError:
            await ws.close()
            return "no snapshot in time", 0.0
        took = time.perf_counter() - started
        self.watchers.append(ws)
        self.readers.append(asyncio.create_task(self.read(ws)))
        return "joined", took

    async def read(self, ws: websockets.ClientConnection) -> None:
        with_event = '"type":"event"'
        try:
            async for text in ws:
                if isinstance(text, str) and with_event in text:
                    self.arrived(json.loads(text)["version"])
        except websockets.ConnectionClosed:
            pass

    def arrived(self, version: int) -> None:
        self.reached[version] += 1
        self.last_at[version] = time.perf_counter()
        waiting = self.everyone.get(version)
        if waiting is not None and not waiting.done() and self.reached[version] >= len(self):
            waiting.set_result(None)

    def __len__(self) -> int:
        return len(self.watchers)

    async def close(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self.watchers), return_exceptions=True)
        await asyncio.gather(*self.readers, return_exceptions=True)


class Host:
    """The room's one player: it starts the game, then rolls (and scores when it must)."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.version = 0
        self.rolls_left: int | None = None  # None: no roll yet.
        self.boxes = iter(BOXES)

    async def event(self, timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                message = json.loads(await self.ws.recv())
                if message["type"] == "error":
                    raise RuntimeError(f"the host was refused: {message}")
                if message["type"] in ("event", "snapshot"):
                    self.version = max(self.version, message["version"])
                if message["type"] == "event":
                    return message

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def start(self, token: str, timeout: float) -> None:
        await self.send(type="resume", token=token)
        await self.send(type="ping", id="seated")
        async with asyncio.timeout(timeout):
            while (message := json.loads(await self.ws.recv())) != {"type": "pong", "id": "seated"}:
                self.version = max(self.version, message.get("version") or 0)
        await self.send(type="start", version=self.version)
        while (await self.event(timeout))["data"].get("first") is None:
            pass

    async def roll(self, timeout: float) -> tuple[int, float]:
        """Roll (after scoring, when no roll is left): the roll's version, and when it was sent."""
        if self.rolls_left == 0:
            await self.send(type="score", category=next(self.boxes), version=self.version)
            await self.event(timeout)
        sent = time.perf_counter()
        await self.send(type="roll", hold=[], version=self.version)
        event = await self.event(timeout)
        self.rolls_left = event["data"]["rolls_left"]
        return int(event["version"]), sent


async def crowd(args: argparse.Namespace, url: str, pids: list[int]) -> bool:
    created = post_json(f"{url}/api/games/", {"name": "Host", "seats": 1})
    room = Room(url, created["code"], args.timeout)
    host = Host(await room.connect())
    await host.start(created["token"], args.timeout)
    failures: Counter[str] = Counter()
    at_rest, settled = await rest(pids)
    print(f"one room, {' '.join(map(str, args.watchers))} watchers; joins {args.batch} at once")
    print(
        f"load average {os.getloadavg()[0]:.2f} at the start; the server at rest: "
        f"{at_rest * 1000:.1f} ms of CPU a second (taken off the probes'), after {settled:.0f} s"
    )
    print(
        f"{'watchers':>8} {'joins':>6} {'failed':>6} {'grow CPU/join':>14} "
        f"{'CPU/join':>9} {'join p50':>9} {'join max':>9} {'roll to all':>12} {'roll CPU':>9} "
        f"{'load':>5}"
    )
    for size in args.watchers:
        grow_cpu = cpu(pids)
        grown = 0
        while len(room) < size:
            batch = min(args.batch, size - len(room))
            results = await asyncio.gather(*(room.join() for _ in range(batch)))
            failures.update(outcome for outcome, _ in results if outcome != "joined")
            grown += batch
            if all(outcome != "joined" for outcome, _ in results):
                break  # Nobody gets in: no use trying on.
        grow = (cpu(pids) - grow_cpu) / grown * 1000 if grown and pids else None
        await asyncio.sleep(args.settle)  # The growth's last presence count goes out.
        # The probe, and as long a tail after it as the coalesced presence count needs.
        probe_from, began = cpu(pids), time.perf_counter()
        took = []
        for _ in range(args.probe):
            outcome, wait = await room.join()
            if outcome == "joined":
                took.append(wait)
            else:
                failures[outcome] += 1
        await asyncio.sleep(args.settle)
        spent = cpu(pids) - probe_from - at_rest * (time.perf_counter() - began)
        per_join = spent / max(1, len(took)) * 1000 if pids else None
        rolls_from = cpu(pids)
        rolls = [await roll_to_all(room, host, args.timeout) for _ in range(args.rolls)]
        roll_cpu = (cpu(pids) - rolls_from) / args.rolls * 1000 if pids else None
        reached = [took for took in rolls if took is not None]
        print(
            f"{len(room):>8} {grown + args.probe:>6} {sum(failures.values()):>6} "
            f"{shown(grow, 'ms'):>14} {shown(per_join, 'ms'):>9} "
            f"{shown(statistics.median(took) * 1000 if took else None, 'ms'):>9} "
            f"{shown(max(took) * 1000 if took else None, 'ms'):>9} "
            f"{shown(statistics.median(reached) if reached else None, 'ms'):>12} "
            f"{shown(roll_cpu, 'ms'):>9} {os.getloadavg()[0]:>5.2f}"
        )
    for outcome, count in failures.most_common():
        print(f"  failed joins: {outcome}: {count}")
    used = resource.getrusage(resource.RUSAGE_SELF)
    print(f"CPU: this client {used.ru_utime + used.ru_stime:.1f} s")
    await room.close()
    await host.ws.close()
    return not failures


async def roll_to_all(room: Room, host: Host, timeout: float) -> float | None:
    """Roll, and the milliseconds until the last watcher read the roll."""
    version, sent = await host.roll(timeout)
    if not len(room):
        return None
    if room.reached[version] < len(room):  # Some have not read it yet: wait for them.
        everyone = room.everyone[version] = asyncio.get_running_loop().create_future()
        async with asyncio.timeout(timeout):
            await everyone
    return (room.last_at[version] - sent) * 1000


async def rest(pids: list[int], most: float = 120.0) -> tuple[float, float]:
    """Wait for the server to be at rest (a game's start may load the strategy's tables):
    its CPU a second then, and the seconds waited."""
    began = time.perf_counter()
    while pids and time.perf_counter() - began < most:
        before = cpu(pids)
        await asyncio.sleep(2.0)
        rate = (cpu(pids) - before) / 2.0
        if rate < 0.05:
            return rate, time.perf_counter() - began
    return 0.0, time.perf_counter() - began


def cpu(pids: list[int]) -> float:
    seconds = read_cpu_seconds(pids) if pids else None
    return seconds[0] if seconds else 0.0


def shown(value: float | None, unit: str) -> str:
    return "-" if value is None else f"{value:.1f} {unit}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="the site (default: a server of its own)")
    parser.add_argument("--server-pid", type=int, nargs="*", default=[], help="with --url")
    parser.add_argument("--watchers", type=int, nargs="+", default=[10, 100, 500, 1000])
    parser.add_argument("--batch", type=int, default=50, help="sockets opening at once")
    parser.add_argument("--probe", type=int, default=10, help="joins measured at each size")
    parser.add_argument("--rolls", type=int, default=3, help="rolls at each size (the median)")
    parser.add_argument("--settle", type=float, default=1.2, help="seconds at rest, and after")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--database-url")
    parser.add_argument("--redis-url")
    args = quick.parse_args(parser, {"watchers": [2, 5], "batch": 2, "probe": 1, "rolls": 1})
    server = None
    if args.url is None:
        server = Server(database_url=args.database_url, redis_url=args.redis_url)
        server.start()
        store = "PostgreSQL" if args.database_url else "SQLite"
        layer = "Redis" if args.redis_url else "the in-memory channel layer"
        print(f"a server of its own: {server.url} (one Daphne, {store}, {layer})")
    url = args.url or server.url
    pids = server.pids if server is not None else args.server_pid
    try:
        return 0 if asyncio.run(crowd(args, url, pids)) else 1  # 1: a join failed.
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
