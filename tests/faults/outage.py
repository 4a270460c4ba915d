"""Commands sent while PostgreSQL is away, one at a time, timed: what a player meets.

:func:`through_an_outage` opens solo rooms through nginx (a person playing alone, no
clock, no bot: nothing moves unless the client asks), plays each a little, stops the
stack's PostgreSQL as a crash does, and sends every room's socket the same roll,
again and again: each must be answered ``unavailable``, and the time to each answer
is kept. Then it starts PostgreSQL again, asks each room again until a roll is
accepted (the time from the database's return to the first accepted command is kept)
and plays every game to its end, counting the moves the server accepted.

What it returns, :class:`Outage`, has what a test checks (nothing applied while
away, every accepted move in the log once) and what the benchmark prints (the answer
times). Used by ``tests/faults/test_faults.py`` and ``benchmarks/outage.py``.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import websockets
from websockets.typing import Origin

from tests.faults import play

if TYPE_CHECKING:
    from tests.faults.stack import Stack

Message = dict[str, Any]

#: What a move's answer may be, besides its event.
MOVES = ("rolled", "scored", "finished")
#: Seconds between two tries of a command answered ``unavailable`` once the database is
#: started again.
RETRY_PAUSE = 0.1
#: Seconds a frozen PostgreSQL is let go after, answered or not.
HANG_CAP = 15.0
#: Seconds between two moves of a game played to its end: under the socket's limit of
#: 10 messages a second (docs/protocol.md, "Limits").
PACE = 0.125


@dataclass
class Table:
    """One solo room and its socket; the newest version this socket has seen."""

    code: str
    ws: websockets.ClientConnection
    version: int = 0
    #: The turn as the last snapshot or ``rolled`` event showed it.
    rolls_left: int = 3
    options: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    #: Moves the server accepted (each answered by its event), by the event's version.
    accepted: dict[int, Message] = field(default_factory=dict)
    sent: int = 0

    async def ask(self, **command: Any) -> tuple[Message, float]:
        """Send one command and wait for its answer: the error that names its id, or the
        event it made. The answer and the seconds it took."""
        self.sent += 1
        command_id = f"{command['type']}-{self.sent}"
        started = time.monotonic()
        await self.ws.send(json.dumps({**command, "id": command_id}))
        while True:
            message = json.loads(await self.ws.recv())
            # A message refused as rate_limited was not read, not even its id: with one
            # command on its way at a time, an error without an id is its answer.
            if message["type"] == "error" and message.get("id") in (command_id, None):
                return message, time.monotonic() - started
            if message["type"] == "event" and message["version"] > self.version:
                self.version = message["version"]
                self.read(message)
                if message["kind"] in MOVES:
                    self.accepted[message["version"]] = {
                        "kind": message["kind"],
                        "data": message["data"],
                    }
                    return message, time.monotonic() - started

    def read(self, event: Message) -> None:
        data = event["data"]
        if event["kind"] == "rolled":
            self.rolls_left, self.options = data["rolls_left"], data["options"]
        elif event["kind"] == "scored":
            self.rolls_left, self.options = 3, {}
        elif event["kind"] == "finished":
            self.finished = True

    async def move(self) -> tuple[Message, float]:
        """The next move of a simple player: roll while it has rolls and nothing scores 25,
        then score the best box."""
        if self.rolls_left == 3 or (self.rolls_left and max(self.options.values()) < 25):
            return await self.ask(type="roll", version=self.version)
        best = max(self.options, key=lambda box: self.options[box])
        return await self.ask(type="score", category=best, version=self.version)


@dataclass
class Outage:
    """What the rooms met, for the test to check and the benchmark to print."""

    #: Seconds to each answer while PostgreSQL was away, and the answers' codes.
    answers_away: list[float] = field(default_factory=list)
    codes_away: list[str] = field(default_factory=list)
    #: Each room's version just before the outage and just before its first move accepted
    #: once the database was back: equal when nothing was applied meanwhile.
    versions_before: list[int] = field(default_factory=list)
    versions_after: list[int] = field(default_factory=list)
    #: Seconds from PostgreSQL's return (its ``pg_ctl start`` done, or SIGCONT) to each room's first
    #: accepted command.
    resumed: list[float] = field(default_factory=list)
    #: Problems found in the logs once the games were over (empty when sound).
    problems: list[str] = field(default_factory=list)
    moves_accepted: int = 0

    def quantile(self, times: list[float], q: float) -> float:
        ordered = sorted(times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    def __str__(self) -> str:
        away, back = self.answers_away, self.resumed
        p50, p90 = (self.quantile(away, q) * 1000 for q in (0.5, 0.9))
        return (
            f"{len(away)} commands while PostgreSQL was away, answered "
            f"{sorted(set(self.codes_away))}: p50 {p50:.1f} ms, p90 {p90:.1f} ms, "
            f"max {max(away, default=0) * 1000:.1f} ms; "
            f"play resumed after its return in {self.quantile(back, 0.5):.2f} s (p50), "
            f"{max(back, default=0):.2f} s (max); {self.moves_accepted} moves accepted"
        )


async def open_table(url: str, number: int) -> Table:
    """A solo room through the API, its seat's socket, and the game started."""
    created = await play.patiently(
        play.post_json, f"{url}/api/games/", {"name": f"Solo {number}", "seats": 1}
    )
    ws_url = "ws" + url.removeprefix("http") + f"/ws/games/{created['code']}/"
    ws = await websockets.connect(ws_url, origin=Origin(url), open_timeout=30)
    table = Table(created["code"], ws)
    await ws.send(json.dumps({"type": "resume", "token": created["token"]}))
    await table_snapshot(table)
    await ws.send(json.dumps({"type": "start", "version": table.version}))
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "error":
            raise AssertionError(f"{table.code} did not start: {message}")
        if message["type"] == "event" and message["kind"] == "started":
            table.version = message["version"]
            return table


async def table_snapshot(table: Table) -> Message:
    """Read up to this socket's next snapshot; the table as it shows."""
    while True:
        message = json.loads(await table.ws.recv())
        if message["type"] == "snapshot":
            table.version = message["version"]
            turn = message["turn"]
            if turn is not None:
                table.rolls_left, table.options = turn["rolls_left"], turn["options"] or {}
            table.finished = message["game"]["status"] == "finished"
            return dict(message)


async def through_an_outage(
    site: Stack, rooms: int, commands: int, away_after: float = 0.0, hang: bool = False
) -> Outage:
    """``rooms`` solo games, ``commands`` rolls from each while PostgreSQL is away; the
    database stays away ``away_after`` seconds more once they are answered. ``hang``:
    PostgreSQL is frozen (SIGSTOP) rather than stopped, as a hung host or a network
    that drops packets; it is let go after :data:`HANG_CAP` seconds even if the
    commands are not answered by then (they were not, before the checks had a bound)."""
    tables = [await open_table(site.url, n) for n in range(rooms)]
    outage = Outage()
    try:
        for table in tables:  # Two moves each, so the pool's connections are in use.
            for _ in range(2):
                await table.move()
        outage.versions_before = [table.version for table in tables]

        if hang:
            site.postgres.freeze()
            thawed = asyncio.get_running_loop().call_later(HANG_CAP, site.postgres.thaw)
        else:
            await asyncio.to_thread(site.postgres.stop, "immediate")
        for _ in range(commands):
            answers = await asyncio.gather(
                *(table.ask(type="roll", version=table.version) for table in tables)
            )
            outage.answers_away += [seconds for _, seconds in answers]
            outage.codes_away += [answer.get("code", answer["type"]) for answer, _ in answers]
        await asyncio.sleep(away_after)
        if hang:
            thawed.cancel()
            site.postgres.thaw()
        else:
            await asyncio.to_thread(site.postgres.start)
        back_at = time.monotonic()

        async def resume(table: Table) -> tuple[float, int]:
            """Until a move is accepted: the seconds since the database's return, and
            the version the game had before that move."""
            while True:
                answer, _ = await table.move()
                if answer["type"] == "event":
                    return time.monotonic() - back_at, answer["version"] - 1
                if answer["code"] == "stale":  # Not expected: nothing moves the game.
                    await table.ws.send(json.dumps({"type": "snapshot"}))
                    await table_snapshot(table)
                # A player clicks again soon, not as fast as the answers come (the
                # breaker's answer takes a millisecond, and the socket's limit is 10 a
                # second): this pause bounds how soon the return is seen.
                await asyncio.sleep(RETRY_PAUSE if answer["code"] != "rate_limited" else 1.0)

        resumed = await asyncio.gather(*(resume(table) for table in tables))
        outage.resumed = [seconds for seconds, _ in resumed]
        outage.versions_after = [version for _, version in resumed]
        await asyncio.gather(*(play_out(table) for table in tables))
    finally:
        for table in tables:
            await table.ws.close()
    outage.moves_accepted = sum(len(table.accepted) for table in tables)
    outage.problems = await check_logs(site, tables)
    return outage


async def play_out(table: Table) -> None:
    while not table.finished:
        answer, _ = await table.move()
        if answer["type"] == "error":
            raise AssertionError(f"{table.code}: {answer}")
        await asyncio.sleep(PACE)  # On a quiet machine the answers come faster than this.


async def check_logs(site: Stack, tables: list[Table]) -> list[str]:
    """Every accepted move in its game's log once, as it was answered, and no other move;
    every log replays to its table (``manage.py audit_games``)."""
    problems = []
    for table in tables:
        exported = await asyncio.to_thread(play.export, site.url, table.code)
        logged = {
            e["seq"]: {"kind": e["kind"], "data": e["data"]}
            for e in exported["events"]
            if e["kind"] in MOVES
        }
        if logged != table.accepted:
            missing = sorted(set(table.accepted) - set(logged))
            extra = sorted(set(logged) - set(table.accepted))
            problems.append(f"{table.code}: accepted but not logged {missing}, logged {extra}")
    audits = await asyncio.to_thread(site.audit, [table.code for table in tables])
    problems += [f"{a['code']}: {a['status']} {a['problems']}" for a in audits if a["problems"]]
    problems += [f"{a['code']}: {a['status']}" for a in audits if a["status"] != "finished"]
    return problems
