"""Issue 28: a federation's evening on several machines, run for real on this one (tests/support/rig.py): PostgreSQL,
Redis, two Referee servers as deploy/referee@.service starts them with deploy/referee.env, nginx running
deploy/nginx-referee.conf with a certificate of its own. Through nginx only: a Buraco tournament of 12 tables
entered by numbers while streams and pollers follow the wall and the tables; mid-round one server is killed (kill -9
on its whole process group): nginx sends everything to the other, no acknowledged entry is lost or doubled, every
stream comes back and sees the next change (the wall's streams the director's next penalty, each table's streams the
revision of its last entry, made after the kill); the server starts again and takes its share. The tables'
limit counts once for both servers (Redis); a form opened on one server posts on the other (one secret key); the
evening's backup restored into a fresh PostgreSQL gives the same standings.

Skipped with a sentence where nginx or redis-server is missing (never under CI=true: .ci/run installs them)."""
from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse

import pytest
import redis
from sqlalchemy import create_engine, make_url, text

from referee import create_app
from referee.store import migrations

from tests.support.env import ROOT, need
from tests.support.ledgers import wipe
from tests.support.rig import Rig, rig_database
from tests.support.burraco import VP_ROWS
from tests.support.waiting import until

pytestmark = pytest.mark.server

PAIRS = [[f"P{i}a", f"P{i}b"] for i in range(24)]
HANDS = 2
LIMIT = 10  # tables an hour per address, for both servers together


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    url = rig_database()
    started = Rig(tmp_path_factory.mktemp("rig"), url, FLASK_RATELIMIT_TABLES=f"{LIMIT} per hour").start()
    yield started
    started.stop()
    wipe(url)


class Follower(threading.Thread):
    """A phone following a stream of server-sent events through nginx (the API's: ``event: state``, a revision),
    coming back by itself whenever the stream ends, as a browser's EventSource does."""

    def __init__(self, rig: Rig, path: str):
        super().__init__(daemon=True)
        self.rig, self.path = rig, path
        self.seen: list = []  # (moment, revision)
        self.connects = 0
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            try:
                connection = http.client.HTTPSConnection("127.0.0.1", self.rig.https_port, timeout=15,
                                                         context=self.rig.context)
                connection.request("GET", self.path, headers={"Accept": "text/event-stream"})
                answer = connection.getresponse()
                self.connects += 1
                while not self.stopping.is_set():
                    line = answer.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        data = json.loads(line[6:])
                        if isinstance(data, dict) and "revision" in data:
                            self.seen.append((time.monotonic(), data["revision"]))
                connection.close()
            except (OSError, http.client.HTTPException, ValueError):
                pass
            time.sleep(0.3)  # time is the subject: a browser's pause before it comes back (the stream's retry)

    def saw(self, revision: int, since: float) -> float | None:
        """How long after ``since`` it first saw ``revision`` or a newer one; None if not yet."""
        return next((moment - since for moment, seen in self.seen if seen >= revision and moment >= since), None)


class Poller(threading.Thread):
    """A phone without a stream: asks the tournament's state every second."""

    def __init__(self, rig: Rig, path: str):
        super().__init__(daemon=True)
        self.rig, self.path, self.answers, self.stopping = rig, path, [], threading.Event()

    def run(self):
        while not self.stopping.is_set():
            try:
                status, _, _ = self.rig.call("GET", self.path, tries=1)
                self.answers.append(status)
            except RuntimeError:
                self.answers.append(None)
            self.stopping.wait(1.0)


def hand(table: dict, number: int) -> list:
    """A hand entered by its numbers, each entry with the id a phone gives it (sent again as it was)."""
    ident = f"{table['table_id']}-{number}"
    tally = {"type": "tally", "closed_by": None, "client_event_id": f"{ident}-tally",
             "sides": [{"melds": 100 + 10 * table["number"], "burracos": {}, "pot": True, "hand": 0},
                       {"melds": 100, "burracos": {}, "pot": True, "hand": 5 * number}]}
    return [{"type": "deal", "trump": None, "client_event_id": f"{ident}-deal"}, tally]


def test_a_tournament_through_nginx_survives_a_server_killed_mid_round(rig):
    status, made, _ = rig.call("POST", "/api/v1/tournaments", {
        "game": "buraco", "name": "National", "entrants": PAIRS, "rounds": [{"movement": "mitchell", "hands": HANDS}],
        "vp_table": VP_ROWS})  # R-TOURN-4: a round of HANDS (2) hands names its rows
    assert status == 201
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    rig.tournament = (tid, viewer)  # the backup's test reads it back
    status, state, _ = rig.call("POST", f"/api/v1/tournaments/{tid}/rounds", {}, director)
    tables = state["rounds"][0]["tables"]
    assert status == 201 and len(tables) == 12
    keys = {t["table_id"]: t["scorer_url"].split("key=")[1] for t in tables}
    followers = [Follower(rig, f"/api/v1/tournaments/{tid}/stream?key={viewer}") for _ in range(100)]
    followers += [Follower(rig, f"/api/v1/tables/{t['table_id']}/stream?key={keys[t['table_id']]}")
                  for t in tables for _ in range(5)]
    pollers = [Poller(rig, f"/api/v1/tournaments/{tid}?key={viewer}") for _ in range(40)]
    for thread in followers + pollers:
        thread.start()
    try:
        until(lambda: all(f.seen for f in followers), timeout=60, every=0.2, what="every stream's first state")

        workers = set()
        entries = [(t, body) for number in range(1, HANDS + 1) for t in tables for body in hand(t, number)]
        half = len(entries) // 2
        for table, body in entries[:half]:
            status, _, worker = rig.call("POST", f"/api/v1/tables/{table['table_id']}/events", body,
                                         keys[table["table_id"]])
            assert status in (200, 201), (status, body)
            workers.add(worker)
        assert len(workers) == 2  # nginx shares the phones between both servers

        rig.kill_server(rig.ports[0])  # mid-round: one machine gone
        killed_at = time.monotonic()
        answered = set()
        for table, body in entries[half:]:
            status, _, worker = rig.call("POST", f"/api/v1/tables/{table['table_id']}/events", body,
                                         keys[table["table_id"]])
            assert status in (200, 201), (status, body)
            answered.add(worker)
        assert len(answered) == 1 and answered <= workers  # the other server took everything

        # every stream came back (through the other server) and sees the next change: the tournament's its next
        # revision, each table's the revision of the table's last entry (every table had its second hand after the
        # kill); how soon is the bench's to say
        status, now, _ = rig.call("GET", f"/api/v1/tournaments/{tid}?key={director}")
        changed_at = time.monotonic()
        status, _, _ = rig.call("POST", f"/api/v1/tournaments/{tid}/penalties",
                                {"entrant": 0, "vp": -1, "reason": "Late", "round": 1}, director)
        assert status == 201
        last = {ident: rig.call("GET", f"/api/v1/tables/{ident}?key={key}")[1]["revision"]
                for ident, key in keys.items()}
        assert all(revision > 0 for revision in last.values())

        def late() -> list:
            return ([f.path for f in followers[:100] if f.saw(now["revision"] + 1, changed_at) is None]
                    + [f.path for f in followers[100:] if f.saw(last[f.path.split("/")[4]], killed_at) is None])

        until(lambda: late() == [], timeout=60, every=0.2, what="every stream seeing the next change")
        assert min(f.connects for f in followers) >= 1

        rig.start_server(rig.ports[0])  # the machine is back: nginx gives it its share again
        again = set()
        until(lambda: again.add(rig.call("GET", "/api/v1/games")[2]) or len(again) == 2, timeout=60, every=0.1,
              what="both servers answering through nginx")
    finally:
        for thread in followers + pollers:
            thread.stopping.set()

    # no acknowledged entry lost or doubled: each table holds its hands, once each
    for table in tables:
        status, log, _ = rig.call("GET", f"/api/v1/tables/{table['table_id']}/events?key={keys[table['table_id']]}")
        assert [(e["type"], e["client_event_id"], e["withdrawn"]) for e in log["events"]] == [
            (body["type"], body["client_event_id"], False) for number in range(1, HANDS + 1)
            for body in hand(table, number)]
    status, state, _ = rig.call("GET", f"/api/v1/tournaments/{tid}?key={viewer}")
    assert all(t["finished"] for t in state["rounds"][0]["tables"])
    assert sum(1 for answer in sum((p.answers for p in pollers), []) if answer == 200) > 40


def test_the_tables_limit_counts_once_for_both_servers_and_a_form_posts_on_either(rig):
    redis.Redis(port=rig.redis_port).flushall()  # the counts start here, whatever the first test made
    # A form opened on one server posts on the other: the session and its CSRF token are the deployment's. (Each
    # server asked directly, as nginx would, the session's cookie carried by hand: it is Secure, for https only.)
    first, second = (http.client.HTTPConnection("127.0.0.1", port, timeout=10) for port in rig.ports)
    as_nginx = {"X-Forwarded-Proto": "https", "Host": f"127.0.0.1:{rig.https_port}"}  # what nginx passes on
    first.request("GET", "/new/brisca?lang=en", headers=as_nginx)
    opened = first.getresponse()
    page, cookie = opened.read().decode(), opened.headers["Set-Cookie"].split(";")[0]
    form = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page)[1],
            "form_id": re.search(r'name="form_id" value="([0-9a-f]{32})"', page)[1],
            "player": ["Ana", "Bo", "Cy", "Di"], "dealer": "0", "op": "create"}
    second.request("POST", "/new/brisca", body=urllib.parse.urlencode(form, doseq=True), headers={
        **as_nginx, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
        "Referer": f"{rig.url}/new/brisca", "Origin": rig.url})
    posted = second.getresponse()
    assert posted.status == 303, posted.read().decode()[:2000]
    assert posted.status == 303 and re.fullmatch(r"/t/[\w-]{11}\?key=[\w-]{32}", posted.headers["Location"])
    assert opened.headers["X-Referee-Worker"] != posted.headers["X-Referee-Worker"]
    # Redis counts the tables of both servers: the limit, not twice it (the form made one of them)
    made = 0
    for _ in range(2 * LIMIT):
        status, _, _ = rig.call("POST", "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo"]})
        if status == 429:
            break
        assert status == 201
        made += 1
    assert made == LIMIT - 1


def test_a_backup_restored_into_a_fresh_postgresql_gives_the_same_standings(rig, tmp_path):
    """The evening's backup (``flask backup``: pg_dump, with the servers' own settings) restored into a new database
    (pg_restore) holds the same tournament: the same standings, penalty included, read by a Referee on it."""
    need(bool(shutil.which("pg_dump")) and bool(shutil.which("pg_restore")),
         "pg_dump and pg_restore are missing (Debian package postgresql-client; .ci/run installs postgresql)")
    tid, viewer = rig.tournament
    status, live, _ = rig.call("GET", f"/api/v1/tournaments/{tid}?key={viewer}")
    assert status == 200 and live["penalties"] and len(live["standings"]) == 24
    target = tmp_path / "evening.dump"
    subprocess.run([sys.executable, "-m", "flask", "--app", "referee", "backup", str(target)], cwd=ROOT, env=rig.env,
                   check=True, capture_output=True)
    source = make_url(migrations.plain_url(rig.database_url))
    fresh = source.set(database=f"{source.database}_rig_restore")
    admin = create_engine(source, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{fresh.database}"'))
        connection.execute(text(f'CREATE DATABASE "{fresh.database}"'))
    try:
        libpq = fresh.set(drivername="postgresql").render_as_string(hide_password=False)
        done = subprocess.run(["pg_restore", "--no-owner", "--dbname", libpq, str(target)], capture_output=True,
                              text=True, env={**os.environ, "PGPASSWORD": source.password or ""})
        assert done.returncode == 0, done.stderr
        app = create_app({"TESTING": True, "DATABASE_URL": fresh.render_as_string(hide_password=False),
                          "SECRET_KEY": "restored"})
        restored = app.test_client().get(f"/api/v1/tournaments/{tid}?key={viewer}").get_json()
        app.extensions["referee.ledger"].engine.dispose()
        assert restored["standings"] == live["standings"] and restored["penalties"] == live["penalties"]
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{fresh.database}" WITH (FORCE)'))
        admin.dispose()
