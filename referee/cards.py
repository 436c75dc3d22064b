"""Cards, suits, decks and their notation (see docs/api.md, "Cards"). No game logic here.

A card code is ``<rank><suit>``, case-insensitive: ``AS``, ``10H`` (or ``TH``), ``7C`` for French suits,
``1O``, ``12B`` for Spanish ones, ``JK`` for Buraco's jokers.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from referee.errors import ParseError
from referee.words import said


@dataclass(frozen=True)
class Suit:
    code: str
    symbol: str
    names: dict  # language -> name
    red: bool = False
    catalan: str | None = None

    def name(self, lang: str = "fr") -> str:
        base = self.names.get(lang) or self.names["en"]
        return f"{base} ({self.catalan})" if self.catalan else base

    def label(self, lang: str = "fr") -> str:
        """The suit on a card label: its symbol, or (a Spanish suit) its name's first letters in the language."""
        return self.symbol or (self.names.get(lang) or self.names["en"])[:3]

    def __repr__(self) -> str:
        return f"Suit({self.code!r})"


# Suits as players of each language name them (es/ca/it/pt_BR/de written from what we know, not yet checked with
# players there; the ones marked "?" are the least sure).
FRENCH_SUITS = {
    "S": Suit("S", "♠", {"fr": "pique", "en": "spades", "es": "picas", "ca": "piques", "it": "picche",
                         "pt_BR": "espadas", "de": "Pik"}),
    "H": Suit("H", "♥", {"fr": "cœur", "en": "hearts", "es": "corazones", "ca": "cors", "it": "cuori",
                         "pt_BR": "copas", "de": "Herz"}, red=True),
    "D": Suit("D", "♦", {"fr": "carreau", "en": "diamonds", "es": "diamantes", "ca": "diamants", "it": "quadri",
                         "pt_BR": "ouros", "de": "Karo"}, red=True),
    "C": Suit("C", "♣", {"fr": "trèfle", "en": "clubs", "es": "tréboles", "ca": "trèvols", "it": "fiori",
                         "pt_BR": "paus", "de": "Kreuz"}),
}
# R-BRISCA-1: Spanish suits, with the seed's Catalan names shown beside them (in every language, Catalan too:
# "ors (focs)" — the ruling's names, not the everyday Catalan ones). German has no deck of its own for them: the
# Latin suits' German names (Münzen? Kelche? Schwerter? Stäbe?) are a guess.
SPANISH_SUITS = {
    "O": Suit("O", "", {"fr": "oros", "en": "oros", "es": "oros", "ca": "ors", "it": "denari", "pt_BR": "ouros",
                        "de": "Münzen"}, red=True, catalan="focs"),
    "C": Suit("C", "", {"fr": "copas", "en": "copas", "es": "copas", "ca": "copes", "it": "coppe", "pt_BR": "copas",
                        "de": "Kelche"}, red=True, catalan="porrons"),
    "E": Suit("E", "", {"fr": "espadas", "en": "espadas", "es": "espadas", "ca": "espases", "it": "spade",
                        "pt_BR": "espadas", "de": "Schwerter"}, catalan="falçs"),
    "B": Suit("B", "", {"fr": "bastos", "en": "bastos", "es": "bastos", "ca": "bastos", "it": "bastoni",
                        "pt_BR": "paus", "de": "Stäbe"}, catalan="bolets"),
}

FRENCH_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
PIQUET_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
SPANISH_RANKS_40 = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
SPANISH_RANKS_48 = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12")
JOKER = "JK"

# Ranks as players say them (the others are their number). es: Spanish players of French-suited games say jota
# and reina (dama is heard too); ca: "reina", "jota" as in Catalan card rooms (?); de: Reiter for the Spanish 11 (?).
_FRENCH_RANK_NAMES = {
    "fr": {"A": "as", "K": "roi", "Q": "dame", "J": "valet"},
    "en": {"A": "ace", "K": "king", "Q": "queen", "J": "jack"},
    "es": {"A": "as", "K": "rey", "Q": "reina", "J": "jota"},
    "ca": {"A": "as", "K": "rei", "Q": "reina", "J": "jota"},
    "it": {"A": "asso", "K": "re", "Q": "donna", "J": "fante"},
    "pt_BR": {"A": "ás", "K": "rei", "Q": "dama", "J": "valete"},
    "de": {"A": "Ass", "K": "König", "Q": "Dame", "J": "Bube"},
}
_SPANISH_RANK_NAMES = {
    "fr": {"1": "as", "10": "sota", "11": "cavalier", "12": "roi"},
    "en": {"1": "ace", "10": "sota", "11": "knight", "12": "king"},
    "es": {"1": "as", "10": "sota", "11": "caballo", "12": "rey"},
    "ca": {"1": "as", "10": "sota", "11": "cavall", "12": "rei"},
    "it": {"1": "asso", "10": "fante", "11": "cavallo", "12": "re"},
    "pt_BR": {"1": "ás", "10": "valete", "11": "cavalo", "12": "rei"},
    "de": {"1": "Ass", "10": "Bube", "11": "Reiter", "12": "König"},
}
# Rank letters as players of each language write a French-suited deck, the corner indices of their cards: French
# cards read R, D, V (roi, dame, valet), German ones K, D, B (König, Dame, Bube). Spanish, Catalan, Italian and
# Brazilian players buy and write decks with the English letters K, Q, J (Fournier's, Modiano's, Copag's) and say
# rey, re, rei…: those keep them, as English does. The ace is A everywhere, 2 to 10 their number; the Spanish deck
# keeps its numbers in every language (1–7, 10 sota, 11 caballo, 12 rey).
_FRENCH_RANK_LETTERS = {
    "fr": {"K": "R", "Q": "D", "J": "V"},
    "de": {"K": "K", "Q": "D", "J": "B"},
}
JOKER_SIGN = "★"  # a joker on a card label, as the picker draws it; named in words where a sentence says it
JOKER_NAMES = {"fr": "joker", "en": "joker", "es": "comodín", "ca": "comodí", "it": "jolly", "pt_BR": "curinga",
               "de": "Joker"}
_OF = {"es": "de", "pt_BR": "de", "it": "di"}  # "{rank} {of} {suit}"; fr and ca elide before a vowel (d'oros)


def rank_names(lang: str, spanish: bool = False) -> dict:
    """The named ranks of a deck in a language (English for a language not listed)."""
    names = _SPANISH_RANK_NAMES if spanish else _FRENCH_RANK_NAMES
    return names.get(lang) or names["en"]


def rank_letter(rank: str, lang: str, spanish: bool = False) -> str:
    """A rank as a card label writes it in the language: "R" for the French king, "B" for the German jack; a
    number stays a number, a Spanish card its number."""
    if spanish:
        return rank
    if rank == JOKER:
        return JOKER_SIGN
    return _FRENCH_RANK_LETTERS.get(lang, {}).get(rank, rank)


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``rank`` as written in the notation ("A", "10", "12", "JK"), ``suit`` a suit code or None (joker)."""

    rank: str
    suit: str | None
    spanish: bool = False

    def __copy__(self):  # a value: copying a state shares it (referee/games/base.py's fork copies the open deal)
        return self

    def __deepcopy__(self, memo):
        return self

    @property
    def code(self) -> str:
        return self.rank if self.suit is None else self.rank + self.suit

    @property
    def suit_info(self) -> Suit | None:
        if self.suit is None:
            return None
        return (SPANISH_SUITS if self.spanish else FRENCH_SUITS)[self.suit]

    def letter(self, lang: str = "en") -> str:
        """The rank as the card's corner shows it in the language (``rank_letter``): "R", "10", "12", "★"."""
        return rank_letter(self.rank, lang, self.spanish)

    def short(self, lang: str = "en") -> str:
        """Rank letter and suit symbol, as every card label writes it: ``R♥`` in French, ``K♥`` in English,
        ``10♠``, ``★`` (a joker); Spanish suits by their name in the language: ``12 bastos``, ``4 copes``."""
        if self.suit is None:
            return self.letter(lang)
        info = self.suit_info
        if self.spanish:
            return f"{self.rank} {info.names.get(lang) or info.names['en']}"
        return self.letter(lang) + info.symbol

    def name(self, lang: str = "fr") -> str:
        """The card's full name in the language: "as de cœur", "king of copas (porrons)", "Herz-Ass"."""
        if self.suit is None:
            return JOKER_NAMES.get(lang, "joker")
        rank = rank_names(lang, self.spanish).get(self.rank, self.rank)
        info = self.suit_info
        if lang == "de":  # suit first, as German players say it: Pik-Dame, Herz-10
            return f"{info.names['de']}-{rank}" + (f" ({info.catalan})" if info.catalan else "")
        suit = info.name(lang)
        if lang in ("fr", "ca"):
            return f"{rank} d'{suit}" if suit[0] in "aeiouo" else f"{rank} de {suit}"
        if lang in _OF:
            return f"{rank} {_OF[lang]} {suit}"
        return f"{rank} of {suit}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


@dataclass(frozen=True)
class Deck:
    """A named deck; ``cards`` in display order (suit by suit), duplicates listed once per copy."""

    id: str
    names: dict
    cards: tuple
    spanish: bool = False

    @property
    def size(self) -> int:
        return len(self.cards)

    @cached_property
    def counts(self) -> MappingProxyType:
        """Copies of each card in the deck (a card it has not: 0), counted once: read it, it cannot be changed."""
        return MappingProxyType(Counter(self.cards))

    @cached_property
    def _by_code(self) -> dict:
        """Each card of the deck by its code as ``parse`` reads it (stripped, upper case; ``T`` for a French 10)."""
        found = {card.code: card for card in self.cards}
        if not self.spanish:
            found.update({"T" + card.suit: card for card in self.cards if card.rank == "10"})
        return found

    @property
    def suits(self) -> tuple:
        return tuple(dict.fromkeys(c.suit for c in self.cards if c.suit is not None))

    def __contains__(self, card: Card) -> bool:
        return card in self.counts

    def name(self, lang: str = "fr") -> str:
        return self.names[lang]  # Words: any language

    def labels(self, lang: str) -> dict:
        """Each card's code and its label in the language (``Card.short``), once a card, in the deck's order: made
        once per language and kept with the deck (a scorer's page hands them to its offline copy at every tap).
        Read it, never change it: every caller shares it."""
        made = self.__dict__.setdefault("_labels", {})  # frozen: kept as ``cached_property`` keeps its values
        found = made.get(lang)
        if found is None:
            found = made[lang] = {card.code: card.short(lang) for card in dict.fromkeys(self.cards)}
        return found

    def parse(self, text) -> Card:
        """Reads one card code of this deck, or raises ``ParseError`` with code ``unknown_card`` naming the input."""
        if not isinstance(text, str) or not text.strip():
            raise ParseError("unknown_card", "{text} is not a card code: expected rank then suit, like {example}.",
                             text=repr(text), example=self.cards[0].code)
        card = self._by_code.get(text.strip().upper())  # a page draws a card a few hundred times: looked up
        if card is None:
            raise ParseError("unknown_card", "{card} is not a card of the {deck_name}.", card=text.strip(),
                             deck=self.id, deck_name=self.name("en"))
        return card

    def parse_many(self, texts) -> list:
        if not isinstance(texts, list):
            raise ParseError("bad_event", "Expected a list of card codes, got {value}.", value=repr(texts))
        return [self.parse(t) for t in texts]

    def __repr__(self) -> str:
        return f"Deck({self.id!r}, {self.size} cards)"


def _build(ranks, suits, spanish=False):
    return tuple(Card(r, s, spanish) for s in suits for r in ranks)


FRENCH_52 = Deck("french52", said("jeu de 52 cartes", "52-card deck"), _build(FRENCH_RANKS, "SHDC"))
PIQUET_32 = Deck("piquet32", said("jeu de piquet de 32 cartes", "32-card piquet deck"),
                 _build(PIQUET_RANKS, "SHDC"))
SPANISH_40 = Deck("spanish40", said("jeu espagnol de 40 cartes", "40-card Spanish deck"),
                  _build(SPANISH_RANKS_40, "OCEB", True), spanish=True)
SPANISH_48 = Deck("spanish48", said("jeu espagnol de 48 cartes", "48-card Spanish deck"),
                  _build(SPANISH_RANKS_48, "OCEB", True), spanish=True)
BURACO_108 = Deck("buraco108", said("double jeu de 108 cartes", "108-card double deck"),
                  tuple(sorted(FRENCH_52.cards * 2, key=FRENCH_52.cards.index)) + (Card(JOKER, None),) * 4)


def piquet_30(removed=("7H", "7C")) -> Deck:
    """The piquet deck less two chosen 7s (R-BRUSQ-1 chooses one red and one black; that check is the game's)."""
    cards = [PIQUET_32.parse(code) for code in removed]
    if len(set(cards)) != 2 or any(c.rank != "7" for c in cards):
        raise ParseError("bad_option", "The 30-card deck removes two different 7s, not {removed}.",
                         removed=", ".join(removed))
    ident = "piquet30-" + "-".join(sorted(c.code for c in cards))
    return Deck(ident, said("jeu de piquet de 30 cartes", "30-card piquet deck"),
                tuple(c for c in PIQUET_32.cards if c not in cards))


