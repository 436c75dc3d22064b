"""Issue 25: `pip install .` (not editable) serves every page from any directory: the templates, the static files,
the catalogues and the migrations are the package's own data, found without the repository.

A wheel built from a copy of the source tree is installed into a fresh virtual environment; its dependencies come
from this project's environment through a .pth line (a .pth file in a directory added that way is not run, so this
project's own editable install is not active there). Then, from another working directory, ``flask --app referee
init-db`` and ``serve`` answer the home page, a scorer page, static files, the service worker and printed pages, in
French and German too (the catalogues compiled from the package's own .po files).
Slow (a venv, a wheel, a server): about half a minute."""
import importlib.util
import json
import shutil
import site
import subprocess
import sys
import sysconfig
import time
import urllib.request

import pytest

from tests.support.env import ROOT, free_port, need

pytestmark = [pytest.mark.slow, pytest.mark.server]  # a fresh virtual environment, an install, a server

SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "*.mo.tmp")
# Words each page says in French and in German (written out here: a package without its catalogues says them in
# English): the home page's title, a scorer page's, a blank sheet's, a rule summary's heading.
TRANSLATED = {"home": {"fr": "La feuille de marque de la table", "de": "Das Punkteblatt des Tisches"},
              "scorer": {"fr": "Brisca — la page du marqueur", "de": "Brisca — die Schreiberseite"},
              "sheet": {"fr": "Buraco — Feuille de marque", "de": "Buraco — Punkteblatt"},
              "rules": {"fr": "Valeur des cartes", "de": "Kartenwerte"}}


def run(*args, **options):
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=300, **options)


def can_build_wheels() -> bool:
    """This environment's setuptools writes wheels: its own bdist_wheel (setuptools >= 70.1), or the wheel package."""
    probe = "import setuptools.command.bdist_wheel" if importlib.util.find_spec("wheel") is None else "import wheel"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


def fresh_install(tmp_path):
    """A venv in tmp_path with the project installed (not editable), the dependencies reachable; its python."""
    source = tmp_path / "source"
    shutil.copytree(ROOT / "referee", source / "referee", ignore=SKIP)
    shutil.copy(ROOT / "pyproject.toml", source)
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", str(venv))
    python = venv / "bin" / "python"
    purelib = run(str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    if can_build_wheels():
        wheels = tmp_path / "wheels"
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w",
            str(wheels), str(source), cwd=tmp_path)
        run(str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", *map(str, wheels.glob("*.whl")),
            cwd=tmp_path)
    else:  # an older setuptools without the wheel package: what a wheel would hold, written by the same config
        run(sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py", "-d", purelib,
            cwd=source)
    ours = {sysconfig.get_paths()["purelib"], *site.getsitepackages()} - {purelib}
    with open(f"{purelib}/project-deps.pth", "w") as pth:
        pth.write("\n".join(sorted(ours)) + "\n")
    return python


def test_an_installed_package_serves_every_kind_of_page_from_another_directory(tmp_path):
    for vendored in ("htmx.min.js", "htmx-ext-sse.min.js"):
        need((ROOT / "referee" / "static" / "vendor" / vendored).exists(),
             f"referee/static/vendor/{vendored} is missing: run `make install`")
    python = fresh_install(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_INSTANCE": str(tmp_path / "instance"),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite3'}", "FLASK_RATELIMIT_ENABLED": "false"}
    where = run(str(python), "-c", "import referee; print(referee.__file__)", cwd=elsewhere, env=env).stdout.strip()
    assert where.startswith(str(tmp_path / "venv")), where
    run(str(python), "-m", "flask", "--app", "referee", "init-db", cwd=elsewhere, env=env)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(python), "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--server", "waitress"], cwd=elsewhere, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60  # a loaded machine starts a server slowly
        while True:
            try:
                urllib.request.urlopen(url + "/api/v1/games", timeout=1).read()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                assert time.monotonic() < deadline, "the installed server did not start"
                time.sleep(0.2)
        body = json.dumps({"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}).encode()
        created = json.load(urllib.request.urlopen(urllib.request.Request(
            url + "/api/v1/tables", data=body, headers={"Content-Type": "application/json"}), timeout=10))
        table, key = created["id"], created["scorer_key"]
        club = json.load(urllib.request.urlopen(urllib.request.Request(
            url + "/api/v1/clubs", data=json.dumps({"name": "Le jeudi"}).encode(),
            headers={"Content-Type": "application/json"}), timeout=10))
        for path in (f"/clubs/{club['id']}?key={club['club_key']}",
                     f"/clubs/{club['id']}/wall?key={club['viewer_key']}", "/clubs/new", "/static/club.css", "/static/clubs-remembered.js",
                     "/", f"/t/{table}?key={key}", f"/t/{table}?key={created['viewer_key']}", "/new/brisca",
                     "/static/referee.css", "/static/vendor/htmx.min.js", "/static/vendor/htmx-ext-sse.min.js",
                     "/sw.js", "/offline", "/rules/brisca",
                     f"/t/{table}/rules?key={key}", f"/t/{table}/sheet?key={key}", "/sheet/buraco",
                     f"/t/{table}/history?key={key}", "/static/history.css", "/static/local-time.js",
                     "/tournaments/new", "/api/v1/openapi.json"):
            with urllib.request.urlopen(url + path, timeout=10) as answer:
                assert answer.status == 200, path
                assert answer.read(), path
        pages = {"home": "/?lang=", "scorer": f"/t/{table}?key={key}&lang=", "sheet": "/sheet/buraco?lang=",
                 "rules": "/rules/brisca?lang="}
        for name, path in pages.items():
            for lang, said in TRANSLATED[name].items():  # the package's catalogues, not only its English
                with urllib.request.urlopen(url + path + lang, timeout=10) as answer:
                    page = answer.read().decode()
                assert f'<html lang="{lang}">' in page and said in page, (path, lang)
        with urllib.request.urlopen(f"{url}/api/v1/tables/{table}/stream?key={key}", timeout=10) as answer:
            assert answer.headers["Content-Type"].startswith("text/event-stream")  # waitress sends it as it comes
            assert answer.readline() == b"retry: 2000\n"
    finally:
        server.terminate()
        server.wait(timeout=30)
