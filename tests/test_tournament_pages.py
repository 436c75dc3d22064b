"""A tournament's pages through Flask's test client: the form (typed, pasted and CSV entrants, the rounds' plan, the
VP table), the director's page (every table's progress, seating and closing rounds, entrants withdrawn or added),
the table card's link, the live standings (204 while nothing changed), the printed ranking, the CSV and JSON exports
with exact values, and every refusal as a sentence.

The evening: 8 pairs of Burraco, 2 Mitchell rounds of 3 hands (burraco_3 VP table). Each hand entered is the big
screen's tally: 600 to one side, 110 to the other (tests/test_big_screen.py)."""
import csv
import io
import json
import re
from html import unescape

import pytest

from referee.web.tournaments.form import (csv_rows, default_plan, entrants_from_rows, entrants_from_text, read_plan,
                                          read_vp_rows)
from tests.support.deals import HAND_TO_EW, HAND_TO_NS, PAIRS


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # the CSRF token is checked by the browser test's real forms
    return app


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def text(response) -> str:
    """The page's words, without tags."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def refusal(response) -> str:
    found = re.search(r'class="refusal"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    return unescape(found.group(1)).strip() if found else ""


def create(client, entrants="\n".join(PAIRS), rounds=(("mitchell", "3"), ("mitchell", "3")), vp="burraco_3",
           **more):
    form = {"op": "create", "game": "buraco", "name": "Club evening", "entrants": entrants, "vp": vp,
            "movement": [m for m, _ in rounds], "length": [n for _, n in rounds], **more}
    return client.post("/tournaments/new", data=form, content_type="multipart/form-data")


def director_url(response) -> str:
    assert response.status_code == 303, refusal(response)
    return response.headers["Location"]


def made(client, **kwargs):
    url = director_url(create(client, **kwargs))
    found = re.fullmatch(r"/tournaments/([\w-]+)\?key=([\w-]+)", url)
    return found.group(1), found.group(2)


def store(app):
    return app.extensions["referee.tournaments"]


def play(app, table_id, key, hands):
    ledger = app.extensions["referee.ledger"]
    assert ledger.authorize(table_id, key, write=True) == "scorer"
    for hand in hands:
        for body in hand:
            ledger.append(table_id, body)


def seat(client, tid, key):
    response = client.post(f"/tournaments/{tid}/rounds?key={key}")
    assert response.status_code == 303 and "done=seated" in response.headers["Location"], refusal(response)
    return store(client.application).state(tid)["rounds"][-1]


def viewer_of(client, tid, key) -> str:
    """The viewer key, as the director hands it out: the link of the standings on a phone."""
    page = client.get(f"/tournaments/{tid}?key={key}").get_data(as_text=True)
    return re.search(rf'href="http://[^/"]+/tournaments/{tid}/standings\?key=([\w-]+)"', page).group(1)


def card_keys(app, tid) -> dict:
    return {card["number"]: card["key"] for card in store(app).cards(tid)}


# --- the form, its parts ----------------------------------------------------------------------------------

def test_entrants_typed_one_a_line_pairs_with_an_ampersand():
    assert entrants_from_text("Ana & Bo\n\n  Cy&Di \nEd + Flo\nGus / Hal\nIda\tJo\nKim") == [
        ["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"], ["Ida", "Jo"], ["Kim"]]


def entrants_from_csv(raw: bytes) -> list[list[str]]:
    return entrants_from_rows(csv_rows(raw))[0]


def test_entrants_from_a_csv_file_with_or_without_headings():
    assert entrants_from_csv("Player 1,Player 2\nAna,Bo\nCy,Di\n,\n".encode()) == [["Ana", "Bo"], ["Cy", "Di"]]
    assert entrants_from_csv("\ufeffJoueur 1;Joueur 2\nAnaïs;Béa\nCé;Dé\n".encode()) == [["Anaïs", "Béa"], ["Cé", "Dé"]]
    assert entrants_from_csv(b"Ana & Bo\nCy & Di\n") == [["Ana", "Bo"], ["Cy", "Di"]]


def test_the_plan_and_an_own_vp_table_as_typed():
    assert read_plan(["mitchell", "danish", "nonsense"], ["3", "", "x"], "buraco") == [
        {"movement": "mitchell", "hands": 3}, {"movement": "danish"}, {"movement": "mitchell"}]
    assert read_plan(["round_robin"], ["4"], "brulot") == [{"movement": "round_robin", "deals": 4}]
    assert read_plan(["danish"], ["4"], "brisca") == [{"movement": "danish"}]
    assert read_vp_rows("0 – 50 | 10 | 10\n150 11 9\n\nover 1500: 20 0\n") == [[50, 10, 10], [150, 11, 9],
                                                                             [None, 20, 0]]
    assert read_vp_rows("20 0") == [[None, 20, 0]]
    for over in ("más de 1500 20 0", "més de 1500 20 0", "oltre 1500 20 0", "mais de 1500 20 0", "über 1500 20 0"):
        assert read_vp_rows(f"150 11 9\n{over}") == [[150, 11, 9], [None, 20, 0]], over  # the hint, translated
    with pytest.raises(ValueError, match="^ten ten$"):
        read_vp_rows("50 10 10\nten ten")


@pytest.mark.parametrize("lang, last_row", [
    ("fr", "plus de 1500\u00a0: 20 – 0"), ("en", "over 1500: 20 – 0"), ("es", "más de 1500: 20 – 0"),
    ("ca", "més de 1500: 20 – 0"), ("it", "oltre 1500: 20 – 0"), ("pt_BR", "mais de 1500: 20 – 0"),
    ("de", "über 1500: 20 – 0")])
def test_the_own_vp_tables_last_row_is_shown_in_the_page_language_and_reads_as_typed(client, lang, last_row):
    """Issue 24: the director's own VP table showed "over 1500 20 0" on a French page; the hint and the placeholder
    say the last row in the page's words, and that row, typed as shown, is read."""
    page = client.get(f"/tournaments/new?lang={lang}").get_data(as_text=True)
    placeholder = unescape(re.search(r'id="t-vp-rows"[^>]*placeholder="([^"]*)"', page).group(1))
    assert placeholder.splitlines()[-1] == last_row and last_row in unescape(page.split('for="t-vp-rows">')[1])
    assert "over 1500" not in page or lang == "en"
    assert read_vp_rows(f"150 11 9\n{last_row}") == [[150, 11, 9], [None, 20, 0]]


def test_the_home_page_leads_to_the_form_and_its_buttons_change_it(client):
    assert 'href="/tournaments/new"' in client.get("/").get_data(as_text=True)
    page = client.get("/tournaments/new")
    assert page.status_code == 200 and text(page).count("Mitchell") >= 3
    added = client.post("/tournaments/new", data={"op": "add", "game": "buraco", "movement": ["mitchell", "danish"],
                                                  "length": ["3", "4"]})
    assert re.findall(r'name="length" class="length"[^>]*value="(\d*)"', added.get_data(as_text=True)) == ["3", "4", "4"]
    removed = client.post("/tournaments/new", data={"op": "remove:0", "game": "buraco",
                                                    "movement": ["mitchell", "danish"], "length": ["3", "4"]})
    assert re.findall(r'<option value="(\w+)" selected', removed.get_data(as_text=True)) == ["danish"]
    brulot = client.post("/tournaments/new", data={"op": "game:brulot", "game": "buraco", "movement": ["danish"],
                                                   "length": ["3"]})
    body = brulot.get_data(as_text=True)
    assert 'name="game" value="brulot"' in body and "Victory points" not in body and "deals" in body
    fragment = client.post("/tournaments/new", data={"op": "add", "game": "buraco"}, headers={"HX-Request": "true"})
    assert fragment.get_data(as_text=True).lstrip().startswith("{#") is False
    assert '<form id="tournament-form"' in fragment.get_data(as_text=True)
    assert "<html" not in fragment.get_data(as_text=True)


@pytest.mark.parametrize("form, sentence", [
    ({"name": ""}, "Give the tournament a name."),
    ({"entrants": "Ana & Bo\n"}, "Write at least two entrants, one a line (a pair as “Ana & Bo”)."),
    ({"vp": "own", "vp_rows": "50 10 10\nten ten"}, "This row of the VP table cannot be read: “ten ten”. Write the "
     "most MP difference, the winner's VP and the loser's VP."),
    ({"vp": "own", "vp_rows": ""}, "Write your VP table, a row a line."),
    ({"vp": "own", "vp_rows": "150 10 10\n50 11 9\n20 0"}, "Row 2 of the victory-point table: its largest difference "
     "must be above the row before's."),
])
def test_the_form_refuses_with_a_sentence_and_keeps_what_was_typed(client, form, sentence):
    response = create(client, **form)
    assert response.status_code == 200 and refusal(response) == sentence
    if form.get("entrants") is None and form.get("name") is None:
        assert "Oz &amp; Pia" in response.get_data(as_text=True)


@pytest.mark.parametrize("pairs", [2, 4, 5, 8])
def test_the_plan_the_form_offers_is_one_any_number_of_pairs_can_play(client, app, pairs):
    """A new organiser's first "Create" with the plan as offered (found by a walk-through: 4 pairs, two Mitchell
    rounds on two tables, refused)."""
    plan = default_plan("buraco")
    tid, _ = made(client, entrants="\n".join(PAIRS[:pairs]),
                  rounds=[(r["movement"], str(r["hands"])) for r in plan])
    assert store(app).state(tid)["plan"] == [{"movement": "mitchell", "hands": 3}, {"movement": "danish", "hands": 3},
                                             {"movement": "danish", "hands": 3}]


def test_a_csv_file_of_entrants_makes_the_tournament(client, app):
    file = (io.BytesIO("Player 1,Player 2\n".encode() + "\n".join(p.replace(" & ", ",") for p in PAIRS).encode()),
            "pairs.csv")
    tid, key = made(client, entrants="", entrants_file=file)
    state = store(app).state(tid)
    assert [e["names"] for e in state["entrants"]] == [p.split(" & ") for p in PAIRS]
    assert state["plan"] == [{"movement": "mitchell", "hands": 3}] * 2


# --- the director's page ----------------------------------------------------------------------------------

def test_the_directors_page_follows_every_table_and_closes_the_round(client, app):
    tid, key = made(client)
    page = client.get(f"/tournaments/{tid}?key={key}")
    assert page.status_code == 200 and "Seat round 1" in text(page)
    round_ = seat(client, tid, key)
    assert [t["number"] for t in round_["tables"]] == [1, 2, 3, 4]
    keys = card_keys(app, tid)
    t1, t2 = round_["tables"][0], round_["tables"][1]
    play(app, t1["table_id"], keys[1], [HAND_TO_NS, HAND_TO_NS])  # two hands of three
    play(app, t2["table_id"], keys[2], [HAND_TO_NS, HAND_TO_EW, HAND_TO_NS])  # finished: 1310 – 820
    page = text(client.get(f"/tournaments/{tid}?key={key}"))
    assert "Round 1 · Mitchell · 3 hands" in page and "1 of 4 tables finished." in page
    assert "Table 1 Ana & Bo v Ida & Jo 2 hands done last entry just now Playing Still playing Scorer page Correct" \
        in page  # R-COMMON-7: each table's status in words
    # 600 – 110, 110 – 600, 600 – 110: MP 1310 – 820, 490 apart: 14 – 6 (burraco_3: 355 – 500)
    assert "Table 2 Cy & Di v Kim & Lu 3 hands done last entry just now To confirm Finished · MP 1310 – 820 · " \
        "VP 14 – 6" in page
    assert "Table 3 Ed & Flo v Mo & Ned 0 hands done nothing entered yet Waiting Still playing" in page
    assert "Tables 1, 3, 4 are still playing." in page
    # Closing with tables open: named, then finished only with a sentence for the log.
    refused = client.post(f"/tournaments/{tid}/rounds/1/close?key={key}", data={"force": "yes", "reason": ""})
    assert refusal(refused) == "Write why the open tables are finished: the sentence is kept in the tournament's log."
    closed = client.post(f"/tournaments/{tid}/rounds/1/close?key={key}",
                         data={"force": "yes", "reason": "Last bus at 23:40"})
    assert closed.status_code == 303, refusal(closed)
    page = text(client.get(closed.headers["Location"]))
    assert "The round is closed; its results are in the standings." in page and "Seat round 2" in page
    assert "Last bus at 23:40" in page
    assert store(app).state(tid)["rounds"][0]["status"] == "closed"


def test_a_viewer_key_leads_to_the_standings_and_cannot_act(client, app):
    tid, key = made(client)
    viewer = viewer_of(client, tid, key)
    page = client.get(f"/tournaments/{tid}?key={viewer}")
    assert page.status_code == 303 and page.headers["Location"] == f"/tournaments/{tid}/standings?key={viewer}"
    for path in (f"/tournaments/{tid}/rounds", f"/tournaments/{tid}/entrants/0/withdraw"):
        refused = client.post(f"{path}?key={viewer}")
        assert refused.status_code == 403 and "Something is wrong" in text(refused)
    assert client.get(f"/tournaments/{tid}/cards?key={viewer}").status_code == 403
    wrong = client.get(f"/tournaments/{tid}?key=not-the-key")
    assert wrong.status_code == 401 and refusal(wrong)
    assert client.get(f"/tournaments/{tid}/standings?key={viewer}").status_code == 200


def test_withdraw_and_add_between_rounds_only(client, app):
    tid, key = made(client)
    assert client.post(f"/tournaments/{tid}/entrants/7/withdraw?key={key}").status_code == 303
    added = client.post(f"/tournaments/{tid}/entrants?key={key}", data={"names": "Quy & Rae"})
    assert added.status_code == 303 and "done=added" in added.headers["Location"]
    state = store(app).state(tid)
    assert [e["names"] for e in state["entrants"]][-1] == ["Quy", "Rae"]
    empty = client.post(f"/tournaments/{tid}/entrants?key={key}", data={"names": "  "})
    assert refusal(empty) == "Write the new entrant's names (a pair as “Ana & Bo”)."
    seat(client, tid, key)
    page = text(client.get(f"/tournaments/{tid}?key={key}"))
    assert "Entrants are withdrawn or added between rounds." in page and "Withdraw" not in page
    during = client.post(f"/tournaments/{tid}/entrants?key={key}", data={"names": "Sam & Tom"})
    assert during.status_code == 200 and refusal(during)


def test_seating_a_round_while_one_is_open_is_refused_with_a_sentence(client, app):
    tid, key = made(client)
    seat(client, tid, key)
    again = client.post(f"/tournaments/{tid}/rounds?key={key}")
    assert again.status_code == 200 and refusal(again)


# --- cards, live standings, print, exports ----------------------------------------------------------------

def test_the_cards_one_a_table_and_their_link_leads_to_the_newest_rounds_table(client, app):
    tid, key = made(client)
    first = seat(client, tid, key)
    cards = client.get(f"/tournaments/{tid}/cards?key={key}")
    body = cards.get_data(as_text=True)
    assert body.count('<section class="table-card">') == 4 and body.count("<svg") == 4
    assert "North Ana East Ida South Bo West Jo" in text(cards)
    keys = card_keys(app, tid)
    link = client.get(f"/tournaments/{tid}/tables/2?key={keys[2]}")
    assert link.status_code == 303 and link.headers["Location"] == f"/t/{first['tables'][1]['table_id']}?key={keys[2]}"
    assert client.get(f"/tournaments/{tid}/tables/2?key={keys[1]}").status_code == 401
    for table in first["tables"]:
        play(app, table["table_id"], keys[table["number"]], [HAND_TO_NS] * 3)
    assert client.post(f"/tournaments/{tid}/rounds/1/close?key={key}").status_code == 303
    second = seat(client, tid, key)
    link = client.get(f"/tournaments/{tid}/tables/2?key={keys[2]}")
    assert link.headers["Location"] == f"/t/{second['tables'][1]['table_id']}?key={keys[2]}"
    scorer = client.get(link.headers["Location"])
    assert scorer.status_code == 200 and "Cy" in text(scorer)


def test_the_live_standings_answer_204_until_something_changes(client, app):
    tid, key = made(client)
    round_ = seat(client, tid, key)
    viewer = viewer_of(client, tid, key)
    page = client.get(f"/tournaments/{tid}/standings?key={viewer}")
    revision = re.search(r'data-revision="(\d+)"', page.get_data(as_text=True)).group(1)
    assert "Round 1: tables 1 (0/3), 2 (0/3), 3 (0/3), 4 (0/3) still playing" in text(page)
    assert client.get(f"/tournaments/{tid}/live?key={viewer}&since={revision}").status_code == 204
    play(app, round_["tables"][0]["table_id"], card_keys(app, tid)[1], [HAND_TO_NS] * 3)
    play(app, round_["tables"][2]["table_id"], card_keys(app, tid)[3], [HAND_TO_EW])
    app.extensions["referee.standings_watch"].forget(tid)  # as another worker's write: seen at the next read
    live = client.get(f"/tournaments/{tid}/live?key={viewer}&since={revision}")
    assert live.status_code == 200 and "Round 1: tables 2 (0/3), 3 (1/3), 4 (0/3) still playing" in text(live)
    rows = re.findall(r'<td class="num rank">(\d+)</td><th scope="row" class="names">([^<]*)</th><td class="num vp">'
                      r'([\d.]+)</td><td class="num mp">(\d+)</td>', live.get_data(as_text=True))
    # Table 1 finished: Ana & Bo 1800 – 330 Ida & Jo (VP 19 – 1); everyone else 0, sharing third place.
    assert rows == [("1", "Ana &amp; Bo", "19", "1800"), ("2", "Ida &amp; Jo", "1", "330")] + [
        ("3", name, "0", "0") for name in ("Cy &amp; Di", "Ed &amp; Flo", "Gus &amp; Hal", "Kim &amp; Lu",
                                           "Mo &amp; Ned", "Oz &amp; Pia")]
    screen = client.get(f"/tournaments/{tid}/live?key={viewer}&view=screen")
    assert screen.status_code == 200 and 'class="wall-table"' in screen.get_data(as_text=True)
    etag = screen.headers["ETag"]
    assert client.get(f"/tournaments/{tid}/live?key={viewer}&view=screen",
                      headers={"If-None-Match": etag}).status_code == 304
    assert client.get(f"/tournaments/{tid}/live?key=wrong").status_code == 401
    director = client.get(f"/tournaments/{tid}?key={key}").get_data(as_text=True)
    assert f'href="/tournaments/{tid}/screen?key={viewer}"' in director  # a club's wall never holds the director's key
    wall = client.get(f"/tournaments/{tid}/screen?key={viewer}").get_data(as_text=True)
    assert re.search(rf'aria-label="QR code of http://[^/"]+/tournaments/{tid}/standings\?key={viewer}"', wall)


def finished_evening(client, app):
    """Round 1 played in full: every North-South pair wins its three hands 600 – 110 (MP 1800 – 330, VP 19 – 1),
    except table 4, where East-West win the three (330 – 1800, VP 1 – 19)."""
    tid, key = made(client)
    round_ = seat(client, tid, key)
    keys = card_keys(app, tid)
    for table in round_["tables"]:
        play(app, table["table_id"], keys[table["number"]], [HAND_TO_EW if table["number"] == 4 else HAND_TO_NS] * 3)
    assert client.post(f"/tournaments/{tid}/rounds/1/close?key={key}").status_code == 303
    return tid, key


def test_the_exports_hold_the_exact_standings(client, app):
    tid, key = finished_evening(client, app)
    # Mitchell round 1: NS 0-3 at tables 1-4 against EW 4-7.
    exported = client.get(f"/tournaments/{tid}/standings.csv?key={key}")
    assert exported.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(exported.get_data(as_text=True))))
    assert rows[0] == ["rank", "entrant", "names", "vp", "mp", "mp_difference", "played", "penalties"]
    assert [row[:7] for row in rows[1:]] == [
        ["1", "0", "Ana & Bo", "19", "1800", "1470", "1"], ["1", "1", "Cy & Di", "19", "1800", "1470", "1"],
        ["1", "2", "Ed & Flo", "19", "1800", "1470", "1"], ["1", "7", "Oz & Pia", "19", "1800", "1470", "1"],
        ["5", "3", "Gus & Hal", "1", "330", "-1470", "1"], ["5", "4", "Ida & Jo", "1", "330", "-1470", "1"],
        ["5", "5", "Kim & Lu", "1", "330", "-1470", "1"], ["5", "6", "Mo & Ned", "1", "330", "-1470", "1"]]
    doc = client.get(f"/tournaments/{tid}/standings.json?key={key}").get_json()
    assert doc["name"] == "Club evening" and doc["game"] == "buraco"
    assert [(r["rank"], r["entrant"], r["vp"], r["mp"], r["mp_difference"], r["played"]) for r in doc["standings"]] \
        == [(int(r[0]), int(r[1]), int(r[3]), int(r[4]), int(r[5]), int(r[6])) for r in rows[1:]]
    assert [t["result"] for t in doc["rounds"][0]["tables"]] == [{"mp": [1800, 330], "vp": [19, 1], "series": {
        "unit": "points", "values": [1800, 330], "winners": [0]}}] * 3 + [{"mp": [330, 1800], "vp": [1, 19], "series": {
            "unit": "points", "values": [330, 1800], "winners": [1]}}]  # R-COMMON-7b: the series in its unit
    assert key not in json.dumps(doc) and all(k not in json.dumps(doc) for k in card_keys(app, tid).values())


def test_the_print_page_ranks_and_lists_each_rounds_results(client, app):
    tid, key = finished_evening(client, app)
    viewer = viewer_of(client, tid, key)
    page = text(client.get(f"/tournaments/{tid}/print?key={viewer}"))
    assert "Club evening ranking after 1 round" in page
    assert "1 Ana & Bo 19 1800 +1470 1" in page and "5 Mo & Ned 1 330 -1470 1" in page
    assert "Round 1 · Mitchell" in page
    assert "1 Ana & Bo Ida & Jo 1800 – 330 19 – 1" in page and "4 Gus & Hal Oz & Pia 330 – 1800 1 – 19" in page
