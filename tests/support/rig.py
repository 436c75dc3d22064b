"""Issue 28's rig on this machine, on loopback ports of its own: Redis, Referee servers started as
``deploy/referee@.service`` starts them (its ExecStart, with ``deploy/referee.env`` filled in), and nginx running
``deploy/nginx-referee.conf`` filled in, with a self-signed certificate made here; PostgreSQL is CI's
(TEST_DATABASE_URL). Every piece is a child process in a session of its own, so that a server can be killed whole
(kill -9 on its process group: a machine gone) and started again on the same port."""
from __future__ import annotations

import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from deploy.fill import fill
from tests.support.env import ROOT, free_port, need

DEPLOY = ROOT / "deploy"
NGINX_MAIN = """user {user};
worker_processes 1;
worker_rlimit_nofile 20000;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 10000; }}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/referee.conf;
}}
"""


def rig_database() -> str:
    """What a rig needs (nginx, Redis, openssl, a PostgreSQL: .ci/run installs and starts them), checked as ``need``
    does; the PostgreSQL test database emptied for it: its URL."""
    from tests.support.ledgers import wipe
    need(bool(shutil.which("nginx")) and bool(shutil.which("redis-server")),
         "nginx or redis-server is missing (apt-get install nginx redis-server; .ci/run installs them)")
    need(bool(shutil.which("openssl")), "openssl is missing (apt-get install openssl)")
    url = os.environ.get("TEST_DATABASE_URL")
    need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    wipe(url)
    return url


def env_file(text: str) -> dict:
    """KEY=value lines as systemd's EnvironmentFile reads them (comments and blank lines left out)."""
    return dict(line.split("=", 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))


def exec_start(unit: str, port: int) -> list:
    """The unit's ExecStart for instance ``port`` (``%i``), as a command line."""
    line = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    return line[len("ExecStart="):].replace("%i", str(port)).split()


class Rig:
    """Redis, ``count`` Referee servers and nginx in front, on ``database_url``, in ``folder``."""

    def __init__(self, folder: Path, database_url: str, count: int = 2, **settings: str):
        self.folder, self.database_url = folder, database_url
        self.redis_port, self.https_port = free_port(), free_port()
        self.ports = [free_port() for _ in range(count)]
        self.url = f"https://127.0.0.1:{self.https_port}"
        self.settings = settings  # more of the servers' environment (a test's limits)
        self.processes: dict = {}
        self.context = None

    # --- the pieces -----------------------------------------------------------------------------------------
    def start(self) -> "Rig":
        """Every piece started, or none left running (a piece that fails stops those started before it)."""
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> "Rig":
        self.folder.mkdir(parents=True, exist_ok=True)
        cert, key = self.folder / "cert.pem", self.folder / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                        "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out",
                        str(cert)], check=True, capture_output=True)
        self.context = ssl.create_default_context(cafile=str(cert))
        self.processes["redis"] = self._spawn(["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                               "--save", "", "--appendonly", "no"])
        values = {"SECRET_KEY": "rig-secret-shared-by-every-server", "PUBLIC_URL": self.url,
                  "DATABASE_URL": self.database_url, "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                  "INSTANCE": str(self.folder / "instance"), "WORKERS": "1"}
        self.env = {**os.environ, **env_file(fill((DEPLOY / "referee.env").read_text(), values)),
                    "REFEREE_WORKER_HEADER": "1", **self.settings}
        self.unit = fill((DEPLOY / "referee@.service").read_text(), {"APP_DIR": str(ROOT), "USER": "referee"})
        subprocess.run([sys.executable, "-m", "flask", "--app", "referee", "init-db"], cwd=ROOT, env=self.env,
                       check=True, capture_output=True)  # once, before the servers (they only check)
        for port in self.ports:
            self.start_server(port)
        self._nginx(cert, key)
        return self

    def command(self, port: int) -> list:
        """The unit's command for ``port``, with this virtualenv's flask (the unit says APP_DIR/.venv/bin/flask)."""
        found = exec_start(self.unit, port)
        assert Path(found[0]) == ROOT / ".venv/bin/flask", found
        return [sys.executable, "-m", "flask"] + found[1:]

    def start_server(self, port: int) -> None:
        self.processes[port] = self._spawn(self.command(port))
        self._wait(f"http://127.0.0.1:{port}/api/v1/games", self.processes[port], context=None)

    def kill_server(self, port: int) -> None:
        """kill -9 on the server's whole process group (gunicorn's master and its workers): a machine gone."""
        process = self.processes.pop(port)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def _nginx(self, cert: Path, key: Path) -> None:
        prefix = self.folder / "nginx"
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix / sub).mkdir(parents=True, exist_ok=True)
        upstreams = "\n    ".join(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=3s;" for port in self.ports)
        site = fill((DEPLOY / "nginx-referee.conf").read_text(), {
            "UPSTREAMS": upstreams, "LISTEN": f"127.0.0.1:{self.https_port}", "SERVER_NAME": "127.0.0.1",
            "CERT": str(cert), "KEY": str(key), "STATIC": str(ROOT / "referee/static")})
        (prefix / "referee.conf").write_text(site)
        user = "root" if os.geteuid() == 0 else os.environ.get("USER", "nobody")
        (prefix / "nginx.conf").write_text(NGINX_MAIN.format(prefix=prefix, user=user))
        checked = subprocess.run(["nginx", "-t", "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.processes["nginx"] = self._spawn(["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g",
                                               "daemon off;"])
        self._wait(self.url + "/api/v1/games", self.processes["nginx"], self.context)

    def _spawn(self, command: list) -> subprocess.Popen:
        path = self.folder / f"{Path(command[0]).name}-{len(self.processes)}-{time.monotonic_ns()}.log"
        log = open(path, "ab")  # noqa: SIM115 — the child's own; closed here once it has it
        try:
            process = subprocess.Popen(command, cwd=ROOT, env=getattr(self, "env", os.environ), stdout=log,
                                       stderr=log, start_new_session=True)
        finally:
            log.close()
        process.log_path = path  # what it said, quoted when it stops at start
        return process

    @staticmethod
    def _wait(url: str, process: subprocess.Popen, context) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(url, timeout=2, context=context).read()
                return
            except (OSError, urllib.error.URLError):
                if process.poll() is not None:
                    said = process.log_path.read_text(errors="replace")[-3000:] if hasattr(process, "log_path") else ""
                    raise RuntimeError(f"{process.args[0]} stopped at start ({process.returncode}): {said}")
                time.sleep(0.2)
        raise RuntimeError(f"{url} did not answer")

    def stop(self) -> None:
        for process in self.processes.values():
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(timeout=10)
        self.processes.clear()

    # --- through nginx ---------------------------------------------------------------------------------------
    def call(self, method: str, path: str, body=None, key: str | None = None, tries: int = 20) -> tuple:
        """(status, JSON answer, the answering worker's pid) of a call through nginx. A call that got no answer
        (the server behind went down: 502, a reset) is sent again as it was, as a phone does: its
        ``client_event_id`` makes the ledger take it once."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        for attempt in range(tries):
            request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=10, context=self.context) as answer:
                    return answer.status, json.loads(answer.read() or b"null"), answer.headers.get("X-Referee-Worker")
            except urllib.error.HTTPError as refused:
                if refused.code not in (502, 503, 504):
                    return refused.code, json.loads(refused.read() or b"null"), refused.headers.get("X-Referee-Worker")
            except OSError:
                pass
            time.sleep(0.2 * (attempt + 1))
        raise RuntimeError(f"{method} {path}: no answer after {tries} tries")
