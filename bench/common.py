"""What the benches share: a timed HTTP client on loopback, legal Brûlot logs, percentiles, the tables they print
and the machine they ran on. Figures only: nothing here asserts."""
from __future__ import annotations

import gzip
import http.client
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

# seeded deals, played to the rules (tests/support/simulate.py), for the benches' tables
from tests.support.simulate import LONG_SERIES, PLAYERS, brulot_deals, flat  # noqa: E402,F401

EVENTS_PER_DEAL = 14  # a 4-player Brûlot deal card by card: its deal event and 13 tricks


def revision_of(answer) -> int | None:
    """The table's revision in an answer, wherever the answer keeps it (the state, or the answer itself)."""
    if isinstance(answer, dict):
        for where in (answer, answer.get("state")):
            if isinstance(where, dict) and isinstance(where.get("revision"), int):
                return where["revision"]
    return None


LIVE_REVISION = re.compile(rb'data-revision="(\d+)"|[?&;]since=(\d+)')


def live_revision(body: bytes) -> int | None:
    """The revision a live fragment shows (its ``data-revision``, or the ``since`` of its next poll)."""
    found = LIVE_REVISION.search(body)
    return int(found.group(1) or found.group(2)) if found else None


class Answer:
    __slots__ = ("status", "headers", "body", "wire", "seconds")

    def __init__(self, status, headers, body, wire, seconds):
        self.status, self.headers, self.body, self.wire, self.seconds = status, headers, body, wire, seconds

    def json(self):
        return json.loads(self.body)

    @property
    def raw(self) -> int:
        """The answer's size once decoded; ``wire`` is what travelled (gzip when the server compressed it)."""
        return len(self.body)


class Client:
    """One phone on loopback: a kept-alive connection, its cookies, ``Accept-Encoding: gzip`` as browsers send it.
    Each answer carries its status, decoded body, bytes on the wire and the seconds from send to the last byte."""

    def __init__(self, url: str, timeout: float = 60):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.connection = None
        self.cookies: dict = {}

    def request(self, method: str, path: str, body=None, key=None, form=None, headers=None) -> Answer:
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        data = None
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            data, sent["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
        if key:
            sent["Authorization"] = f"Bearer {key}"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):  # a kept-alive connection the server closed meanwhile is opened again, once
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                start = time.perf_counter()
                self.connection.request(method, path, body=data, headers=sent)
                response = self.connection.getresponse()
                wire = response.read()
                seconds = time.perf_counter() - start
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 2:
                    raise
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        decoded = gzip.decompress(wire) if response.getheader("Content-Encoding") == "gzip" else wire
        return Answer(response.status, response.headers, decoded, len(wire), seconds)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


# --- figures ----------------------------------------------------------------------------------------------------

def run_load(script: str, task: dict, timeout: int) -> dict:
    """Runs a locust script of bench/ (``load.py``, ``tournament_load.py``) in its own process: the task on its
    standard input, its figures read back from its output."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script)], input=json.dumps(task),
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"bench/{script} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def percentile(values, fraction: float) -> float | None:
    """The nearest-rank percentile (p99 of 400 values: the 396th smallest), None when nothing was measured."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, min(len(ordered), -(-len(ordered) * fraction // 1)))
    return ordered[int(rank) - 1]


def median(values) -> float:
    return statistics.median(values) if values else float("nan")


def ms(seconds: float) -> str:
    if seconds != seconds:  # NaN: nothing measured
        return "—"
    value = seconds * 1000
    return f"{value:.1f} ms" if value < 100 else f"{value:,.0f} ms"


def ms_of(milliseconds: float | None) -> str:
    """A figure the locust scripts give in milliseconds (None: nothing measured)."""
    return "—" if milliseconds is None else ms(milliseconds / 1000)


def secs(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} s"


def rate(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}/s"


def kib(size: float) -> str:
    if size != size:
        return "—"
    if size < 1024:
        return f"{size:.0f} B"
    return f"{size / 1024:.1f} KiB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.2f} MiB"


def times(ratio: float) -> str:
    return "—" if ratio != ratio else f"{ratio:.2f}×"


def gzip_size(body: bytes) -> int:
    """What the body weighs gzipped (level 6, as servers' gzip usually is), whether or not the server sent it so."""
    return len(gzip.compress(body, 6))


def print_table(title: str, header: list, rows: list, note: str = "") -> str:
    """A Markdown table under its title (the README takes it as it is); returns the text printed."""
    lines = [f"### {title}", ""]
    if note:
        lines += [note, ""]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("| " + " | ".join("---" for _ in header) + " |")
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    text = "\n".join(lines) + "\n"
    print(text, flush=True)
    return text


def machine() -> str:
    """The machine the figures come from: cores, CPU model, memory, system, Python."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor() or model
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 1024 / 1024:.0f} GiB of memory"
    except OSError:
        pass
    commit = ""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=5).stdout.strip()
        commit = f", commit {commit}{' with local changes' if dirty else ''}" if commit else ""
    except (OSError, subprocess.SubprocessError):
        pass
    return (f"{os.cpu_count()} cores (nproc {len(os.sched_getaffinity(0))}), {model}{memory}, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}{commit}")


def raise_open_files() -> None:
    """A thousand viewers (or an attack's 2,100 sockets) hold as many connections: the soft limit on open files up
    to the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
