"""Every language of referee/languages.py: a ready catalogue is complete (every sentence translated, none kept equal
to its English source but the agreed names and game terms: ``referee.languages.kept``), and every kind of page
answers in every listed language, ready or not (what is not translated yet is said in English; never a 500)."""
import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from referee import create_app
from referee.languages import LANGUAGES, READY, SOURCE, html_lang, kept
from referee.games import get_game
from referee.web.tables.views import modes_for
from referee.words import Words, said
from tests.support.env import ROOT
from tests.support.series import SERIES
from tests.support.text import FIELDS, punctuation_faults, read_text
from tests.support.burraco import VP_ROWS

METHODS = [("referee/**.py", "python"), ("referee/**.html", "jinja2.ext:babel_extract")]
OPTIONS = {"referee/**.html": {"extensions": "jinja2.ext.i18n"}}
# Engine texts said in French and English (referee/words.py): French comes from the dict, never from its catalogue.
ENGINE = ("said", "_both", "ruled", "_outcome")


def makefile_keywords() -> dict:
    """The extraction keywords as `make translations` passes them (one place: the Makefile)."""
    found = {"ngettext": (1, 2)}
    for name, arg in re.findall(r"-k (\w+)(?::(\d+))?", (ROOT / "Makefile").read_text()):
        found[name] = (int(arg),) if arg else None
    return found


def extracted(keywords: dict) -> set:
    found = extract_from_dir(str(ROOT), METHODS, keywords=keywords, options_map=OPTIONS)
    return {message if isinstance(message, str) else message[0] for _file, _line, message, *_ in found}


@pytest.fixture(scope="module")
def sources():
    """(every msgid, the msgids only engine texts use)."""
    keywords = makefile_keywords()
    assert set(ENGINE) <= set(keywords), "the Makefile extracts the engine texts"
    every = extracted(keywords)
    pages = extracted({k: v for k, v in keywords.items() if k not in ENGINE})
    return every, every - pages


def catalogue(lang: str):
    with open(ROOT / f"referee/translations/{lang}/LC_MESSAGES/messages.po", "rb") as po:
        return read_po(po, locale=lang)


def gaps(lang: str, every: set, engine_only: set) -> dict:
    """What a catalogue still lacks: missing sentences, sentences equal to their English, wrong fields."""
    read = catalogue(lang)
    missing, same, fields = [], [], []
    for message in sorted(every):
        if lang == "fr" and message in engine_only:
            continue
        entry = read.get(message)
        forms = entry.string if entry and isinstance(entry.string, (list, tuple)) else (entry and entry.string,)
        if not entry or not all(forms):
            missing.append(message)
            continue
        if any(form == message for form in forms) and not kept(message, lang):
            same.append(message)
        for form in forms:
            if sorted(set(FIELDS.findall(message))) != sorted(set(FIELDS.findall(form))):
                fields.append(message)
    return {"missing": missing, "same as English": same, "fields": fields}


def test_every_listed_language_has_a_catalogue_and_names_itself():
    assert SOURCE in READY and set(READY) <= set(LANGUAGES)
    for code, name in LANGUAGES.items():
        assert (ROOT / f"referee/translations/{code}/LC_MESSAGES/messages.po").exists(), code
        assert name and name[0].isupper(), code


@pytest.mark.parametrize("lang", [code for code in READY if code != SOURCE])
def test_a_ready_catalogue_translates_every_sentence(lang, sources):
    every, engine_only = sources
    assert len(every) > 500 and len(engine_only) > 100
    assert gaps(lang, every, engine_only) == {"missing": [], "same as English": [], "fields": []}


def test_engine_words_fall_back_to_the_catalogue_then_to_english():
    words = said("Espagne, Catalogne", "Spain, Catalonia")
    assert (words["fr"], words["es"], words["de"]) == ("Espagne, Catalogne", "España, Cataluña", "Spanien, Katalonien")
    won = said("{points} points, plus de 60 : partie gagnée.", "{points} points, more than 60: the deal is won.",
               points=65)
    assert (won["en"], won["es"], won["it"]) == ("65 points, more than 60: the deal is won.",
                                                 "65 puntos, más de 60: partida ganada.",
                                                 "65 punti, più di 60: smazzata vinta.")
    unknown = said("Une phrase que nul catalogue n'a.", "A sentence no catalogue has.")
    assert unknown["ca"] == "A sentence no catalogue has."  # not translated: said in English, never a KeyError
    with pytest.raises(KeyError):
        won["xx"]  # only the listed languages
    assert isinstance(Words(words), dict) and dict(words) == {"fr": "Espagne, Catalogne", "en": "Spain, Catalonia"}


def test_cards_are_named_as_players_of_each_language_say_them():
    from referee.cards import BURACO_108, FRENCH_52, SPANISH_40
    assert [FRENCH_52.parse("QS").name(lang) for lang in LANGUAGES] == [
        "dame de pique", "queen of spades", "reina de picas", "reina de piques", "donna di picche",
        "dama de espadas", "Pik-Dame"]
    assert [SPANISH_40.parse("11O").name(lang) for lang in ("es", "ca", "it", "pt_BR")] == [
        "caballo de oros (focs)", "cavall d'ors (focs)", "cavallo di denari (focs)", "cavalo de ouros (focs)"]
    assert [BURACO_108.parse("JK").name(lang) for lang in ("es", "it", "pt_BR")] == ["comodín", "jolly", "curinga"]


def test_r_brouc_8_the_summary_says_what_pas_dedouble_means_and_quotes_the_call_kept_in_french():
    """Issue 24: "la cape, dehors et pas dédoublé" is a call said in French at every table (KEEP), but the summary
    used "pas dédoublé" as its own explanation, untranslated in Spanish and German: it now says what it means (the
    other side at 14 or less) in each language, the call's French words in quotes beside it."""
    from referee.summaries import summary
    item = next(i for i in summary("brouc")["items"] if i["rule"] == "R-BROUC-8")
    assert item["es"] == ("La cape: 2 coches, mariages anulados. Pedida con 19+: 3; «pas dédoublé», el otro bando a 14 o "
                          "menos: 4. Fallida: para los que la pidieron.")
    assert item["de"] == ("La cape: 2 Coches, Mariages gestrichen. Angesagt ab 19: 3; „pas dédoublé“, Gegner bei 14 oder "
                          "weniger: 4. Verfehlt: an die Ansager.")
    for lang in set(LANGUAGES) - {"fr"}:
        assert item[lang].count("dédoublé") == len(re.findall(r"[«“„]pas dédoublé[»”“]", item[lang])) == 1, lang


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Every page kind's address, on one app: a table of each game with finished deals and one under way, and a
    tournament with a round seated."""
    path = tmp_path_factory.mktemp("languages") / "languages.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "test",
                      "RATELIMIT_ENABLED": False})
    app.extensions["referee.ledger"].init_db()
    client = app.test_client()
    pages = {"home": "/", "offline": "/offline"}
    for game, players, options, entries in SERIES:
        made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
        table, scorer, viewer = made["id"], made["scorer_key"], made["viewer_key"]
        for body in entries[:40]:
            answer = client.post(f"/api/v1/tables/{table}/events", json=body,
                                 headers={"Authorization": f"Bearer {scorer}"})
            assert answer.status_code == 201, (game, body, answer.get_json())
        pages.update({f"setup-{game}": f"/new/{game}", f"rules-{game}": f"/rules/{game}",
                      f"blank-sheet-{game}": f"/sheet/{game}", f"viewer-{game}": f"/t/{table}?key={viewer}",
                      f"screen-{game}": f"/t/{table}/screen?key={viewer}",
                      f"live-{game}": f"/t/{table}/live?key={viewer}",
                      f"share-{game}": f"/t/{table}/share?key={scorer}",
                      f"table-rules-{game}": f"/t/{table}/rules?key={scorer}",
                      f"sheet-{game}": f"/t/{table}/sheet?key={scorer}"})
        for mode in dict.fromkeys(get_game(game).entry_modes + modes_for(get_game(game))):
            pages[f"scorer-{game}-{mode}"] = f"/t/{table}?key={scorer}&mode={mode}"
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Mardi au Circolo", "entrants": [
        ["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]], "rounds": [{"movement": "mitchell", "hands": 2}],
        "vp_table": VP_ROWS})
    tournament = made.get_json()
    tid, key, viewer = tournament["id"], tournament["director_key"], tournament["viewer_key"]
    assert client.post(f"/api/v1/tournaments/{tid}/rounds", json={},
                       headers={"Authorization": f"Bearer {key}"}).status_code in (200, 201)
    pages.update({"tournament-new": "/tournaments/new", "tournament-director": f"/tournaments/{tid}?key={key}",
                  "tournament-standings": f"/tournaments/{tid}/standings?key={viewer}",
                  "tournament-screen": f"/tournaments/{tid}/screen?key={viewer}",
                  "tournament-cards": f"/tournaments/{tid}/cards?key={key}",
                  "tournament-print": f"/tournaments/{tid}/print?key={viewer}"})
    return client, pages


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_page_answers_in_every_listed_language(site, lang):
    client, pages = site
    failed = {}
    for name, path in pages.items():
        response = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
        page = response.get_data(as_text=True)
        if response.status_code != 200:
            failed[name] = response.status_code
        elif "<html" in page and f'<html lang="{html_lang(lang)}">' not in page:
            failed[name] = "html lang"
    assert failed == {}
    home = client.get(f"/?lang={lang}").get_data(as_text=True)
    assert all(f">{LANGUAGES[code]}<" in home for code in READY)  # the switch: each ready language by its name
    if lang == "es":  # page sentences and engine texts, from the catalogue
        assert "Idioma" in home and "España, Cataluña" in home


@pytest.mark.parametrize("accept, chosen", [
    ("en-GB,en", "en"), ("es-UY,es;q=0.9,en;q=0.5", "es"), ("ca-ES,ca;q=0.9,es;q=0.8", "ca"), ("it-CH", "it"),
    ("pt-BR,pt;q=0.9", "pt-BR"), ("pt-PT,pt;q=0.9", "pt-BR"), ("gsw-CH,de;q=0.8", "de"), ("ja,ko;q=0.5", "fr")])
def test_the_browser_language_chooses_among_the_ready_ones_and_french_else(site, accept, chosen):
    client, _ = site
    client.delete_cookie("lang")
    assert f'<html lang="{chosen}">' in client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)


@pytest.mark.parametrize("asked", ["pt_BR", "pt-BR"])
def test_a_language_asked_by_its_code_or_its_html_tag_is_the_same(site, asked):
    """Review of issue 27: ``?lang=pt-BR`` (the tag the page's own menu shows) is Brazilian Portuguese, as pt_BR is."""
    client, _ = site
    client.delete_cookie("lang")
    page = client.get(f"/?lang={asked}", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)
    assert '<html lang="pt-BR">' in page


def test_every_language_is_ready():
    """Issue 19: every listed language has a complete catalogue (a new one joins READY when it has)."""
    assert set(READY) == set(LANGUAGES)


@pytest.mark.parametrize("lang, amounts", [("en", ["4", "1.50", "-0.50", "1,234"]), ("fr", ["4", "1,50", "-0,50", "1\u202f234"]),
                                           ("de", ["4", "1,50", "-0,50", "1.234"]), ("pt_BR", ["4", "1,50", "-0,50", "1.234"])])
def test_money_is_written_as_the_locale_writes_it(site, lang, amounts):
    """R-BRUSQ-4's money (Brusquembille's jetons) in the locale's format: decimal comma, its thousands mark."""
    from referee.web.shared.filters import money
    client, _ = site
    with client.application.test_request_context(f"/?lang={lang}"):
        assert [money(a) for a in (4, 1.5, -0.5, 1234)] == amounts


# A numbers screen with rows typed, so that its preview says them: Brusquembille's jetons, a Brouc announce.
TYPED = {"brusquembille": "&v=50&x=b:AH:2:won", "brouc": "&v=64&x=a:0:KH.QH&pick=a:0"}


def more_pages(client) -> dict:
    """The page kinds the series above do not reach: each game's first deal before and after its first entry, in
    each way of entry (the numbers screen with rows typed), and the error pages."""
    found = {"error-404": "/t/nothing?key=nope"}
    for game, players, options, entries in SERIES:
        made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
        base = f"/t/{made['id']}?key={made['scorer_key']}"
        found.update({f"first-{game}-{mode}": f"{base}&mode={mode}" for mode in get_game(game).entry_modes})
        if entries[0]["type"] == "deal":
            client.post(f"/api/v1/tables/{made['id']}/events", json=entries[0],
                        headers={"Authorization": f"Bearer {made['scorer_key']}"})
            for mode in get_game(game).entry_modes:
                found[f"dealt-{game}-{mode}"] = f"{base}&mode={mode}" + (TYPED.get(game, "") if mode == "numbers" else "")
        found[f"error-403-{game}"] = f"/t/{made['id']}?key=wrong"
    return found


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_page_kind_punctuates_as_its_language_does(site, lang):
    """Issue 24: French typography in every sentence of every page kind, on the text a reader reads ("Tour 1: tables",
    "Jetons: …" had no space): a no-break space before : ; ! ? and inside « »; the other languages put none before."""
    client, pages = site
    wrong = {}
    for name, path in {**pages, **more_pages(client)}.items():
        page = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}").get_data(as_text=True)
        found = [fault for text in read_text(page) for fault in punctuation_faults(text, lang)]
        if found:
            wrong[name] = sorted(set(found))
    assert wrong == {}, "\n".join(f"{name}: {faults}" for name, faults in wrong.items())
