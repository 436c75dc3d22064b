"""No template chooses what it shows by a game's id (issue 25): the game's words and attributes come from its engine
(``game_of(state)``, referee/games/base.py), and a game's own part is a partial named after it (``_board_<game>.html``,
``_sheet_<game>.html``, ``_tournament_points_<game>.html``). Templates at the root and inside the package (referee/)."""
import re
from pathlib import Path

from referee.games import GAMES

ROOT = Path(__file__).resolve().parents[1]

IDS = "|".join(sorted(GAMES))
BRANCH = re.compile(rf"""\bgame(?:\.id)?\s*(?:==|!=|\bin\b\s*[(\[])"""  # game == …, game.id != …, game in (…)
                    rf"""|(?:==|!=)\s*["'](?:{IDS})["']"""  # … == "buraco"
                    rf"""|["'](?:{IDS})["']\s*(?:==|!=|\bin\b)""")  # "buraco" == …, "brouc" in …


def test_no_template_branches_on_a_game_id():
    assert IDS.count("|") >= 4
    paths = sorted({*ROOT.glob("templates/**/*.html"), *ROOT.glob("referee/**/*.html")})
    assert paths, "no template found"
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}" for path in paths
             for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if BRANCH.search(line)]
    assert found == []
