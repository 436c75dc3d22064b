"""No module outside the engines holds a rule of a game (issue 25): no Python or JavaScript outside ``referee/games/``
compares a game's id (``game == "buraco"``, ``game.id != "brulot"``, ``state["game"] in ("brouc", …)``, JavaScript's
``===``). What differs between games is asked of the game (``referee/games/base.py``'s ``Game``: its words, its
seat and side order, its planned deals…). Issue 39: nor a table keyed by games' ids outside ``referee/games/`` (what
a game knows is an attribute or a method of the game, in its package), nor a question on a game's class
(``isinstance(game, TrickGame)``: ask the game what it does instead). The tables and questions not moved yet are
listed in ``LEFT``, which may only shrink."""
import re
from collections import Counter

from tests.support.env import ROOT

IDS = "brisca|brouc|brulot|brusquembille|buraco"
QUOTED = rf"""['"](?:{IDS})['"]"""
BRANCH = re.compile(rf"""[!=]==?\s*{QUOTED}|{QUOTED}\s*[!=]==?|\bin\s*[(\[{{]\s*{QUOTED}""")
KEYED = re.compile(rf"""{QUOTED}\s*:""")  # a game's id as a key: a line of a table keyed by games
CLASS = re.compile(r"\bisinstance\([^)]*\b(?:Game|TrickGame|Brisca|Brouc|Brulot|Brusquembille|Buraco)\b")
# Lines of tables keyed by games and questions on a game's class still outside the games, per module: each is to
# become an attribute or a method of the game (issue 39). A count may go down, never up, and no module be added.
LEFT = Counter({
    "referee/summaries.py": 3,  # the summaries' builders by game; whether the game plays tricks
    "referee/web/tables/sheet_games.py": 4,  # GAME_TALLIES; whether the game plays tricks
    "referee/web/tables/scorer.py": 2,  # whether the game plays tricks
    "referee/web/tables/offline_data.py": 1,  # whether the game plays tricks
    "referee/web/printing/sheets.py": 10,  # BLANK_ROWS, BLANK_SIDES, the sheets' builders, EXTENTS, ROOMS
})


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
    javascript = sorted((ROOT / "referee" / "static").glob("*.js"))
    found = branches(python + javascript)
    assert not found, "ask the game instead (referee/games/base.py):\n" + "\n".join(found)


def test_no_template_branches_on_a_game():
    found = branches(sorted((ROOT / "referee").rglob("*.html")))
    assert not found, "ask game_of(state) instead (referee/games/base.py):\n" + "\n".join(found)


def test_the_patterns_see_a_table_keyed_by_games_and_a_question_on_a_games_class():
    for line in ('BLANK_ROWS = {"brisca": 16, "brouc": 22}', "    'buraco': _buraco}[game.id]",
                 "if not isinstance(game, TrickGame):", "isinstance(engine, (Brisca, Brouc))"):
        assert KEYED.search(line) or CLASS.search(line), line
    for line in ('get_game("buraco")', 'summary("brulot", options)', "isinstance(card, Card)",
                 "isinstance(value, GameOption)", '"brisca",'):
        assert not KEYED.search(line) and not CLASS.search(line), line


def test_no_table_keyed_by_games_nor_question_on_a_games_class_outside_the_games_beyond_those_left():
    outside = [p for p in sorted((ROOT / "referee").rglob("*.py"))
               if "games" not in p.relative_to(ROOT / "referee").parts]
    found = Counter()
    for path in outside:
        for line in path.read_text(encoding="utf-8").splitlines():
            if KEYED.search(line) or CLASS.search(line):
                found[str(path.relative_to(ROOT))] += 1
    more = {name: count for name, count in found.items() if count > LEFT[name]}
    assert not more, f"ask the game instead (its package, referee/games/<game>/): {more}"
