"""How ``serve`` (``make run``) serves, on which addresses (``lan_addresses``), and how its answers travel: gunicorn's
worker processes on every core where the system can fork (Linux, macOS), waitress's threads in one process where it
cannot (Windows) or when asked.

- The app is made once, in the master, after the database was brought to this version's schema: each worker is a
  fork of it (no second start-up, no second migration). The master's database connections are closed before the
  fork and each worker opens its own (a connection never crosses a fork).
- Workers share nothing but the database: the replay cache is per process and keyed by the table's revision, the live
  views' memo (``referee/web/tables/watch.py``) asks the database, so an entry made through one worker is what every
  other one serves at once.
- A worker dies with its master (``PR_SET_PDEATHSIG`` on Linux): a server killed outright (``kill -9``, a crash)
  leaves no orphan holding the port or writing after it.
- ``REFEREE_TLS_CERT`` and ``REFEREE_TLS_KEY`` (file paths: a certificate the club provides and its key) make gunicorn
  speak https on the LAN, where phones install Referee and run its service worker (plain http runs none).
- ``WEB_CONCURRENCY`` (gunicorn's and the hosting platforms' variable) sets the number of workers when ``--workers``
  is not given; the default is one per core this process may run on.

Answers travel gzip-compressed when the client accepts it (``compress``): a page, a scorer fragment, a POST's JSON
answer shrink to a fifth or less on a phone's Wi-Fi.

Never compressed: answers without a body or with one too small to gain (204, 304, a live view's "nothing changed",
anything under ``MIN_BYTES``), files sent as they are (``static/``, with their own validators), streams, and answers
that already say their encoding (the live views keep their fragment compressed once per revision:
``referee/web/tables/watch.py``). Every answer that could have been compressed says ``Vary: Accept-Encoding``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gzip
import os
import signal
import socket
import sys

from flask import Flask, request

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
CONNECTIONS = 4000  # open connections per worker (a room of viewers kept alive, each one a file descriptor)


def can_fork() -> bool:
    return hasattr(os, "fork") and sys.platform != "win32"


def default_workers() -> int:
    """``WEB_CONCURRENCY`` when set, else the cores this process may use."""
    raw = os.environ.get("WEB_CONCURRENCY", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def tls_files() -> tuple[str, str] | None:
    """``REFEREE_TLS_CERT`` and ``REFEREE_TLS_KEY`` when both are set (ValueError for one alone or a missing file)."""
    cert, key = (os.environ.get(name, "").strip() for name in ("REFEREE_TLS_CERT", "REFEREE_TLS_KEY"))
    if not cert and not key:
        return None
    if not (cert and key):
        raise ValueError("REFEREE_TLS_CERT and REFEREE_TLS_KEY go together: set both (file paths) or neither")
    for name, path in (("REFEREE_TLS_CERT", cert), ("REFEREE_TLS_KEY", key)):
        if not os.path.isfile(path):
            raise ValueError(f"{name}: no such file: {path}")
    return cert, key


def die_with_parent() -> None:
    """This process gets SIGKILL when its parent ends (Linux only; elsewhere nothing happens)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return


def enough_files(wanted: int) -> None:
    """Raises this process's soft limit of open files towards ``wanted`` (never past the hard limit)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        return


def forget_connections(app) -> None:
    """The master's pooled connections stay with the master: a forked worker starts with an empty pool."""
    app.extensions["referee.ledger"].forget_connections(close=False)


def serve_gunicorn(app, host: str, port: int, workers: int, threads: int, tls: tuple[str, str] | None = None) -> None:
    """gunicorn's gthread workers: ``workers`` processes of ``threads`` threads each; idle kept-alive connections
    (a viewer polling every second) wait in each worker's poller, not in a thread. ``tls``: https with these files."""
    from gunicorn.app.base import BaseApplication

    parent = os.getpid()

    def post_fork(_server, _worker):
        die_with_parent()
        if os.getppid() != parent:  # the master ended before the line above: follow it
            os._exit(1)
        forget_connections(app)
        enough_files(CONNECTIONS + 256)

    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    options = {
        "bind": [bind], "workers": workers, "threads": threads, "worker_class": "gthread",
        # A live view asks every second: its connection waits between polls in the worker's poller, not in a
        # thread, for as long as waitress keeps an idle one (a phone coming back after a while finds it open).
        "keepalive": 120, "worker_connections": CONNECTIONS,
        "timeout": 60, "graceful_timeout": 10,
        "loglevel": "warning", "accesslog": None, "errorlog": "-",
        "post_fork": post_fork,
        "control_socket_disable": True,  # gunicorn >= 25.1 opens a control socket in $HOME otherwise
        **({"certfile": tls[0], "keyfile": tls[1]} if tls else {}),
    }

    class Referee(BaseApplication):
        def load_config(self):
            for name, value in options.items():
                if name in self.cfg.settings:
                    self.cfg.set(name, value)

        def load(self):
            return app

    app.extensions["referee.ledger"].forget_connections()  # nothing of the master's crosses the fork
    Referee().run()


def serve_waitress(app, host: str, port: int, threads: int) -> None:
    from waitress import serve

    serve(app, host=host, port=port, threads=threads, ident="referee")


def lan_addresses() -> list:
    """This machine's IPv4 addresses other than loopback, read from its interfaces (no packet is sent)."""
    found = []
    try:
        import fcntl
        import struct

        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            except OSError:
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127."):
                found.append(address)
        probe.close()
    except (ImportError, OSError):
        pass
    if not found:
        try:
            address = socket.gethostbyname(socket.gethostname())
            if not address.startswith("127."):
                found.append(address)
        except OSError:
            pass
    return found


# --- compression -------------------------------------------------------------------------------------------------

MIN_BYTES = 512  # below this, gzip's own header and the work cost more than they save
LEVEL = 3  # measured on a 75 KB answer: 0.3 ms for 6.3 KB, where level 6 takes 1.2 ms for 5.3 KB
TYPES = frozenset({"text/html", "application/json", "text/csv", "text/plain", "text/css", "text/javascript",
                   "application/javascript", "image/svg+xml"})


def accepts_gzip() -> bool:
    """The request's ``Accept-Encoding`` takes gzip (``gzip``, ``x-gzip`` or ``*``, with a quality above 0)."""
    encodings = request.accept_encodings
    return max(encodings["gzip"], encodings["x-gzip"]) > 0


def gzip_bytes(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)  # mtime 0: the same body, the same bytes


def compressible(response) -> bool:
    return not (response.direct_passthrough or response.is_streamed or response.status_code in (204, 206)
                or not 200 <= response.status_code < 300 or "Content-Encoding" in response.headers
                or response.mimetype not in TYPES)


def compress(response):
    if not compressible(response):
        return response
    body = response.get_data()
    if len(body) < MIN_BYTES:
        return response
    response.vary.add("Accept-Encoding")
    if not accepts_gzip():
        return response
    response.set_data(gzip_bytes(body))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:  # the same content in another encoding: no longer the same bytes
        response.set_etag(etag, weak=True)
    return response


def init_compression(app: Flask) -> None:
    """Registered before the app's other ``after_request`` hooks, so that it runs after them (Flask runs them in
    reverse order): the body it compresses is the final one."""
    app.after_request(compress)
