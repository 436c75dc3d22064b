"""Serves the floor (``bench/floor.py``) exactly as ``flask --app referee serve`` serves Referee: through Referee's own
serving functions (``referee/web/serving/__init__.py``: gunicorn's gevent workers where the system forks, else waitress), with
the same processes, deadlines and caps; ``--worker gthread`` serves it as Referee was served before (2 × 8 threads);
waitress's threads where Referee has no such module.

    FLOOR_DATABASE_URL=sqlite:////tmp/floor.sqlite3 .venv/bin/python bench/floor_serve.py --port 5099 [--workers 2]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import floor  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--server", choices=["auto", "gunicorn", "waitress"], default="auto")
    parser.add_argument("--worker", choices=["gevent", "gthread"], default="gevent",
                        help="gunicorn's worker class: gevent as Referee's serve, gthread as it served before")
    args = parser.parse_args()
    try:
        from referee.web import serving
    except ImportError:  # a Referee that serves with waitress alone
        from waitress import serve

        serve(floor.create_app(), host=args.host, port=args.port, threads=args.threads, ident="floor")
        return
    server = args.server
    if server == "auto":
        server = "gunicorn" if serving.can_fork() else "waitress"
    if server == "gunicorn":  # each worker makes its app once forked, as Referee's do
        serving.serve_gunicorn(floor.create_app, args.host, args.port, args.workers or serving.default_workers(),
                               args.threads, worker_class=args.worker)
    else:
        serving.serve_waitress(floor.create_app(), args.host, args.port, args.threads)


if __name__ == "__main__":
    main()
