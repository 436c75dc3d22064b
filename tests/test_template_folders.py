"""Templates live beside their area (referee/web/<area>/templates/), in their game's package when they draw one game
(referee/games/<game>/templates/: its board, its sheets, its partials) or, when several areas use them, in the app's
folder (referee/templates/); they keep unprefixed names, so that a name in two folders would be shadowed silently
(the loader searches the app's folder, each blueprint's, then each game's in turn): each name is in one folder only."""
from collections import Counter
from pathlib import Path

from jinja2 import ChoiceLoader, FileSystemLoader

from referee import create_app
from referee.games import GAMES
from tests.support.env import ROOT


def template_folders(app) -> set:
    """The folders the app's loader searches: its own and each blueprint's that has one (Flask's loader), and the
    folders of the loader the factory adds beside it (each game's)."""
    loader = app.jinja_env.loader
    assert isinstance(loader, ChoiceLoader)
    folders = {(Path(scaffold.root_path) / scaffold.template_folder).resolve()
               for scaffold in [app, *app.blueprints.values()] if scaffold.template_folder}
    for each in loader.loaders:
        if isinstance(each, FileSystemLoader):
            folders.update(Path(path).resolve() for path in each.searchpath)
    return folders


def test_every_template_folder_is_one_the_app_searches_and_no_name_is_in_two(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "TESTING": True})
    on_disk = {path.parent.resolve() for path in (ROOT / "referee").glob("**/templates/*.html")}
    assert on_disk == template_folders(app)
    names = Counter(path.name for folder in on_disk for path in folder.glob("*.html"))
    assert [name for name, count in names.items() if count > 1] == []
    assert not list(ROOT.glob("templates/**/*.html"))  # none left at the repository root


def test_each_games_templates_are_in_its_own_package_and_the_app_searches_them(tmp_path):
    """Issue 39: a game's board, sheets and partials sit in its package (``Game.template_folder``), none in the web."""
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "TESTING": True})
    for game_id, game in GAMES.items():
        assert game.template_folder == ROOT / "referee" / "games" / game_id / "templates"
        assert game.template_folder in template_folders(app)
        assert (game.template_folder / f"_board_{game_id}.html").is_file()
        assert (game.template_folder / f"_sheet_print_{game_id}.html").is_file()
    in_the_web = [path.name for path in (ROOT / "referee").glob("web/*/templates/*.html")
                  if any(game_id in path.name for game_id in GAMES)]
    assert in_the_web == []
