"""Against a real server process: the shared contract checker, and durability across SIGKILL."""
import json
import signal
import subprocess
import sys
import urllib.request

from tests.conftest import SHARED, need
from tests.test_brisca import DEAL_4P


def call(url, method="GET", body=None, key=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def test_contract_check_passes(server):
    checker = SHARED / "tools" / "contract_check.py"
    need(checker.exists(), f"{checker} not found (../shared beside the repo)")
    result = subprocess.run([sys.executable, str(checker), server.url], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("failed") and " 0 failed" in result.stdout


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
