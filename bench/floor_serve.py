"""Serves the floor (``bench/floor.py``) exactly as ``flask --app referee serve`` serves Referee: through Referee's own
serving functions (``referee/web/serving.py``: gunicorn's workers where the system forks, else waitress), with the
same processes and threads; waitress's threads where Referee has no such module.

    FLOOR_DATABASE_URL=sqlite:////tmp/floor.sqlite3 .venv/bin/python bench/floor_serve.py --port 5099 [--workers 2]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import floor  # noqa: E402


class _NoLedger:
    """Referee's serving closes its ledger's pooled connections around the fork; the floor opens its own connections
    per thread after the fork, so there is nothing to close."""

    @staticmethod
    def forget_connections(close: bool = True) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--server", choices=["auto", "gunicorn", "waitress"], default="auto")
    args = parser.parse_args()
    app = floor.create_app()
    app.extensions["referee.ledger"] = _NoLedger()
    try:
        from referee.web import serving
    except ImportError:  # a Referee that serves with waitress alone
        from waitress import serve

        serve(app, host=args.host, port=args.port, threads=args.threads, ident="floor")
        return
    server = args.server
    if server == "auto":
        server = "gunicorn" if serving.can_fork() else "waitress"
    if server == "gunicorn":
        serving.serve_gunicorn(app, args.host, args.port, args.workers or serving.default_workers(), args.threads)
    else:
        serving.serve_waitress(app, args.host, args.port, args.threads)


if __name__ == "__main__":
    main()
