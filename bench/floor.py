"""The floor the benches hold Referee against: a bare Flask app that does only what an entry must — append one JSON
row, durably — and what a viewer's poll must — read one number — served by the same server as Referee.

    FLOOR_DATABASE_URL=sqlite:////tmp/floor.sqlite3 gunicorn "floor:create_app()"      (from bench/)

SQLite in WAL mode with ``synchronous=FULL`` (Referee's promise: every answered entry is on disk before the
answer), one write transaction per entry; or PostgreSQL (a ``postgresql://`` address, psycopg, one autocommitted
insert). One connection per thread, opened on first use.

- ``POST /t/<table>/entries``: the body is stored as one row; 201 ``{"revision": n}``.
- ``GET /t/<table>/live?since=n``: 204 when the table's newest row is still ``n``, else a small fragment that names
  its revision, as Referee's live view does.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading

from flask import Flask, Response, jsonify, request

SCHEMA_SQLITE = ("CREATE TABLE IF NOT EXISTS entries (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, body TEXT NOT NULL)",
                 "CREATE INDEX IF NOT EXISTS entries_table ON entries (table_id, id)")
SCHEMA_POSTGRES = ("CREATE TABLE IF NOT EXISTS floor_entries (id BIGSERIAL PRIMARY KEY, table_id TEXT NOT NULL, "
                   "body JSONB NOT NULL)",
                   "CREATE INDEX IF NOT EXISTS floor_entries_table ON floor_entries (table_id, id)")


class SQLiteLog:
    def __init__(self, path: str):
        self.path, self.local = path, threading.local()
        connection = self.connect()  # made in the server's first process, closed before any worker starts
        for statement in SCHEMA_SQLITE:
            connection.execute(statement)
        connection.close()

    def connect(self):
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    def db(self):
        if getattr(self.local, "connection", None) is None:
            self.local.connection = self.connect()
        return self.local.connection

    def append(self, table_id: str, body: str) -> int:
        connection = self.db()
        connection.execute("BEGIN IMMEDIATE")
        try:
            row = connection.execute("INSERT INTO entries (table_id, body) VALUES (?, ?)", (table_id, body)).lastrowid
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return row

    def newest(self, table_id: str) -> int:
        return self.db().execute("SELECT coalesce(max(id), 0) FROM entries WHERE table_id = ?",
                                 (table_id,)).fetchone()[0]


class PostgresLog:
    def __init__(self, url: str):
        import psycopg

        self.psycopg, self.url, self.local = psycopg, url.replace("postgresql+psycopg://", "postgresql://"), \
            threading.local()
        with self.psycopg.connect(self.url, autocommit=True) as connection:
            for statement in SCHEMA_POSTGRES:
                connection.execute(statement)

    def db(self):
        if getattr(self.local, "connection", None) is None:
            self.local.connection = self.psycopg.connect(self.url, autocommit=True)
        return self.local.connection

    def append(self, table_id: str, body: str) -> int:
        return self.db().execute("INSERT INTO floor_entries (table_id, body) VALUES (%s, %s) RETURNING id",
                                 (table_id, body)).fetchone()[0]

    def newest(self, table_id: str) -> int:
        return self.db().execute("SELECT coalesce(max(id), 0) FROM floor_entries WHERE table_id = %s",
                                 (table_id,)).fetchone()[0]


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

    return app
