"""The page language (``?lang=`` or the cookie set by the switch: any language of ``referee/languages.py``; else
the browser's, among the ready ones), the message catalogues (``referee/words.py`` compiles them from the .po files
when they are newer than their .mo: the pages and the engine texts read the same .mo), and refusals translated for
the page."""
from __future__ import annotations

from urllib.parse import urlsplit

from babel.lists import format_list
from flask import Blueprint, redirect, request
from flask_babel import Babel, force_locale, get_locale, get_translations, gettext
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept

from referee.cards import FRENCH_SUITS, SPANISH_SUITS, rank_letter
from referee.errors import Plural, RefereeError
from referee.games import get_game
from referee.languages import DEFAULT, LANGUAGES, READY, SOURCE, html_lang
from referee.web.services import ledger
from referee.words import TRANSLATIONS, compile_catalogues
# Each language by its HTML tag (pt-BR), as browsers name them in Accept-Language: the ready ones, every listed one.
READY_TAGS = {html_lang(code): code for code in READY}
LISTED_TAGS = {html_lang(code): code for code in LANGUAGES}
COOKIE = "lang"
NAMED = ("suit_code", "suit_codes", "cards", "rank", "deck_name")  # a refusal's fields written by name with the deck

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """A language asked for by ``?lang=`` or kept in the cookie (any listed one, so that a catalogue can be read
    while it is filled), else the browser's best among the ready ones."""
    choice = request.args.get("lang") or request.cookies.get(COOKIE)
    if choice in LANGUAGES:
        return choice
    if choice in LISTED_TAGS:  # its HTML tag, as the page's language menu writes it: "pt-BR"
        return LISTED_TAGS[choice]
    return READY_TAGS.get(request.accept_languages.best_match(list(READY_TAGS)), DEFAULT)


def lang() -> str:
    return str(get_locale() or DEFAULT)


def init_app(app) -> None:
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    Babel(app, locale_selector=select_locale)
    app.register_blueprint(bp)
    app.add_template_filter(html_lang)

    @app.context_processor
    def language():
        code = lang()
        return {"lang": code, "html_lang": html_lang(code), "languages": READY, "language_names": LANGUAGES,
                **catalogue_bound(get_translations())}


def catalogue_bound(translations) -> dict:
    """A render's ``gettext`` and ``ngettext`` (what ``_()`` and ``{% trans %}`` call: Jinja looks them up in the
    render's context before its globals), bound to the page's catalogue once per render. Flask-Babel's own, in the
    globals, find the catalogue again at every call (the request's locale, its name, the domain, its cache: 13 µs a
    word on the development machine, where these take 4.8; a card tapped says 20 to 35); these call it directly. Jinja's "newstyle" behaviour, as
    ``install_gettext_callables(newstyle=True)`` makes it: the text escaped for the page, then its ``%(name)s``
    filled with the (escaped) values; ``num`` given to a plural. A template rendered without a request's context
    processors (a macro imported without context) keeps Flask-Babel's, which say the same words; one rendered
    directly is given these (the director's rows: ``tournaments/board.py``)."""
    @pass_context
    def bound_gettext(__context, __string, **variables):
        found = translations.ugettext(__string)
        return (Markup(found) if __context.eval_ctx.autoescape else found) % variables

    @pass_context
    def bound_ngettext(__context, __singular, __plural, __num, **variables):
        variables.setdefault("num", __num)
        found = translations.ungettext(__singular, __plural, __num)
        return (Markup(found) if __context.eval_ctx.autoescape else found) % variables

    return {"gettext": bound_gettext, "ngettext": bound_ngettext}


def sentence(template: str, values: dict, deck=None, fallback: str = "") -> str:
    """An engine sentence (a refusal, a flag) in the page language: cards and suits written by name."""
    values = dict(values)
    if deck is not None:
        for name, value in values.items():
            if (name == "card" or name.endswith("_card")) and isinstance(value, str):
                try:
                    values[name] = deck.parse(value).name(lang())
                except RefereeError:
                    pass
        if values.get("deck_name") == deck.name("en"):  # the deck named in the page's language
            values["deck_name"] = deck.name(lang())
        suits = SPANISH_SUITS if deck.spanish else FRENCH_SUITS
        if values.get("suit_code"):
            values["suit"] = suits[values["suit_code"]].name(lang())
        if isinstance(values.get("suit_codes"), list):  # "cœur, carreau et pique", never "C, D, S"
            values["suits"] = format_list([suits[code].name(lang()) for code in values["suit_codes"]], locale=lang())
        if isinstance(values.get("cards"), str):  # a list of codes: each as its label reads ("R♥ 3♠")
            values["cards"] = " ".join(_label(code, deck) for code in values["cards"].split())
        if isinstance(values.get("rank"), str):  # a rank alone ("a set of R"): as the cards' corners write it
            values["rank"] = rank_letter(values["rank"], lang(), deck.spanish)
    if isinstance(values.get("missing_items"), list):  # phrases listed in a sentence are msgids too
        values["missing"] = ", ".join(gettext(item) for item in values["missing_items"])
    if isinstance(template, Plural):  # its catalogue's form for the number (French has three)
        words = get_translations().ngettext(template.singular, template.plural, template.count)
    else:
        words = gettext(template)
    try:
        said = words.format(**values)
    except (KeyError, ValueError, IndexError):
        return fallback or template
    return said[:1].upper() + said[1:]  # a sentence that opens with a card's name: "As de cœur…", "King of…"


def _label(code: str, deck) -> str:
    try:
        return deck.parse(code).short(lang())
    except RefereeError:
        return code


def refusal(error: RefereeError, deck=None) -> str:
    """The refusal's sentence in the page language, card codes written as the cards' names."""
    return sentence(error.template, {"card": error.card, "player": error.player, **error.params}, deck,
                    error.message)


def api_refusal(error: RefereeError) -> dict:
    """An API error's body: its ``message`` in English (cards by their codes), or in another language the client
    asks for by naming it in ``Accept-Language`` (any listed one; static/offline.js names the page's), cards by
    their names there."""
    body = error.to_dict()
    asked = asked_language()
    if asked in (None, SOURCE):
        return body
    deck = None
    table_id = (request.view_args or {}).get("table_id")
    if table_id and names_a_card(error):  # the table's deck, to write its cards by name (never for a wrong key)
        try:
            state, table = ledger().snapshot(table_id)
            deck = get_game(state["game"]).deck_for(table)
        except RefereeError:  # no such table: the sentence has no card to name
            pass
    with force_locale(asked):
        body["message"] = refusal(error, deck)
    return body


def names_a_card(error: RefereeError) -> bool:
    """Whether a refusal's sentence names a card, a suit or the deck (what ``sentence`` writes with the deck)."""
    return error.card is not None or any(name == "card" or name.endswith("_card") or name in NAMED
                                         for name in error.params)


def asked_language() -> str | None:
    """The listed language an ``Accept-Language`` header names first (never by ``*``), else None (the API speaks
    English)."""
    named = LanguageAccept([(value, q) for value, q in request.accept_languages if value != "*"])
    return LISTED_TAGS.get(named.best_match(list(LISTED_TAGS)) or "")


@bp.get("/lang/<code>")
def switch(code):
    """Sets the language and goes back where the player was: only to a local path of this site (no scheme, no
    ``//``, no backslash, no control character: ``services.printable_query`` answers 400 first), else home."""
    target = request.args.get("next") or "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target \
            or not target.isprintable():
        target = "/"
    response = redirect(target, code=303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
    return response
