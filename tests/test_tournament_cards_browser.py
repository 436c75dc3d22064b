"""A national evening's table cards in Debian's Chromium (issue 40): 300 pairs on 150 tables, the cards page printed
to PDF as the director prints it — 25 sheets of A4, six cards each, in order; every card on the first, a middle and
the last sheet names its table and who sits there (pdftotext, card by card), and the six QR codes of the first and
last sheets decode (zbarimg at 150 dpi) to those tables' card links. The first sheet drawn for review:
tests/artifacts/tournament-cards-sheet.png."""
import re
import shutil
import subprocess

import pytest

from tests.support.api import api
from tests.support.browser import artifact
from tests.support.env import need
from tests.support.pdfread import read
from tests.support.printing import sheet_cards, sheet_qr_links

TABLES = 150
pytestmark = pytest.mark.slow  # 150 tables seated, 25 sheets printed and read: ~40 s on two cores

PAIRS = [[f"N{i:03d}", f"S{i:03d}"] for i in range(1, 2 * TABLES + 1)]


def test_r_tourn_150_tables_cards_print_on_25_sheets_of_six_each_qr_code_its_own_table(browser, server, tmp_path):
    need(shutil.which("zbarimg") is not None, "zbarimg is missing (Debian zbar-tools; .ci/run installs it)")
    need(shutil.which("pdftoppm") is not None, "pdftoppm is missing (Debian poppler-utils; .ci/run installs it)")
    made = api(server, "/api/v1/tournaments", {"game": "buraco", "name": "National evening", "entrants": PAIRS,
                                                "rounds": [{"movement": "mitchell", "hands": 3}]})
    tid, key = made["id"], made["director_key"]
    api(server, f"/api/v1/tournaments/{tid}/rounds", {}, key)
    page = browser.new_page(locale="en-GB")
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/tournaments/{tid}/cards?key={key}")
    assert page.locator(".card-sheet").count() == 25 and page.locator(".table-card svg.qr").count() == TABLES
    pdf = tmp_path / "cards.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    page.close()
    printed = read(pdf)
    assert printed.pages == 25 and (round(printed.width), round(printed.height)) in {(595, 842), (596, 843)}
    for sheet in (1, 13, 25):
        cards = sheet_cards(pdf, sheet)
        assert sorted(cards) == list(range(6)), (sheet, cards)
        for place, words in cards.items():
            n = 6 * (sheet - 1) + place + 1  # Mitchell (R-TOURN-1): North–South pair n, East–West pair 150 + n
            assert words.startswith(f"National evening · Round 1 Table {n} "), words
            assert f"NORTH N{n:03d} EAST N{n + TABLES:03d} SOUTH S{n:03d} WEST S{n + TABLES:03d}" in words, words
    for sheet in (1, 25):
        links = sheet_qr_links(pdf, tmp_path, sheet)
        numbers = sorted(int(re.fullmatch(rf"{server.url}/tournaments/{tid}/tables/(\d+)\?key=[\w-]+", link)[1])
                         for link in links)
        assert numbers == list(range(6 * sheet - 5, 6 * sheet + 1)), links
    subprocess.run(["pdftoppm", "-r", "80", "-f", "1", "-l", "1", "-singlefile", "-png", str(pdf),
                    str(artifact("tournament-cards-sheet").with_suffix(""))], check=True)
    assert problems == []
