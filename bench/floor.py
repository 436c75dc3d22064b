"""The floor the benches hold Referee against: a bare Flask app that does only what an entry must — append one JSON
row, durably — and what a viewer's poll must — read one number — served by the same server as Referee.

    FLOOR_DATABASE_URL=sqlite:////tmp/floor.sqlite3 gunicorn "floor:create_app()"      (from bench/)

SQLite in WAL mode with ``synchronous=FULL`` (Referee's promise: every answered entry is on disk before the
answer), one write transaction per entry; or PostgreSQL (a ``postgresql://`` address, psycopg, one autocommitted
insert). Connections are pooled per process, each lent to one request at a time (not one per thread: under gevent's
workers every request is a greenlet of its own, and a thread-local connection would be one per request).

- ``POST /t/<table>/entries``: the body is stored as one row; 201 ``{"revision": n}``.
- ``GET /t/<table>/live?since=n``: 204 when the table's newest row is still ``n``, else a small fragment that names
  its revision, as Referee's live view does.
- ``GET /t/<table>/stream``: server-sent events, ``event: state`` with ``{"revision": n}`` at once and at each new
  row, a comment every 15 s; one watcher thread per process reads the newest row of every streamed table four times a
  second in one query and wakes that table's streams (what Referee's streams must do at least).
"""
from __future__ import annotations

import json
import os
import sqlite3
import contextlib
import queue
import threading
import time

from flask import Flask, Response, jsonify, request

SCHEMA_SQLITE = ("CREATE TABLE IF NOT EXISTS entries (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, body TEXT NOT NULL)",
                 "CREATE INDEX IF NOT EXISTS entries_table ON entries (table_id, id)")
SCHEMA_POSTGRES = ("CREATE TABLE IF NOT EXISTS floor_entries (id BIGSERIAL PRIMARY KEY, table_id TEXT NOT NULL, "
                   "body JSONB NOT NULL)",
                   "CREATE INDEX IF NOT EXISTS floor_entries_table ON floor_entries (table_id, id)")


class Pooled:
    """Connections made on demand and lent one request at a time."""

    def __init__(self):
        self.idle = queue.LifoQueue()

    @contextlib.contextmanager
    def db(self):
        try:
            connection = self.idle.get_nowait()
        except queue.Empty:
            connection = self.connect()
        try:
            yield connection
        finally:
            self.idle.put(connection)


class SQLiteLog(Pooled):
    def __init__(self, path: str):
        super().__init__()
        self.path = path
        connection = self.connect()  # made in the server's first process, closed before any worker starts
        for statement in SCHEMA_SQLITE:
            connection.execute(statement)
        connection.close()

    def connect(self):
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    def append(self, table_id: str, body: str) -> int:
        with self.db() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                row = connection.execute("INSERT INTO entries (table_id, body) VALUES (?, ?)",
                                         (table_id, body)).lastrowid
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            return row

    def newest(self, table_id: str) -> int:
        with self.db() as connection:
            return connection.execute("SELECT coalesce(max(id), 0) FROM entries WHERE table_id = ?",
                                      (table_id,)).fetchone()[0]

    def newest_of(self, table_ids: list) -> dict:
        marks = ",".join("?" for _ in table_ids)
        with self.db() as connection:
            return dict(connection.execute(f"SELECT table_id, max(id) FROM entries WHERE table_id IN ({marks}) "
                                           "GROUP BY table_id", table_ids).fetchall())


class PostgresLog(Pooled):
    def __init__(self, url: str):
        import psycopg

        super().__init__()
        self.psycopg, self.url = psycopg, url.replace("postgresql+psycopg://", "postgresql://")
        with self.psycopg.connect(self.url) as connection:  # one transaction, the workers one after the other:
            connection.execute("SELECT pg_advisory_xact_lock(4242)")  # two CREATE … IF NOT EXISTS at once collide
            for statement in SCHEMA_POSTGRES:
                connection.execute(statement)

    def connect(self):
        return self.psycopg.connect(self.url, autocommit=True)

    def append(self, table_id: str, body: str) -> int:
        with self.db() as connection:
            return connection.execute("INSERT INTO floor_entries (table_id, body) VALUES (%s, %s) RETURNING id",
                                      (table_id, body)).fetchone()[0]

    def newest(self, table_id: str) -> int:
        with self.db() as connection:
            return connection.execute("SELECT coalesce(max(id), 0) FROM floor_entries WHERE table_id = %s",
                                      (table_id,)).fetchone()[0]

    def newest_of(self, table_ids: list) -> dict:
        with self.db() as connection:
            return dict(connection.execute("SELECT table_id, max(id) FROM floor_entries WHERE table_id = ANY(%s) "
                                           "GROUP BY table_id", (list(table_ids),)).fetchall())


class Streams:
    """The streamed tables' newest rows, read by one thread four times a second; an event per table wakes its
    streams (under gevent's workers the thread and the events are greenlets')."""

    def __init__(self, log):
        self.log, self.lock, self.thread = log, threading.Lock(), None
        self.newest: dict[str, int] = {}
        self.changed: dict[str, threading.Event] = {}
        self.open: dict[str, int] = {}

    def stream(self, table_id: str):
        with self.lock:
            self.open[table_id] = self.open.get(table_id, 0) + 1
            self.changed.setdefault(table_id, threading.Event())
            if self.thread is None:
                self.thread = threading.Thread(target=self.run, daemon=True)
                self.thread.start()
        try:
            sent = self.log.newest(table_id)
            yield f'event: state\ndata: {{"revision": {sent}}}\n\n'
            while True:
                event = self.changed[table_id]  # taken before the row is read: a change after it sets it
                newest = self.newest.get(table_id, sent)
                if newest > sent:
                    sent = newest
                    yield f'event: state\ndata: {{"revision": {sent}}}\n\n'
                elif not event.wait(15):
                    yield ": alive\n\n"
        finally:
            with self.lock:
                self.open[table_id] -= 1
                if not self.open[table_id]:
                    del self.open[table_id]

    def run(self) -> None:
        while True:
            time.sleep(0.25)
            ids = list(self.open)
            if not ids:
                continue
            for table_id, newest in self.log.newest_of(ids).items():
                if self.newest.get(table_id) != newest:
                    self.newest[table_id] = newest
                    old = self.changed[table_id]
                    self.changed[table_id] = threading.Event()  # the next wait is for the next change
                    old.set()


def create_app() -> Flask:
    url = os.environ["FLOOR_DATABASE_URL"]
    log = PostgresLog(url) if url.startswith("postgresql") else SQLiteLog(url.removeprefix("sqlite:///"))
    app = Flask("floor")

    @app.post("/t/<table_id>/entries")
    def append(table_id):
        body = request.get_json(force=True)
        return jsonify(revision=log.append(table_id, json.dumps(body))), 201

    @app.get("/t/<table_id>/live")
    def live(table_id):
        newest = log.newest(table_id)
        if request.args.get("since") == str(newest):
            return Response(status=204)
        return Response(f'<div id="live" data-revision="{newest}">{newest}</div>', mimetype="text/html")

    streams = Streams(log)

    @app.get("/t/<table_id>/stream")
    def stream(table_id):
        return Response(streams.stream(table_id), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app
