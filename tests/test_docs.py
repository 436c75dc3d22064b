"""The project stands alone: its README, DEVELOPERS.md and docs/ link only to files inside the repository, nothing in
it points at a folder beside it, every ruling id the code cites is stated in docs/rulings.md, and docs/api.md names
every call and every event the server takes."""
import re

import pytest

from referee.games import GAMES
from referee.web.api.openapi import openapi_document
from tests.support.env import ROOT

PAGES = [ROOT / "README.md", ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIPPED_DIRS = {".git", ".venv", "node_modules", "instance", "artifacts", "__pycache__", ".pytest_cache", "vendor"}
TEXT = {".py", ".md", ".html", ".js", ".css", ".toml", ".cfg", ".txt", ".json", ".po", ".pot", ".ini", ".mako", ""}
RULING = re.compile(r"R-[A-Z]+-\d+b?")
LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")


def project_files():
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if path.is_file() and not parts & SKIPPED_DIRS and not any(p.endswith(".egg-info") for p in parts) \
                and path.suffix in TEXT:
            yield path


def test_nothing_points_at_a_folder_beside_the_repository():
    beside = ".." + "/shared"  # written in two pieces so that this file does not name it
    named = [str(path.relative_to(ROOT)) for path in project_files()
             if beside in path.read_text(encoding="utf-8", errors="replace")]
    assert named == []


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_a_page_links_only_to_files_inside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    targets = [a or b for a, b in LINK.findall(text)]
    for target in targets:
        path = target.split("#", 1)[0]
        assert "://" not in target and not target.startswith(("/", "mailto:")), (page.name, target)
        if path:
            resolved = (page.parent / path).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), (page.name, target)


def test_every_ruling_the_code_cites_is_stated_in_docs_rulings():
    cited = set()
    for folder in ("referee", "tests", "bench"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".html", ".js", ".css"}:
                cited |= set(RULING.findall(path.read_text(encoding="utf-8")))
    stated = re.findall(r"^- \*\*(R-[A-Z]+-\d+b?)\*\* ", (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"),
                        re.M)
    assert len(stated) == len(set(stated))  # each stated once
    assert cited and cited <= set(stated), sorted(cited - set(stated))
    assert {"R-COMMON-4b", "R-BURACO-1b", "R-BROUC-8b"} <= set(stated)


def test_the_api_page_names_every_call_and_every_event():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for path, item in openapi_document()["paths"].items():
        for method in item:
            named = re.sub(r'{(table|tournament|club)_id}', '<id>', path).replace('{number}', '<n>').replace('{player_id}', '<player>')
            call = f"{method.upper()} {named.replace('{table}', '<table>')}"
            assert call in text, call
    events = {kind for game in GAMES.values() for kind in game.events}
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    assert events <= rows, sorted(events - rows)
    for game in GAMES.values():
        assert f"| {game.names['en']} |" in text, game.id  # its row in the tally's table
