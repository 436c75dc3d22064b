"""French and English everywhere: every sentence of the templates, the web layer and the engine's refusals has its
French translation, with the same placeholders."""
import re

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tests.conftest import ROOT

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "msg": None, **{name: (2,) for name in (
    "RuleError", "ParseError", "RefereeError", "Conflict", "NotFound", "Unauthorized", "Forbidden")}}
METHODS = [("referee/**.py", "python"), ("templates/**.html", "jinja2.ext:babel_extract")]
FIELDS = re.compile(r"%\(\w+\)s|\{\w+\}")


def source_messages() -> set:
    found = extract_from_dir(str(ROOT), METHODS, keywords=KEYWORDS,
                             options_map={"templates/**.html": {"extensions": "jinja2.ext.i18n"}})
    return {message if isinstance(message, str) else message[0] for _file, _line, message, *_ in found}


def test_every_sentence_has_a_french_translation_with_the_same_fields():
    with open(ROOT / "referee/translations/fr/LC_MESSAGES/messages.po", "rb") as po:
        catalogue = read_po(po)
    sources = source_messages()
    assert len(sources) > 100
    missing = sorted(m for m in sources if not (catalogue.get(m) and catalogue.get(m).string))
    assert missing == [], "run `make translations` and translate these in fr/messages.po"
    for message in sources:
        translated = catalogue.get(message).string
        forms = translated if isinstance(translated, (list, tuple)) else (translated,)  # a plural has 3 in French
        assert all(forms), message
        for form in forms:
            assert sorted(set(FIELDS.findall(message))) == sorted(set(FIELDS.findall(form))), message


def test_refusals_are_translated_with_card_names(app):
    from referee.cards import SPANISH_40
    from referee.errors import RuleError
    from referee.web.i18n import refusal

    error = RuleError("card_already_played", "{card} was already played in trick {trick} (entered here for {name}).",
                      card="1C", player=2, trick=1, name="Cy")
    with app.test_request_context("/", headers={"Cookie": "lang=fr"}):
        assert refusal(error, SPANISH_40) == "As de copas (porrons) a déjà été joué au pli 1 (saisi ici pour Cy)."
    with app.test_request_context("/", headers={"Cookie": "lang=en"}):
        assert refusal(error, SPANISH_40) == "Ace of copas (porrons) was already played in trick 1 (entered here " \
            "for Cy)."
        assert refusal(error) == error.message == "1C was already played in trick 1 (entered here for Cy)."


def test_the_page_language_follows_the_cookie(client):
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}).get_json()
    client.set_cookie("lang", "fr")
    page = client.get(f"/t/{created['id']}?key={created['scorer_key']}").get_data(as_text=True)
    assert '<html lang="fr">' in page and "Tableau des scores" in page
    client.set_cookie("lang", "en")
    page = client.get(f"/t/{created['id']}?key={created['scorer_key']}").get_data(as_text=True)
    assert '<html lang="en">' in page and "Scoreboard" in page


PLAIN_SPACE_BEFORE = re.compile(r" [:;!?](?=[\s\"')]|$)")


def test_french_typography_a_no_break_space_before_colons_semicolons_and_question_marks():
    with open(ROOT / "referee/translations/fr/LC_MESSAGES/messages.po", "rb") as po:
        catalogue = read_po(po)
    wrong = [m.id for m in catalogue if m.id and any(
        PLAIN_SPACE_BEFORE.search(s) for s in (m.string if isinstance(m.string, tuple) else (m.string,)))]
    assert wrong == []
    from referee.games import GAMES
    from referee.summaries import summary
    for game in GAMES:
        items = summary(game)["items"] + [{"fr": o.help["fr"]} for o in GAMES[game].options]
        assert [i["fr"] for i in items if PLAIN_SPACE_BEFORE.search(i["fr"])] == [], game
