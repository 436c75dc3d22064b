"""How a board writes the names over its columns so that they fit a phone: whole words (a name wraps only at its
spaces, static/words.css), a type size the browser works out from the column's width, and, where the smallest size
cannot hold the longest word in a column, a short form ("JPR", "Gin.") with the whole name under the board. Display
only: nothing here is about a game.

The widths are those of the widest font phones and Debian's Chromium fall back on (DejaVu Sans Bold, in hundredths of
an em); a letter with an accent counts as its letter, and any other character as a wide one. The geometry (a board's
first column, a name cell's padding, the smallest type) is the one static/words.css draws: keep the two in step."""
from __future__ import annotations

import math
import unicodedata

from markupsafe import Markup

ADVANCE = dict(zip("abcdefghijklmnopqrstuvwxyz", (67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72,
                                                  49, 60, 48, 71, 65, 92, 65, 65, 58)))
ADVANCE.update(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85,
                                                  77, 72, 68, 81, 77, 110, 77, 72, 73)))
ADVANCE.update({**dict.fromkeys("0123456789", 70), "-": 42, "'": 31, "’": 31, ".": 38, "&": 87, "(": 46, ")": 46})
WIDE = 100  # a character not in the table: as wide as an M

SMALLEST = 12  # px: the smallest type a name is written in (0.75rem)
PHONE = 336  # px: a 360 px phone's board (the page's padding taken off)
STEPS = (352, 400, 480, 560, 640, 760, 860)  # px: the board widths from which static/words.css may write names whole
WIDEST_WORD = 12  # em: a longer word is written short, whatever the width (the type classes stop there)

# Per board (its CSS class): the type size of its first column's words ("Deal", "Total", "Deals won": the column is
# as wide as its longest word needs, in steps of half a rem), a name cell's padding left and right, in px at 16 px a
# rem; the slate's first column is its line; "jetons" is the share of the width its name column takes.
FIRST_TYPE = {"totals": 17, "totals-many": 14.45}
PADDING = {"totals": 9.6, "totals-many": 9.6, "slate": 12.8}
SLATE_LINE = 35.2
JETONS_SHARE = 0.5


def word_em(word: str) -> float:
    """How wide a word is written in bold, in em."""
    total = 0
    for char in word:
        base = unicodedata.normalize("NFKD", char)[:1]
        total += ADVANCE.get(base, WIDE if not unicodedata.combining(char) else 0)
    return total / 100


def longest_em(names) -> float:
    return max((word_em(word) for name in names for word in name.split()), default=0.0)


def short_forms(players: list) -> list:
    """One short form per player, all different: the initials of a name of several parts ("Jean-Pierre Rossier":
    "JPR"), the first letters of a name of one ("Ginette": "Gin.", more letters while two are alike), a short name
    kept as it is; two alike still take their seat's number ("JPR3")."""
    def form(name, more=0):
        parts = name.replace("-", " ").split()
        if len(parts) > 1:
            return "".join(part[0].upper() for part in parts)
        return parts[0] if len(parts[0]) <= 4 + more else parts[0][:3 + more] + "."
    shorts = [form(name) for name in players]
    for more in range(1, 4):
        twice = {s for s in shorts if shorts.count(s) > 1}
        if not twice:
            break
        shorts = [form(name, more) if short in twice else short for name, short in zip(players, shorts)]
    return [s if shorts.count(s) == 1 else f"{s}{i + 1}" for i, s in enumerate(shorts)]


def step_class(needed: float) -> str:
    """The class saying from which board width the whole names fit ("" always, "short-always" never)."""
    if needed <= PHONE:
        return ""
    return next((f"short-below-{step}" for step in STEPS if needed <= step), "short-always")


def type_class(prefix: str, em: float) -> str:
    return f"{prefix}-{min(max(math.ceil(em * 2), 2), WIDEST_WORD * 2)}"


def first_column(board: str, words) -> tuple:
    """The first column's width in px and its class (``first-N``: N half rems), from the words it holds."""
    if board not in FIRST_TYPE:
        return SLATE_LINE, ""
    steps = min(max(math.ceil((longest_em(words) * FIRST_TYPE[board] + PADDING[board]) / 8), 6), 16)
    return steps * 8, f"first-{steps}"


def board_names(sides: list | None, players: list, board: str = "totals", firsts=(),
                columns: int | None = None) -> dict:
    """How a board's header writes its sides (``None``: each player, as the jetons' rows): ``names`` (each side's
    whole name), ``short`` (each side's short form, its players' joined by " & "), ``legend`` (each player's short
    form and name, shown with the short forms) and ``classes`` for the board (the type size of the longest word,
    whole and short, the first column's width from ``firsts``, its words, and the board's width from which the whole
    names fit)."""
    if sides is None:
        sides = [{"name": name, "players": [i]} for i, name in enumerate(players)]
    shorts = dict(zip(players, short_forms(players)))
    names = [side["name"] for side in sides]
    short = [" & ".join(shorts[players[p]] for p in side["players"]) for side in sides]
    whole, brief = longest_em(names), longest_em(short)
    columns = columns or len(sides)
    first, first_class = first_column(board, firsts)
    if board == "jetons":
        needed = (whole * SMALLEST + PADDING["totals"]) / JETONS_SHARE
    else:
        needed = first + columns * (whole * SMALLEST + PADDING[board])
    fit = "short-always" if whole > WIDEST_WORD else step_class(needed)
    classes = " ".join(c for c in ("names", type_class("w", whole), type_class("ws", brief), first_class, fit) if c)
    return {"names": names, "short": short if fit else None, "classes": classes,
            "legend": [(shorts[p], p) for p in players] if fit else []}


def whole_words(name: str) -> Markup:
    """A name that wraps only at its spaces: each word a span that does not break (static/words.css ``.word``)."""
    return Markup(" ").join(Markup('<span class="word">%s</span>') % word for word in str(name).split())
