"""How ``serve`` (``make run``) serves, on which addresses (``lan_addresses``), and how its answers travel: gunicorn's
gevent worker processes on every core where the system can fork (Linux, macOS), waitress's threads in one process
where it cannot (Windows) or when asked.

Why gevent: a connection waiting for its request, or held open by a server-sent event stream, costs a greenlet (a
few KiB), not a thread. With gunicorn's gthread workers (2 × 8 threads) 24 silent sockets or a slowloris left every
phone unanswered; under gevent thousands wait side by side and each is bounded (``gevent_worker.py``:
a deadline for a request's headers and one for its body, a kept-alive connection closed after a while, a cap on the
connections of one address). ``bench/hostile.py`` measures both. gevent workers are the field's usual answer for
Flask apps that hold many connections.

- **The app is made in each worker, after gevent patched it.** The master (the ``flask … serve`` process) brings the
  database to this version's schema once, with the app the command line made, closes that app's connections, then
  forks; each worker patches the standard library (gunicorn's gevent worker: ``monkey.patch_all()``) and only then
  makes its own app (``make_app``), so every lock, pool and thread the app makes is gevent's cooperative one: the
  ledger's SQLAlchemy pool (its queue's ``threading`` lock and condition), the replay cache's, the live views' and
  the tournaments' locks (``state_cache.py``, ``web/tables/watch.py``, ``web/shared/live.py``,
  ``tournament/reading.py``), Flask-Limiter's storage. None of them is made at import time. Patching in the master
  instead would need patching before the command line makes its app, that is before Flask's CLI runs.
- **psycopg 3 cooperates with gevent**: waiting for PostgreSQL, a greenlet lets the others run. psycopg picks its
  wait function when first imported (``psycopg/waiting.py`` detects gevent's patched ``select``); the master imported
  it before any patching, so the worker picks again after patching (``gevent_worker.cooperative_psycopg``).
- **sqlite3's C calls block the hub**: a request's SQLite work runs to its end before another greenlet of that worker
  runs. Reads in WAL mode never wait; a write waiting for another process's write lock (``busy_timeout``) holds up
  its whole worker meanwhile, a few milliseconds per entry. No greenlet yields inside a SQLite transaction (nothing
  in it waits on the network), so two greenlets of one worker never wait on each other's lock.
- Workers share nothing but the database: the replay cache is per process and keyed by the table's revision, the live
  views' memo (``referee/web/tables/watch.py``) asks the database, so an entry made through one worker is what every
  other one serves at once.
- ``app.config["LIVE_STREAMS"]``, the server-sent event streams one process holds at once, is ``LIVE_STREAMS`` under
  gevent unless the operator set ``FLASK_LIVE_STREAMS``; under waitress half its threads (a stream holds a thread
  there: the other half answer everyone else), past which a page polls instead.
- Memory: the master freezes its objects before forking (``gc.freeze``), so that the workers' garbage collections
  leave the pages they share with it unwritten (a worker's own pages at start: 17 MB instead of 50); ``serve``'s
  workers share the replay cache's budget (``share_cache``) unless ``REFEREE_CACHE_MB`` is set.
- A worker dies with its master (``PR_SET_PDEATHSIG`` on Linux): a server killed outright (``kill -9``, a crash)
  leaves no orphan holding the port or writing after it.
- ``REFEREE_TLS_CERT`` and ``REFEREE_TLS_KEY`` (file paths: a certificate the club provides and its key) make gunicorn
  speak https on the LAN, where phones install Referee and run its service worker (plain http runs none).
- ``WEB_CONCURRENCY`` (gunicorn's and the hosting platforms' variable) sets the number of workers when ``--workers``
  is not given; the default is one per core this process may run on.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import math
import os
import signal
import socket
import sys
from typing import Callable

from flask import Flask

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
CONNECTIONS = 6000  # open connections per worker (viewers' streams and kept-alive polls, each a file descriptor)
LIVE_STREAMS = 5000  # server-sent event streams per gevent worker (a greenlet each), leaving room for the rest


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


def serve_gunicorn(make_app: Callable[[], Flask], host: str, port: int, workers: int, threads: int = 8,
                   tls: tuple[str, str] | None = None, worker_class: str = "gevent") -> None:
    """gunicorn's ``workers`` processes, each making its app with ``make_app`` once forked (and patched: gevent).

    ``worker_class`` "gevent" (``make run``): every connection a greenlet, bounded by ``gevent_worker.Limits``
    (``REFEREE_…`` settings, read here); "gthread": ``threads`` threads a process (``bench/hostile.py`` sets it
    against gevent). ``tls``: https with these files."""
    from gunicorn.app.base import BaseApplication

    parent = os.getpid()

    def post_fork(_server, _worker):
        die_with_parent()
        if os.getppid() != parent:  # the master ended before the line above: follow it
            os._exit(1)
        for number in (signal.SIGTERM, signal.SIGINT):  # stopped while it starts (makes its app): it ends at once,
            signal.signal(number, signal.SIG_DFL)  # not after the master's graceful timeout (its handlers come later)
        enough_files(CONNECTIONS + 256)

    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    options = {
        "bind": [bind], "workers": workers, "worker_connections": CONNECTIONS,
        "timeout": 60, "graceful_timeout": 10,  # the heartbeat: a gevent worker's goes on while it holds streams
        "loglevel": "warning", "accesslog": None, "errorlog": "-",
        "post_fork": post_fork,
        "control_socket_disable": True,  # gunicorn >= 25.1 opens a control socket in $HOME otherwise
        **({"certfile": tls[0], "keyfile": tls[1]} if tls else {}),
    }
    if worker_class == "gevent":
        from referee.web.serving import gevent_worker

        gevent_worker.Worker.limits = limits = gevent_worker.Limits.from_env()  # the forks inherit them
        # gunicorn's keepalive (whole seconds, > 0 for its loop to bound each request's headers at all); the bounds
        # themselves are the worker's (``timeout_ctx``)
        options.update(worker_class=gevent_worker.Worker, keepalive=max(1, math.ceil(limits.keepalive_seconds)))
    else:  # a live view's connection waits between polls in the worker's poller, not in a thread
        options.update(worker_class="gthread", threads=threads, keepalive=120)

    class Referee(BaseApplication):
        def load_config(self):
            for name, value in options.items():
                if name in self.cfg.settings:
                    self.cfg.set(name, value)

        def load(self):  # in the worker, once forked (and patched)
            app = make_app()
            return holds_streams(app) if worker_class == "gevent" else app

    gc.collect()
    # the master's objects (every module imported, the app made) are left out of the workers' collections: a
    # collection writes to every object it visits, and each page written becomes a worker's own copy
    gc.freeze()
    Referee().run()


def share_cache(workers: int) -> None:
    """The replay caches of the server's workers hold ``CACHE_MB`` (``referee/store/state_cache.py``) together, not
    each, unless the operator set ``REFEREE_CACHE_MB`` (then a process's own, as documented): a server's memory is
    bounded whatever the number of its workers (2,000 streams and two full caches went past 300 MB). Set by
    ``serve`` (``cli.py``) in the environment the forked workers read when they make their app."""
    from referee.store import CACHE_MB

    if not os.environ.get("REFEREE_CACHE_MB", "").strip():
        os.environ["REFEREE_CACHE_MB"] = f"{CACHE_MB / max(1, workers):g}"


def holds_streams(app: Flask) -> Flask:
    """A gevent worker's app: ``LIVE_STREAMS`` streams at once unless the operator set ``FLASK_LIVE_STREAMS``."""
    if "FLASK_LIVE_STREAMS" not in os.environ:
        app.config["LIVE_STREAMS"] = LIVE_STREAMS
    return app


def serve_waitress(app, host: str, port: int, threads: int) -> None:
    from waitress import serve

    if "FLASK_LIVE_STREAMS" not in os.environ:  # a stream holds one of its threads: half of them at most
        app.config["LIVE_STREAMS"] = max(1, threads // 2)
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
