"""A soak: games for ten minutes in the production shape, with a fault every two minutes.

It brings up the fault tests' stack (``tests/faults/stack.py``: nginx, two Daphne
processes run by ``deploy/run.sh``, a private PostgreSQL and Redis on ports of
their own) and keeps ``--games`` games going at once through nginx, each a person's
seat against an Optimal bot with a watcher (``tests/faults/play.py``), opening a new
one whenever one ends. Every ``--fault-every`` seconds it breaks something, in
turn: kill -9 a Daphne, SIGTERM a Daphne, restart Redis, restart PostgreSQL (the
n-th fault stops Daphne n % 2). After ``--minutes`` it opens no more games, lets the
last ones finish, and prints:

- games finished, and games whose log does not replay to their tables
  (``manage.py audit_games``: a move lost or applied twice shows there);
- events a browser was sent that the log does not hold as sent;
- reconnections: how many, and the time from a lost socket to a snapshot on
  the next one (p50, p99, max); refusals and errors met on the way (a handshake
  dropped shows as ``InvalidMessage`` or ``TimeoutError``);
- rooms whose presence was still wrong 30 s after everything settled (each game's
  person and watcher close their sockets when it ends, so every room must come to
  show the bot alone, with no ghost of a socket a fault cut);
- presence as it went: every second, each room's presence rows against the sockets
  its clients hold (:class:`PresenceWatch`), and how often and how long a room was
  wrong, naming every time it was wrong for longer than 10 s;
- the HTTP 5xx answers in nginx's access log, other than ``/health/``'s 503;
- CPU time of this client and of the server's processes, and the load average.

With ``--burst N``, every ``--burst-every`` seconds (the first at ``--burst-at``) N
sockets open within two seconds into ``--burst-rooms`` new rooms, as a crowd does
when every browser reconnects at once, hold their snapshot a few seconds and close
all at once: printed for each, the sockets that got a snapshot, the handshakes
dropped or refused, the time to a snapshot, and how long the rooms took to show
nobody.

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
    .venv/bin/python benchmarks/soak.py --minutes 30 --fault-every 360 --burst 1000 \
        --churn 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import burst, quick
from benchmarks.cpu import cpu_seconds
from tests.faults import play, stack


def stack_processes(site: stack.Stack) -> list[int]:
    """The stack's root processes: deploy/run.sh, Redis, PostgreSQL's postmaster."""
    assert site.site is not None
    assert site.redis.process is not None
    postmaster = int((site.postgres.data / "postmaster.pid").read_text().split()[0])
    return [site.site.pid, site.redis.process.pid, postmaster]


async def soak(site: stack.Stack, args: argparse.Namespace) -> None:
    every: dict[str, Callable[[int], None]] = {
        # The n-th fault of the run stops Daphne n % 2: both processes get their turn.
        "kill": lambda n: site.kill_daphne(n % site.daphnes),
        "term": lambda n: site.terminate_daphne(n % site.daphnes),
        "redis": lambda n: site.restart_redis(),
        "postgres": lambda n: site.restart_postgres(),
    }
    faults = [every[name] for name in args.faults]
    started = time.monotonic()
    stop_at = started + args.minutes * 60
    done: list[play.Game] = []
    playing: set[play.Game] = set()
    failed: list[str] = []
    opened = 0
    #: Every room this soak opened a game in, and the clients that have gone into it.
    rooms: dict[str, list[play.Client]] = {}
    bursts_seen: list[BurstFigures] = []
    bursting = BurstSockets()
    watch = PresenceWatch()
    finished = asyncio.Event()

    async def one_game() -> None:
        nonlocal opened
        opened += 1
        try:
            game = await play.open_game(site.url, opened, args.think)
        except Exception as error:  # Counted and shown: a room nobody could open.
            failed.append(f"opening room {opened}: {error!r}")
            return
        rooms[game.code] = [game.seat, game.watcher]
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
                game = random.choice(list(playing))
                rooms[game.code].append(churned.visit(game, args.stay))
        await churned.all_gone()

    samples: list[Sample] = []

    async def sample() -> None:
        """Every ``--sample-every`` seconds: the Daphnes' memory, the presence rows and the
        sockets open (the clients that hold one)."""
        while True:
            clients = [c for g in playing for c in (g.seat, g.watcher)] + churned.here()
            rows = await presence_rows(site)
            open_now = sum(c.connected.is_set() for c in clients) + bursting.open
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
            await asyncio.to_thread(fault, n)
            name, began, ended = site.faults[-1]
            print(f"{began - started:6.1f} s: {name} ({ended - began:.1f} s)", flush=True)
            n += 1

    async def crowds() -> None:
        """A burst of ``--burst`` sockets every ``--burst-every`` seconds, the first at
        ``--burst-at``."""
        if args.burst <= 0:
            return
        n = 0
        while True:
            at = started + args.burst_at + n * args.burst_every
            if at >= stop_at:
                return
            await asyncio.sleep(at - time.monotonic())
            figures = await one_burst(
                site,
                bursting,
                at - started,
                sockets=args.burst,
                rooms=args.burst_rooms,
                within=args.burst_within,
                hold=args.burst_hold,
            )
            print(figures, flush=True)
            bursts_seen.append(figures)
            n += 1

    async def watch_presence() -> None:
        """Every second, each room's presence against the sockets its clients hold, until
        every socket has closed and settled."""
        while not finished.is_set():
            looked = time.monotonic()
            rows = await rows_by_room(site)
            if rows is not None:
                watch.look(rows, held_by_room(rooms), time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(finished.wait(), max(0.0, 1.0 - (time.monotonic() - looked)))
        watch.end(time.monotonic())

    watching = asyncio.create_task(watch_presence())
    try:
        await asyncio.gather(keep_playing(), break_things(), churn(), sample(), crowds())
        print(f"{time.monotonic() - started:6.1f} s: the last game finished", flush=True)
        findings = await play.settle_and_check(site, done, within=30, open_=False)
        finished.set()
        await watching
        rows_left = await presence_rows(site)
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
        if rows_left:
            # Seen within the rows' expiry (6 s): a process still confirms the socket as one
            # of its own. Older: nobody does, and a sweep has yet to take it.
            print(await asyncio.to_thread(site.postgres.query, ROWS_LEFT))
        events = [(name, began) for name, began, _ in site.faults]
        events += [(f"the burst at {b.at:.0f} s", started + b.at) for b in bursts_seen]
        print(watch.summary(started, events))
        print(memory_and_presence(samples))
        if bursts_seen:
            print(bursts_summary(bursts_seen))
        errors = server_errors(site)
        print(
            f"HTTP 5xx from nginx, other than /health/'s 503: {sum(errors.values())}"
            + "".join(f"\n  {line}: {count}" for line, count in errors.most_common())
        )
    finally:
        finished.set()
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
        await asyncio.gather(*(play.close_game(game) for game in playing))
        await churned.all_gone()


#: The presence rows left at the end: each one's room, id, seat, name, and seconds since a
#: process last confirmed it.
ROWS_LEFT = (
    "SELECT g.code, c.id, c.player_id, c.name, round(extract(epoch FROM now() - c.seen_at)) "
    "FROM games_connection c JOIN games_game g ON g.id = c.game_id ORDER BY g.code"
)

#: Each room's presence rows (one per open socket, games/live/leaving.py), by invite code.
ROWS_BY_ROOM = (
    "SELECT g.code, count(*) FROM games_connection c JOIN games_game g ON g.id = c.game_id "
    "GROUP BY g.code"
)


async def rows_by_room(site: stack.Stack) -> dict[str, int] | None:
    """The presence rows of every room that has any, or ``None`` while PostgreSQL is away."""
    try:
        text = await asyncio.to_thread(site.postgres.query, ROWS_BY_ROOM)
    except subprocess.CalledProcessError:
        return None
    rows = {}
    for line in text.splitlines():
        code, count = line.split("|")
        rows[code] = int(count)
    return rows


async def presence_rows(site: stack.Stack) -> int:
    """Every presence row, of every room; asked again while PostgreSQL is away (a fault
    restarts it, and a sample may fall in that moment)."""
    give_up_at = time.monotonic() + 120
    while True:
        rows = await rows_by_room(site)
        if rows is not None:
            return sum(rows.values())
        if time.monotonic() > give_up_at:
            raise RuntimeError("PostgreSQL did not answer for 120 s")
        await asyncio.sleep(0.5)


class PresenceWatch:
    """Every second, each room's presence rows against the sockets this client holds there.

    A room is right while its rows lie between the sockets that have their snapshot
    (their arrival is written) and the sockets open at all (one that is arriving may
    be written or not yet; one that just closed, gone or not yet). A room is wrong from
    the first look that finds it outside those bounds to the first that finds it back
    inside: that time, within a second either way, is how long presence was wrong.
    Looks while PostgreSQL is away are skipped (nothing can be read)."""

    def __init__(self) -> None:
        #: Each room wrong now: since when, and how (:meth:`how`).
        self.wrong_since: dict[str, tuple[float, str]] = {}
        #: Each time a room was wrong: its code, when it began, how long it lasted, and how
        #: it was wrong when first seen.
        self.episodes: list[tuple[str, float, float, str]] = []
        self.looks = 0

    @staticmethod
    def how(rows: int, least: int, most: int) -> str:
        """How a room's rows are wrong: too few (a socket that has its snapshot has no row:
        swept, or never written) or too many (a row of a socket that has closed)."""
        return f"{rows} rows for {least} sockets" if rows < least else f"{rows} rows, {most} open"

    def look(self, rows: dict[str, int], held: dict[str, tuple[int, int]], now: float) -> None:
        """Compare the rooms of ``held`` (the soak's own; a burst's rooms are watched by
        the burst, and a room being opened is not yet anyone's) with their rows."""
        self.looks += 1
        for code, (least, most) in held.items():
            found = rows.get(code, 0)
            if least <= found <= most:
                wrong = self.wrong_since.pop(code, None)
                if wrong is not None:
                    self.episodes.append((code, wrong[0], now - wrong[0], wrong[1]))
            elif code not in self.wrong_since:
                self.wrong_since[code] = (now, self.how(found, least, most))

    def end(self, now: float) -> None:
        for code, (began, how) in self.wrong_since.items():
            self.episodes.append((code, began, now - began, how))
        self.wrong_since.clear()

    def summary(self, started: float, events: list[tuple[str, float]]) -> str:
        """The times a room was wrong, and each over the bound, how it was wrong, with the
        last fault or burst that began before it (``events``: a name, and when it began)."""
        longest = max((episode[2] for episode in self.episodes), default=0.0)
        over = [episode for episode in self.episodes if episode[2] > PRESENCE_BOUND]
        lines = [
            f"presence watched every second ({self.looks} looks): {len(self.episodes)} times "
            f"a room was wrong, the longest {longest:.1f} s; wrong for longer than "
            f"{PRESENCE_BOUND:.0f} s: {len(over)}"
        ]
        for code, began, length, how in over[:10]:
            before = [name for name, at in sorted(events, key=lambda e: e[1]) if at <= began]
            after = f", after {before[-1]}" if before else ""
            lines.append(f"  {code} from {began - started:.0f} s for {length:.1f} s ({how}){after}")
        return "\n".join(lines)


#: How long a room's presence may be wrong (issue 28's bound).
PRESENCE_BOUND = 10.0


def held_by_room(rooms: dict[str, list[play.Client]]) -> dict[str, tuple[int, int]]:
    """For each room, the sockets its clients hold there: (with their snapshot, open).
    A room whose clients have all left holds (0, 0)."""
    return {
        code: (
            sum(client.connected.is_set() for client in clients),
            sum(client.ws is not None or client.connected.is_set() for client in clients),
        )
        for code, clients in rooms.items()
    }


@dataclass
class BurstFigures:
    """What came of one burst: each socket's outcome, the times to a snapshot, and how long
    the rooms took to show nobody once every socket closed at once."""

    at: float
    outcomes: Counter[str]
    waits: list[float]
    cleared_after: float | None

    def __str__(self) -> str:
        got = self.outcomes["snapshot"]
        others = ", ".join(f"{k}: {n}" for k, n in self.outcomes.items() if k != "snapshot")
        cleared = (
            f"{self.cleared_after:.2f} s"
            if self.cleared_after is not None
            else f"not within {BURST_CLEAR_CAP:.0f} s"
        )
        return (
            f"{self.at:6.1f} s: a burst of {sum(self.outcomes.values())} sockets: {got} "
            f"snapshots{f' ({others})' if others else ''}, time to snapshot "
            f"{play.quantiles(self.waits)}; after all closed at once, every room empty in "
            f"{cleared}"
        )


#: How long the rooms of a burst are watched for their presence to clear.
BURST_CLEAR_CAP = 60.0


class BurstSockets:
    """The sockets of the burst under way that hold their snapshot, for the samples."""

    open = 0


async def one_burst(
    site: stack.Stack,
    bursting: BurstSockets,
    at: float,
    *,
    sockets: int,
    rooms: int,
    within: float,
    hold: float,
) -> BurstFigures:
    """``sockets`` websockets through nginx into ``rooms`` new rooms, all started within
    ``within`` seconds, as every browser of a crowd reconnecting at once; each waits for
    its snapshot (30 s at most). After ``hold`` seconds all close at once (a mass close);
    the rooms are then read every half second until none shows a presence row."""
    # Asked again while the site answers 503 (PostgreSQL away: a burst may meet a fault).
    codes = [str(await play.patiently(burst.open_room, site.url)) for _ in range(rooms)]
    ws_base = "ws" + site.url.removeprefix("http")
    results = await asyncio.gather(
        *(
            burst.one_socket(
                f"{ws_base}/ws/games/{random.choice(codes)}/",
                site.url,
                random.uniform(0, within),
                30.0,
            )
            for _ in range(sockets)
        )
    )
    held = [ws for _, _, ws in results if ws is not None]
    bursting.open = len(held)
    await asyncio.sleep(hold)
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
    bursting.open = 0
    closed = time.monotonic()
    cleared = None
    while time.monotonic() - closed < BURST_CLEAR_CAP:
        rows = await rows_by_room(site)
        if rows is not None and not any(rows.get(code) for code in codes):
            cleared = time.monotonic() - closed
            break
        await asyncio.sleep(0.5)
    return BurstFigures(
        at,
        Counter(outcome for outcome, _, _ in results),
        [wait for _, wait, _ in results if wait is not None],
        cleared,
    )


def bursts_summary(bursts: list[BurstFigures]) -> str:
    """The bursts added up: sockets, snapshots, handshakes dropped (no answer, or none in
    time) and other refusals, the slowest time to a snapshot and to empty rooms."""
    outcomes: Counter[str] = sum((b.outcomes for b in bursts), Counter())
    dropped = sum(n for k, n in outcomes.items() if k.startswith("no "))
    refused = sum(outcomes.values()) - outcomes["snapshot"] - dropped
    cleared = [b.cleared_after for b in bursts]
    slowest = "never" if None in cleared else f"{max(c for c in cleared if c is not None):.2f} s"
    return (
        f"bursts: {len(bursts)}, {sum(outcomes.values())} sockets, {outcomes['snapshot']} "
        f"snapshots, {dropped} handshakes dropped, {refused} refused or closed; time to "
        f"snapshot {play.quantiles([w for b in bursts for w in b.waits])}; rooms empty after "
        f"a mass close within {slowest} at the slowest"
    )


#: A request line and its status in nginx's access log (the "combined" format).
_ACCESS = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+)[^"]*" (?P<status>\d{3}) ')


def server_errors(site: stack.Stack) -> Counter[str]:
    """The HTTP 5xx answers nginx gave, by status and path, other than ``/health/``'s
    503 (its answer while a Daphne is down, which is what nginx asks it for). A room's
    code in a path is written as ``<code>``."""
    log = site.run_dir / "nginx-access.log"
    found: Counter[str] = Counter()
    if not log.exists():
        return found
    for line in log.read_text(errors="replace").splitlines():
        match = _ACCESS.search(line)
        if match is None or not match["status"].startswith("5"):
            continue
        path = re.sub(r"^/(ws/games|g|api/games)/[^/]+/", r"/\1/<code>/", match["path"])
        if path == "/health/" and match["status"] == "503":
            continue
        found[f"{match['status']} {match['method']} {path}"] += 1
    return found


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

    def visit(self, game: play.Game, stay: float) -> play.Watcher:
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
        return watcher

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
        choices=["kill", "term", "redis", "postgres"],
        default=["kill", "term", "redis", "postgres"],
        help="the faults, in turn: kill -9 a Daphne, SIGTERM a Daphne, restart Redis, "
        "restart PostgreSQL (none given: no fault)",
    )
    parser.add_argument("--burst", type=int, default=0, help="sockets in each burst (0: no bursts)")
    parser.add_argument("--burst-rooms", type=int, default=100, help="new rooms a burst")
    parser.add_argument("--burst-every", type=float, default=300, help="seconds")
    parser.add_argument("--burst-at", type=float, default=150, help="the first, seconds in")
    parser.add_argument(
        "--burst-within", type=float, default=2.0, help="seconds a burst's sockets start over"
    )
    parser.add_argument(
        "--burst-hold", type=float, default=5.0, help="seconds the sockets stay open"
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
            "burst": 30,
            "burst_rooms": 3,
            "burst_at": 3.0,
            "burst_hold": 1.0,
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
