"""Where the project is and what this machine lacks: the repository root, CI or not, and `need` (a skip here,
an error in CI); a free port on loopback."""
import os
import random
import socket
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]


IN_CI = os.environ.get("CI") == "true"


def need(condition: bool, reason: str) -> None:
    """Skip when something outside the project is missing here; in CI (CI=true) that is an error, never a skip."""
    if not condition:
        if IN_CI:
            pytest.fail(f"missing in CI: {reason}")
        pytest.skip(reason)


_GIVEN: set[int] = set()


def free_port() -> int:
    """A loopback port nobody listens on, below the kernel's ephemeral range (32768 and up on Linux), so that no
    outgoing connection of this machine (to PostgreSQL, to another test's server) can be holding it when the server
    binds it; never the same one twice in a process."""
    for _ in range(200):
        port = random.randint(20000, 32000)
        if port in _GIVEN:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _GIVEN.add(port)
        return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
