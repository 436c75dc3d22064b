"""Static files' addresses carry their content's hash, so that nginx and the phones may keep them a year.

``url_for('static', filename='referee.css')`` gives ``/static/referee.css?v=<12 hex digits of its SHA-256>`` (an
``url_defaults`` hook of the factory: every template, the service worker's list and the API's links get the same
address from the same call). A file changed on disk changes its address at the next page drawn (its hash is computed
again when its size or mtime changes), so a page never meets an old copy kept by a phone or nginx.

The file answered at an address whose ``v`` is its current hash says ``Cache-Control: public, max-age=31536000,
immutable``: a phone asks for it once a year at most, and not again on a reload. Without ``v``, or with an old one
(a page drawn before a deploy), it is answered with Flask's own validators (``no-cache``: checked again each time).
nginx serves the same addresses with the same header (deploy/nginx-referee.conf).

A query string rather than a hashed file name: the files stay where they are (no build step, no manifest to keep
beside them, the same folder for ``make run`` and for nginx's ``alias``), and Flask's own ``url_defaults`` is all it
takes. Flask-Static-Digest would write a hashed copy of every file at deploy time; nothing here needs that."""
from __future__ import annotations

import hashlib
import os

from flask import Flask, request
from werkzeug.security import safe_join

YEAR = 31536000
FOREVER = f"public, max-age={YEAR}, immutable"
DIGITS = 12  # 48 bits of SHA-256: two files' versions never meet by chance within a folder of a few dozen files


class StaticVersions:
    """Each static file's version (its content's hash), computed once and again only when the file changes."""

    def __init__(self, folder: str):
        self.folder = folder
        self._known: dict[str, tuple[tuple[int, int], str]] = {}

    def of(self, filename: str) -> str | None:
        """The file's version, or None for a name outside the folder or no file there."""
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = self._known.get(filename)
        if known is not None and known[0] == stamp:
            return known[1]
        with open(path, "rb") as file:
            version = hashlib.sha256(file.read()).hexdigest()[:DIGITS]
        self._known[filename] = (stamp, version)
        return version


def init_static_versions(app: Flask) -> StaticVersions:
    """Versioned addresses for ``url_for('static', …)`` and a year's cache for the files asked at them."""
    versions = StaticVersions(app.static_folder)
    app.extensions["referee.static_versions"] = versions
    send = app.view_functions["static"]

    @app.url_defaults
    def static_version(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values:
            version = versions.of(values.get("filename", ""))
            if version is not None:
                values["v"] = version

    def static(filename: str):
        response = send(filename=filename)
        if request.args.get("v") and request.args["v"] == versions.of(filename) and response.status_code in (200, 304):
            response.headers["Cache-Control"] = FOREVER
        return response

    app.view_functions["static"] = static
    return versions
