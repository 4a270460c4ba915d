"""The production shape on this machine, with services of its own to break.

:class:`Stack` starts a private PostgreSQL cluster and a private Redis on ports of
their own (never the shared ones on 5432 and 6379, which other work uses), then
``deploy/run.sh`` against them: nginx in front of two Daphne processes, which
run.sh starts again when one dies. The faults are real: :meth:`Stack.kill_daphne`
sends SIGKILL, :meth:`Stack.terminate_daphne` SIGTERM, :meth:`Stack.restart_redis` and
:meth:`Stack.restart_postgres` stop the service (PostgreSQL in immediate mode, as a crash
does), keep it away for a while and start it again.

Used by the fault tests (``tests/faults/test_faults.py``) and the soak benchmark
(``benchmarks/soak.py``).
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_ports(count: int) -> list[int]:
    """``count`` consecutive TCP ports nothing listens on now."""
    for base in range(21000, 40000, 10):
        ports = list(range(base, base + count))
        if all(_free(port) for port in ports):
            return ports
    raise RuntimeError("no free ports")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while _free(port):
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing answers on port {port}")
        time.sleep(0.1)


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server's bin directory on this machine (Debian's layout)."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    found.sort(key=lambda path: int(path.split("/")[4]))
    return Path(found[-1]).parent if found else None


def missing() -> str | None:
    """Why this machine cannot run the stack, or ``None`` if it can."""
    if postgres_bin() is None:
        return "no PostgreSQL server binaries under /usr/lib/postgresql"
    if shutil.which("redis-server") is None:
        return "no redis-server"
    if shutil.which("nginx") is None and os.geteuid() != 0:
        return "no nginx, and only root may install it"
    return None


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on ``port``, its data in a temporary directory."""

    def __init__(self, port: int) -> None:
        bin_dir = postgres_bin()
        assert bin_dir is not None
        self.bin = bin_dir
        self.port = port
        self.dir = Path(tempfile.mkdtemp(prefix="yahtzee-pg-"))
        self.data = self.dir / "data"
        # The server refuses to run as root: as root, it runs as the postgres user.
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/yahtzee"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / program), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.dir,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        log = str(self.dir / "log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "start")

    def create_database(self) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "yahtzee")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def start_if_stopped(self) -> None:
        if not (self.data / "postmaster.pid").exists():
            self.start()

    def freeze(self) -> None:
        """Stop every process of the cluster with SIGSTOP: a server that hangs (a frozen
        host, a network that drops packets), where a crash refuses connections at once.
        Connections are accepted by the kernel and never answered."""
        self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """Let a frozen cluster run again (nothing, if it is not frozen)."""
        if (self.data / "postmaster.pid").exists():
            self._signal(signal.SIGCONT)

    def _signal(self, number: signal.Signals) -> None:
        """Send ``number`` to every process of the cluster. A backend may exit between
        ``pgrep`` listing it and the signal (its client closed, as a pool's cleanup does):
        it needs no signal then."""
        for pid in self._processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, number)

    def _processes(self) -> list[int]:
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(
            ["pgrep", "-P", str(postmaster)], capture_output=True, text=True, check=False
        ).stdout.split()
        return [postmaster, *map(int, children)]

    def query(self, sql: str) -> str:
        """``sql``'s result through psql, unaligned, without headers."""
        result = subprocess.run(
            [
                *self.as_user,
                str(self.bin / "psql"),
                *("-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", "yahtzee"),
                *("-tAc", sql),
            ],
            check=True,
            capture_output=True,
            text=True,
            cwd=self.dir,
        )
        return result.stdout.strip()

    def remove(self) -> None:
        # A frozen cluster cannot stop: pg_ctl would wait its minute, and leave it behind.
        with contextlib.suppress(OSError, ValueError):
            self.thaw()
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    """A Redis on ``port`` that keeps nothing on disk: a restart loses everything."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                    *("--save", "", "--appendonly", "no", "--maxclients", "10000"),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@dataclass
class Stack:
    """nginx, two Daphnes, a private PostgreSQL and Redis; :meth:`up` starts them all."""

    daphnes: int = 2
    #: Milliseconds a bot waits before each move (the site's default is 900).
    bot_pause_ms: int = 30
    run_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="yahtzee-stack-")))
    site: subprocess.Popen[bytes] | None = None
    #: When each fault began and ended, by name, for the report.
    faults: list[tuple[str, float, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        postgres_port, redis_port, self.port, *daphne_ports = free_ports(3 + self.daphnes)
        self.daphne_ports = daphne_ports
        self.postgres = PrivatePostgres(postgres_port)
        self.redis = PrivateRedis(redis_port, self.run_dir / "redis.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def up(self) -> None:
        self.postgres.start()
        self.postgres.create_database()
        self.redis.start()
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "DEBUG")
        }
        environment.update(
            DATABASE_URL=self.postgres.url,
            REDIS_URL=self.redis.url,
            PORT=str(self.port),
            DAPHNES=str(self.daphnes),
            FIRST_DAPHNE_PORT=str(self.daphne_ports[0]),
            RUN_DIR=str(self.run_dir),
            # This interpreter's environment: run.sh installs nothing into it.
            VIRTUAL_ENV=sys.prefix,
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            SECRET_KEY="fault-tests-only-" + "k3Jd9QwL0pXz7RtY2vBn5MsC8hGf4aEu",
            YAHTZEE_RATE_LIMITS="false",  # Every room here comes from one address.
            YAHTZEE_BOT_PAUSE_MS=str(self.bot_pause_ms),
        )
        with (self.run_dir / "run.log").open("ab") as log:
            self.site = subprocess.Popen(
                ["bash", str(ROOT / "deploy" / "run.sh")],
                cwd=ROOT,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Its own process group, to stop it all at the end.
            )
        deadline = time.monotonic() + 300  # The first run may install nginx.
        while self.health() != 200:
            if self.site.poll() is not None:
                raise RuntimeError(f"deploy/run.sh exited:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the site did not come up:\n{self.log_tail()}")
            time.sleep(0.5)

    def down(self) -> None:
        if self.site is not None and self.site.poll() is None:
            self.site.send_signal(signal.SIGTERM)
            try:
                self.site.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.site.pid, signal.SIGKILL)
                self.site.wait()
        self.redis.stop()
        self.postgres.remove()
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def health(self) -> int | None:
        """``/health/``'s status through nginx, or ``None`` when nothing answers."""
        try:
            with urllib.request.urlopen(f"{self.url}/health/", timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return None

    def log_tail(self, lines: int = 40) -> str:
        text = (self.run_dir / "run.log").read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    # ------------------------------------------------------------------ the faults

    def daphne_pid(self, index: int = 0) -> int:
        return int((self.run_dir / f"daphne-{self.daphne_ports[index]}.pid").read_text())

    def daphne_rss(self) -> list[float]:
        """Each Daphne's resident memory now, in MiB (0 for one not running)."""
        sizes = []
        for index in range(self.daphnes):
            try:
                status = Path(f"/proc/{self.daphne_pid(index)}/status").read_text()
            except (OSError, ValueError):
                sizes.append(0.0)
                continue
            kib = next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))
            sizes.append(int(kib) / 1024)
        return sizes

    def kill_daphne(self, index: int = 0) -> None:
        """kill -9 one Daphne; run.sh starts it again a second later."""
        self.stop_daphne(index, signal.SIGKILL, "kill -9 a Daphne")

    def terminate_daphne(self, index: int = 0) -> None:
        """SIGTERM one Daphne (it closes its sockets with 1012 and exits); run.sh starts it
        again a second later."""
        self.stop_daphne(index, signal.SIGTERM, "SIGTERM a Daphne")

    def stop_daphne(self, index: int, signum: int, name: str) -> None:
        """Send one Daphne ``signum`` and wait until its replacement listens."""
        started = time.monotonic()
        old = self.daphne_pid(index)
        os.kill(old, signum)
        deadline = time.monotonic() + 60
        while True:  # Until its replacement listens.
            with contextlib.suppress(OSError, ValueError):
                if self.daphne_pid(index) != old and not _free(self.daphne_ports[index]):
                    break
            if time.monotonic() > deadline:
                raise TimeoutError("the stopped Daphne was not started again")
            time.sleep(0.2)
        self.faults.append((name, started, time.monotonic()))

    def restart_redis(self, away: float = 3.0) -> None:
        """Stop Redis (everything in it is lost), keep it away ``away`` seconds, start it."""
        started = time.monotonic()
        self.redis.stop()
        time.sleep(away)
        self.redis.start()
        self.faults.append(("restart Redis", started, time.monotonic()))

    def restart_postgres(self, away: float = 3.0) -> None:
        """Stop PostgreSQL as a crash does (immediate mode), keep it away, start it."""
        started = time.monotonic()
        self.postgres.stop("immediate")
        time.sleep(away)
        self.postgres.start()
        self.faults.append(("restart PostgreSQL", started, time.monotonic()))

    def audit(self, codes: list[str]) -> list[dict[str, Any]]:
        """``manage.py audit_games --json`` on these games, against the stack's database."""
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DJANGO_SETTINGS_MODULE", "REDIS_URL")
        }
        environment.update(DATABASE_URL=self.postgres.url, SECRET_KEY="fault-tests-only-audit")
        result = subprocess.run(
            [sys.executable, "manage.py", "audit_games", "--json", "--", *codes],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
        )
        audits = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
        if len(audits) != len(codes):
            raise RuntimeError(f"audit_games failed: {result.stderr}")
        return audits


@contextlib.contextmanager
def running(**options: Any) -> Iterator[Stack]:
    """A :class:`Stack`, up for the block and taken down after it, whatever happens."""
    stack = Stack(**options)
    try:
        stack.up()
        yield stack
    finally:
        stack.down()
