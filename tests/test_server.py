"""Against a real server process: durability across SIGKILL, and two worker processes seeing one table. The API's
contract against a running server is tests/test_contract.py."""
import json
import signal
import subprocess
import sys
import urllib.request

import pytest

from tests.support.deals import DEAL_4P


def call(url, method="GET", body=None, key=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def test_an_event_answered_201_survives_sigkill(server):
    status, created = call(server.url + "/api/v1/tables", "POST", {"game": "brisca", "players": ["A", "B", "C", "D"]})
    table = f"{server.url}/api/v1/tables/{created['id']}"
    key = created["scorer_key"]
    call(table + "/events", "POST", {"type": "deal", "trump": "11E"}, key)
    status, answer = call(table + "/events", "POST", {"type": "trick", "cards": DEAL_4P[0][0]}, key)
    assert status == 201
    server.kill(signal.SIGKILL)  # no clean shutdown
    server.start()
    status, state = call(table, key=key)
    assert status == 200 and state["version"] == 2 and state["deals"][0]["tricks"][0]["cards"] == DEAL_4P[0][0]
    assert state["deals"][0]["points"] == [0, 14]


@pytest.mark.server  # a real server process of its own
def test_a_change_through_one_gunicorn_worker_reaches_a_viewer_served_by_the_other(tmp_path):
    import os
    import time

    from tests.support.env import ROOT, free_port
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'workers.sqlite3'}", "SECRET_KEY": "test",
           "REFEREE_WORKER_HEADER": "1"}
    subprocess.run([sys.executable, "-m", "flask", "--app", "referee", "init-db"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    port = free_port()
    # gunicorn's own command line with Referee's gevent worker class (the app made in each worker once patched)
    gunicorn = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "-k", "referee.web.serving.gevent_worker.Worker",
                                 "-b", f"127.0.0.1:{port}", "referee:create_app()"], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        workers = set()
        for _ in range(600):  # until both workers answer
            try:
                with urllib.request.urlopen(url + "/api/v1/games", timeout=1) as response:
                    workers.add(response.headers["X-Referee-Worker"])
                if len(workers) == 2:
                    break
            except OSError:
                pass
            time.sleep(0.05)
        assert len(workers) == 2, "gunicorn did not start two workers"
        status, created = call(url + "/api/v1/tables", "POST", {"game": "brisca", "players": ["A", "B", "C", "D"]})
        table, viewer = created["id"], created["viewer_key"]
        since = created["state"]["revision"]
        request = urllib.request.Request(f"{url}/api/v1/tables/{table}/events", method="POST",
                                         data=json.dumps({"type": "deal", "trump": "11E"}).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {created['scorer_key']}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            writer = response.headers["X-Referee-Worker"]
            assert response.status == 201
        seen = set()
        for _ in range(300):  # the workers take turns; a busy machine may give one a run of requests
            time.sleep(0.03)
            with urllib.request.urlopen(f"{url}/t/{table}/live?key={viewer}&since={since}", timeout=10) as response:
                worker = response.headers["X-Referee-Worker"]
                seen.add(worker)
                if worker != writer:
                    assert response.status == 200 and f"since={since + 1}" in response.read().decode()
                    break
        assert len(seen | {writer}) == 2, "the viewer was never served by the other worker"
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=10)
