"""A game's options schema: one table setting (``Option``), how a value is checked, and how players say it (never a
code: card names, yes or no, a decimal comma)."""
from __future__ import annotations

from dataclasses import dataclass

from referee.cards import FRENCH_52
from referee.errors import ParseError
from referee.words import said

YES_NO = {True: said("oui", "yes"), False: said("non", "no")}


@dataclass(frozen=True)
class Option:
    """One table setting: ``type`` is bool, int, choice or cards; ``help`` a one-line explanation per language.

    What players read: ``label`` names the setting in a few words per language, ``words`` says a value (a choice, a
    boolean, or an int with a meaning of its own like 0) as players say it: ``{value: {"fr": …, "en": …}}``;
    booleans say yes or no by default. ``offer`` lists the cards a form offers for a ``cards`` option.
    """

    name: str
    type: str
    default: object
    help: dict
    choices: tuple | None = None
    rule: str | None = None
    label: dict | None = None
    words: dict | None = None
    offer: tuple | None = None

    def validate(self, value):
        if self.type == "bool":
            ok = isinstance(value, bool)
        elif self.type == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif self.type == "cards":
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        elif self.type == "ints":
            ok = isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                                 for v in value)
        elif self.type == "number":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e9
        else:
            ok = isinstance(value, str)
        if ok and self.choices is not None and value not in self.choices:
            ok = False
        if not ok:
            allowed = f"one of {', '.join(map(str, self.choices))}" if self.choices else f"a {self.type}"
            raise ParseError("bad_option", "Option {option} must be {allowed}, not {value}.", option=self.name,
                             allowed=allowed, value=repr(value))
        return value

    def word(self, value, lang: str) -> str:
        """A value in plain words: its words when it has some, else a number (decimal comma in French), a list of
        numbers, or card names ("7 de cœur, 7 de trèfle") — never a code, a Python ``True`` or ``None``."""
        words = self.words or (YES_NO if self.type == "bool" else {})
        if isinstance(value, (str, int, float, bool)) and value in words and \
                (self.type == "bool") == isinstance(value, bool):
            return words[value][lang]
        if isinstance(value, bool):
            return YES_NO[value][lang]
        if isinstance(value, (list, tuple)):
            if self.type == "cards":
                return ", ".join(card_name(v, lang) for v in value)
            return ", ".join(self.word(v, lang) for v in value)
        if isinstance(value, float):
            text = f"{value:f}".rstrip("0").rstrip(".")
            return text if lang == "en" else text.replace(".", ",")  # a decimal comma, but in English
        return str(value) if value is not None else ""

    def describe(self) -> dict:
        doc = {"name": self.name, "type": self.type, "default": self.default, "help": self.help}
        if self.choices is not None:
            doc["choices"] = list(self.choices)
        if self.rule:
            doc["rule"] = self.rule
        return doc


def card_name(code: str, lang: str) -> str:
    """A card code of an option by name ("7H" → "7 de cœur"), or as given when it is no card."""
    try:
        return FRENCH_52.parse(code).name(lang)
    except ParseError:
        return str(code)
