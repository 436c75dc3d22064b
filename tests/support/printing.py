"""Printed pages: the games printed, a page printed to PDF by Chromium and read back, a sheet of table cards read
card by card."""
import subprocess

from tests.support.pdfread import read


GAMES = ["brisca", "brouc", "brulot", "brusquembille", "buraco"]


def print_page(browser, url, path):
    page = browser.new_page()
    page.goto(url)
    page.pdf(path=str(path), format="A4", print_background=False)
    page.close()
    return read(path)


MM = 72 / 25.4  # points in a millimetre
CARD_MM, CARDS_TOP_MM = 90, 12  # tournament.css's cards, 90 mm squares; print.css's @page margin at the top


def sheet_cards(pdf, number: int, width: float = 595.28) -> dict:
    """The words of each table card on one printed sheet (two across, three down), by place on the sheet (0–5),
    each read by pdftotext from its own square (side by side, pdftotext would mix two cards' lines)."""
    cards = {}
    for place in range(6):
        left = 0 if place % 2 == 0 else width / 2
        top = (CARDS_TOP_MM + CARD_MM * (place // 2)) * MM
        found = subprocess.run(["pdftotext", "-r", "72", "-f", str(number), "-l", str(number), "-x", str(int(left)),
                                "-y", str(int(top)), "-W", str(int(width / 2)), "-H", str(int(CARD_MM * MM)),
                                str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        if found.split():
            cards[place] = " ".join(found.split())
    return cards


def sheet_qr_links(pdf, folder, number: int) -> list:
    """The QR codes of one printed page, as zbarimg reads them from the page drawn at 150 dpi."""
    stem = folder / f"sheet-{number}"
    subprocess.run(["pdftoppm", "-r", "150", "-f", str(number), "-l", str(number), "-singlefile", "-png", str(pdf),
                    str(stem)], check=True)
    found = subprocess.run(["zbarimg", "--quiet", "--raw", f"{stem}.png"], capture_output=True, text=True, check=True)
    return found.stdout.split()
