"""One translation path (issue 39): the engine texts (``referee/words.py``: game names, option labels, outcome
reasons, summary sentences) are said from the compiled catalogues the pages read through Flask-Babel
(``translations/<lang>/LC_MESSAGES/messages.mo``, loaded by Babel's ``Translations``), and say in each of the seven
languages what the .po files say: a translated, settled sentence its msgstr; one without a msgstr, a fuzzy one or
a sentence of no catalogue its English, as ``words.py`` said them when it read the .po files itself."""
from __future__ import annotations

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from referee.languages import LANGUAGES
from referee.words import TRANSLATIONS, Words, catalogue, said, translate

from tests.support.env import ROOT


def po_of(lang: str):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=lang)


def said_by_the_po(lang: str) -> dict:
    """msgid -> what the .po says for it: its msgstr when translated and not fuzzy, singular sentences only."""
    return {m.id: m.string for m in po_of(lang) if m.id and isinstance(m.id, str) and isinstance(m.string, str)
            and m.string and not m.fuzzy}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_sentence_of_a_language_is_said_as_its_po_says_it(lang):
    settled = said_by_the_po(lang)
    singular = [m.id for m in po_of(lang) if m.id and isinstance(m.id, str)]
    assert len(singular) > 500
    if lang != "en":  # English is the msgid: its catalogue translates next to nothing
        assert len(settled) > 500
    wrong = {text: (translate(text, lang), settled.get(text, text)) for text in singular
             if translate(text, lang) != settled.get(text, text)}
    assert wrong == {}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_engine_texts_and_the_pages_read_the_same_compiled_catalogue(lang):
    """The catalogue is Babel's, loaded from the .mo file Flask-Babel loads (BABEL_TRANSLATION_DIRECTORIES), never
    the .po read at run time."""
    assert catalogue(lang).files == [str(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo")]


def test_an_untranslated_sentence_is_said_in_english_and_no_engine_text_is_a_plural_one():
    """A plural msgid's singular is said as Flask-Babel's gettext says it (its first form); no engine text is one,
    so each says what it said when ``words.py`` read the .po files (where a plural was left in English)."""
    plural = next(m for m in po_of("de") if isinstance(m.id, tuple) and all(m.string))
    assert translate(plural.id[0], "de") == plural.string[0]
    engine = {m if isinstance(m, str) else m[0] for _f, _l, m, *_ in extract_from_dir(
        str(ROOT), [("referee/**.py", "python")], keywords={"said": (2,), "_both": (2,), "_item": (3,),
                                                           "_outcome": (6,)})}
    assert len(engine) > 100
    assert engine & {m.id[0] for m in po_of("de") if isinstance(m.id, tuple)} == set()
    assert translate("A sentence no catalogue holds.", "it") == "A sentence no catalogue holds."
    assert translate("", "es") == ""  # never the catalogue's header


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_page_and_an_engine_say_a_sentence_alike(app, lang):
    from flask_babel import force_locale, gettext

    singular = [m.id for m in po_of(lang) if m.id and isinstance(m.id, str)]
    with app.test_request_context("/"), force_locale(lang):
        assert [gettext(text) for text in singular] == [translate(text, lang) for text in singular]


def test_words_say_each_language_from_its_catalogue_and_french_from_the_dict():
    """A unit's word as an engine says it, and a template with its value."""
    deals = said("donnes gagnées", "deals won")
    assert [deals[lang] for lang in LANGUAGES] == [
        "donnes gagnées", "deals won", *(said_by_the_po(lang).get("deals won", "deals won")
                                         for lang in ("es", "ca", "it", "pt_BR", "de"))]
    assert deals["de"] != "deals won" and deals["es"] != "deals won"
    template = said("{n} donnes", "{n} deals", n=3)
    assert isinstance(template, Words) and template["fr"] == "3 donnes" and template["en"] == "3 deals"
