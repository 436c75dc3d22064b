"""One-page rule summaries, written from the engines' own data: every number printed (card values, strength
orders, deck sizes, bonuses, limits) is read from the module that applies it, never typed twice. Sentences come in
French and English; each carries the ruling id it summarises. Cards are written by name, options by their words:
never a card code or an option's value as the code stores it. The game writes its own part (``Game.printed_summary``,
its package's ``printed.py``, with ``referee/games/summary_text.py``); the rules every game shares are added here.
"""
from __future__ import annotations

from referee.games import get_game
from referee.games.summary_text import ruled
from referee.languages import LANGUAGES
from referee.words import Words


def summary(game_id: str, options: dict | None = None) -> dict:
    """The summary of a game for a table's options (defaults when None): sections of ruled sentences, the card
    values and strength order, and every option in words (those that differ from the defaults marked)."""
    game = get_game(game_id)
    defaults = {o.name: o.default for o in game.options}
    options = {**defaults, **(options or {})}
    every = [{"name": o.name, "label": o.label, "help": o.help, "rule": o.rule, "changed": options[o.name] != o.default,
              "value": _words(o, options[o.name]), "default": _words(o, o.default)} for o in game.options]
    doc = game.printed_summary(options, {o["name"]: o["value"] for o in every})  # the game's own part (printed.py)
    doc["items"] = [_turns_rule(game)] + doc["items"] + [_entry_rule(game), _signing_rule(), _correction_rule()]
    doc.update(game=game, options=options, every=every, changed=[o for o in every if o["changed"]],
               rulings=sorted({i["rule"].rsplit("-", 1)[0] for i in doc["items"]}, key=lambda r: r != "R-COMMON"))
    return doc


def _words(option, value) -> dict:
    """An option's value as players say it, per language (never its code)."""
    return Words({lang: option.word(value, lang) for lang in LANGUAGES})


def _turns_rule(game) -> dict:
    """R-COMMON-1, 2: who deals and who leads (in a game of tricks), for every game."""
    if not game.plays_tricks:
        return ruled("R-COMMON-2", "Le premier donneur est choisi avec la table ; la donne passe au joueur suivant "
                     "après chaque manche.", "The first dealer is chosen with the table; the deal passes to the "
                     "next player after every hand.")
    return ruled("R-COMMON-2", "Le premier donneur est choisi avec la table ; la donne passe au joueur suivant. Le "
                 "joueur après le donneur entame, le gagnant de chaque pli entame le suivant.", "The first dealer is "
                 "chosen with the table; the deal passes to the next player. The player after the dealer leads; the "
                 "winner of each trick leads the next.")


def _entry_rule(game) -> Words:
    """R-COMMON-6: the ways a deal is entered, and what each checks."""
    if game.trick_entry == "melds":
        return ruled("R-COMMON-6", "Une manche se saisit combinaison par combinaison (chacune vérifiée) ou par ses "
                     "nombres ; les points sont les mêmes.", "A hand is entered meld by meld (each one checked) or by "
                     "its numbers; the points are the same.")
    extras = game.piles_carry
    return ruled("R-COMMON-6", "Une donne se saisit carte par carte (le jeu est vérifié), par les plis ramassés de "
                 "chaque camp ou par ses nombres{extras} ; les points sont les mêmes.",
                 "A deal is entered card by card (the play is checked), by each side's captured piles or by its "
                 "numbers{extras}; the points are the same.", extras=extras)


def _signing_rule() -> Words:
    """R-COMMON-7, 8: how a result is signed and corrected, for every game."""
    return ruled("R-COMMON-7", "La partie finie, chaque camp confirme le résultat sur le téléphone de la table, ou "
                 "appelle l'arbitre. À une table de tournoi, un résultat signé est fermé : seul l'arbitre le corrige, "
                 "et l'historique de la table garde chaque saisie, qui l'a faite et la raison de chaque correction.",
                 "Once the series is over, each side confirms the result on the table's phone, or calls the "
                 "director. At a tournament's table a signed result is closed: only the director corrects it, and "
                 "the table's history keeps every entry, who made it and the reason of every correction.")


def _correction_rule() -> Words:
    """R-COMMON-7b: what a side signs, and a correction that asks the sides again, for every game."""
    return ruled("R-COMMON-7b", "Chaque camp signe le résultat de la série dans l'unité où elle se compte. Si "
                 "l'arbitre corrige un résultat signé et le change, les signatures données avant ne valent plus : "
                 "chaque camp confirme à nouveau le résultat corrigé.",
                 "Each side signs the series' result in the unit the series is counted in. If the director "
                 "corrects a signed result and changes it, the signatures given before no longer count: each side "
                 "confirms the corrected result again.")

