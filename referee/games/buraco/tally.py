"""Buraco by its numbers (the contract's ``tally``): what the table writes on paper for a hand, as one event that
closes the open hand. Every number is checked against what a hand can hold (R-COMMON-5) and the hand is scored by
``Buraco.score``, the one place a count is scored too; what only the cards could prove is not claimed (the hand
says ``"entry": "tally"`` and lists no melds).

    {"type": "tally", "closed_by": 2,
     "sides": [{"melds": 125, "burracos": {"pure": 1, "semi": 0, "dirty": 0}, "pot": true, "hand": 5},
               {"melds": 70, "burracos": {}, "pot": false, "hand": 70}]}

2 or 4 players: one entry per side. ``melds`` is the card points the side laid (R-BURACO-4), ``burracos`` its
burracos by class (R-BURACO-3; a missing class is 0), ``pot`` whether it took its pot of 11 (R-BURACO-1), ``hand``
the card points left in its players' hands, both partners together, written as the positive number of the cards.

3 or 5 players (R-BURACO-1b): one entry per player, and ``teams`` the teams the hand ended with, as in the state
(lists of players, or objects with ``players``), in any order:
- everyone alone, ``[[0], [1], [2]]``: nobody went to the pot; every ``pot`` is false and each loses 100;
- one player alone against all the others, ``[[0], [1, 2]]``: the lone player went to the pot first and took the
  18 cards, so his ``pot`` is true; in the team at most one player has ``pot`` true, the one who took the team's
  11 cards (none: the team loses 100).
A player's ``melds`` and ``burracos`` are what he laid; a team's melds are pooled, so a card laid on a team-mate's
meld may be written under either player: only the team's sums are scored and checked. ``hand`` is the card points
left in that player's own hand. The closer must have no card left: checked with 2, 3 or 5 players, where ``hand``
is the closer's own; with 4 a side's ``hand`` holds the partner's cards too, so it is not checked.

What a member's page counts of a hand, whichever way it was entered (``STATISTICS``, ``hand_statistics``;
referee/games/statistics.py): its burracos by class and whether it was closed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.cards import BURACO_108
from referee.errors import ParseError, RuleError, msg, ngettext
from referee.games.base import field_of
from referee.games.buraco.melds import BONUS, card_value
from referee.games.events import read_player
from referee.games.statistics import Stat
from referee.words import said

KINDS = ("pure", "semi", "dirty")  # the contract's names for R-BURACO-3's classes
BONUS_OF = {"pure": BONUS["pure"], "semi": BONUS["semi_pure"], "dirty": BONUS["dirty"]}
# R-BURACO-3: cards a burraco needs, and of them wild (one joker or 2 in a semi-pure or dirty one, R-BURACO-2).
CARDS = {"pure": 7, "semi": 8, "dirty": 7}
WILD = {"pure": 0, "semi": 1, "dirty": 1}
# R-BURACO-4: the least a burraco's cards are worth: seven 3s (35); seven 3s and a 2 as pinella (55); six 3s and a
# pinella (50). No run is cheaper: a low ace or a natural 2 counts 5 like a 3, a wild at least 20.
LEAST = {"pure": 35, "semi": 55, "dirty": 50}
LEAST_MELD = 15  # R-BURACO-2, 4: three cards worth 5 each
STEP = 5  # R-BURACO-4: every card value is a multiple of 5
VALUES = tuple(sorted(card_value(c) for c in BURACO_108.cards))  # R-BURACO-1, 4: 1080 in the two decks
JOKERS, TWOS = 4, 8  # R-BURACO-1
POT, LONE_POT = 11, 18  # R-BURACO-1, 1b
STATISTICS = (Stat("burracos_pure", said("burracos purs", "pure burracos"), "R-BURACO-3"),
              Stat("burracos_semi_pure", said("burracos semi-purs", "semi-pure burracos"), "R-BURACO-3"),
              Stat("burracos_dirty", said("burracos sales", "dirty burracos"), "R-BURACO-3"),
              Stat("hands_closed", said("manches fermées", "hands closed"), "R-BURACO-5"))
CLASS_KEYS = {"pure": "burracos_pure", "semi_pure": "burracos_semi_pure", "semi": "burracos_semi_pure",
              "dirty": "burracos_dirty"}  # a meld's class (melds.py) or a tally's (KINDS)


@dataclass(frozen=True)
class SideNumbers:
    melds: int
    burracos: tuple  # counts in the order of KINDS
    pot: bool
    hand: int

    def to_dict(self) -> dict:
        return {"melds": self.melds, "burracos": dict(zip(KINDS, self.burracos)), "pot": self.pot,
                "hand": self.hand}


@dataclass(frozen=True)
class Tally:
    """The event: its fields are named as in the body, which the ledger stores field by field."""

    type: ClassVar[str] = "tally"
    closed_by: int | None
    sides: tuple  # SideNumbers per side (per player with 3 or 5)
    teams: tuple | None  # 3 or 5 players: the hand's teams, as given

    def to_dict(self) -> dict:
        doc = {"closed_by": self.closed_by, "sides": [s.to_dict() for s in self.sides]}
        if self.teams is not None:
            doc["teams"] = [list(t) for t in self.teams]
        return doc


# --- reading the event ---------------------------------------------------------------------------------------

def _whole(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError("bad_event", "Field {field} must be a whole number, not {value}.", field=field,
                         value=repr(value))
    return value


def read_side(data, index: int) -> SideNumbers:
    where = f"sides[{index}]"
    if not isinstance(data, dict):
        raise ParseError("bad_event", "Each entry of sides is an object with melds, burracos, pot and hand.",
                         field=where)
    for name in ("melds", "pot", "hand"):
        if data.get(name) is None:
            missing = where + "." + name
            raise ParseError("bad_event", "The {type} entry needs the field {field}.", type="tally", field=missing)
    if not isinstance(data["pot"], bool):
        raise ParseError("bad_event", "Field {field} has the wrong type: {value}.", field=where + ".pot",
                         value=repr(data["pot"]))
    burracos = {} if data.get("burracos") is None else data["burracos"]
    field = where + ".burracos"
    if not isinstance(burracos, dict) or set(burracos) - set(KINDS):
        raise ParseError("bad_event", "Field {field} counts pure, semi and dirty burracos, not {key}.", field=field,
                         key=", ".join(sorted(set(burracos) - set(KINDS))) if isinstance(burracos, dict)
                         else repr(burracos))
    counts = tuple(_whole(burracos.get(kind, 0), field + "." + kind) for kind in KINDS)
    for kind, count in zip(KINDS, counts):
        if count < 0:
            raise ParseError("bad_event", "Field {field} counts burracos: 0 or more, not {count}.",
                             field=field + "." + kind, count=count)
    return SideNumbers(_whole(data["melds"], where + ".melds"), counts, data["pot"], _whole(data["hand"],
                                                                                             where + ".hand"))


def read_teams(table, data) -> tuple | None:
    n = len(table.players)
    if n not in (3, 5):
        if data.get("teams") is not None:
            raise ParseError("bad_event", "Field teams is for 3 or 5 players; with {n} the sides are the teams.",
                             n=n, field="teams")
        return None
    teams = field_of(data, "teams", list)
    read = []
    for team in teams:
        members = team.get("players") if isinstance(team, dict) else team
        if not isinstance(members, list) or not members or \
                any(isinstance(p, bool) or not isinstance(p, int) for p in members):
            raise ParseError("bad_event", "Field teams lists the teams of the hand, each a list of players, as in "
                             "the state.", field="teams")
        read.append(tuple(members))
    return tuple(read)


def parse_tally(game, table, data) -> Tally:
    """The ``tally`` event: ``closed_by``, ``sides`` (one entry per side) and, with 3 or 5 players, ``teams``."""
    closer = read_player(table, data, "closed_by") if data.get("closed_by") is not None else None
    sides = field_of(data, "sides", list)
    if len(sides) != len(table.sides):
        raise ParseError("bad_event", "Field sides lists one entry per side ({count}), not {given}.",
                         count=len(table.sides), given=len(sides), field="sides")
    return Tally(closer, tuple(read_side(s, i) for i, s in enumerate(sides)), read_teams(table, data))


# --- the checks ----------------------------------------------------------------------------------------------

def hand_teams(table, numbers: Tally) -> tuple:
    """The teams of the hand (``hand.teams``), its pots and its lone player, checked against R-BURACO-1b."""
    if numbers.teams is None:  # 2 or 4 players: the sides are the teams, each with its pot of 11 (R-BURACO-1)
        return [list(s) for s in table.sides], {t: "11" for t, s in enumerate(numbers.sides) if s.pot}, None
    n, teams = len(table.players), numbers.teams
    if sorted(p for team in teams for p in team) != list(range(n)):
        raise RuleError("tally_teams", "Field teams must hold each of the {n} players once.", rule="R-BURACO-1b",
                        n=n)
    took = [p for p in range(n) if numbers.sides[p].pot]
    if len(teams) == n:  # everyone alone: nobody went to the pot, or the teams would have formed (R-BURACO-1b)
        if took:
            raise RuleError("tally_pot_without_team", "{name} took a pot, so the others became a team: the first "
                            "to go to the pot plays alone against all the others.", rule="R-BURACO-1b",
                            player=took[0], name=table.players[took[0]])
        return [[p] for p in range(n)], {}, None
    alone = [t for t in teams if len(t) == 1]
    if len(teams) != 2 or len(alone) != 1:
        raise RuleError("tally_teams_shape", "With {n} players everyone plays alone (nobody took a pot) or one "
                        "player plays alone against all the others as one team.", rule="R-BURACO-1b", n=n)
    lone = alone[0][0]
    others = sorted(p for p in range(n) if p != lone)
    if not numbers.sides[lone].pot:  # R-BURACO-1b: the team exists only once its lone player took the 18
        raise RuleError("tally_lone_without_pot", "{name} plays alone against a team only after going to the pot "
                        "first and taking its 18 cards.", rule="R-BURACO-1b", player=lone,
                        name=table.players[lone])
    team_pot = [p for p in others if numbers.sides[p].pot]
    if len(team_pot) > 1:  # R-BURACO-1b: one 11-card pot for the team
        raise RuleError("tally_pot_shared", "{name} and {other} cannot both have taken a pot: their team takes "
                        "one pot of 11 cards.", rule="R-BURACO-1b", player=team_pot[1],
                        name=table.players[team_pot[0]], other=table.players[team_pot[1]])
    return [[lone], others], {0: "18", **({1: "11"} if team_pot else {})}, lone


def check_side(table, side: int, numbers: SideNumbers) -> None:
    """R-BURACO-4: card points laid and left in hand are 0 or more, and multiples of 5."""
    name = table.side_name(side)
    if numbers.melds < 0:
        raise RuleError("tally_melds_negative", "{name} cannot have laid {melds} card points: melds are worth 0 "
                        "or more.", rule="R-BURACO-4", name=name, melds=numbers.melds, side=side)
    if numbers.melds % STEP:
        raise RuleError("tally_melds_multiple", "{name} cannot have laid {melds} card points: every card is worth "
                        "a multiple of 5.", rule="R-BURACO-4", name=name, melds=numbers.melds, side=side)
    if numbers.hand < 0:
        raise RuleError("tally_hand_negative", "{name}'s cards left in hand are entered as the card points they "
                        "are worth, 0 or more, not {hand}.", rule="R-BURACO-4", name=name, hand=numbers.hand,
                        side=side)
    if numbers.hand % STEP:
        raise RuleError("tally_hand_multiple", "{name} cannot hold {hand} card points in hand: every card is worth "
                        "a multiple of 5.", rule="R-BURACO-4", name=name, hand=numbers.hand, side=side)


def check_team(table, members: list, melds: int, burracos: dict, most: int) -> None:
    """What a team's melds can be worth: a meld at least 15, its burracos at least their cards' least values, all
    of it no more than the cards in play (R-BURACO-2, 3, 4)."""
    name = " & ".join(table.players[p] for p in members)
    if 0 < melds < LEAST_MELD:
        raise RuleError("tally_melds_small", "{name} cannot have laid {melds} card points: a meld has at least 3 "
                        "cards, worth 15 or more.", rule="R-BURACO-2", name=name, melds=melds)
    least = sum(LEAST[kind] * burracos[kind] for kind in KINDS)
    if melds < least:
        count = sum(burracos.values())
        raise RuleError("tally_burracos_melds", ngettext(
            "{name}'s {count} burraco holds at least {least} card points (a pure one 35, a semi-pure 55, a dirty "
            "50): more than the {melds} entered for its melds.",
            "{name}'s {count} burracos hold at least {least} card points (a pure one 35, a semi-pure 55, a dirty "
            "50): more than the {melds} entered for its melds.", count),
            rule="R-BURACO-3", name=name, count=count, least=least, melds=melds)
    if melds > most:
        raise RuleError("tally_melds_too_many", "{name} cannot have laid {melds} card points: the cards in play "
                        "are worth {most}.", rule="R-BURACO-4", name=name, melds=melds, most=most)


def burracos_fit(naturals: int, wild: int, aside: int) -> bool:
    """Whether the cards in play (108 less ``aside`` in pots nobody took, whichever they are) can give ``wild``
    wild cards (jokers, then 2s) and ``naturals`` other cards (R-BURACO-1, 2: a joker is always wild)."""
    for jokers_aside in range(min(JOKERS, aside) + 1):
        for twos_aside in range(min(TWOS, aside - jokers_aside) + 1):
            others = len(VALUES) - JOKERS - TWOS - (aside - jokers_aside - twos_aside)
            jokers, twos = JOKERS - jokers_aside, TWOS - twos_aside
            twos_wild = max(0, wild - jokers)
            if others >= 0 and twos_wild <= twos and naturals <= others + twos - twos_wild:
                return True
    return False


def check_deck(burracos: dict, aside: int) -> None:
    """All sides' burracos together need cards the two decks hold, outside the pots nobody took (R-BURACO-1, 3)."""
    cards = sum(CARDS[kind] * burracos[kind] for kind in KINDS)
    wild = sum(WILD[kind] * burracos[kind] for kind in KINDS)
    available = len(VALUES) - aside
    if cards > available:
        raise RuleError("tally_burracos_cards", "The burracos entered need at least {cards} cards, more than the "
                        "{available} in play (108, less the pots nobody took).", rule="R-BURACO-1", cards=cards,
                        available=available)
    if wild > JOKERS + TWOS:
        raise RuleError("tally_burracos_wild", "The burracos entered need {wild} wild cards, one in each semi-pure "
                        "or dirty burraco; two decks hold 12: 4 jokers and 8 twos.", rule="R-BURACO-2", wild=wild)
    if not burracos_fit(cards - wild, wild, aside):
        raise RuleError("tally_burracos_natural", "The burracos entered need {naturals} natural cards and {wild} "
                        "wild cards: the cards in play cannot make both, a joker being always wild.",
                        rule="R-BURACO-2", naturals=cards - wild, wild=wild)


def check_closer(table, numbers: Tally, teams: list, pots: dict, team_burracos: list) -> None:
    """R-BURACO-5: the closer's side took its pot, owns a burraco and has no card left (the closer's own hand,
    known with 2, 3 or 5 players; with 4 the side's hand holds the partner's cards too)."""
    closer = numbers.closed_by
    if closer is None:
        return
    team = next(t for t, members in enumerate(teams) if closer in members)
    missing = []
    if team not in pots:
        missing.append(msg("the pot"))
    if not sum(team_burracos[team].values()):
        missing.append(msg("a burraco"))
    if len(table.players) != 4 and numbers.sides[table.side_of(closer)].hand:
        missing.append(msg("no card left"))
    if missing:
        raise RuleError("cannot_close", "{name} cannot close: missing {missing}.", rule="R-BURACO-5",
                        player=closer, name=table.players[closer], missing=", ".join(missing),
                        missing_items=missing)


def tally_hand(game, table, numbers: Tally) -> None:
    """Closes the open hand with the numbers written on paper, after checking them; scored as a count is."""
    hand = game.open_hand(table)
    if hand.melds or hand.pots:  # R-COMMON-6, R-BURACO-7: one way of entry per hand
        raise RuleError("entry_mixed", "Melds or pots of this hand were already entered: a hand by its numbers "
                        "cannot be mixed with them; undo them first.", rule="R-COMMON-6")
    teams, pots, lone = hand_teams(table, numbers)
    for side, entry in enumerate(numbers.sides):
        check_side(table, side, entry)
    aside = sum(POT for t in range(len(teams)) if t not in pots) if numbers.teams is None else \
        (LONE_POT + POT if lone is None else 0 if 1 in pots else POT)  # R-BURACO-1, 1b: pots nobody took
    most = sum(VALUES) - sum(VALUES[:aside])  # R-BURACO-4: the cheapest cards may be the ones left aside
    sums = []
    for t, members in enumerate(teams):
        entries = [numbers.sides[t]] if numbers.teams is None else [numbers.sides[p] for p in members]
        sums.append((sum(e.melds for e in entries),
                     {kind: sum(e.burracos[i] for e in entries) for i, kind in enumerate(KINDS)},
                     sum(e.hand for e in entries)))
    for members, (melds, burracos, _left) in zip(teams, sums):
        check_team(table, members, melds, burracos, most)
    check_deck({kind: sum(b[kind] for _m, b, _h in sums) for kind in KINDS}, aside)
    total = sum(melds + left for melds, _b, left in sums)
    if total > most:
        raise RuleError("tally_cards_too_many", "The melds and hands add up to {total} card points: the cards in "
                        "play are worth {most}.", rule="R-BURACO-4", total=total, most=most)
    check_closer(table, numbers, teams, pots, [b for _m, b, _h in sums])
    hand.teams, hand.pots, hand.lone, hand.closed_by = teams, pots, lone, numbers.closed_by
    hand.tally = numbers.to_dict()
    game.score(table, hand, [(melds, sum(BONUS_OF[k] * n for k, n in burracos.items()), left)
                             for melds, burracos, left in sums])


# --- a member's statistics -----------------------------------------------------------------------------------

def hand_statistics(state: dict, hand: dict):
    """One complete hand's counts, per team of the hand (its ``teams``: the sides, or with 3 or 5 players the
    teams it ended with, R-BURACO-1b), for each player of the team: its burracos by class (R-BURACO-3), from its
    melds as laid, or from the numbers entered (a team's sum of its players' entries with 3 or 5: a team's melds are
    pooled, only its sums are checked); and a hand closed (R-BURACO-5), for the team of the player who closed it (a
    hand whose stock ran out has no closer)."""
    teams = [team["players"] for team in hand["teams"]]
    tally = hand.get("tally")
    for t, members in enumerate(teams):
        if tally is None:
            for meld in hand["melds"].get(str(t), ()):
                if meld["burraco"]:
                    yield members, CLASS_KEYS[meld["burraco"]], 1
            continue
        entries = [tally["sides"][p] for p in members] if "teams" in tally else [tally["sides"][t]]
        for entry in entries:
            for kind, count in entry["burracos"].items():
                if count:
                    yield members, CLASS_KEYS[kind], count
    closer = hand.get("closed_by")
    if closer is not None:
        yield next(members for members in teams if closer in members), "hands_closed", 1


def _first_typed(sheet, kind: str) -> int | None:
    rows = sheet.rows(kind)
    return int(rows[0][1][0]) if rows and rows[0][1][0].isdigit() else None


def sheet_tally(game, sheet, whole, table) -> dict:
    """The numbers sheet's tally (contract: ``closed_by``, ``sides``, with 3 or 5 players ``teams``). The sheet's
    rows (compact strings in its ``items``): ``k:P`` who closed (none: the stock ran out), ``u:S:pure`` one burraco
    of a class laid by side S (counted; a stepper adds and removes them), ``n:S`` side S did not take its pot (2 or
    4 players: a pot is taken unless tapped), ``p:P`` the player who took the 18-card pot and ``e:P`` the one who
    took his team's 11 (3 or 5 players, R-BURACO-1b). Its numbers: ``v{2*side}`` the card points laid,
    ``v{2*side+1}`` those left in hand. A blank melds field is 0, and so is the closing side's hand (the closer has no card left; with 4 players type the partner's); another side's hand
    must be typed. With 3 or 5 players the teams follow the pots (R-BURACO-1b): whoever took the 18 plays alone
    against all the others, whose 11 one of them may have taken; nobody at the 18: everyone alone."""
    n = len(table.players)
    values = list(sheet.values) + [""] * (2 * len(table.sides) - len(sheet.values))
    closer = _first_typed(sheet, "k")
    closing = table.side_of(closer) if closer is not None and closer < n else None
    per_player = n in (3, 5)
    lone = _first_typed(sheet, "p") if per_player else None
    eleven = _first_typed(sheet, "e") if lone is not None else None
    sides = []
    for side in range(len(table.sides)):
        melds, hand = values[2 * side], values[2 * side + 1]
        if hand == "" and side != closing:
            raise ParseError("sheet_hand", "Type the card points left in the hand of {name}.",
                             name=table.side_name(side))
        sides.append({"melds": int(melds or 0), "burracos": {k: sheet.items.count(f"u:{side}:{k}") for k in KINDS},
                      "pot": side in (lone, eleven) if per_player else not sheet.has(f"n:{side}"),
                      "hand": int(hand or 0)})
    body = {"closed_by": closer, "sides": sides}
    if per_player:
        body["teams"] = [[lone], [p for p in range(n) if p != lone]] if lone is not None else [[p] for p in range(n)]
    return body

