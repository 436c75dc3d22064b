"""A real server process: ``flask --app referee serve`` on loopback with its own database (a file, or PostgreSQL)."""
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support.env import ROOT, free_port


class PortTaken(RuntimeError):
    """The server could not bind its port: another process holds it."""


class Server:
    """``flask --app referee serve`` in a child process, on loopback, with its own database file."""

    def __init__(self, db_path: Path, database_url: str | None = None, **env: str):
        """On the SQLite file ``db_path``, or on ``database_url`` (PostgreSQL's test database); ``env``: more of
        the server's environment (``FLASK_LIVE_STREAMS``, ``REFEREE_WORKER_HEADER``)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url or f"sqlite:///{db_path}", "PUBLIC_URL": self.url,
                    "SECRET_KEY": "test", "FLASK_RATELIMIT_ENABLED": "false", **env}  # every test: 127.0.0.1
        self.process = None
        self.started = False  # once started, a restart keeps its port (the tests' phones hold its address)

    def start(self) -> "Server":
        for _ in range(3):
            try:
                return self._start()
            except PortTaken:  # another process took the port between its choice and the bind
                if self.started:
                    raise
                self.port = free_port()
                self.url = f"http://127.0.0.1:{self.port}"
                self.env["PUBLIC_URL"] = self.url
        return self._start()

    def _start(self) -> "Server":
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1", "--port",
             str(self.port)], cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60  # a loaded machine starts a server slowly
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/v1/games", timeout=1).read()
                self.started = True
                return self
            except OSError:
                if self.process.poll() is not None:
                    said = self.process.stderr.read().decode()
                    if "Address already in use" in said:
                        raise PortTaken(said)
                    raise RuntimeError("server died: " + said)
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self, sig=None) -> None:
        if self.process and self.process.poll() is None:
            if sig is None:
                self.process.terminate()
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a machine under load: the test is over, stop it for good
                self.process.kill()
                self.process.wait(timeout=10)
