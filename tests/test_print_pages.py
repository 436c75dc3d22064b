"""Every printed page, printed for real in every language: each rule summary, each game's blank score sheet and the
filled sheet of a finished table of each game. Each is one A4 page (pdfinfo), its words (pdftotext) hold no code
(no snake_case word, no card code, no True/False/None), its smallest type is 9 pt or more (pdftohtml's font sizes);
a summary's text spans at least 70 % of the page's height (pdftotext -bbox); Brouc's sheet draws the slate's line
as a stroked vector line in the PDF."""
import re

import pytest

from referee.summaries import summary
from referee.languages import LANGUAGES

from tests.support.deals import PILE_44
from tests.support.pdfread import CARD_CODE, PYTHON_WORDS, SNAKE_CASE
from tests.support.printing import GAMES, print_page
from tests.support.simulate import brisca_deal, brulot_deal, brusquembille_deal

A4 = (595, 842)  # points, as pdfinfo says it (Chromium: 595.92 x 842.88)
LANGS = list(LANGUAGES)  # every language, each summary and sheet still one page (issue 19)
SIX = ["Jean-François", "Marie-Claude", "Ghislain", "Geneviève", "Édouard", "Flo"]
# What a printed page says, written out here rather than asked of the code it checks (its no-break spaces read as
# spaces): Brûlot's "no trump" option set, then its default; a blank score sheet's title.
NO_TRUMP_SAID = {
    "en": ("No trump: yes", "(default: no)"), "fr": ("Sans atout : oui", "(par défaut : non)"),
    "es": ("Sin triunfo: sí", "(por defecto: no)"), "ca": ("Sense trumfo: sí", "(per defecte: no)"),
    "it": ("Senza briscola: sì", "(predefinito: no)"), "pt_BR": ("Sem trunfo: sim", "(padrão: não)"),
    "de": ("Ohne Trumpf: ja", "(Standard: nein)")}
SCORE_SHEET = {"en": "Score sheet", "fr": "Feuille de marque", "es": "Hoja de puntos", "ca": "Full de punts",
               "it": "Foglio segnapunti", "pt_BR": "Folha de pontos", "de": "Punkteblatt"}

# A finished series of each game, entered as a table would: cards, piles and numbers. Each holds what a code could
# leak through: trump cards, a partie's end and its coches, jetons and money, melds and burracos.
FINISHED = {
    "brisca": (["Ana", "Bo", "Cy", "Di"], {}, brisca_deal(4, 0, 11)
               + [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}] * 3),
    "brouc": (["Ana", "Bo", "Cy", "Di"], {"coches_to_lose": 1},
              [{"type": "deal", "trump": "7D"}, {"type": "capture", "side": 0, "cards": PILE_44}] * 4),
    "brulot": (SIX, {}, [event for dealer in range(6) for event in brulot_deal(6, dealer, 3 + dealer)[0]]),
    "brusquembille": (["Ana", "Bo", "Cy"], {"jeton_value": 0.5},
                      [event for dealer in range(5) for event in brusquembille_deal(3, dealer % 3, 7 + dealer)]),
    "buraco": (["Ana", "Bo"], {"target": 300},
               [{"type": "deal"}, {"type": "meld", "side": 0, "cards": ["KC", "QC", "JC", "10C", "9C", "8C", "7C"]},
                {"type": "pot", "side": 0}, {"type": "count", "closed_by": 0, "hands": [[], ["KS"]]}]),
}


@pytest.fixture(scope="module")
def finished(site):  # noqa: F811
    """Each game's finished table: {game: its sheet's address}."""
    app, url = site
    ledger = app.extensions["referee.ledger"]
    sheets = {}
    for game, (players, options, events) in FINISHED.items():
        state, key, _ = ledger.create_table(game, players, options)
        for body in events:
            _, state = ledger.append(state["id"], body)
        assert state["series"]["finished"] is True, game
        sheets[game] = f"{url}/t/{state['id']}/sheet?key={key}"
    return sheets


def check(printed, what: str) -> None:
    """What every printed page keeps to."""
    assert printed.pages == 1, what
    assert (round(printed.width), round(printed.height)) in {A4, (596, 843)}, what
    assert printed.leaks() == [], (what, printed.leaks())
    assert printed.smallest >= 9, (what, printed.smallest)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_each_summary_fills_its_one_page_in_readable_type_without_a_code(site, browser, tmp_path, game, lang):  # noqa: F811
    _, url = site
    printed = print_page(browser, f"{url}/rules/{game}?lang={lang}", tmp_path / "rules.pdf")
    check(printed, f"rules {game} {lang}")
    assert printed.covered >= 0.70, (game, lang, printed.top, printed.bottom)


@pytest.mark.parametrize("lang", LANGS)
def test_a_summarys_tenth_and_eleventh_numbers_print_whole_inside_the_page(site, browser, tmp_path, lang):  # noqa: F811
    """Issue 24: Brouc's summary numbers eleven rules; "10." and "11." lost their "1" at the page's left edge.
    Each number prints whole, and no word starts left of the page's margin (14 mm, static/print.css's @page)."""
    _, url = site
    assert len(summary("brouc")["items"]) == 13  # R-COMMON-7 (issue 27) and R-COMMON-7b (issue 38): thirteen
    printed = print_page(browser, f"{url}/rules/brouc?lang={lang}", tmp_path / "rules.pdf")
    words = sorted(printed.words)  # top to bottom
    one = next(w for w in words if w[3] == "1.")
    numbers = [w[3] for w in words if re.fullmatch(r"\d+\.", w[3]) and w[2] <= one[2] + 0.5]  # the list's column
    assert numbers == [f"{n}." for n in range(1, 14)]
    margin = 14 / 25.4 * 72  # points
    assert min(w[2] for w in words) >= margin - 0.5, min(words, key=lambda w: w[2])


@pytest.mark.parametrize("lang", LANGS)
def test_a_tables_summary_with_every_option_changed_keeps_to_its_page(site, browser, tmp_path, lang):  # noqa: F811
    """The longest summary: a Brûlot table whose every option differs from its default, each written in words."""
    app, url = site
    options = {"no_trump": True, "penalties": [5, 4, 3, 2], "clean_deal_bonus": 3, "partnership": True, "deals": 8}
    state, key, _ = app.extensions["referee.ledger"].create_table("brulot", ["Ana", "Bo", "Cy", "Di"], options)
    assert {k: state["options"][k] for k in options} == options
    printed = print_page(browser, f"{url}/t/{state['id']}/rules?key={key}&lang={lang}", tmp_path / "table.pdf")
    check(printed, f"table rules {lang}")
    assert printed.covered >= 0.70
    # The words come from the game's options, never their values (no_trump: True, its default False).
    text = " ".join(printed.text.replace("\u00a0", " ").replace("’", "'").split())
    said, default = NO_TRUMP_SAID[lang]
    assert said in text and default in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_each_blank_sheet_is_one_page_in_readable_type_without_a_code(site, browser, tmp_path, game, lang):  # noqa: F811
    _, url = site
    printed = print_page(browser, f"{url}/sheet/{game}?lang={lang}", tmp_path / "blank.pdf")
    check(printed, f"blank {game} {lang}")
    assert SCORE_SHEET[lang] in printed.text
    assert printed.covered >= 0.70  # a blank sheet's rows fill its page too


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_each_finished_tables_sheet_is_one_page_without_a_code(finished, browser, tmp_path, game, lang):
    printed = print_page(browser, f"{finished[game]}&lang={lang}", tmp_path / "filled.pdf")
    check(printed, f"filled {game} {lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_brouc_sheets_draw_the_slates_line(site, finished, browser, tmp_path, lang):  # noqa: F811
    """R-BROUC-6: the slate is a vertical line with a side's name on each side of it, drawn as a vector line."""
    _, url = site
    blank = print_page(browser, f"{url}/sheet/brouc?lang={lang}", tmp_path / "blank.pdf")
    lines = blank.vertical_lines(at_least=blank.height / 2)
    assert len(lines) == 1, lines
    (x, top), (_, bottom) = lines[0]
    assert abs(x - blank.width / 2) < 20  # down the middle of the page
    assert min(top, bottom) < blank.height * 0.2 and max(top, bottom) > blank.height * 0.8
    filled = print_page(browser, f"{finished['brouc']}&lang={lang}", tmp_path / "filled.pdf")
    assert len(filled.vertical_lines(at_least=100)) == 1
    # The scorer's side (Ana & Cy by default) on the right of the line, the other on the left, on one line.
    assert "Bo & Di ◸ Ana & Cy" in filled.rows  # ◸: the first dealer's side (Ana deals first)


def test_the_leak_checks_find_leaks():
    """The checks above would see a code: the words the issue found on the printed pages."""
    assert SNAKE_CASE.findall("à 4 : dealer_last_card") == ["dealer_last_card"]
    assert CARD_CODE.findall("retirés : 7H, 7C ; 10S, 1O, 12B et JK") == ["7H", "7C", "10S", "1O", "12B", "JK"]
    assert CARD_CODE.findall("R-BRISCA-1, 7 oros, as = 11, 3 à 7, A♥") == []
    assert PYTHON_WORDS.findall("Double win: True") == ["True"]
