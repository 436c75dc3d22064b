"""Installable and opening offline (issue 18, slice O1): the manifest and its icons as Lighthouse's installability
checks read them, the service worker served from the root, HTTPS on the LAN from two settings, and in Chromium on the
test server (http://127.0.0.1 is a secure context) the worker controlling the scorer's page and opening it from its
cache with the network down."""
from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import ssl
import struct
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.env import ROOT, free_port, need
from tests.support.waiting import until

STATIC = ROOT / "referee" / "static"
PHONE = {"width": 360, "height": 740}


def versioned(relative: str) -> str:
    """A static file's address as the pages and the worker give it: its content's hash in ``v``
    (referee/web/serving/static_files.py)."""
    return f"/static/{relative}?v={hashlib.sha256((STATIC / relative).read_bytes()).hexdigest()[:12]}"


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def manifest_href(html: str) -> str:
    return re.search(r'<link rel="manifest" href="([^"]+)">', html).group(1)


def test_manifest_has_what_installing_needs(client):
    href = manifest_href(client.get("/").get_data(as_text=True))
    assert href == versioned("manifest.webmanifest")
    response = client.get(href)
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Referee — card games' scores" and manifest["short_name"] == "Referee"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b57a4" and manifest["background_color"] == "#fdfcf8"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert sorted(icons) == [("192x192", "any"), ("192x192", "maskable"), ("512x512", "any"), ("512x512", "maskable")]
    for (sizes, _), icon in icons.items():
        assert icon["type"] == "image/png"
        served = client.get(icon["src"])
        assert served.status_code == 200 and served.mimetype == "image/png"
        side = int(sizes.split("x")[0])
        assert png_size(served.data) == (side, side)
        assert (STATIC / icon["src"].removeprefix("/static/")).read_bytes() == served.data


def test_maskable_icons_have_no_transparent_pixel():
    """A maskable icon has no transparent corner (the phone's mask cuts into the background, never into nothing)."""
    for side in (192, 512):
        data = (STATIC / "icons" / f"maskable-{side}.png").read_bytes()
        assert png_size(data) == (side, side)
        assert data[25] == 2  # colour type RGB: no alpha channel, so no pixel can be transparent


def worker_text(client) -> str:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/" and response.headers["Cache-Control"] == "no-cache"
    return response.get_data(as_text=True)


def precache_of(text: str) -> dict:
    first = text.splitlines()[0]
    assert first.startswith("const PRECACHE = ") and first.endswith(";")
    return json.loads(first.removeprefix("const PRECACHE = ").removesuffix(";"))


def test_worker_keeps_every_static_file_and_the_offline_page(client):
    precache = precache_of(worker_text(client))
    on_disk = sorted(versioned(path.relative_to(STATIC).as_posix()) for path in STATIC.rglob("*")
                     if path.is_file() and path.name != "sw.js" and not path.name.startswith("."))
    assert precache["assets"] == on_disk  # static/offline.js and any script added later are kept without a list
    assert versioned("vendor/htmx.min.js") in on_disk and versioned("manifest.webmanifest") in on_disk
    assert versioned("vendor/htmx-ext-sse.min.js") in on_disk  # the app shell holds the SSE extension like htmx
    assert precache["offline"] == "/offline" and re.fullmatch(r"[0-9a-f]{16}", precache["version"])
    offline = client.get("/offline", headers={"Accept-Language": "en"})
    assert offline.status_code == 200 and "<h1>No connection</h1>" in offline.get_data(as_text=True)
    assert "<h1>Pas de connexion</h1>" in client.get("/offline", headers={"Accept-Language": "fr"}).get_data(as_text=True)


def test_worker_keeps_every_file_the_scorer_page_loads(client):
    table = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    page = client.get(f"/t/{table['id']}?key={table['scorer_key']}").get_data(as_text=True)
    loaded = set(re.findall(r'<(?:script|link)[^>]* (?:src|href)="(/static/[^"]+)"', page))
    assert {versioned("scorer.js"), versioned("referee.css"), versioned("register-sw.js")} <= loaded
    assert loaded <= set(precache_of(worker_text(client))["assets"])


def test_worker_version_follows_the_files_and_answers_304_when_unchanged(client):
    first = client.get("/sw.js")
    etag = first.headers["ETag"]
    assert etag.strip('"') == precache_of(first.get_data(as_text=True))["version"]
    assert client.get("/sw.js", headers={"If-None-Match": etag}).status_code == 304


# HTTPS on the LAN: REFEREE_TLS_CERT and REFEREE_TLS_KEY, passed by `flask serve` to gunicorn.

def self_signed(tmp_path: Path) -> tuple[Path, Path]:
    need(shutil.which("openssl") is not None, "openssl is missing (Debian package openssl)")
    cert, key = tmp_path / "club.crt", tmp_path / "club.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out",
                    str(cert)], check=True, capture_output=True)
    return cert, key


def serve(tmp_path, **env) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--workers", "1"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'tls.sqlite3'}", "SECRET_KEY": "test",
             "FLASK_RATELIMIT_ENABLED": "false", **env})
    return process, port


@pytest.mark.server  # a real server process of its own
def test_serve_speaks_https_with_the_clubs_certificate(tmp_path):
    cert, key = self_signed(tmp_path)
    process, port = serve(tmp_path, REFEREE_TLS_CERT=str(cert), REFEREE_TLS_KEY=str(key))
    trusted = ssl.create_default_context(cafile=str(cert))
    try:
        deadline, answer = time.monotonic() + 60, None  # a loaded machine starts a server slowly
        while answer is None and time.monotonic() < deadline:
            try:
                answer = urllib.request.urlopen(f"https://127.0.0.1:{port}/sw.js", context=trusted, timeout=2)
            except OSError:
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.2)
        assert answer is not None and answer.status == 200
        assert answer.headers["Service-Worker-Allowed"] == "/"
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=trusted, timeout=60) as home:
            assert home.status == 200 and b'rel="manifest"' in home.read()
        try:  # plain http on the same port gets no page
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=3).read()
            plain = True
        except (OSError, http.client.HTTPException):
            plain = False
        assert not plain
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=60)
    assert f"Referee is open at  https://127.0.0.1:{port}" in out


@pytest.mark.server  # a real server process of its own
def test_serve_refuses_half_a_certificate(tmp_path):
    cert, _ = self_signed(tmp_path)
    process, _ = serve(tmp_path, REFEREE_TLS_CERT=str(cert))
    _, err = process.communicate(timeout=30)
    assert process.returncode != 0
    assert "REFEREE_TLS_CERT and REFEREE_TLS_KEY go together: set both (file paths) or neither" in err


@pytest.mark.server  # a real server process of its own
def test_serve_refuses_a_certificate_file_that_is_not_there(tmp_path):
    cert, key = self_signed(tmp_path)
    process, _ = serve(tmp_path, REFEREE_TLS_CERT=str(cert), REFEREE_TLS_KEY=str(tmp_path / "missing.key"))
    _, err = process.communicate(timeout=30)
    assert process.returncode != 0
    assert f"REFEREE_TLS_KEY: no such file: {tmp_path / 'missing.key'}" in err


# In Chromium: the worker registers, controls the scorer's page, and opens it from its cache with the network down.

def api(server, path: str, body: dict, key: str | None = None) -> dict:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


CONTROLLER = "() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL"
KEPT_PAGES = "() => caches.open('referee-pages').then(c => c.keys()).then(keys => keys.map(r => r.url))"


def test_worker_controls_the_scorer_page_and_opens_it_offline(browser, server):
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo"]})
    address = f"{server.url}/t/{table['id']}?key={table['scorer_key']}"
    context = browser.new_context(viewport=PHONE, locale="en-GB", service_workers="allow")
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(address)
    scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == server.url + "/"
    page.reload()
    assert page.evaluate(CONTROLLER) == server.url + "/sw.js"
    assert page.evaluate("() => document.querySelector('link[rel=manifest]').href") == \
        server.url + versioned("manifest.webmanifest")
    assert address in page.evaluate(KEPT_PAGES)
    assert problems == []

    # The server moves on without this phone (the deal starts through the API): a page from the network would show
    # it; the kept copy shows the table as this phone last loaded it, with its styles and the picker.
    api(server, f"/api/v1/tables/{table['id']}/events", {"type": "deal", "trump": "11E"}, key=table["scorer_key"])
    context.set_offline(True)
    page.reload()
    assert page.title() == "Brisca — Referee"
    assert page.locator("#picker").count() == 1 and page.locator("#picker button.card").count() == 40
    assert page.get_attribute("#picker", "action").startswith(f"/t/{table['id']}/deal")  # still before the deal
    assert page.evaluate("() => getComputedStyle(document.body).marginTop") == "0px"  # referee.css, from the cache
    assert page.evaluate(CONTROLLER) == server.url + "/sw.js"

    # Another address of the same table and key (an entry in progress) opens the newest copy of that table.
    page.goto(address + "&mode=capture")
    assert page.title() == "Brisca — Referee" and page.locator("#picker").count() == 1

    # A page never opened on this phone says so, in a page of its own.
    page.goto(f"{server.url}/rules/brisca")
    assert page.locator("h1").inner_text() == "No connection"
    assert page.get_attribute("a.button.primary", "href") == ""  # "Try again": the address that was asked for

    # Back online, pages come from the network again (the deal started).
    context.set_offline(False)
    page.goto(address)
    assert not page.get_attribute("#picker", "action").startswith(f"/t/{table['id']}/deal")
    assert not [p for p in problems if "Content Security Policy" in p or "Refused to" in p]
    context.close()


def test_worker_refreshes_its_copy_after_an_entry_made_on_the_page(browser, server):
    """A trick entered with htmx is in the copy a reload without the network shows (static/register-sw.js)."""
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo"]})
    address = f"{server.url}/t/{table['id']}?key={table['scorer_key']}"
    context = browser.new_context(viewport=PHONE, locale="en-GB", service_workers="allow")
    page = context.new_page()
    page.goto(address)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    assert page.evaluate(CONTROLLER) == server.url + "/sw.js"
    page.click("button.card[value='11E']")  # the turned card: the deal starts
    page.wait_for_function("() => !document.querySelector('#picker').getAttribute('action').includes('/deal')")
    kept = ("() => caches.open('referee-pages').then(c => c.match(location.href)).then(r => r && r.text())"
            ".then(t => !!t && !t.includes('/deal?'))")
    until(lambda: page.evaluate(kept), timeout=10, every=0.2, what="the worker's fresh copy")  # 1.5 s, one fetch
    context.set_offline(True)
    page.reload()
    assert not page.get_attribute("#picker", "action").startswith(f"/t/{table['id']}/deal")
    context.close()


def test_chromium_finds_nothing_against_installing(browser, server, tmp_path):
    """Chromium's own installability check (what Lighthouse and the install button read), in a profile on disk: a
    Playwright context is incognito, where installing is never offered."""
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo"]})
    context = browser.browser_type.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS, headless=True, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/t/{table['id']}?key={table['scorer_key']}")
        page.evaluate("() => navigator.serviceWorker.ready")
        page.reload()
        assert page.evaluate(CONTROLLER) == server.url + "/sw.js"
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == server.url + versioned("manifest.webmanifest") and manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    finally:
        context.close()
