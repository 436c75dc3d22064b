"""The languages Referee speaks, in one place: each by its own name, and which of them are ready (a complete
catalogue: every sentence translated, `tests/test_languages.py`). Any language listed here can be asked for
(``?lang=``, the cookie); only the ready ones are offered by the switch and chosen from the browser's languages.
Sentences a language has not translated yet are said in English (the msgid)."""
from __future__ import annotations

# Each language by its own name, as the switch shows it.
LANGUAGES = {
    "fr": "Français",
    "en": "English",
    "es": "Español",
    "ca": "Català",
    "it": "Italiano",
    "pt_BR": "Português (Brasil)",
    "de": "Deutsch",
}
# Complete catalogues only: a language joins when tests/test_languages.py passes for it.
READY = ("fr", "en", "es", "ca", "it", "pt_BR", "de")
DEFAULT = "fr"
SOURCE = "en"  # the msgids are English

# Sentences a catalogue may keep equal to their English source, in one place: names, and the games' own terms,
# said the same at every table (agreed; add here, never in a test) ...
KEEP = frozenset({
    "Referee", "Brisca", "Brouc", "Brûlot", "Brusquembille", "Buraco", "Burraco", "Québec", "Mitchell",
    "Burracos", "burracos", "Coches", "coches", "%(num)s coche", "Jetons", "jetons", "La cape", "La cape et dehors", "la cape et dehors",
    "La cape, dehors et pas dédoublé", "pas dédoublé", "Mariages sur table", "coupé",
    "%(option)s: %(value)s", "%(title)s: %(name)s",  # no word in them: a language without a space before the
    # colon writes them so
})
# ... and, per language, words that are simply the same word there (not a translation left undone).
SAME_WORD = {
    "fr": frozenset({"%(n)s points", "%(num)s point", "Jokers", "Menu", "Options", "Table", "Table %(n)s", "Total"}),
    "es": frozenset({"Total", "no"}),
    "ca": frozenset({"Total", "no", "totals"}),
    "it": frozenset({"Home", "Menu", "no"}),
    "pt_BR": frozenset({"Menu", "Total", "“%(text)s”"}),  # Brazil quotes as English does
    "de": frozenset({"MP", "MP %(ns)s – %(ew)s", "Total", "VP", "VP %(ns)s – %(ew)s", "%(vp)s VP", "−%(vp)s VP", "West",
                     "live"}),
}


def kept(message: str, lang: str) -> bool:
    """Whether a catalogue may keep ``message`` as it is in English."""
    return message in KEEP or message in SAME_WORD.get(lang, ())


def html_lang(code: str) -> str:
    """A catalogue's code as HTML writes it: pt_BR → pt-BR."""
    return code.replace("_", "-")
