"""Issue 19 in a real browser at a phone's 360×740: the home page, a Brisca scorer's page in Spanish and Catalan, a
Buraco hand count in Italian and Brazilian Portuguese and a Brouc slate in German show no English sentence (every
line of the page compared with the same page in English) and nothing wider than the screen (German words are long)."""
import re

import pytest

from referee.languages import KEEP, LANGUAGES, kept
from tests.support.api import api
from tests.support.browser import new_phone, shot
from tests.support.series import SERIES

PLAYERS = ["Ana", "Bo", "Cy", "Di"]
ENTRIES = {game: entries for game, _players, _options, entries in SERIES}
# Words that are the same in every language: the players' names, the games' and languages' own names, agreed terms.
SAME = set(PLAYERS) | {"Bruno", "Carla", "Diego", "Amparo"} | set(LANGUAGES.values()) | {"Referee", "Brisca", "Brouc", "Brûlot", "Brusquembille", "Buraco",
                                                  "Burraco", "Québec", "Valais"} | set(KEEP)
# The Spanish suits keep their Spanish names on the English page: in Spanish (and two of them in Portuguese) they
# are the language's own words.
SUITS = {"es": {"oros", "copas", "espadas", "bastos"}, "pt_BR": {"copas", "espadas"}}
WORD = re.compile(r"[A-Za-zÀ-ÿ]{4,}")


def english_lines(page, english_page, lang) -> list:
    """Lines of ``page`` found word for word on the English page that say something (a word of four letters or more
    that is not a name, an agreed term or the same word in ``lang``: ``referee.languages.kept``)."""
    english = set(english_page)
    said = []
    for line in page:
        if kept(line, lang):
            continue
        rest = line
        for word in sorted(SAME | SUITS.get(lang, set()), key=len, reverse=True):
            rest = rest.replace(word, " ")
        if line in english and WORD.search(re.sub(r"R-[A-Z]+-\w+", " ", rest)):
            said.append(line)
    return said


def lines(page) -> list:
    return [line.strip() for line in page.inner_text("body").splitlines() if line.strip()]


def table(server, game, entries, options=None, players=PLAYERS):
    made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options or {}})
    for body in entries:
        api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])
    return made


@pytest.fixture
def pages(server):
    """The issue's pages: (name, address without its language, the language it is checked in)."""
    brisca = table(server, "brisca", ENTRIES["brisca"][:36], {"wins_needed": 7})
    buraco = table(server, "buraco", [{"type": "deal", "dealer": 0}, {"type": "meld", "side": 0, "cards": ["KC", "QC", "JC"]},
                                      {"type": "pot", "side": 0}])
    brouc = table(server, "brouc", ENTRIES["brouc"])
    trick = table(server, "brisca", [{"type": "deal", "trump": "11E", "dealer": 0}],
                  players=["Bruno", "Carla", "Diego", "Amparo"])  # three cards of a trick under way, long names
    trick_page = f"/t/{trick['id']}?key={trick['scorer_key']}&pending=2C.1C.10E&"
    count = f"/t/{buraco['id']}?key={buraco['scorer_key']}&mode=count&player=1&hands=~KD"
    brisca_page = f"/t/{brisca['id']}?key={brisca['scorer_key']}"
    return [("home", "/?", lang) for lang in LANGUAGES if lang != "en"] + [
        ("brisca-scorer", brisca_page + "&", "es"), ("brisca-scorer", brisca_page + "&", "ca"),
        ("brisca-trick", trick_page, "es"), ("brisca-trick", trick_page, "ca"),
        ("buraco-count", count + "&", "it"), ("buraco-count", count + "&", "pt_BR"),
        ("brouc-slate", f"/t/{brouc['id']}?key={brouc['scorer_key']}&", "de")]


def test_each_page_speaks_the_tables_language_and_fits_a_phone(server, browser, pages):
    context, page, _, problems = new_phone(browser, "en-GB")
    found = {}
    for name, address, lang in pages:
        page.goto(f"{server.url}{address}lang=en")
        english = lines(page)
        page.goto(f"{server.url}{address}lang={lang}")
        assert page.get_attribute("html", "lang") == lang.replace("_", "-")
        shot(page, f"language-{name}-{lang}")
        left = english_lines(lines(page), english, lang)
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if left or wide > 0:
            found[f"{name} {lang}"] = {"English": left, "too wide by": wide}
    assert found == {}
    assert problems == []
    context.close()


CLUB, CLUB_MEMBERS = "Le jeudi", ["Ana", "Bo", "Cy"]


@pytest.fixture
def club_pages(server):
    """A club's pages (issue 29, R-CLUB-1) with a series finished: (name, address without its language)."""
    club = api(server, "/api/v1/clubs", {"name": CLUB})
    ids = [api(server, f"/api/v1/clubs/{club['id']}/players", {"name": name}, key=club["club_key"])["id"]
           for name in CLUB_MEMBERS]
    made = api(server, "/api/v1/tables", {"game": "brisca", "players": [{"player": ids[0]}, {"player": ids[1]}],
                                          "options": {"wins_needed": 3}, "club": club["id"]}, key=club["club_key"])
    for body in [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}] * 3:
        api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])
    key, cid = club["club_key"], club["id"]
    return [("club", f"/clubs/{cid}?key={key}&"), ("club-member", f"/clubs/{cid}/players/{ids[0]}?key={key}&"),
            ("club-wall", f"/clubs/{cid}/wall?key={club['viewer_key']}&"), ("club-new", "/clubs/new?"),
            ("club-remove", f"/clubs/{cid}/members/{ids[2]}/remove?key={key}&"),
            ("club-setup", f"/new/brisca?club={cid}&key={key}&"),
            ("club-tournament", f"/tournaments/new?club={cid}&key={key}&")]


def test_a_clubs_pages_speak_every_language_and_fit_a_phone(server, browser, club_pages):
    """Every page of a club in each language but English: no English sentence left, nothing wider than 360 px."""
    context, page, _, problems = new_phone(browser, "en-GB")
    found = {}
    for name, address in club_pages:
        page.goto(f"{server.url}{address}lang=en")
        english = lines(page)
        for lang in (lang for lang in LANGUAGES if lang != "en"):
            page.goto(f"{server.url}{address}lang={lang}")
            assert page.get_attribute("html", "lang") == lang.replace("_", "-")
            if lang in ("fr", "de"):
                shot(page, f"language-{name}-{lang}")
            left = [line for line in english_lines(lines(page), english, lang)
                    if line.lstrip("← ") != CLUB and not line.startswith(server.url)  # the club, the wall's link
                    and not (lang == "de" and line == "● live")]  # German says "live" too
            wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if left or wide > 0:
                found[f"{name} {lang}"] = {"English": left, "too wide by": wide}
    assert found == {}
    assert problems == []
    context.close()
