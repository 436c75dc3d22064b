"""A tournament on paper and in files: the table cards (six a sheet of A4 with cut lines: a table's number, who
sits where this round, a QR code of the card's stable link), the link itself (always that number's table of the newest round), the
final ranking with every round's results on A4, the standings as CSV, .xlsx and JSON, and each round's results as
CSV and .xlsx (any key of the tournament: a viewer's too)."""
from __future__ import annotations

from flask import jsonify, redirect, render_template, url_for

from referee.errors import NotFound
from referee.web.services import phone_link
from referee.web.services import tournaments as store
from referee.web.shared.csv_files import csv_download
from referee.web.shared.qr import qr_svg
from referee.web.shared.requests import key_of
from referee.web.shared.visible import hidden_from, visible_penalties, visible_rounds, visible_standings
from referee.web.shared.workbooks import xlsx_download
from referee.web.tournaments import bp
from referee.web.tournaments.common import current_round, entrant_names

# penalties: R-TOURN-2, apart (vp includes them); status: R-COMMON-7, R-TOURN-1 (signed, arbitral, not_played…)
CARDS_PER_SHEET = 6  # two across, three down: 150 tables on 25 sheets of A4 (tournament.css, .card-sheet)
STANDINGS = ["rank", "entrant", "names", "vp", "mp", "mp_difference", "played", "penalties"]
# series_*: a finished series' result in its own unit, as the engine says it (R-COMMON-7b: Brisca's deals won)
RESULTS = ["table", "north_south", "east_west", "mp_north_south", "mp_east_west", "vp_north_south", "vp_east_west",
           "status", "series_unit", "series_north_south", "series_east_west"]


def seats(state: dict, table: dict) -> list:
    """Who sits where at a round's table: (seat, name) in order round the table. A pair's first name sits North
    (East), its second South (West); single players sit North–South and East–West."""
    names = {e["index"]: e["names"] for e in state["entrants"]}
    ns, ew = (names.get(i, []) if i is not None else [] for i in table["entrants"])
    if len(ns) == 2 or len(ew) == 2:
        return [("north", (ns + [""])[0]), ("east", (ew + [""])[0]), ("south", (ns + ["", ""])[1]),
                ("west", (ew + ["", ""])[1])]
    return [("ns", " & ".join(ns)), ("ew", " & ".join(ew))]


@bp.get("/tournaments/<tournament_id>/cards")
def cards(tournament_id):
    key = key_of()
    store().authorize(tournament_id, key, write=True)  # the cards carry the tables' scorer keys: the director's
    state = store().state(tournament_id)
    round_ = current_round(state)
    links = {card["number"]: phone_link("tournaments.card", tournament_id=tournament_id, number=card["number"],
                                        key=card["key"]) for card in store().cards(tournament_id)}
    printed = []
    for table in round_["tables"] if round_ else []:
        link = links.get(table["number"])
        printed.append({**table, "seats": seats(state, table), "link": link, "qr": qr_svg(link) if link else None})
    sheets = [printed[i:i + CARDS_PER_SHEET] for i in range(0, len(printed), CARDS_PER_SHEET)]
    return render_template("tournament_cards.html", state=state, key=key, round=round_, sheets=sheets)


@bp.get("/tournaments/<tournament_id>/tables/<int:number>")
def card(tournament_id, number):
    """A table card's QR code: the scorer page of that number's table in the newest round (303)."""
    key = key_of()
    table_id = store().card_table(tournament_id, number, key)
    return redirect(url_for("tables.table", table_id=table_id, key=key), code=303)


@bp.get("/tournaments/<tournament_id>/print")
def print_page(tournament_id):
    key = key_of()
    role = store().authorize(tournament_id, key)
    state = store().state(tournament_id)
    return render_template("tournament_print.html", state=state, key=key, rows=visible_standings(state, role),
                           penalties=visible_penalties(state, role),
                           hidden=hidden_from(state, role), names=entrant_names(state),
                           rounds=[r for r in visible_rounds(state, role) if r["tables"]])


def public(state: dict, role: str = "viewer") -> dict:
    """The tournament without any key: what a viewer's export may hold (no standings, nor the results of the round
    under way, while they are hidden)."""
    return {
        "format": "referee-tournament/1", "id": state["id"], "game": state["game"], "name": state["name"],
        "entrants": [{"index": e["index"], "names": e["names"], "withdrawn": bool(e.get("withdrawn"))}
                     for e in state["entrants"]],
        "standings": [{key: row.get(key) for key in ("rank", "entrant", "vp", "mp", "mp_difference", "played")}
                      | {"names": row["names"]} for row in visible_standings(state, role)],
        "rounds": [{"number": r["number"], "movement": r["movement"], "status": r["status"],
                    "tables": [{"number": t["number"], "table_id": t["table_id"], "entrants": t["entrants"],
                                "finished": t["finished"], "result": t["result"]} for t in r["tables"]]}
                   for r in visible_rounds(state, role)],
    }


@bp.get("/tournaments/<tournament_id>/standings.json")
def standings_json(tournament_id):
    role = store().authorize(tournament_id, key_of())
    response = jsonify(public(store().state(tournament_id), role))
    response.headers["Content-Disposition"] = f'attachment; filename="tournament-{tournament_id}.json"'
    return response


@bp.get("/tournaments/<tournament_id>/standings.csv")
def standings_csv(tournament_id):
    """One row an entrant, in rank order: rank, entrant, names, VP, MP, MP difference, rounds played."""
    return csv_download(STANDINGS, as_texts(standings_rows(tournament_id)), f"tournament-{tournament_id}.csv")


@bp.get("/tournaments/<tournament_id>/standings.xlsx")
def standings_xlsx(tournament_id):
    """The standings' CSV rows in a workbook, the numbers as numbers."""
    return xlsx_download("standings", STANDINGS, as_numbers(standings_rows(tournament_id)),
                         f"tournament-{tournament_id}.xlsx")


@bp.get("/tournaments/<tournament_id>/rounds/<int:number>/results.csv")
def results_csv(tournament_id, number):
    """One row a table of the round: its number, its two entrants, their MP and VP (empty while it plays)."""
    return csv_download(RESULTS, as_texts(results_rows(tournament_id, number)),
                        f"tournament-{tournament_id}-round-{number}.csv")


@bp.get("/tournaments/<tournament_id>/rounds/<int:number>/results.xlsx")
def results_xlsx(tournament_id, number):
    return xlsx_download(f"round {number}", RESULTS, as_numbers(results_rows(tournament_id, number)),
                         f"tournament-{tournament_id}-round-{number}.xlsx")


def standings_rows(tournament_id: str) -> list:
    role = store().authorize(tournament_id, key_of())
    return [[row["rank"], row["entrant"], row["names"], row["vp"], row["mp"], row.get("mp_difference"),
             row["played"], row.get("penalties", 0)] for row in visible_standings(store().state(tournament_id), role)]


def results_rows(tournament_id: str, number: int) -> list:
    role = store().authorize(tournament_id, key_of())
    state = store().state(tournament_id)
    round_ = next((r for r in visible_rounds(state, role) if r["number"] == number), None)
    if round_ is None:
        raise NotFound("round_not_found", "This tournament has no round {round}.", round=number)
    names = entrant_names(state)
    rows = []
    for table in round_["tables"]:
        ns, ew = (names.get(e, "") if e is not None else "" for e in table["entrants"])  # a bye: no one
        result = table["result"] or {}
        mp, vp = result.get("mp") or [None, None], result.get("vp") or [None, None]
        series = result.get("series") or {"unit": "", "values": [None, None]}
        rows.append([table["number"], ns, ew, mp[0], mp[1], vp[0], vp[1], table.get("status", ""), series["unit"],
                     *series["values"][:2]])
    return rows


def as_texts(rows: list) -> list:
    """The CSV's cells: 12, 10.5 (a bye's average), never 12.0."""
    return [[number_text(v) if isinstance(v, float) else v for v in row] for row in rows]


def as_numbers(rows: list) -> list:
    """A workbook's cells: 12.0 as 12 (the same number, written as the CSV writes it)."""
    return [[int(v) if isinstance(v, float) and v.is_integer() else v for v in row] for row in rows]


def number_text(value) -> str:
    """12, 10.5 (a bye's average), never 12.0."""
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


@bp.app_template_filter("vp")
def vp_filter(value) -> str:
    """VP as the pages write them: a penalty's "−3" with a true minus sign, as every signed number of the app (the
    exports keep the hyphen a spreadsheet reads, ``number_text``)."""
    return number_text(value).replace("-", "\u2212")
