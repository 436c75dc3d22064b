"""No module outside the engines holds a rule of a game (issue 25): no Python or JavaScript outside ``referee/games/``
compares a game's id (``game == "buraco"``, ``game.id != "brulot"``, ``state["game"] in ("brouc", …)``, JavaScript's
``===``). What differs between games is asked of the game (``referee/games/base.py``'s ``Game``: its words, its
seat and side order, its planned deals…). A lookup keyed by every game (a table per game) is no branch."""
import re

from tests.conftest import ROOT

IDS = "brisca|brouc|brulot|brusquembille|buraco"
QUOTED = rf"""['"](?:{IDS})['"]"""
BRANCH = re.compile(rf"""[!=]==?\s*{QUOTED}|{QUOTED}\s*[!=]==?|\bin\s*[(\[{{]\s*{QUOTED}""")


def branches(paths) -> list:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BRANCH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_the_pattern_sees_every_way_of_writing_a_branch():
    for line in ('if game.id == "buraco":', "x if state['game'] != 'brulot' else y", 'game_id in ("brisca", "b")',
                 'record.base.game === "buraco" ?', '"brouc" == game', "{% if game in ['brouc'] %}"):
        assert BRANCH.search(line), line
    for line in ('GAMES = {"brisca": 1}', 'get_game("buraco")', 'name="buraco"', 'ENTRY = "brulot_tally"'):
        assert not BRANCH.search(line), line


def test_no_python_or_javascript_outside_the_engines_branches_on_a_game():
    python = [p for p in (ROOT / "referee").rglob("*.py") if "games" not in p.relative_to(ROOT / "referee").parts]
    javascript = sorted((ROOT / "static").glob("*.js"))
    found = branches(python + javascript)
    assert not found, "ask the game instead (referee/games/base.py):\n" + "\n".join(found)


def test_no_template_branches_on_a_game():
    folders = [ROOT / "templates", ROOT / "referee"]
    found = branches(sorted(p for folder in folders if folder.exists() for p in folder.rglob("*.html")))
    assert not found, "ask game_of(state) instead (referee/games/base.py):\n" + "\n".join(found)
