"""What a printed rule summary is written with (``referee/summaries.py`` builds the page, each game's
``printed.py`` its part): ruled sentences in French and English, card ranks by name, card values grouped. Every
number a sentence prints is read from the module that applies it, never typed twice. Cards are written by name,
never by code."""
from __future__ import annotations

import re

from referee.cards import JOKER_NAMES, rank_names
from referee.languages import LANGUAGES
from referee.words import Words, said

# The Spanish ranks in French and English summaries keep their Spanish names (the cards' own names say "knight"
# and "cavalier"); every other rank is named as the cards name it, the unnamed ones (2 to 10, 2 to 9) by number.
SPANISH_WORDS = {
    "fr": {"1": "as", "12": "rey", "11": "caballo", "10": "sota"},
    "en": {"1": "ace", "12": "rey", "11": "caballo", "10": "sota"},
}
_BEFORE = re.compile(r" ([:;!?])")


def rank(code: str, lang: str, spanish: bool = False) -> str:
    """A rank by its name ("roi", "caballo"), or its number; in a language beyond French and English, as the cards
    name it (``referee/cards.py``)."""
    words = SPANISH_WORDS.get(lang) if spanish else None
    if words is None:
        words = {**rank_names(lang, spanish), "JK": JOKER_NAMES.get(lang, "joker")}
    return words.get(code, code)


def ranks(codes, lang: str, spanish: bool = False, joiner: str = ", ") -> str:
    return joiner.join(rank(c, lang, spanish) for c in codes)


def names(codes, spanish: bool = False, joiner: str = ", ") -> Words:
    """Ranks by name, in every language: "1 > 3 > rey…"."""
    return Words({lang: ranks(codes, lang, spanish, joiner) for lang in LANGUAGES})


def ruled(rule: str, fr: str, en: str, **values) -> Words:
    """One ruled sentence; ``fr`` and ``en`` are templates of ``values`` (the English one is the msgid; a value
    said per language, like a Words, is said in each language). French typography (a no-break space before
    : ; ! ?) whatever the source typed."""
    ruled = said(fr, en, **values)
    ruled["fr"] = _BEFORE.sub("\u00a0\\1", ruled["fr"])
    ruled["rule"] = rule
    return ruled


def card_values(points: dict, order, spanish: bool = False, rest: bool = False) -> list:
    """Card values in strength order, ranks worth the same side by side grouped ("9, 8, 7 = 0"); ``rest`` adds
    "the rest = 0" for ranks the order leaves out."""
    groups = []
    for code in order:
        value = points.get(code, 0)
        if groups and groups[-1]["points"] == value:
            groups[-1]["codes"].append(code)
        else:
            groups.append({"codes": [code], "points": value})
    values = [{"label": Words({lang: ranks(g["codes"], lang, spanish) for lang in LANGUAGES}),
               "points": g["points"]} for g in groups]
    if rest:
        values.append({"label": said("les autres", "the rest"), "points": 0})
    return values
