"""Printed pages: the games printed, and a page printed to PDF by Chromium and read back."""
from tests.support.pdfread import read


GAMES = ["brisca", "brouc", "brulot", "brusquembille", "buraco"]


def print_page(browser, url, path):
    page = browser.new_page()
    page.goto(url)
    page.pdf(path=str(path), format="A4", print_background=False)
    page.close()
    return read(path)
