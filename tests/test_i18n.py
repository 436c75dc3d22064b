"""French and English everywhere: every sentence of the templates, the web layer and the engine's refusals has its
French translation, with the same placeholders."""

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tests.support.env import ROOT
from tests.support.text import FIELDS, punctuation_faults

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "msg": None, **{name: (2,) for name in (
    "RuleError", "ParseError", "RefereeError", "Conflict", "NotFound", "Unauthorized", "Forbidden")}}
METHODS = [("referee/**.py", "python"), ("referee/**.html", "jinja2.ext:babel_extract")]


def source_messages() -> set:
    found = extract_from_dir(str(ROOT), METHODS, keywords=KEYWORDS,
                             options_map={"referee/**.html": {"extensions": "jinja2.ext.i18n"}})
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


def test_every_language_punctuates_its_catalogue_and_summaries_as_it_does():
    """French typography in every sentence of the catalogue, the rule summaries and the options' help (issue 24:
    "Tour 1: tables" had no space at all); the other languages put none before : ; ! ?."""
    from referee.games import GAMES
    from referee.languages import LANGUAGES
    from referee.summaries import summary
    wrong = {}
    for lang in LANGUAGES:
        with open(ROOT / f"referee/translations/{lang}/LC_MESSAGES/messages.po", "rb") as po:
            catalogue = read_po(po, locale=lang)
        texts = [s for m in catalogue if m.id
                 for s in (m.string if isinstance(m.string, (list, tuple)) else (m.string,)) if s]
        for game in GAMES:
            texts += [i[lang] for i in summary(game)["items"]] + [o.help[lang] for o in GAMES[game].options]
        found = [fault for text in texts for fault in punctuation_faults(text, lang)]
        if found:
            wrong[lang] = found
    assert wrong == {}


def test_catalogues_compiled_by_many_at_once_are_whole(tmp_path):
    """Fresh clone, several processes starting together (xdist workers, a server's workers): each writes its own
    temporary file and renames it, so none fails and every .mo is a whole catalogue (a clean-clone run once saw
    FileNotFoundError when two moved the same messages.mo.tmp)."""
    import shutil
    from concurrent.futures import ThreadPoolExecutor

    from babel.messages.mofile import read_mo

    from referee.words import TRANSLATIONS, compile_catalogues

    root = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, root, ignore=shutil.ignore_patterns("*.mo"))
    with ThreadPoolExecutor(8) as pool:
        for done in [pool.submit(compile_catalogues, root) for _ in range(8)]:
            done.result()
    mos = sorted(root.glob("*/LC_MESSAGES/messages.mo"))
    assert len(mos) == len(list(root.glob("*/LC_MESSAGES/messages.po"))) >= 7
    assert not list(root.rglob("*.tmp"))
    with (root / "fr" / "LC_MESSAGES" / "messages.mo").open("rb") as mo:
        assert read_mo(mo).get("Undo").string == "Annuler"


def test_r_buraco_3_a_refusal_with_a_number_takes_its_languages_plural_form(app):
    """One sentence through ngettext (issue 38: "Les 1 burracos de …"): English has two forms, French three."""
    from referee.errors import RuleError, ngettext
    from referee.web.i18n import refusal

    def burracos(count):
        return RuleError("tally_burracos_melds", ngettext(
            "{name}'s {count} burraco holds at least {least} card points (a pure one 35, a semi-pure 55, a dirty "
            "50): more than the {melds} entered for its melds.",
            "{name}'s {count} burracos hold at least {least} card points (a pure one 35, a semi-pure 55, a dirty "
            "50): more than the {melds} entered for its melds.", count),
            rule="R-BURACO-3", name="Gil & Hugo", count=count, least=35 * count, melds=20)

    assert burracos(1).message.startswith("Gil & Hugo's 1 burraco holds at least 35 card points")
    assert burracos(2).message.startswith("Gil & Hugo's 2 burracos hold at least 70 card points")
    with app.test_request_context("/", headers={"Cookie": "lang=fr"}):
        assert refusal(burracos(1)) == ("1 burraco de Gil & Hugo vaut au moins 35 points de cartes (un pur 35, un "
                                        "semi-pur 55, un sale 50)\u00a0: plus que les 20 saisis pour ses combinaisons.")
        assert refusal(burracos(2)).startswith("Les 2 burracos de Gil & Hugo valent au moins 70 points de cartes")


def test_a_renders_words_are_flask_babels_read_from_the_catalogue_bound_once(app):
    """``catalogue_bound`` (referee/web/i18n.py): a page's ``_()``, ``ngettext`` and ``{% trans %}`` say what
    Flask-Babel's own say, escaped as they escape (the text for the page, its values escaped, ``num`` in a plural),
    in the page's language; the render's own are the ones called."""
    from flask import render_template_string

    page = ("{{ _('Trick') }}|{{ ngettext('%(num)s trick', '%(num)s tricks', 3) }}|"
            "{% trans n=1 %}{{ n }} deal{% pluralize %}{{ n }} deals{% endtrans %}|{{ _('%(x)s!', x='<b>') }}|"
            "{{ gettext is defined and gettext.__name__ }}")
    with app.test_request_context("/", headers={"Accept-Language": "fr"}):
        bound = render_template_string(page)
        kept = app.jinja_env.globals["gettext"], app.jinja_env.globals["ngettext"]
        own = app.jinja_env.from_string(page.replace("|{{ gettext is defined and gettext.__name__ }}", "")).render()
    assert bound == own + "|bound_gettext"
    assert bound.split("|")[:4] == ["Pli", "3 plis", "1 deal", "&lt;b&gt;!"]
    assert kept[0].__name__ == "gettext"  # Flask-Babel's, for a template rendered without the context
