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


def test_every_streamed_part_listens_again_within_its_swap():
    """A live part swapped by the stream (``sse-swap``) swaps with ``settle:0ms``: htmx processes the new part, and so
    makes it listen to the stream, only when the swap settles (20 ms by default); a change streamed in between was
    lost, and a page whose stream is healthy never polls for it (seen on the director's page and the wall in CI)."""
    streamed = {f"{path.relative_to(ROOT)}": text for path in templates()
                if "sse-swap=" in (text := path.read_text(encoding="utf-8"))}
    assert len(streamed) >= 5
    late = [name for name, text in streamed.items() if 'hx-swap="outerHTML settle:0ms" sse-swap=' not in text]
    assert late == []
