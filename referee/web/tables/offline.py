"""Installing and opening offline: the service worker at the site's root and the page it shows without a network.

``/sw.js`` is ``static/sw.js`` served from the root, so that its scope is every page (``Service-Worker-Allowed: /``),
with its first line filled in: the files it keeps (every file under ``static/``, so a script added there is kept
without a list to update, each under the address the pages ask for, ``url_for('static', …)``'s
``/static/x.css?v=<its hash>``; and the offline page) and a version made of their contents — a changed file changes the
worker's bytes, so phones fetch the new files once and drop the old ones. The manifest and icons are plain static
files (``static/manifest.webmanifest``, ``static/icons/``, drawn by ``scripts/make_icons.py``)."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import current_app, render_template, request, url_for

from referee.web.tables import bp

PLACEHOLDER = 'const PRECACHE = {"version": "", "assets": [], "offline": ""};'
WORKER = "sw.js"


def static_files(folder: Path) -> list[tuple[str, int, int]]:
    """Every file under static/ but the worker itself: (its path there, mtime, size), in a stable order."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != WORKER and not path.name.startswith("."):
            stat = path.stat()
            found.append((path.relative_to(folder).as_posix(), stat.st_mtime_ns, stat.st_size))
    return found


@lru_cache(maxsize=8)
def worker_source(folder: str, pages: tuple, files: tuple, stamp: tuple) -> tuple[str, str]:
    """The worker's text with its list and version, and that version (computed again only when a file changed)."""
    digest = hashlib.sha256()
    for name, _, _ in files:
        digest.update(name.encode() + b"\0" + (Path(folder) / name).read_bytes())
    source = (Path(folder) / WORKER).read_text(encoding="utf-8")
    digest.update(source.encode())
    for page in pages:  # the offline page is kept too
        digest.update(Path(page).read_bytes())
    return source, digest.hexdigest()[:16]


def template_path(name: str) -> str:
    """Where the template ``name`` is, in whichever folder the app's loader finds it (the app's or an area's)."""
    return current_app.jinja_env.get_template(name).filename


def stamp_of(*paths: Path) -> tuple:
    return tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in paths)


@bp.get("/sw.js")
def worker():
    folder = Path(current_app.static_folder)
    pages = tuple(template_path(name) for name in ("offline.html", "base.html"))
    files = tuple(static_files(folder))
    source, version = worker_source(str(folder), pages, files, stamp_of(folder / WORKER, *map(Path, pages)))
    assets = [url_for("static", filename=name) for name, _, _ in files]
    filled = json.dumps({"version": version, "assets": assets, "offline": url_for("tables.fallback")})
    if PLACEHOLDER not in source:
        raise RuntimeError(f"static/{WORKER} lost its first line: {PLACEHOLDER}")
    response = current_app.response_class(source.replace(PLACEHOLDER, f"const PRECACHE = {filled};", 1),
                                          mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a phone asks again at each visit (304 when unchanged)
    response.set_etag(version)
    return response.make_conditional(request)


@bp.get("/offline")
def fallback():
    """What a page never opened on this phone shows when the network is down (kept by the worker)."""
    return render_template("offline.html")
