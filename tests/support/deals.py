"""Recorded deals and hands, worked by hand, that several test modules play: Brisca's 4-player deal, Brouc's deals and
captured piles, Brûlot's and Brusquembille's piles, Buraco's hands (and the builders of their bodies), Brisca
tallies and a tournament's Buraco hands."""


# A real 4-player deal, trump espadas (turned 11E), Ana deals, Bo leads. Worked by hand, trick by trick:
DEAL_4P = [
    # cards from the leader                  winner  why                                    points
    (["1C", "11O", "2C", "6O"], 1, 14),    # Bo: 1C highest copas, no trump              11+3
    (["5C", "11B", "11C", "6B"], 3, 6),    # Di: 11C beats 5C                            3+3
    (["1O", "3C", "5E", "10C"], 1, 23),    # Bo: 5E the only trump                       11+10+2
    (["12C", "10O", "12B", "10B"], 1, 12),  # Bo: 12C the only copas                      4+2+4+2
    (["6C", "2E", "2O", "4B"], 2, 0),      # Cy: 2E trump
    (["3O", "7E", "10E", "4E"], 0, 12),    # Ana: 10E highest of three trumps            10+2
    (["7B", "4C", "7C", "2B"], 0, 0),      # Ana: 7B beats 2B
    (["3E", "12O", "1B", "12E"], 0, 29),   # Ana: 3E outranks 12E                        10+4+11+4
    (["6E", "5B", "1E", "11E"], 2, 14),    # Cy: 1E, the ace of trump                    11+3
    (["5O", "4O", "7O", "3B"], 0, 10),     # Ana: 7O highest oros                        10
]


# Deal A: Ana deals, trump hearts (she turned AH), Bo leads. Every trick is one suit, everyone follows.
DEAL_A = [
    # cards from the leader      winner  points   table marriage
    ["KH", "QH", "JH", "AH"],  # Ana      20       K Q J of trump: 60 -> Ana & Cy +6, Bo & Di -6
    ["7H", "8H", "9H", "10H"],  # led by Ana, Di wins 10H: 10
    ["AS", "7S", "8S", "9S"],  # Di leads, Di wins: 11
    ["KS", "QS", "JS", "10S"],  # Di leads; 10S (Cy) beats K: 19; K Q J of spades: 30 -> +3 / -3 to Cy's side
    ["AD", "KD", "QD", "JD"],  # Cy leads and wins: 20; K Q J of diamonds: 30 -> +3 / -3
    ["10D", "9D", "8D", "7D"],  # Cy: 10
    ["7C", "AC", "KC", "QC"],  # Cy leads, Di wins: 18; K Q of clubs: 20 -> Bo & Di +2, Ana & Cy -2
    ["10C", "JC", "9C", "8C"],  # Di leads and wins: 12
]


# Deal B: Ana deals (turned KH: trump hearts), Bo leads; Ana wins trick 1 and announces K Q of trump (40).
DEAL_B = [
    ["7S", "8S", "9S", "AS"],  # Ana: 11
    ["KH", "7H", "8H", "9H"],  # Ana: 4
    ["QH", "JH", "10H", "AH"],  # Di's AH: 26
    ["KS", "QS", "JS", "10S"],  # Di leads, Cy's 10S: 19; K Q J spades 30 -> +3 / -3
    ["AD", "KD", "QD", "JD"],  # Cy: 20; K Q J diamonds 30 -> +3 / -3
    ["10D", "9D", "8D", "7D"],  # Cy: 10
    ["7C", "AC", "KC", "QC"],  # Di: 18; K Q clubs 20 -> Bo & Di +2 / Ana & Cy -2
    ["10C", "JC", "9C", "8C"],  # Di: 12
]


# Deal D: Ana deals (turned 10H), Bo leads; Ana & Cy take all eight tricks (la cape).
DEAL_D = [
    ["KH", "QH", "JH", "AH"],  # Ana; K Q J of trump (60), cancelled by the cape
    ["10H", "7H", "8H", "9H"],  # Ana leads and wins
    ["AS", "7S", "8S", "9S"],
    ["10S", "KS", "QS", "JS"],  # K Q J of spades, cancelled
    ["AD", "KD", "QD", "JD"],  # K Q J of diamonds, cancelled
    ["10D", "9D", "8D", "7D"],
    ["AC", "KC", "QC", "JC"],  # K Q J of clubs, cancelled
    ["10C", "9C", "8C", "7C"],
]


# Captured piles of Ana & Cy (whole tricks of 4): their points, and the other side's.
PILE_44 = ["AS", "AH", "AD", "AC", "9S", "8S", "7S", "9H"]  # 44 -> 4; 76 -> 8


PILE_46 = ["AS", "AH", "AD", "AC", "JS", "9S", "8S", "7S"]  # 46 -> 5; 74 -> 7


PILE_55 = ["AS", "AH", "AD", "AC", "KS", "QS", "JS", "JH"]  # 55 -> 6; 65 -> 7: 13 tens


PILE_64 = ["AS", "AH", "AD", "AC", "10S", "10H", "9S", "8S"]  # 64 -> 6; 56 -> 6


PILE_76 = ["AS", "AH", "AD", "AC", "10S", "10H", "10D", "JS"]  # 76 -> 8; 44 -> 4


def trick(cards):
    return {"type": "trick", "cards": cards}


def tricks(cards_list):
    return [trick(c) for c in cards_list]


# Deal E: Ana deals and turns AH (trump hearts); Bo leads. Ana wins trick 1, announces K Q J of trump (60) and
# K Q of diamonds (20), and Ana & Cy take every trick: an undeclared cape whose announces are worth 8 tens.
DEAL_E = [
    ["7S", "10S", "9S", "AS"],  # Bo leads, Ana's AS wins: 21
    ["AH", "7H", "10H", "8H"],  # Ana: 21
    ["KH", "9C", "10C", "9H"],  # Ana (Bo and Cy have no heart left): 14
    ["JH", "8S", "QC", "7C"],  # Ana: 5
    ["QH", "QS", "KC", "JC"],  # Ana: 12
    ["JD", "8D", "AD", "7D"],  # Cy: 13
    ["AC", "JS", "KD", "8C"],  # Cy leads, wins: 17
    ["10D", "KS", "QD", "9D"],  # Cy: 17
]


ANNOUNCES_E = [{"type": "announce", "player": 0, "cards": ["KH", "QH", "JH"]},
               {"type": "announce", "player": 0, "cards": ["KD", "QD"]}]


# Captured piles with 3 players (Ana deals, widow = the turned 2D): penalties worked by hand.
ANA = ["AS", "KS", "QS", "2S", "3S", "4S"]  # 4 + 3 + 2 = 9


BO = ["AH", "AD", "AC", "JS", "5S", "6S", "7S", "8S", "9S"]  # 4 + 4 + 4 + 1 = 13; Cy takes the rest: 40 - 22 = 18


PILE_100 = ["AS", "AH", "AD", "AC", "10S", "10H", "10D", "10C", "KS", "KH", "KD", "KC"]


CLEAN_RUN = ["KC", "QC", "JC", "10C", "9C", "8C", "7C"]  # 6 x 10 + 5 = 65, a pure burraco: 200


BURACO_DEAL = {"type": "deal", "trump": None}


def side(melds, pot, hand, **burracos):
    return {"melds": melds, "burracos": burracos, "pot": pot, "hand": hand}


def tally(closed_by, *sides, teams=None):
    body = {"type": "tally", "closed_by": closed_by, "sides": list(sides)}
    if teams is not None:
        body["teams"] = teams
    return body


def count(closed_by, hands, melds=None):
    body = {"type": "count", "closed_by": closed_by, "hands": hands}
    if melds is not None:
        body["melds"] = melds
    return body


def meld(side_index, cards):
    return {"type": "meld", "side": side_index, "cards": cards}


def pot(side_index):
    return {"type": "pot", "side": side_index}


# 4 players. Ana & Cy: melds 65 + 60 = 125, a pure burraco, Ana's 4S left (5), Cy closes: 420.
# Bo & Di: melds 20 + 50 = 70, left KD JK 2H 9S (10 + 30 + 20 + 10 = 70), no pot: -100.
HAND_4P_A = ([meld(0, CLEAN_RUN), meld(0, ["QH", "QS", "JK"]), pot(0), meld(1, ["3D", "4D", "5D", "6D"]),
              meld(1, ["AS", "AH", "2C"]), {"type": "extend", "side": 0, "meld": 1, "cards": ["QD"], "at": "end"},
              count(2, [["4S"], ["KD", "JK"], [], ["2H", "9S"]])],
             tally(2, side(125, True, 5, pure=1), side(70, False, 70)), [420, -100])


# 4 players. Ana & Cy: three 5s (15), AS and JK left (45): -30. Bo & Di: a pure run of 8 hearts (70) and a semi-pure
# run JK 4C…10C (30 + 20 + 30 = 80), 3H KS left (15), Bo closes: 150 + 350 - 15 + 100 = 585.
HAND_4P_B = ([pot(1), pot(0), meld(1, ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H"]),
              meld(0, ["5S", "5C", "5D"]), meld(1, ["JK", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]),
              count(1, [["AS"], [], ["JK"], ["3H", "KS"]])],
             tally(1, side(15, True, 45), side(150, True, 15, pure=1, semi=1)), [-30, 585])


MONTSE_WINS = [[61, 59], [20, 100], [61, 59], [20, 100], [61, 59]]  # 3 deals to 2; 223 card points to 377


def deals(points, trump="1O"):
    return [body for p in points for body in ({"type": "deal", "trump": trump}, {"type": "tally", "points": p})]


BURACO_HAND = [{"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": CLEAN_RUN},
        {"type": "meld", "side": 0, "cards": ["QH", "QS", "JK"]}, {"type": "pot", "side": 0},
        {"type": "meld", "side": 1, "cards": ["3D", "4D", "5D", "6D"]},
        {"type": "extend", "side": 0, "meld": 1, "cards": ["QD"], "at": "end"},
        {"type": "meld", "side": 1, "cards": ["5H", "JK", "7H"]}, {"type": "replace", "side": 1, "meld": 1, "card": "6H"},
        {"type": "count", "closed_by": 2, "hands": [["4S"], ["KD", "JK"], [], ["2H", "9S"]]}]


PAIRS = ["Ana & Bo", "Cy & Di", "Ed & Flo", "Gus & Hal", "Ida & Jo", "Kim & Lu", "Mo & Ned", "Oz & Pia"]


HAND_TO_NS = [{"type": "deal"}, {"type": "tally", "closed_by": 0, "sides": [
    {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0}, {"melds": 150, "pot": True, "hand": 40}]}]


HAND_TO_EW = [{"type": "deal"}, {"type": "tally", "closed_by": 1, "sides": [
    {"melds": 150, "pot": True, "hand": 40}, {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0}]}]
