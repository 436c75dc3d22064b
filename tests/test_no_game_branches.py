"""No module outside the engines holds a rule of a game (issue 25): no Python or JavaScript outside ``referee/games/``
compares a game's id (``game == "buraco"``, ``game.id != "brulot"``, ``state["game"] in ("brouc", …)``, JavaScript's
``===``). What differs between games is asked of the game (``referee/games/base.py``'s ``Game``: its words, its
seat and side order, its planned deals…). Issue 39: nor a table keyed by games' ids outside ``referee/games/`` (what
a game knows is an attribute or a method of the game, in its package), nor a question on a game's class
(``isinstance(game, TrickGame)``: ask the game what it does instead, ``game.plays_tricks``), nor an import of one
game's package (``referee.games.buraco.tally``): the printed summary and sheet, the numbers sheet's tally and
bounds are the game's (``referee/games/printed.py``, ``facts.py``). Python, templates and JavaScript alike; none is
left (issue 39), so any line of that kind in a module, new or old, fails."""
import ast
import re

from tests.support.env import ROOT

IDS = "brisca|brouc|brulot|brusquembille|buraco"
QUOTED = rf"""['"](?:{IDS})['"]"""
BRANCH = re.compile(rf"""[!=]==?\s*{QUOTED}|{QUOTED}\s*[!=]==?|\bin\s*[(\[{{]\s*{QUOTED}""")
KEYED = re.compile(rf"""{QUOTED}\s*:""")  # a game's id as a key: a line of a table keyed by games
CLASS = re.compile(r"\bisinstance\([^)]*\b(?:Game|TrickGame|Brisca|Brouc|Brulot|Brusquembille|Buraco)\b")
GAME_PACKAGE = re.compile(rf"^referee\.games\.(?:{IDS})(?:\.|$)")  # one game's package, or a module in it


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


def outside_the_games(*suffixes) -> list:
    return [p for suffix in suffixes for p in sorted((ROOT / "referee").rglob(f"*.{suffix}"))
            if "games" not in p.relative_to(ROOT / "referee").parts]


def keyed_or_class(paths) -> list:
    return [f"{path.name}:{number}: {line.strip()}" for path in paths
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if KEYED.search(line) or CLASS.search(line)]


def test_no_table_keyed_by_games_nor_question_on_a_games_class_outside_the_games():
    """Issue 39: the summaries' builders, the sheets' sizes and rows, the numbers sheet's tallies and "plays tricks"
    are the game's; a module (Python, template or JavaScript), new or old, with such a line fails here."""
    found = keyed_or_class(outside_the_games("py", "html", "js"))
    assert not found, "ask the game instead (its package, referee/games/<game>/):\n" + "\n".join(found)


def test_the_check_sees_such_lines_in_a_module_it_has_never_seen(tmp_path):
    module = tmp_path / "new_module.py"
    module.write_text('ROWS = {"brisca": 16,\n        "brouc": 22}\nif isinstance(game, TrickGame):\n    pass\n',
                      encoding="utf-8")
    assert keyed_or_class([module]) == ['new_module.py:1: ROWS = {"brisca": 16,', 'new_module.py:2: "brouc": 22}',
                                        "new_module.py:3: if isinstance(game, TrickGame):"]


def imports_of(path) -> set:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.update([node.module] + [f"{node.module}.{alias.name}" for alias in node.names])
    return names


def test_no_module_outside_the_games_imports_one_games_package():
    """What one game knows (its tally's values, its penalty ranks, its jetons) is asked of the game, never imported
    from its package by the web, the summaries, the tournaments or the clubs."""
    assert GAME_PACKAGE.match("referee.games.buraco.tally") and GAME_PACKAGE.match("referee.games.brisca")
    assert not GAME_PACKAGE.match("referee.games.tricks") and not GAME_PACKAGE.match("referee.games.tally")
    found = [f"{p.relative_to(ROOT)} imports {name}" for p in outside_the_games("py")
             for name in sorted(imports_of(p)) if GAME_PACKAGE.match(name)]
    assert not found, "ask the game instead (referee/games/base.py, facts.py, printed.py):\n" + "\n".join(found)
