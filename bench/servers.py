"""The servers a bench measures, on 127.0.0.1 only: Referee as ``make run`` serves it (``flask --app referee serve``),
and the floor (``bench/floor.py``) under the very same server and settings (``bench/floor_serve.py``); a scratch
PostgreSQL database when one is reachable."""
from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from common import ROOT

# Limits on table creation and imports raised for the rig (a bench makes a hundred tables from one address in a
# minute); the limiter itself stays on, as in `make run`, so that its cost per request is measured.
BENCH_LIMITS = {"FLASK_RATELIMIT_TABLES": "100000 per hour", "FLASK_RATELIMIT_IMPORTS": "100000 per hour",
                "FLASK_RATELIMIT_KEY_GUESSES": "100000 per minute"}
# A bench's thousand phones all come from 127.0.0.1: the cap on connections per address is off for Referee and the
# floor alike, as behind a proxy (bench/hostile.py measures with it on, as `make run` serves).
SERVER_LIMITS = {"REFEREE_CONNECTIONS_PER_ADDRESS": "0"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_options() -> dict:
    """The options ``flask --app referee serve`` takes, with their defaults (read from its --help)."""
    text = subprocess.run([sys.executable, "-m", "flask", "--app", "referee", "serve", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SECRET_KEY": "bench", "DATABASE_URL": "sqlite://"}).stdout
    options = {name: None for name in re.findall(r"--([a-z][a-z-]*)", text)}
    for name in options:
        found = re.search(rf"--{name}\b.*?\[default:\s*([^;\]]+)", text, re.S)
        options[name] = " ".join(found.group(1).split()) if found else None
    return options


class Served:
    """One server process: started, waited for, its worker processes counted, stopped (with its workers)."""

    def __init__(self, name: str, command: list, env: dict, probe: str, cwd: Path = ROOT):
        self.name, self.command, self.env, self.probe, self.cwd = name, command, env, probe, cwd
        self.port = int(command[command.index("--port") + 1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.log = None

    def start(self, seconds: float = 60) -> "Served":
        self.log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"referee-bench-{self.name}-{self.port}.log", "wb")
        self.process = subprocess.Popen(self.command, cwd=self.cwd, env=self.env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + self.probe, timeout=2) as answer:
                    self.server = answer.headers.get("Server", "?")
                time.sleep(0.5)  # every worker up, not only the first
                return self
            except urllib.error.HTTPError as answer:  # an answer all the same: the server is up
                self.server = answer.headers.get("Server", "?")
                time.sleep(0.5)
                return self
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise SystemExit(f"{self.name} did not start: see {self.log.name}")

    def processes(self) -> int:
        """The processes serving: the server's own and its children (gunicorn's workers)."""
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        except OSError:
            children = []
        return len(children) or 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, 15)  # its own session: the server and the workers it forked
                self.process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.process.pid, 9)
                self.process.wait(timeout=10)
        if self.log is not None:
            self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def server_args(workers: int | None, options: dict) -> list:
    """``--workers`` when serve takes it (several processes); nothing else: the rest is ``make run``'s default."""
    return ["--workers", str(workers)] if workers and "workers" in options else []


def referee(database_url: str, workers: int | None, options: dict, settings: dict | None = None) -> Served:
    """``settings``: environment variables over the bench's (``SERVER_LIMITS`` by default)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench-" + secrets.token_hex(8),
           "PUBLIC_URL": f"http://127.0.0.1:{port}", **BENCH_LIMITS,
           **(SERVER_LIMITS if settings is None else settings)}
    if workers:
        env.pop("WEB_CONCURRENCY", None)
    command = [sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1", "--port",
               str(port), *server_args(workers, options)]
    return Served("referee", command, env, "/api/v1/games").start()


def start_server(db: Path, port: int) -> Served:
    """Referee as ``make run`` serves it on 127.0.0.1:``port``, on its own SQLite file (``bench/taps.py``)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "bench", **BENCH_LIMITS, **SERVER_LIMITS}
    command = [sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return Served("taps", command, env, "/api/v1/games").start()


def floor(database_url: str, workers: int | None, options: dict, settings: dict | None = None,
          worker: str = "gevent") -> Served:
    """The floor under the server Referee's serve picks, with the same processes, threads and settings;
    ``worker`` "gthread": gunicorn's threads, as Referee was served before its gevent workers."""
    port = free_port()
    env = {**os.environ, "FLOOR_DATABASE_URL": database_url, "PYTHONPATH": str(ROOT / "bench"),
           **(SERVER_LIMITS if settings is None else settings)}
    command = [sys.executable, str(ROOT / "bench" / "floor_serve.py"), "--port", str(port),
               "--threads", options.get("threads") or "8", "--worker", worker, *server_args(workers, options)]
    return Served(f"floor-{worker}", command, env, "/t/probe/live").start()


# --- PostgreSQL -------------------------------------------------------------------------------------------------

def postgres_server() -> str | None:
    """The PostgreSQL the benches may use: BENCH_DATABASE_URL, else TEST_DATABASE_URL (as .ci/run sets it)."""
    return os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL") or None


class ScratchDatabase:
    """A database of its own on the given server, made for one bench and dropped after it; where the role may not
    create databases, the given database itself (the floor's table is dropped after; Referee's tables are left)."""

    def __init__(self, url: str):
        import psycopg

        self.psycopg = psycopg
        self.given = url
        self.name = f"referee_bench_{os.getpid()}_{secrets.token_hex(3)}"
        self.url, self.made = url, False
        plain = url.replace("postgresql+psycopg://", "postgresql://")
        try:
            with psycopg.connect(plain, autocommit=True, connect_timeout=5) as connection:
                connection.execute(f'CREATE DATABASE "{self.name}"')
            from sqlalchemy.engine import make_url

            self.url = make_url(url).set(database=self.name).render_as_string(hide_password=False)
            self.made = True
        except psycopg.errors.InsufficientPrivilege:
            self.url = url

    def drop(self) -> None:
        plain = self.given.replace("postgresql+psycopg://", "postgresql://")
        with self.psycopg.connect(plain, autocommit=True, connect_timeout=5) as connection:
            if self.made:
                connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            else:
                connection.execute("DROP TABLE IF EXISTS floor_entries")


def reachable(url: str) -> str | None:
    """None when PostgreSQL answers at ``url``, else why not."""
    try:
        import psycopg

        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), connect_timeout=5):
            return None
    except Exception as error:  # noqa: BLE001 — any reason is said, and the PostgreSQL part is skipped
        return str(error).splitlines()[0] if str(error) else type(error).__name__
