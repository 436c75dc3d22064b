"""A gevent worker's setup, without a server (referee/web/serving/gevent_worker.py, referee/web/serving/__init__.py): its app made
after gevent patched the standard library holds cooperative locks only, psycopg waits cooperatively, its limits come
from the environment, and it holds thousands of streams unless the operator said otherwise. The worker against
hostile clients, served: tests/test_hostile_clients.py."""
import os
import subprocess
import sys

from referee.web import serving
from referee.web.serving import gevent_worker
from tests.support.env import ROOT


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SECRET_KEY": "test", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


LOCKS = """
import referee
master = referee.create_app({"DATABASE_URL": "sqlite:///%s"})  # the master's, made before any patching
from gevent import monkey
monkey.patch_all()
app = referee.create_app({"DATABASE_URL": "sqlite:///%s"})  # the worker's
seen, locks = set(), []
def walk(thing, depth):
    if id(thing) in seen or depth > 5:
        return
    seen.add(id(thing))
    kind = type(thing)
    if "lock" in kind.__name__.lower() or kind.__name__ in ("Semaphore", "BoundedSemaphore"):
        inner = thing._block if kind.__module__ == "threading" else thing  # threading's RLock wraps a lock
        locks.append(type(inner).__module__.split(".")[0])
        return
    if isinstance(thing, dict):
        for value in thing.values():
            walk(value, depth + 1)
    elif isinstance(thing, (list, tuple, set)):
        for value in thing:
            walk(value, depth + 1)
    elif kind.__module__.startswith(("referee", "sqlalchemy", "limits", "flask_limiter")):
        for value in list(getattr(thing, "__dict__", {}).values()):
            walk(value, depth + 1)
walk(app.extensions, 0)
print(len(locks), " ".join(sorted(set(locks))))
"""


def test_the_app_a_worker_makes_after_patching_has_only_cooperative_locks(tmp_path):
    """As in `serve`: the master imports and makes the app first, the worker patches, then makes its own; every
    lock its services hold (the ledger's pool and replay cache, the live views' memos…) is gevent's."""
    count, kinds = run_python(LOCKS % (tmp_path / "master.sqlite3", tmp_path / "worker.sqlite3")).split(" ", 1)
    assert int(count) >= 4 and kinds == "gevent"


def test_psycopg_imported_before_patching_waits_cooperatively_in_a_worker():
    chosen = run_python("""
import psycopg
from psycopg import waiting
before = waiting.wait.__name__
from gevent import monkey
monkey.patch_all()
from referee.web.serving.gevent_worker import cooperative_psycopg
cooperative_psycopg()
print(before, waiting.wait.__name__)
""")
    assert chosen == "wait_c wait_poll"


def test_limits_are_read_from_the_environment(monkeypatch):
    for name in ("HEADER_SECONDS", "KEEPALIVE_SECONDS", "BODY_SECONDS", "CONNECTIONS_PER_ADDRESS"):
        monkeypatch.delenv(f"REFEREE_{name}", raising=False)
    assert gevent_worker.Limits.from_env() == gevent_worker.Limits(10.0, 30.0, 30.0, 200)
    monkeypatch.setenv("REFEREE_CONNECTIONS_PER_ADDRESS", "0")
    monkeypatch.setenv("REFEREE_HEADER_SECONDS", "2.5")
    monkeypatch.setenv("REFEREE_BODY_SECONDS", "soon")  # not a number: the default
    assert gevent_worker.Limits.from_env() == gevent_worker.Limits(2.5, 30.0, 30.0, 0)


def test_a_gevent_workers_app_holds_thousands_of_streams_unless_the_operator_said(monkeypatch):
    from flask import Flask

    monkeypatch.delenv("FLASK_LIVE_STREAMS", raising=False)
    assert serving.holds_streams(Flask("a")).config["LIVE_STREAMS"] == serving.LIVE_STREAMS == 5000
    monkeypatch.setenv("FLASK_LIVE_STREAMS", "40")
    app = Flask("b")
    app.config.from_prefixed_env()
    assert serving.holds_streams(app).config["LIVE_STREAMS"] == 40
