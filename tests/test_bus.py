"""Issue 28's bus (referee/web/bus.py) with a real Redis: two apps on one database stand for two servers; a write
through one wakes the other's watcher at once, its own tick set to a minute so that only the bus can; without a bus
nothing is published. Skipped with a sentence where redis-server is missing (never under CI=true)."""
from __future__ import annotations

import shutil
import subprocess
import time

import pytest
import redis

from referee import create_app
from referee.store import migrations
from tests.support.env import free_port, need

pytestmark = pytest.mark.server


@pytest.fixture
def redis_url(tmp_path):
    need(bool(shutil.which("redis-server")), "redis-server is missing (apt-get install redis-server; .ci/run installs it)")
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline and process.poll() is None, "redis-server did not start"
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    process.kill()
    process.wait(timeout=10)


def server(url: str, bus: str | None, tick: float):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "shared", "RATELIMIT_ENABLED": False,
                       "BUS_URL": bus, "LIVE_REFRESH_SECONDS": tick})


def test_a_write_through_one_server_wakes_the_other_servers_streams_at_once(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    migrations.upgrade(url)
    first, second = server(url, redis_url, 0.25), server(url, redis_url, 60.0)
    made = first.test_client().post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    watcher = second.extensions["referee.watcher"]
    topic = watcher.join(("table", made["id"]), None)
    deadline = time.monotonic() + 10
    while watcher.reads < 1 or watcher.value(("table", made["id"])) is None:  # its first read, at once
        assert time.monotonic() < deadline
        time.sleep(0.02)
    time.sleep(0.3)  # the bus is listening
    seen = topic.seq
    entered = time.monotonic()
    answer = first.test_client().post(f"/api/v1/tables/{made['id']}/events", json={"type": "deal", "trump": "1O"},
                                      headers={"Authorization": f"Bearer {made['scorer_key']}"})
    assert answer.status_code == 201
    assert topic.wait(seen, 5.0) != seen and time.monotonic() - entered < 2.0  # not the minute's tick: the bus
    assert watcher.value(("table", made["id"])).revision == 1
    watcher.leave(("table", made["id"]))


def test_without_a_bus_nothing_is_published(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'alone.sqlite3'}"
    migrations.upgrade(url)
    listener = redis.Redis.from_url(redis_url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe("referee:written")
    alone = server(url, None, 0.25)
    made = alone.test_client().post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    alone.test_client().post(f"/api/v1/tables/{made['id']}/events", json={"type": "deal", "trump": "1O"},
                             headers={"Authorization": f"Bearer {made['scorer_key']}"})
    assert listener.get_message(timeout=1.0) is None
