"""Engine texts in every language: a ``Words`` is the ``{"fr": …, "en": …}`` an engine writes (game names, option
labels and help, outcome reasons, summary sentences), and says any other language from that language's catalogue,
the English text as msgid — or in English while the catalogue has none. So ``x[lang]`` works for every language
of ``referee.languages.LANGUAGES``.

The English texts are extracted into the catalogues (``said:2``, ``_both:2``, ``ruled:3`` in the Makefile's
``pybabel extract``); French needs no msgstr for them, it is in the dict.

One translation path: the pages (Flask-Babel) and the engine texts read the same compiled catalogues,
``translations/<lang>/LC_MESSAGES/messages.mo``, which ``compile_catalogues`` writes from the .po files when they are
missing or older (the .mo files are not committed); here through Babel's own ``Translations``."""
from __future__ import annotations

import os
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from referee.languages import LANGUAGES, SOURCE

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
_compiled = threading.Lock()


def compile_catalogues(root: Path = TRANSLATIONS) -> None:
    """Writes each messages.mo from its messages.po when missing or older (the .mo files are not committed). A
    translation without its msgstr, or fuzzy, is left out (Babel's ``write_mo``): the English text is said."""
    for po in root.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source, locale=po.parent.parent.name)
        # A file of its own, then one atomic rename: two processes starting at once (a server's workers, the tests'
        # xdist workers on a fresh clone) never move each other's half-written catalogue.
        with tempfile.NamedTemporaryFile(dir=mo.parent, prefix=".messages.", suffix=".tmp", delete=False) as target:
            write_mo(target, catalogue)
        os.replace(target.name, mo)


@lru_cache(maxsize=None)
def catalogue(lang: str) -> Translations:
    """A language's compiled catalogue (Babel's ``Translations``, as Flask-Babel loads it), compiled when its .po is
    newer and read once per process; a language without one translates nothing."""
    with _compiled:
        compile_catalogues()
    return Translations.load(str(TRANSLATIONS), [lang])


def translate(text: str, lang: str) -> str:
    """An English text in ``lang``, or the text itself when its catalogue has no translation yet."""
    return catalogue(lang).gettext(text) if text else text


class Words(dict):
    """Per-language texts; a missing language of ``LANGUAGES`` is translated from the English one (never a
    KeyError). A text with numbers keeps its English template and values, so that the template is the msgid."""

    __slots__ = ("template", "fields")

    def __init__(self, *args, template: str | None = None, values: dict | None = None, **texts):
        super().__init__(*args, **texts)
        self.template, self.fields = template, values

    def __missing__(self, lang):
        if lang not in LANGUAGES:
            raise KeyError(lang)
        english = dict.get(self, SOURCE)
        if english is None:
            raise KeyError(lang)
        if self.template is None:
            return translate(english, lang)
        try:
            return translate(self.template, lang).format(**_in(self.fields, lang))
        except (KeyError, ValueError, IndexError):  # a translation with a wrong field: the English sentence
            return english

    def __reduce__(self):  # a copy or a pickle stays Words, template and all
        return (_rebuild, (dict(self), self.template, self.fields))


def _rebuild(texts: dict, template, values) -> Words:
    return Words(texts, template=template, values=values)


def _in(values: dict, lang: str) -> dict:
    """Template values in a language: one said per language (a Words, a dict) in that language, a number as is."""
    return {name: value[lang] if isinstance(value, dict) else value for name, value in values.items()}


def said(fr: str, en: str, **values) -> Words:
    """A text in French and English (the English is the msgid for every other language). With ``values`` both are
    templates (``"{coches} coches to the other side."``), filled here; the English template stays the msgid, and a
    value said per language (a ``Words``) is said in the sentence's language."""
    if not values:
        return Words(fr=fr, en=en)
    return Words(fr=fr.format(**_in(values, "fr")), en=en.format(**_in(values, "en")), template=en, values=values)
