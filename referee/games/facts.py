"""What the web layer and the templates ask of a game, answered by the game itself: the base of ``Game``. Pure: no
Flask; every value a game differs in is set in that game's module."""
from __future__ import annotations

import sys
from pathlib import Path

from referee.games.tally import typed_points


class Facts:
    """The words and facts a page asks of a game, with the values most games share.

    What a page asks of the game: templates reach it through the app-wide global ``game_of(state)``
    (``referee/web/shared/filters.py``); no page or web module branches on a game's id (``tests/test_no_game_branches.py``).
    The methods read a serialised state (a dict), so a template can ask them. Each game's values are in its module.

    - ``deal_word``: what the game calls one deal, "deal" or "hand" (Buraco's hands, R-BURACO-6).
    - ``penalty_points``: the points are penalties and the lowest total wins (Brûlot, R-BRULOT-6).
    - ``trick_entry``: what the trick mode enters, "cards" (the picker, one trick at a time) or "melds" (Buraco's
      melds laid, ``_play_melds.html``).
    - ``piles_have_extras``: a pile entered (capture) also asks what piles cannot show (Brouc's announces and
      mariages, Brusquembille's jetons; R-COMMON-6): ``pile_fields`` are the capture's fields that carry them,
      ``piles_carry`` says what, in words (a ``Words``, or "").
    - ``entry_modes``: the ways a deal can be entered, as the switch offers them ("trick", "capture", "numbers";
      Buraco's "trick" is its melds as laid).
    - ``points_rule``: the ruling that gives the card values, which bound the numbers a sheet takes.
    - ``deals_a_widow``: a deal sets cards aside beside the turned card (Brûlot's widow, R-BRULOT-1), so a phone
      offline cannot start the next deal by itself.
    - ``round_unit``: the option a tournament round's length sets, "hands" (Buraco, R-BURACO-6) or "deals" (Brûlot
      R-BRULOT-6, Brusquembille R-BRUSQ-5), None when a round's table plays its series to its end.
    - ``scored_by_vp_table``: a tournament scores a table by a table of victory points from the match points
      (Burraco's competition code, ``referee/tournament/scoring.py``); else a round's win, draw or loss.
    - ``event_fields``, ``event_examples``: per event, (the fields its parser needs, the ones it may take), and a
      body it reads, as the API's document declares them (the game's ``declared.py``).
    - ``tournament_first``: the game the tournament form shows chosen until one is chosen (Buraco); without one,
      the registry's first.
    - ``plays_tricks``: the game is played in tricks (``TrickGame``): a deal entered card by card, its card points in
      play; Buraco's melds are not.
    - ``numbers_tally(sheet, whole, table)``: the contract's ``tally`` (without its type) from the numbers sheet
      (``referee/web/tables/sheet.py``'s ``Sheet``: ``values``, ``numbers(whole)``, ``rows(kind)``, ``items``,
      ``has(item)``); raises ``ParseError``. By default the card points per side (R-COMMON-6).
    - ``numbers_whole(table)``: what the numbers typed add up to when the app knows it (a trick game's card points in
      play), to fill the last field; else None. ``numbers_bounds(table)``: what the fields can hold (``most`` one
      field, ``total`` all together, ``step`` what every number is a multiple of, ``rule`` the ruling saying so;
      Brûlot's ``low`` and ``high``); ``{}`` when nothing bounds them.
    - ``numbers_fields``: what the numbers sheet asks, "sides" (card points per side), "players" (penalties per
      player, Brûlot R-BRULOT-5) or "melds" (per side its melds and its cards in hand, Buraco R-BURACO-4, 6).
    - ``side_order(state)``: the sides' indices in the order a board draws them (Brouc: the other side, then the
      scorer's, as on the slate, R-BROUC-6).
    - ``trick_seat(state, index)``: the player who plays the ``index``-th card of the trick under way (from the
      player on lead, in the order of play, R-COMMON-2).
    - ``planned_deals(state)``: how many deals the series plays when it is of a fixed length, else 0.
    - ``points_target(state)``: the total the series runs to when it has one (a bar toward it), else None.
    - ``series_word(state)``: which sentence says how the series is won: "round" (a round of so many hands),
      "target" (ends at a target), "rotation" (Brisca's trump rotation), "wins" (first to so many deal wins),
      "slate" (Brouc's slate, out at 31), "deals" (so many deals, the lowest wins), "target_points" (first to so
      many points), "highest" (highest after so many deals).
    - ``summed_deals(state, deals)``: what some deals add up to per side (points, deal wins), for a board that
      shows the earlier deals in one row (Brisca: a deal that does not count adds nothing, R-BRISCA-6).

    - ``board_parts``: whether its board, drawn with ``board_part`` "open", draws only what a trick stored changes
      while the deal goes on (each part with its id, ``hx-swap-oob``: the open deal's rows, ``#board-last-deal``);
      else a trick's last tap redraws the whole board (``#scoreboard-board``, _scorer_tap.html).
    - ``template_folder``: the folder of the game's own templates, ``templates/`` beside its module (its board
      ``_board_<game>.html``, its sheets ``_sheet_<game>.html`` and ``_sheet_print_<game>.html``, its partials):
      the web's template loader searches every registered game's (``referee/web/app.py``).

    Asked of a table (``Game``): ``untouched(table)``, whether the open deal has nothing entered yet; Buraco's
    ``copies_left(table, taken)`` and ``verify_another_copy(table, taken, card)`` (R-BURACO-1).
    """

    deal_word: str = "deal"
    plays_tricks: bool = False
    penalty_points: bool = False
    trick_entry: str = "cards"
    numbers_fields: str = "sides"
    numbers_outcomes: tuple = ()  # what a numbers sheet's row cycles through, in tap order (R-BRUSQ-4's outcomes)
    entry_modes: tuple = ("trick", "capture", "numbers")  # R-COMMON-6
    pile_fields: tuple = ()  # the capture's fields that carry what a pile cannot show (R-COMMON-6)
    piles_carry = ""  # the same in words
    points_rule: str = ""
    deals_a_widow: bool = False
    round_unit: str | None = None
    scored_by_vp_table: bool = False
    tournament_first: bool = False
    board_parts: bool = False
    event_fields: dict = {}
    event_examples: dict = {}

    @property
    def piles_have_extras(self) -> bool:
        return bool(self.pile_fields)

    @property
    def template_folder(self) -> Path:
        """The game's own templates: ``templates/`` in the folder of the module that defines it."""
        return Path(sys.modules[type(self).__module__].__file__).resolve().parent / "templates"

    def numbers_tally(self, sheet, whole: int | None, table) -> dict:
        """The card points per side typed on the numbers sheet (R-COMMON-6)."""
        return typed_points(sheet, whole)

    def numbers_whole(self, table) -> int | None:
        return None

    def numbers_bounds(self, table) -> dict:
        return {}

    def side_order(self, state: dict) -> list:
        """The sides in the order a board draws them: as they are numbered."""
        return list(range(len(state["sides"])))

    def trick_seat(self, state: dict, index: int) -> int:
        """R-COMMON-2: the player who plays the ``index``-th card of the trick under way, from the one on lead."""
        return (state["next"]["player"] + index) % len(state["players"])

    def planned_deals(self, state: dict) -> int:
        """The deals of a series of a fixed length (drawn as pips), 0 when its length is not fixed."""
        return 0

    def points_target(self, state: dict) -> int | None:
        """The total the series runs to, when it has one."""
        return state["series"].get("target_points") or None

    def series_word(self, state: dict) -> str:
        """Which sentence says how the series is won (the list above)."""
        return "target_points" if state["series"].get("target_points") else "highest"

    def summed_deals(self, state: dict, deals: list) -> dict:
        """What ``deals`` (documents of this table's deals, from ``serialise``) add up to per side, for a board that
        shows them in one row: ``points`` (of the complete deals) and ``wins`` (deal wins, in the games counting
        them)."""
        points = [0] * len(state["sides"])
        for deal in deals:
            if deal.get("complete"):
                for side, value in enumerate(deal.get("points") or ()):
                    points[side] += value
        return {"points": points, "wins": [0] * len(state["sides"])}
