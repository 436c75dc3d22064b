"""Every template line is under 120 characters (issue 25), wherever the templates live: at the repository's root
today, inside the package (referee/) after the move."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 120


def templates() -> list:
    found = sorted({*ROOT.glob("templates/**/*.html"), *ROOT.glob("referee/**/*.html")})
    assert found, "no template found"
    return found


def test_no_template_line_is_120_characters_or_more():
    long = [f"{path.relative_to(ROOT)}:{number} ({len(line)})" for path in templates()
            for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if len(line) >= LIMIT]
    assert long == []
