"""Printed pages, printed for real: Chromium turns each rule summary (both languages) and two score sheets into
PDF; pdfinfo counts the pages and pdftotext reads the text back (tests/support/pdfread.py). The values printed are the
engine's own. Every page's shape (one A4 page, no code, type size, the slate): tests/test_print_pages.py."""

import pytest

from referee.games.brisca import engine as brisca
from referee.summaries import summary
from tests.support.printing import GAMES, print_page


def print_pdf(browser, url, path):
    """The page at ``url`` printed on A4 as a browser prints it: its page count and its words."""
    printed = print_page(browser, url, path)
    return printed.pages, printed.text


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_each_rule_summary_prints_on_one_page_with_the_engines_values(site, browser, tmp_path, game, lang):
    _, url = site
    pages, text = print_pdf(browser, f"{url}/rules/{game}?lang={lang}", tmp_path / f"{game}-{lang}.pdf")
    assert pages == 1
    printed = text.replace(" ", "")  # pdftotext may drop the spaces around "="
    for value in summary(game)["values"]:  # by name ("roi", "9, 8, 7", "3 to 7"), never a code
        assert f"{value['label'][lang]}={value['points']}".replace(" ", "") in printed, value
    heading = {("brulot", "fr"): "Points de pénalité", ("brulot", "en"): "Penalty points"}.get(
        (game, lang), "Valeur des cartes" if lang == "fr" else "Card values")
    assert heading in text and ("Les règles" if lang == "fr" else "The rules") in text


@pytest.mark.parametrize("lang, sentence", [
    ("fr", "Cape non demandée : ses 2 coches seulement ; les points des cartes de la donne ne s'écrivent pas"),
    ("en", "Undeclared cape: its 2 coches alone; the deal's card points are not written, the announces stay."),
])
def test_r_brouc_8b_is_on_the_printed_brouc_summary(site, browser, tmp_path, lang, sentence):
    _, url = site
    pages, text = print_pdf(browser, f"{url}/rules/brouc?lang={lang}", tmp_path / f"brouc-8b-{lang}.pdf")
    assert pages == 1 and "R-BROUC-8b" in text and sentence in text.replace("’", "'")
    extended = {"fr": "Une annonce ne s'allonge pas", "en": "An announce is never extended"}[lang]
    lost = {"fr": "Pas de demande après un pli perdu.", "en": "No declaration once the side has lost a trick."}[lang]
    assert extended in text.replace("’", "'") and lost in text


def test_changing_a_value_in_the_engine_changes_the_printed_page(site, browser, tmp_path, monkeypatch):
    _, url = site
    _, text = print_pdf(browser, f"{url}/rules/brisca?lang=en", tmp_path / "before.pdf")
    assert "ace=11" in text.replace(" ", "")
    monkeypatch.setitem(brisca.POINTS, "1", 12)
    _, text = print_pdf(browser, f"{url}/rules/brisca?lang=en", tmp_path / "changed.pdf")
    printed = text.replace(" ", "")
    assert "ace=12" in printed and "ace=11" not in printed


def test_a_tables_summary_marks_its_options(site, browser, tmp_path):
    app, url = site
    state, scorer, _ = app.extensions["referee.ledger"].create_table(
        "brisca", ["Ana", "Bo", "Cy", "Di"], {"double_over_100": True})
    pages, text = print_pdf(browser, f"{url}/t/{state['id']}/rules?key={scorer}&lang=en", tmp_path / "t.pdf")
    assert pages == 1 and "Double win over 100: yes (default: no)" in text and "double_over_100" not in text
    assert "More than 100: two wins." in text


def test_score_sheets_of_finished_brouc_and_buraco_tables_print_their_totals(site, browser, tmp_path):
    from tests.support.deals import PILE_44
    app, url = site
    ledger = app.extensions["referee.ledger"]
    brouc_state, brouc_key, _ = ledger.create_table("brouc", ["Ana", "Bo", "Cy", "Di"], {"coches_to_lose": 1})
    for _ in range(4):
        ledger.append(brouc_state["id"], {"type": "deal", "trump": "7D"})
        _, final = ledger.append(brouc_state["id"], {"type": "capture", "side": 0, "cards": PILE_44})
    assert final["series"]["finished"] is True
    pages, text = print_pdf(browser, f"{url}/t/{brouc_state['id']}/sheet?key={brouc_key}&lang=en",
                            tmp_path / "brouc.pdf")
    assert "End of the partie (32 – 16): a coche for Ana & Cy." in text and "Bo & Di win the series 0–1 coches" in text
    buraco_state, buraco_key, _ = ledger.create_table("buraco", ["Ana", "Bo"], {"target": 300})
    run = ["KC", "QC", "JC", "10C", "9C", "8C", "7C"]
    for body in ({"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": run},
                 {"type": "pot", "side": 0}, {"type": "count", "closed_by": 0, "hands": [[], ["KS"]]}):
        _, final = ledger.append(buraco_state["id"], body)
    assert final["totals"] == [365, -110] and final["series"]["finished"] is True
    printed = print_page(browser, f"{url}/t/{buraco_state['id']}/sheet?key={buraco_key}&lang=en",
                         tmp_path / "buraco.pdf")
    assert printed.pages == 1 and "Ana wins the series 365 to −110" in printed.text
    # Each side's row: the hand, melds, burracos by class (pure here), closing, pot, cards in hand, the hand's
    # points and the running total, as the engine counted them (empty where nothing was scored).
    ana, bo = final["deals"][0]["breakdown"]
    pure = final["deals"][0]["melds"]["0"][0]
    assert pure["burraco"] == "pure" and pure["bonus"] == ana["burracos"]
    assert f"1 {ana['melds']} {signed(pure['bonus'])} {signed(ana['closing'])} {signed(final['totals'][0])} " \
           f"{final['totals'][0]}" in printed.rows
    assert f"1 {bo['melds']} {signed(bo['pot'])} {signed(bo['hand'])} {signed(final['totals'][1])} " \
           f"{signed(final['totals'][1])}" in printed.rows
    assert f"Total {signed(final['totals'][1])}" in printed.rows


def signed(n: int) -> str:
    """A number as a sheet prints it, with a true minus sign: +365, −110."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


@pytest.mark.parametrize("game", GAMES)
def test_blank_sheets_print(site, browser, tmp_path, game):
    _, url = site
    pages, text = print_pdf(browser, f"{url}/sheet/{game}?lang=fr", tmp_path / f"blank-{game}.pdf")
    assert pages == 1 and "Feuille de marque" in text
