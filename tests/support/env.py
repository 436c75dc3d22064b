"""Where the project is and what this machine lacks: the repository root, CI or not, and `need` (a skip here,
an error in CI); a free port on loopback."""
import os
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
