"""Draws the installed app's icons (static/icons/*.png) from static/favicon.svg in Chromium, the browser the tests use.

    .venv/bin/python scripts/make_icons.py

Two kinds, each at 192 and 512 px: ``icon-*.png`` is the card on a clear background (purpose "any"), and
``maskable-*.png`` the card on the theme colour reaching every edge, drawn inside the central circle of 80 % that a
phone's mask always keeps (purpose "maskable"). The PNGs are committed; run this again after changing the favicon."""
from __future__ import annotations

import base64
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

THEME = "#0b57a4"  # --accent in static/referee.css; the manifest's theme_color
SIZES = (192, 512)


def page_html(svg: str, size: int, maskable: bool) -> str:
    data = base64.b64encode(svg.encode()).decode()
    # The card's half-diagonal is 17/32 of the favicon: at 70 % it stays within the safe circle (40 % of the side).
    scale = 0.7 if maskable else 1.0
    background = THEME if maskable else "transparent"
    side = round(size * scale)
    return (f"<html><body style='margin:0;width:{size}px;height:{size}px;background:{background};display:grid;"
            f"place-items:center'><img src='data:image/svg+xml;base64,{data}' width='{side}' height='{side}'>"
            "</body></html>")


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (ROOT / "referee" / "static" / "favicon.svg").read_text()
    out = ROOT / "referee" / "static" / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            for maskable in (False, True):
                page.set_content(page_html(svg, size, maskable))
                path = out / f"{'maskable' if maskable else 'icon'}-{size}.png"
                page.screenshot(path=str(path), omit_background=not maskable)
                print(path.relative_to(ROOT), path.stat().st_size, "bytes")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
