"""The servers a bench measures, on 127.0.0.1 only: Referee as ``make run`` serves it (``flask --app referee serve``),
and the floor (``bench/floor.py``) under the very same server and settings (``bench/floor_serve.py``); a scratch
PostgreSQL database when one is reachable."""
from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
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
    """The PostgreSQL the benches may use: BENCH_DATABASE_URL, else TEST_DATABASE_URL (as .ci/run sets it); ``make
    bench`` sets BENCH_DATABASE_URL to its own throwaway server (``throwaway_postgres``) when neither is set."""
    return os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL") or None


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian's /usr/lib/postgresql/<n>/bin, else initdb on the PATH)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parts[-3])
                   if path.parts[-3].isdigit() else 0)
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


NO_POSTGRES = ["set BENCH_DATABASE_URL to a PostgreSQL server"]  # why a PostgreSQL bench is skipped, said once


@contextmanager
def postgres_for_bench():
    """BENCH_DATABASE_URL (or TEST_DATABASE_URL) as set; where neither is, a throwaway PostgreSQL of the bench's own
    (``throwaway_postgres``) set as BENCH_DATABASE_URL for the benches and their processes (``bench/cluster.py``)
    while the block runs; else ``NO_POSTGRES`` says why there is none."""
    if postgres_server():
        yield
        return
    with throwaway_postgres() as (url, why):
        if url is None:
            NO_POSTGRES[0] = why
            yield
            return
        print(f"(PostgreSQL: the bench's own, {url})", file=sys.stderr, flush=True)
        os.environ["BENCH_DATABASE_URL"] = url
        try:
            yield
        finally:
            os.environ.pop("BENCH_DATABASE_URL", None)


@contextmanager
def throwaway_postgres():
    """A PostgreSQL of the bench's own, as ``.ci/run`` starts one: ``initdb`` in a temporary folder, on a free port
    of 127.0.0.1, trust auth, stopped and removed after; its URL yielded (None, and why, where none is installed or
    it does not start). As root it runs as the ``postgres`` user (``runuser``), which PostgreSQL requires."""
    programs = postgres_bin()
    if programs is None:
        yield None, "PostgreSQL is not installed (apt-get install postgresql), and BENCH_DATABASE_URL is not set"
        return
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-pg-"))
    as_user = []
    if os.geteuid() == 0:
        if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    data, log = folder / "data", folder / "log"
    started = False
    try:
        made = subprocess.run([*as_user, str(programs / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                               "-E", "UTF8", "--no-locale"], capture_output=True, text=True, timeout=120)
        if made.returncode == 0:
            started = subprocess.run(
                [*as_user, str(programs / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-o",
                 f"-c listen_addresses=127.0.0.1 -p {port} -k {folder}", "start"],
                capture_output=True, text=True, timeout=120).returncode == 0
        if not started:
            why = (made.stderr or (log.read_text() if log.exists() else "")).strip().splitlines()
            yield None, f"the bench's own PostgreSQL did not start ({why[-1] if why else 'no reason given'})"
            return
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", None
    finally:
        if started:
            subprocess.run([*as_user, str(programs / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                           capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


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
