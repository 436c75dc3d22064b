"""A series' standing in words (the engine's ``series.standing``, referee/games/standing.py): the headline the status
bar, the viewer, the big screen and the printed sheets lead with. "Montse mène 2 – 1", "Montse leads 2–1",
"Montse gagne la série 3 – 2"; with more than two sides the leader's number and the others beside it. A score is
written as the page's language writes one (its catalogue: "2 – 1" with thin no-break spaces in French, "2:1" in
German); a name never breaks inside (static/words.css ``.side-name``)."""
from __future__ import annotations

from flask_babel import gettext
from markupsafe import Markup, escape

from referee.errors import msg
from referee.games.standing import UNIT_WORDS, result_of
from referee.web.i18n import lang

MINUS = "\u2212"
NO_BREAK_HYPHEN = "\u2011"  # "Jean-Pierre" never breaks at its hyphen: a headline wraps at spaces only


def number(value) -> str:
    """A number as a headline writes it: a true minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def score(values: list, sides: list | None = None) -> Markup:
    """Numbers in a row, one per side in the order given: "2 – 1" (the language's way) for two, "365 to −110" when
    the second is negative, "3 · 5 · 8" for more; never broken across lines. ``sides``: each number's side, marked
    ``data-side`` (the offline view fills them while the phone works a trick out alone, static/offline-view.js)."""
    if sides is None:
        parts = [escape(number(v)) for v in values]
    else:
        parts = [Markup('<strong data-side="%d">%s</strong>') % (side, number(v)) for v, side in zip(values, sides)]
    if len(parts) == 2:  # "365 to −110": a dash before a minus sign would read as one
        template = gettext("%(first)s to %(second)s") if values[1] < 0 else gettext("%(first)s–%(second)s")
        joined = Markup(escape(template)) % {"first": parts[0], "second": parts[1]}
    else:
        joined = Markup(" · ").join(parts)
    return Markup('<span class="score">%s</span>') % joined


def _name(state: dict, side: int) -> Markup:
    return Markup('<span class="side-name">%s</span>') % state["sides"][side]["name"].replace("-", NO_BREAK_HYPHEN)


def _names(state: dict, sides: list) -> Markup:
    return Markup(", ").join(_name(state, s) for s in sides)


def _say(template: str, **values) -> Markup:
    """A catalogue's sentence (each marked ``msg`` for the extraction) with its values marked up: the sentence is
    ours, the values are escaped."""
    return Markup(escape(gettext(template))) % values


def _plural(state: dict, side: int) -> bool:
    return len(state["sides"][side]["players"]) > 1


def sentence(state: dict, standing: dict) -> Markup:
    """Who leads (or that it is level), or who won (or shares the win), with the numbers."""
    order, values = standing["order"], standing["values"]
    ranked = [values[s] for s in order]
    winners, leader = standing["winners"], standing["leader"]
    top = order[0]
    if len(order) == 2:
        both = score(ranked)
        if standing["finished"] and len(winners) == 1:
            return _say(msg("%(name)s win the series %(score)s") if _plural(state, top) else
                        msg("%(name)s wins the series %(score)s"), name=_name(state, top), score=both)
        if standing["finished"]:
            return _say(msg("Shared win %(score)s") if winners else msg("The series ends level %(score)s"), score=both)
        if leader is None:
            return _say(msg("Level %(score)s"), score=both)
        return _say(msg("%(name)s lead %(score)s") if _plural(state, top) else msg("%(name)s leads %(score)s"),
                    name=_name(state, top), score=both)
    value = score([ranked[0]])
    level = [s for s in order if values[s] == ranked[0]]
    if standing["finished"] and len(winners) == 1:
        return _say(msg("%(name)s win the series with %(value)s") if _plural(state, top) else
                    msg("%(name)s wins the series with %(value)s"), name=_name(state, top), value=value)
    if standing["finished"] and winners:
        return _say(msg("Shared win with %(value)s: %(names)s"), value=value, names=_names(state, winners))
    if leader is None:
        return _say(msg("The series ends level with %(value)s: %(names)s") if standing["finished"] else
                    msg("Level at the top with %(value)s: %(names)s"), value=value, names=_names(state, level))
    return _say(msg("%(name)s lead with %(value)s") if _plural(state, top) else msg("%(name)s leads with %(value)s"),
                name=_name(state, top), value=value)


def headline(state: dict) -> dict:
    """What a headline shows, in the page's language: ``sentence``; ``others``, the sides the sentence leaves
    unnamed (more than two sides) with their numbers; ``label``, the unit in words; ``decided_by``; ``beside``,
    the other numbers the headline says (Brouc's coches, Brusquembille's jetons) and ``details``, those it leaves
    to the big screen (Brisca's card points), each ``{label, score, numbers}`` (``score`` in the headline's order,
    ``numbers`` per side); ``numbers``, each side's own; ``order``. (No key is called ``values``: a template would
    read the dict's method.)"""
    standing = state["series"]["standing"]
    order, here = standing["order"], lang()
    said = sentence(state, standing)
    named = set(standing["winners"]) if len(standing["winners"]) > 1 else \
        {s for s in order if standing["values"][s] == standing["values"][order[0]]} \
        if standing["leader"] is None else {order[0]}
    others = [] if len(order) == 2 else [{"name": _name(state, s), "value": number(standing["values"][s])}
                                         for s in order if s not in named]
    measures = [{"label": b["label"][here], "score": score([b["values"][s] for s in order]), "numbers": b["values"],
                 "headline": b.get("headline", True)} for b in standing["beside"]]
    return {"sentence": said, "others": others, "label": standing["label"][here], "order": order,
            "decided_by": standing["decided_by"][here] if standing["decided_by"] else None,
            "beside": [m for m in measures if m["headline"]], "details": [m for m in measures if not m["headline"]],
            "numbers": standing["values"], "unit": standing["unit"]}


def deal_score(points: list, state: dict) -> Markup:
    """A deal's own points in the headline's order, each marked with its side."""
    order = state["series"]["standing"]["order"]
    return score([points[s] for s in order], order)


def series_result(state: dict) -> dict:
    """A finished series' result as a side signs it and every screen states it (R-COMMON-7b, the engine's
    ``result_of`` its standing), in the page's language: ``label`` (the unit in words: "deals won", never card
    points for Brisca), ``numbers`` (one per side, as headlines write them), ``beside`` (the other numbers the
    headline says: coches, jetons, each ``{label, numbers}``) and ``winners``."""
    found, here = result_of(state["series"]["standing"]), lang()
    return {"label": found["label"][here], "numbers": [number(v) for v in found["values"]],
            "beside": [{"label": b["label"][here], "numbers": [number(v) for v in b["values"]]}
                       for b in found["beside"]],
            "winners": found["winners"], "unit": found["unit"]}


def result_before(state: dict) -> dict | None:
    """What the sides had signed before the director's correction (R-COMMON-7b: ``signed.corrected``), in the
    page's language: ``numbers`` per side in the series' unit, ``named`` ("Ana & Cy 1130, Bo & Di 475"),
    ``label``, ``sides`` (those that had signed), ``reason``, ``at``; None when no correction changed a signed
    result."""
    corrected = (state.get("signed") or {}).get("corrected")
    if not corrected:
        return None
    label = state["series"]["standing"]["label"][lang()]
    numbers = [number(v) for v in corrected["result_before"]]
    named = ", ".join(f"{side['name']} {n}" for side, n in zip(state["sides"], numbers))
    return {"numbers": numbers, "named": named, "label": label,
            "sides": corrected["sides_before"], "reason": corrected.get("reason"), "at": corrected.get("at")}


def series_said(series: dict | None) -> Markup:
    """A round's table's series result (the tournament's ``result.series``) in the page's language: "3–1 deals
    won" (R-COMMON-7b: the series' unit, never card points); nothing without one."""
    if not series:
        return Markup("")
    words = UNIT_WORDS.get(series["unit"])
    return Markup("%s %s") % (score(series["values"]), words[lang()] if words else "")
