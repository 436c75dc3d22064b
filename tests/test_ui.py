"""The scorer's screens through Flask's client, as a browser without JavaScript uses them: forms post (with their
CSRF token) and redirect; with an ``HX-Request`` header the same posts answer the fragment."""
import re

import pytest

from tests.support.deals import DEAL_4P
from tests.support.scorer import Scorer, create, token


@pytest.fixture
def csrf_app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def test_setup_page_offers_seats_direction_options_and_dealer(client):
    page = client.get("/new/brisca", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert page.count('name="player"') == 4
    assert "counter-clockwise" in page and "Player 1 sits opposite Player 3." in re.sub(r"<[^>]+>", "", page)
    assert "tie_rule" in page and "At 60–60: a draw, won by the last trick, or the deal is replayed." in page
    assert "Default: draw." in page and "R-BRISCA-6" in page and 'name="dealer"' in page


def test_setup_add_remove_and_reorder_keep_the_dealer_with_his_seat(client, csrf_app):
    page = client.get("/new/brisca").get_data(as_text=True)
    form = {"csrf_token": token(page), "player": ["Ana", "Bo", "Cy", "Di"], "dealer": "2", "op": "up:2"}
    page = client.post("/new/brisca", data=form, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert re.findall(r'name="player" value="([^"]*)"', page) == ["Ana", "Cy", "Bo", "Di"]
    assert re.search(r'<option value="1" selected>Cy</option>', page)  # Cy still deals
    form.update(op="add", player=["Ana", "Cy", "Bo", "Di"], dealer="1")
    page = client.post("/new/brisca", data=form).get_data(as_text=True)
    assert page.count('name="player"') == 5
    form.update(op="remove:4", player=["Ana", "Cy", "Bo", "Di", ""])
    page = client.post("/new/brisca", data=form).get_data(as_text=True)
    assert page.count('name="player"') == 4


def test_setup_refusal_is_a_sentence_and_creates_nothing(client):
    page = client.get("/new/brisca").get_data(as_text=True)
    response = client.post("/new/brisca", data={"csrf_token": token(page), "player": ["Ana", "Bo", "Cy"],
                                                 "dealer": "0", "op": "create"}, headers={"Accept-Language": "en"})
    assert response.status_code == 200 and 'role="alert"' in response.get_data(as_text=True)
    assert "Brisca is played by 2, 4, 6 players, not 3." in response.get_data(as_text=True)


def test_form_posts_need_the_csrf_token(client, csrf_app):
    response = client.post("/new/brisca", data={"player": ["Ana", "Bo"], "op": "create"})
    assert response.status_code == 400


def test_a_whole_deal_by_taps_gives_the_hand_count(client):
    scorer = create(client)
    assert "anyone who has it can change the score" in scorer.page
    scorer.post("deal", card="11E", dealer="0")
    for cards, winner, points in DEAL_4P:
        for code in cards:
            assert scorer.tap(code).status_code == 303
    assert scorer.totals() == [65, 55]
    assert "65 points, more than 60: the deal is won." in scorer.page
    flat = " ".join(scorer.page.split())
    assert "trick 5: 0 + trick 6: 12 + trick 7: 0 + trick 8: 29 + trick 9: 14 + trick 10: 10 = 65" in flat
    assert "trick 1: 14 + trick 2: 6 + trick 3: 23 + trick 4: 12 = 55" in flat


def test_a_refused_tap_shows_the_engines_sentence_and_changes_nothing(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    for code in DEAL_4P[0][0]:
        scorer.tap(code)
    scorer.tap("5C")
    response = scorer.tap("1C")
    assert response.status_code == 200  # the page again, with the sentence
    assert "Ace of copas (porrons) was already played in trick 1 (entered here for Cy)." in scorer.page
    assert 'name="pending" value="5C"' in scorer.page  # the tapped card is still there, nothing stored
    assert client.get(scorer.url.replace("/t/", "/api/v1/tables/")).get_json()["version"] == 2


def test_one_tap_undoes_a_card_then_reopens_the_trick_without_its_last_card(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    for code in DEAL_4P[0][0]:
        scorer.tap(code)
    assert scorer.anchor == "picker"  # without JavaScript the page comes back to the cards, not its top
    scorer.tap("5C")
    scorer.post("undo")
    assert "pending=" not in scorer.url
    scorer.post("undo")  # the trick is withdrawn and reopens with its first three cards
    state = client.get(scorer.url.replace("/t/", "/api/v1/tables/")).get_json()
    assert state["version"] == 1 and state["deals"][0]["tricks"] == []
    # the trick under way is the table's, not the address's: a reload (any phone) shows it
    assert "pending=" not in scorer.url and 'name="pending" value="1C.11O.2C"' in scorer.page
    assert 'name="pending" value="1C.11O.2C"' in client.get(scorer.url).get_data(as_text=True)
    scorer.tap(DEAL_4P[0][0][3])  # one tap puts the last card back: the trick is whole again
    state = client.get(scorer.url.replace("/t/", "/api/v1/tables/")).get_json()
    assert state["version"] == 2 and state["deals"][0]["tricks"][0]["cards"] == DEAL_4P[0][0]


def test_captured_pile_entry(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    scorer.url += "&mode=capture&side=0"
    scorer.page = client.get(scorer.url).get_data(as_text=True)
    for cards, winner, _ in DEAL_4P:
        if winner in (0, 2):
            for code in cards:
                scorer.tap(code)
    assert scorer.post("save").status_code == 303
    assert scorer.totals() == [65, 55]


def test_exchange_button_only_when_possible(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    assert "exchanges the turned card" not in scorer.page
    for code in DEAL_4P[0][0]:
        scorer.tap(code)
    assert "Bo exchanges the turned card" in scorer.page and "Ana exchanges" not in scorer.page
    scorer.post("exchange", player="1")
    assert "Bo exchanged 7 espadas for 11 espadas." in scorer.page
    assert "exchanges the turned card" not in scorer.page


def test_htmx_gets_the_fragment_and_the_new_address(client):
    scorer = create(client)
    response = scorer.post("deal", htmx=True, card="11E", dealer="0")
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and body.lstrip().startswith("{%") is False
    assert "<html" not in body and 'id="scorer"' in body
    response = scorer.post("tap", htmx=True, card="1C")  # a card tapped: what it changed (tests/test_tap_answer.py)
    body = response.get_data(as_text=True)
    assert "pending" not in response.headers["HX-Replace-Url"] and 'name="pending" value="1C"' in body
    response = scorer.post("tap", htmx=True, card="1C")
    assert response.status_code == 200 and 'role="alert"' in response.get_data(as_text=True)


def test_viewer_link_shows_the_scoreboard_without_controls(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    state = client.get(scorer.url.replace("/t/", "/api/v1/tables/")).get_json()
    viewer = client.application.extensions["referee.ledger"].viewer_key(state["id"])
    page = client.get(f"/t/{state['id']}?key={viewer}").get_data(as_text=True)
    assert 'id="scoreboard"' in page and 'class="picker"' not in page and "csrf_token" not in page


def test_language_switch_sets_a_cookie_and_goes_back(client):
    response = client.get("/lang/en?next=/new/brisca")
    assert response.status_code == 303 and response.headers["Location"] == "/new/brisca"
    assert "lang=en" in response.headers["Set-Cookie"]
    assert client.get("/lang/fr?next=https://evil.example/").headers["Location"] == "/"
    assert client.get("/lang/fr?next=/\\evil.example/").headers["Location"] == "/"  # browsers read /\ as //


def create_brouc(client, dealer="0", **options):
    client.set_cookie("lang", "en")
    page = client.get("/new/brouc").get_data(as_text=True)
    form = {"csrf_token": token(page), "player": ["Ana", "Bo", "Cy", "Di"], "dealer": dealer, "op": "create",
            "opt_coches_to_lose": "0", "opt_scorer_side": "0"}
    form.update({f"opt_{k}": v for k, v in options.items()})
    response = client.post("/new/brouc", data=form)
    assert response.status_code == 303
    return Scorer(client, response.headers["Location"])


def test_brouc_announce_and_the_slate_by_forms(client):
    from tests.support.deals import DEAL_B
    scorer = create_brouc(client)
    scorer.post("deal", card="KH", dealer="0")
    assert "Announce" not in scorer.page  # R-BROUC-4: never with the first card
    for code in DEAL_B[0]:
        scorer.tap(code)
    assert 'mode=announce' in scorer.page
    scorer.url += "&mode=announce&player=0"
    scorer.page = client.get(scorer.url).get_data(as_text=True)
    assert re.search(r'<strong class="button current">Ana</strong>', scorer.page)
    for code in ("KH", "QH"):
        scorer.tap(code)
    scorer.post("save", player="0")
    assert "Ana announces K♥ Q♥: 40" in scorer.page
    for cards in DEAL_B[1:]:
        for code in cards:
            scorer.tap(code)
    slate = re.search(r'<tr class="total">(.*?)</tr>', scorer.page, re.S).group(1)
    assert re.findall(r"<summary>(-?\d+)</summary>", slate) == ["2", "14"]  # Bo & Di left, the scorer's right
    flat = " ".join(scorer.page.split())
    assert "64 points, rounded up: 6 + announces 4 + table marriages 3 = 13" not in flat
    assert "64 points, rounded down: 6 + announces 4 + table marriages 4 = 14" in flat


def test_brouc_declaration_buttons_only_when_possible(client):
    from tests.support.deals import DEAL_D, PILE_76
    scorer = create_brouc(client, dealer="1")  # Bo, Cy and Di deal three captured deals; Ana the fourth
    ledger = client.application.extensions["referee.ledger"]
    table_id = scorer.url.split("/t/")[1].split("?")[0]
    for _ in range(3):
        ledger.append(table_id, {"type": "deal", "trump": "7D"})
        ledger.append(table_id, {"type": "capture", "side": 0, "cards": PILE_76})
    scorer.page = client.get(scorer.url).get_data(as_text=True)
    scorer.post("deal", card="10H", dealer="0")
    assert "La cape et dehors" not in scorer.page
    for cards in DEAL_D[:6]:
        ledger.append(table_id, {"type": "trick", "cards": cards})
    scorer.page = client.get(scorer.url).get_data(as_text=True)
    assert "La cape et dehors" in scorer.page and '<option value="0">Ana</option>' in scorer.page
    assert '<option value="1">Bo</option>' not in scorer.page  # Bo & Di have 12: they may not declare
    scorer.post("declare", player="0", call="cape_dehors")
    assert ledger.state(table_id)["deals"][3]["declaration"]["call"] == "cape_dehors"


@pytest.mark.parametrize("game, fields, expected", [
    ("brulot", {"opt_penalties": "5, 3, 2, 1", "opt_deals": "0",
                "opt_clean_deal_bonus": "2"}, {"penalties": [5, 3, 2, 1], "clean_deal_bonus": 2}),
    ("brusquembille", {"opt_removed": "7d 7s", "opt_jeton_value": "0,5", "opt_target_points": "0",
                       "opt_deals": "3"}, {"removed": ["7D", "7S"], "jeton_value": 0.5, "deals": 3}),
])
def test_list_and_number_options_from_the_form(client, game, fields, expected):
    client.set_cookie("lang", "en")
    page = client.get(f"/new/{game}").get_data(as_text=True)
    form = {"csrf_token": token(page), "player": ["Ana", "Bo", "Cy"], "dealer": "0", "op": "create", **fields}
    response = client.post(f"/new/{game}", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[-600:]
    table_id = response.headers["Location"].split("/t/")[1].split("?")[0]
    options = client.application.extensions["referee.ledger"].state(table_id)["options"]
    assert {k: options[k] for k in expected} == expected


def test_brulot_captured_piles_side_after_side(client):
    from tests.support.deals import ANA, BO
    client.set_cookie("lang", "en")
    page = client.get("/new/brulot").get_data(as_text=True)
    form = {"csrf_token": token(page), "player": ["Ana", "Bo", "Cy"], "dealer": "0", "op": "create",
            "opt_penalties": "4, 3, 2, 1", "opt_deals": "0",
            "opt_clean_deal_bonus": "0"}
    scorer = Scorer(client, client.post("/new/brulot", data=form).headers["Location"])
    scorer.post("deal", card="2D", dealer="0")
    scorer.url += "&mode=capture&side=0"
    scorer.page = client.get(scorer.url).get_data(as_text=True)
    for code in ANA:
        scorer.tap(code)
    scorer.post("save")
    assert "mode=capture" in scorer.url and "side=1" in scorer.url  # Bo's pile comes next
    for code in BO:
        scorer.tap(code)
    scorer.post("save")
    assert scorer.totals() == [9, 13, 18]


def test_a_resent_undo_form_withdraws_one_entry(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    for code in DEAL_4P[0][0]:
        scorer.tap(code)
    page = scorer.page
    first = scorer.post("undo")
    scorer.page = page  # the browser sends the same form again (bad Wi-Fi, a double tap)
    again = scorer.post("undo")
    assert (first.status_code, again.status_code) == (303, 303)
    table_id = scorer.url.split("/t/")[1].split("?")[0]
    events = client.application.extensions["referee.ledger"].events(table_id)
    assert [e["withdrawn"] for e in events] == [False, True]


def test_r_common_4_a_hand_known_whole_is_all_the_picker_offers_and_another_card_is_refused_at_its_tap(client):
    """Recorded Brusquembille deal (turned_card_last): in trick 10 Hortense holds only the turned 8S she drew last.
    After Colette's QH the picker offers her 8S alone (the others marked, in place); Basile's QS tapped for her is
    refused at that tap, with the sentence, the card shaking, nothing stored; her 8S is taken."""
    import json

    from tests.support.engine import DEALS
    record = json.loads((DEALS / "brusquembille_3p_turned_last.json").read_text(encoding="utf-8"))
    client.set_cookie("lang", "en")
    made = client.post("/api/v1/tables", json={k: record[k] for k in ("game", "players", "options")}).get_json()
    for body in record["events"][:10]:
        client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                    headers={"Authorization": f"Bearer {made['scorer_key']}"})
    scorer = Scorer(client, "/" + made["scorer_url"].split("://", 1)[1].partition("/")[2])
    scorer.tap("QH")  # Colette leads
    marks = dict(re.findall(r'value="(\w+)" class="card ([\w-]+)', scorer.page))
    assert (marks["8S"], marks["QS"], marks["QH"], marks["KS"]) == ("free", "not-held", "pending", "played")
    assert "queen of spades, not in the hand of Hortense" in scorer.page
    scorer.tap("QS")
    assert "Hortense&#39;s last card is known: it is 8 of spades, not queen of spades." in scorer.page
    assert 'value="QS" class="card not-held refused"' in scorer.page and 'name="pending" value="QH"' in scorer.page
    scorer.tap("8S")
    scorer.tap("QS")
    state = client.get(f"/api/v1/tables/{made['id']}", headers={"Authorization": f"Bearer {made['scorer_key']}"})
    assert state.get_json()["deals"][0]["tricks"][-1]["cards"] == ["QH", "8S", "QS"]
