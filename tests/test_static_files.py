"""Static files at addresses that carry their content's hash (issue 40, referee/web/serving/static_files.py): the
pages and the service worker give the same addresses, a file answered at its current hash may be kept a year
(``immutable``) by Referee and by nginx (deploy/nginx-referee.conf) alike, and a file changed on disk gets a new
address at once, so no phone keeps an old script under a new page."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from flask import Flask, url_for

from deploy.fill import fill
from referee.web.serving.static_files import FOREVER, init_static_versions
from tests.support.env import ROOT, free_port, need
from tests.support.rig import NGINX_MAIN

STATIC = ROOT / "referee" / "static"
ASSET = re.compile(r'<(?:script|link)[^>]* (?:src|href)="(/static/[^"]+)"')


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def versioned(relative: str) -> str:
    return f"/static/{relative}?v={hashlib.sha256((STATIC / relative).read_bytes()).hexdigest()[:12]}"


def test_a_file_at_its_hash_is_kept_a_year_and_at_any_other_address_checked_again(client):
    address = versioned("referee.css")
    first = client.get(address)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert first.data == (STATIC / "referee.css").read_bytes()
    again = client.get(address, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == FOREVER
    for other in ("/static/referee.css", "/static/referee.css?v=000000000000", versioned("scorer.js")[:-1]):
        answer = client.get(other)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache", other
    assert client.get("/static/nothing-here.js?v=000000000000").status_code == 404


def test_a_changed_file_changes_its_address_and_the_old_one_is_no_longer_immutable(tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "app.js").write_text("one();\n")
    app = Flask("changing", static_folder=str(folder))
    init_static_versions(app)
    client = app.test_client()
    with app.test_request_context():
        before = url_for("static", filename="app.js")
        assert url_for("static", filename="missing.js") == "/static/missing.js"  # no file: no version
    assert before == "/static/app.js?v=" + digest(b"one();\n")
    (folder / "app.js").write_text("two(); // changed\n")  # a new size: its hash is computed again
    with app.test_request_context():
        after = url_for("static", filename="app.js")
    assert after == "/static/app.js?v=" + digest(b"two(); // changed\n") and after != before
    assert client.get(after).headers["Cache-Control"] == FOREVER and client.get(after).data == b"two(); // changed\n"
    assert client.get(before).headers["Cache-Control"] == "no-cache"  # an old page's address: asked again each time


def worker_assets(client) -> list:
    first = client.get("/sw.js").get_data(as_text=True).splitlines()[0]
    return json.loads(first.removeprefix("const PRECACHE = ").removesuffix(";"))["assets"]


def test_the_workers_list_is_the_addresses_the_pages_load(client):
    client.set_cookie("lang", "en")
    table = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Evening", "entrants": [
        ["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]], "rounds": [{"movement": "mitchell"}]}).get_json()
    tid, key, viewer = made["id"], made["director_key"], made["viewer_key"]
    client.post(f"/api/v1/tournaments/{tid}/rounds?key={key}")
    pages = ["/", f"/t/{table['id']}?key={table['scorer_key']}", f"/t/{table['id']}?key={table['viewer_key']}",
             f"/tournaments/{tid}?key={key}", f"/tournaments/{tid}/screen?key={viewer}",
             f"/tournaments/{tid}/standings?key={viewer}", f"/tournaments/{tid}/cards?key={key}",
             f"/tournaments/{tid}/print?key={viewer}", "/rules/brisca", "/offline"]
    assets = worker_assets(client)
    loaded = set()
    for path in pages:
        answer = client.get(path)
        assert answer.status_code == 200, path
        found = set(ASSET.findall(answer.get_data(as_text=True)))
        assert found and found <= set(assets), (path, found - set(assets))
        loaded |= found
    assert {versioned("referee.css"), versioned("scorer.js"), versioned("vendor/htmx.min.js"),
            versioned("tournament.css"), versioned("print.css"), versioned("manifest.webmanifest")} <= loaded
    assert all(re.fullmatch(r"/static/[\w./-]+\?v=[0-9a-f]{12}", asset) for asset in assets)


@pytest.mark.server
def test_nginx_serves_the_versioned_addresses_with_the_same_header(tmp_path):
    """deploy/nginx-referee.conf as filled in for a deployment (no server behind it: only its static files)."""
    need(bool(shutil.which("nginx")) and bool(shutil.which("openssl")), "nginx or openssl is missing (.ci/run "
                                                                         "installs them)")
    cert, key, port = tmp_path / "cert.pem", tmp_path / "key.pem", free_port()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)], check=True,
                   capture_output=True)
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / sub).mkdir()
    (tmp_path / "referee.conf").write_text(fill((ROOT / "deploy/nginx-referee.conf").read_text(), {
        "UPSTREAMS": f"server 127.0.0.1:{free_port()};", "LISTEN": f"127.0.0.1:{port}", "SERVER_NAME": "127.0.0.1",
        "CERT": str(cert), "KEY": str(key), "STATIC": str(STATIC)}))
    user = "root" if os.geteuid() == 0 else os.environ.get("USER", "nobody")
    (tmp_path / "nginx.conf").write_text(NGINX_MAIN.format(prefix=tmp_path, user=user))
    nginx = subprocess.Popen(["nginx", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    context = ssl.create_default_context(cafile=str(cert))

    def get(path: str):
        return urllib.request.urlopen(f"https://127.0.0.1:{port}{path}", timeout=5, context=context)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                answer = get(versioned("referee.css"))
                break
            except (OSError, urllib.error.URLError):
                assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        assert answer.status == 200 and answer.headers["Cache-Control"] == FOREVER
        assert answer.read() == (STATIC / "referee.css").read_bytes()
        assert get("/static/referee.css").headers["Cache-Control"] == "public, max-age=86400"
    finally:
        nginx.kill()
        nginx.wait(timeout=10)
