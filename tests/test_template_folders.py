"""Templates live beside their area (referee/web/<area>/templates/) or, when several areas use them, in the app's
folder (referee/templates/); they keep unprefixed names, so that a name in two folders would be shadowed silently
(Flask searches the app's folder, then each blueprint's in turn): each name is in one folder only."""
from collections import Counter
from pathlib import Path

from referee import create_app
from tests.support.env import ROOT


def template_folders(app) -> set:
    """The folders the app's loader searches: its own, and each blueprint's that has one."""
    return {(Path(scaffold.root_path) / scaffold.template_folder).resolve()
            for scaffold in [app, *app.blueprints.values()] if scaffold.template_folder}


def test_every_template_folder_is_one_the_app_searches_and_no_name_is_in_two(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "TESTING": True})
    on_disk = {path.parent.resolve() for path in (ROOT / "referee").glob("**/templates/*.html")}
    assert on_disk == template_folders(app)
    names = Counter(path.name for folder in on_disk for path in folder.glob("*.html"))
    assert [name for name, count in names.items() if count > 1] == []
    assert not list(ROOT.glob("templates/**/*.html"))  # none left at the repository root
