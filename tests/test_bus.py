"""Issue 28's bus (referee/web/serving/bus.py) with a real Redis: two apps on one database stand for two servers; a write
through one wakes the other's watcher, its own tick set to an hour so that only the bus can; a write is published
on the bus's channel (a listener of the test's own reads it), and without a bus nothing is; a bus that cannot be
reached fails no write (the error logged and counted). Skipped with a sentence where redis-server is missing (never
under CI=true)."""
from __future__ import annotations

import json
import logging
import shutil
import subprocess

import pytest
import redis

from referee import create_app
from referee.store import migrations
from referee.web.serving.bus import CHANNEL
from tests.support.env import free_port, need
from tests.support.waiting import until

pytestmark = pytest.mark.server

HOUR = 3600.0  # a watcher's tick that never comes within a test: what it reads, the bus woke it for


@pytest.fixture
def redis_url(tmp_path):
    need(bool(shutil.which("redis-server")), "redis-server is missing (apt-get install redis-server; .ci/run installs it)")
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)

    def answers() -> bool:
        assert process.poll() is None, "redis-server stopped"
        try:
            return client.ping()
        except redis.ConnectionError:
            return False

    until(answers, timeout=60, what="redis-server answering")
    yield f"redis://127.0.0.1:{port}/0"
    process.kill()
    process.wait(timeout=10)


def server(url: str, bus: str | None, tick: float):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "shared", "RATELIMIT_ENABLED": False,
                       "BUS_URL": bus, "LIVE_REFRESH_SECONDS": tick})


def subscribers(redis_url: str) -> int:
    return dict(redis.Redis.from_url(redis_url).pubsub_numsub(CHANNEL)).get(CHANNEL.encode(), 0)


def table(app) -> tuple[str, dict]:
    made = app.test_client().post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    return made["id"], {"Authorization": f"Bearer {made['scorer_key']}"}


def deal(app, table_id: str, key: dict) -> None:
    answer = app.test_client().post(f"/api/v1/tables/{table_id}/events", json={"type": "deal", "trump": "1O"},
                                    headers=key)
    assert answer.status_code == 201, answer.get_json()


def test_a_write_through_one_server_wakes_the_other_servers_streams_at_once(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    migrations.upgrade(url)
    first, second = server(url, redis_url, 0.25), server(url, redis_url, HOUR)
    table_id, key = table(first)
    watcher = second.extensions["referee.watcher"]
    topic = watcher.join(("table", table_id), None)
    until(lambda: watcher.reads >= 1 and watcher.value(("table", table_id)) is not None, timeout=60,
          what="the watcher's first read")  # at once, as a stream joins; then none for an hour
    until(lambda: subscribers(redis_url) == 1, timeout=60, what="the second server listening on the bus")
    seen = topic.seq
    deal(first, table_id, key)
    assert topic.wait(seen, 60.0) != seen  # not the hour's tick: the bus
    assert watcher.value(("table", table_id)).revision == 1
    assert (first.extensions["referee.bus"].published, first.extensions["referee.bus"].failed) == (1, 0)
    watcher.leave(("table", table_id))


def test_a_write_is_published_on_the_bus_and_without_a_bus_nothing_is(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    migrations.upgrade(url)
    listener = redis.Redis.from_url(redis_url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(CHANNEL)
    until(lambda: subscribers(redis_url) == 1, timeout=60, what="the test's listener subscribed")
    with_bus, alone = server(url, redis_url, 0.25), server(url, None, 0.25)

    def next_message() -> list:
        return json.loads(until(lambda: listener.get_message(timeout=1.0), timeout=60, what="a message")["data"])

    (told, told_key), (unheard, unheard_key), (after, after_key) = table(with_bus), table(alone), table(with_bus)
    deal(with_bus, told, told_key)
    assert next_message() == [told, None]  # the table written, no tournament: every server reads it now
    deal(alone, unheard, unheard_key)
    deal(with_bus, after, after_key)  # published after the write without a bus: the next message on the channel
    assert next_message() == [after, None]
    assert alone.extensions["referee.bus"].published == 0 and with_bus.extensions["referee.bus"].published == 2
    listener.close()


def test_a_bus_out_of_reach_fails_no_write_and_says_so(tmp_path, caplog):
    url = f"sqlite:///{tmp_path / 'away.sqlite3'}"
    migrations.upgrade(url)
    away = server(url, f"redis://127.0.0.1:{free_port()}/0", 0.25)  # nothing listens on that port
    table_id, key = table(away)
    with caplog.at_level(logging.WARNING, logger="referee.web.serving.bus"):
        deal(away, table_id, key)  # 201: the write kept
    state = away.test_client().get(f"/api/v1/tables/{table_id}", headers=key).get_json()
    assert state["revision"] == 1
    bus = away.extensions["referee.bus"]
    assert (bus.published, bus.failed) == (0, 1)
    assert [r.getMessage() for r in caplog.records if r.name == "referee.web.serving.bus"] == [
        "the bus could not publish a write"]
