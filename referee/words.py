"""Engine texts in every language: a ``Words`` is the ``{"fr": …, "en": …}`` an engine writes (game names, option
labels and help, outcome reasons, summary sentences), and says any other language from that language's catalogue,
the English text as msgid — or in English while the catalogue has none. So ``x[lang]`` works for every language
of ``referee.languages.LANGUAGES``.

The English texts are extracted into the catalogues (``said:2``, ``_both:2``, ``ruled:3`` in the Makefile's
``pybabel extract``); French needs no msgstr for them, it is in the dict."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

from referee.languages import LANGUAGES, SOURCE

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict:
    """A language's translated sentences, msgid → msgstr (singular forms only), read once per process."""
    po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
    if not po.exists():
        return {}
    with po.open("rb") as source:
        read = read_po(source, locale=lang)
    return {m.id: m.string for m in read if m.id and isinstance(m.id, str) and isinstance(m.string, str)
            and m.string and not m.fuzzy}


def translate(text: str, lang: str) -> str:
    """An English text in ``lang``, or the text itself when its catalogue has no translation yet."""
    return (catalogue(lang).get(text) or text) if text else text


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
