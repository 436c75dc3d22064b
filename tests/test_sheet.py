"""The numbers screen without JavaScript (Flask's client posting the page's own forms) and its sheet: taps that pick,
add, cycle and remove; the remembered way of entry; the tally saved from the form, its refusal keeping what was typed,
the preview storing nothing; captured piles carrying Brouc's announces and Brusquembille's brusquembilles."""
import html
import re

import pytest

from referee.errors import ParseError
from referee.games import get_game
from referee.web.tables.sheet import Sheet, capture_extras, tally_body
from tests.support.sheet import Phone


# --- the sheet alone ---------------------------------------------------------------------------------------------

def test_a_sheet_reads_and_writes_its_address():
    sheet = Sheet.read({"v": "64.", "x": "a:0:KH.QH~m:1:KC.QC", "pick": "a:2"}, 2)
    assert sheet == Sheet(("64", ""), ("a:0:KH.QH", "m:1:KC.QC"), "a:2")
    assert Sheet.read(sheet.query(), 2) == sheet
    assert Sheet.read({"v": "64.", "v1": "50"}, 2).values == ("64", "50")  # the typed field wins over the address
    assert Sheet.read({"v": "1e9.<b>", "x": "a:0:KH.QH~<script>", "pick": "zz"}, 2) == Sheet(("", ""), ("a:0:KH.QH",), "")


def test_taps_pick_add_cycle_and_remove():
    sheet = Sheet(("", ""))
    assert sheet.act("add:a:H:KQ") == sheet  # no player picked: nothing added
    sheet = sheet.act("pick:a:1").act("add:a:H:KQJ")
    assert sheet.items == ("a:1:KH.QH.JH",) and sheet.pick == ""
    outcomes = get_game("brusquembille").numbers_outcomes  # R-BRUSQ-4: won, trumped, beaten, then gone
    assert sheet.act("cycle:AS") == sheet  # a game without outcomes to cycle: nothing added
    sheet = sheet.act("cycle:AS", outcomes)
    assert sheet.items[-1] == "b:AS::won" and sheet.pick == "b:AS"
    sheet = sheet.act("who:AS:2").act("cycle:AS", outcomes)
    assert sheet.items[-1] == "b:AS:2:trumped" and sheet.pick == "b:AS"
    assert sheet.act("cycle:AS", outcomes).items[-1] == "b:AS:2:beaten"
    assert sheet.act("cycle:AS", outcomes).act("cycle:AS", outcomes).items == ("a:1:KH.QH.JH",)
    assert sheet.act("del:0").items == ("b:AS:2:trumped",)
    toggled = Sheet().act("toggle:c:0").act("toggle:c:1")
    assert toggled.items == ("c:1",) and toggled.act("toggle:c:1").items == ()


def test_r_common_6_the_one_field_left_blank_is_what_remains():
    assert Sheet(("70", "")).numbers(120) == [70, 50] and Sheet(("70", "")).remainder(120) == (1, 50)
    assert Sheet(("45", "", "40")).numbers(120) == [45, 35, 40]
    with pytest.raises(ParseError) as error:
        Sheet(("45", "", "")).numbers(120)
    assert error.value.code == "sheet_incomplete"


def test_the_tally_a_sheet_writes_for_each_game():
    brouc = Sheet(("64", ""), ("a:0:KH.QH", "m:1:KC.QC", "c:0", "d:2:cape_dehors"))
    assert tally_body("brouc", brouc, 120) == {
        "type": "tally", "points": [64, 56], "cape": 0, "announces": [{"player": 0, "cards": ["KH", "QH"]}],
        "marriages": [{"side": 1, "cards": ["KC", "QC"]}], "declare": {"player": 2, "call": "cape_dehors"}}
    assert tally_body("brisca", Sheet(("60", "60"), ("l:1",)), 120) == {"type": "tally", "points": [60, 60],
                                                                          "last_trick": 1}
    brusq = Sheet(("45", "", "40"), ("b:AH:0:won", "b:10D:1:trumped"))
    assert tally_body("brusquembille", brusq, 120)["brusquembilles"] == [
        {"card": "AH", "player": 0, "outcome": "won"}, {"card": "10D", "player": 1, "outcome": "trumped"}]
    with pytest.raises(ParseError) as error:
        tally_body("brusquembille", Sheet(("45", "", "40"), ("b:AH::won",)), 120)
    assert (error.value.code, error.value.message) == ("sheet_who", "Tap who played AH.")
    assert capture_extras("brusquembille", Sheet()) == {}  # piles alone: the jetons stay unknown (flagged)
    assert capture_extras("brouc", Sheet((), ("a:0:KH.QH",))) == {
        "announces": [{"player": 0, "cards": ["KH", "QH"]}], "marriages": [], "declare": None}


# --- the numbers screen through the pages ---------------------------------------------------------------------------

def test_r_common_6_a_brisca_deal_by_numbers_from_the_page_in_three_posts(csrf_client):
    phone = Phone(csrf_client, "brisca", ["Ana", "Bo"])
    phone.numbers()
    assert 'aria-current="true">Numbers' in phone.page
    phone.deal("1O")
    assert 'id="sheet"' in phone.page and 'name="v0"' in phone.page  # the remembered way: numbers
    phone.post("sheet", {**phone.form(), "v0": "70", "act": "save"})
    state = phone.state()
    assert state["deals"][0]["points"] == [70, 50] and state["deals"][0]["entry"] == "tally"
    assert state["series"]["wins"] == [1, 0]
    phone.deal("3C")
    assert 'id="sheet"' in phone.page  # still remembered for the next deal


def test_r_common_5_a_refused_sheet_says_why_and_keeps_what_was_typed(csrf_client):
    phone = Phone(csrf_client, "brisca", ["Ana", "Bo"])
    phone.numbers()
    phone.deal("1O")
    before = phone.state()
    response = phone.post("sheet", {**phone.form(), "v0": "119", "act": "save"})
    refusals = re.findall(r'class="refusal"[^>]*>([^<]*)<', phone.page)
    assert response.status_code == 200 and refusals == [
        "No cards of this deal add up to 119: Ana cannot have 119 card points."]  # once, in the status
    assert 'name="v0" value="119"' in phone.page and phone.state() == before


def test_r_brisca_1_without_javascript_a_number_too_big_is_refused_and_said_under_its_field(csrf_client):
    phone = Phone(csrf_client, "brisca", ["Ana", "Bo"])
    phone.numbers()
    phone.deal("1O")
    before = phone.state()
    phone.post("sheet", {**phone.form(), "v0": "130", "act": "save"})
    refusals = re.findall(r'class="refusal"[^>]*>([^<]*)<', phone.page)
    assert refusals == ["Ana cannot have 130 card points: a side takes 0 to 120."] and phone.state() == before
    under = re.search(r'<span class="field-error" id="v0-error"[^>]*>(.*?)</span></label>', phone.page, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", under) == "No more than 120 card points in a deal. R-BRISCA-1"
    assert re.search(r'id="v1-error"[^>]*></span>', phone.page)  # Bo's field: nothing to say
    assert 'name="v0" value="130"' in phone.page and 'data-max="120"' in phone.page


def test_r_brouc_4_5_announces_and_mariages_tapped_on_the_sheet_reach_the_slate(csrf_client):
    phone = Phone(csrf_client, "brouc", ["Ana", "Bo", "Cy", "Di"])
    phone.numbers()
    phone.deal("KH")
    phone.act("pick:a:0", v0="64")
    assert "40" in phone.page and 'value="add:a:H:KQ"' in phone.page  # trump hearts: K Q shown as 40
    phone.act("add:a:H:KQ")
    phone.act("pick:m:1")
    phone.act("add:m:C:KQ")
    assert "Ana announces K♥ Q♥" in phone.page and "Table marriage K♣ Q♣ won by Bo &amp; Di" in phone.page
    preview = re.search(r'id="sheet-preview".*?</div>', phone.page, re.S).group(0)
    # Bo & Di first, as on the slate (R-BROUC-6): 56 and 64 card points, 8 and 8 on the slate, 8 and 8 after it
    assert re.findall(r'<td class="num">(-?\d+)</td>', preview) == ["56", "64", "8", "8", "8", "8"]
    assert phone.state()["version"] == 1  # taps and the preview store nothing
    phone.act("save")
    deal = phone.state()["deals"][0]
    assert deal["slate"] == [8, 8] and deal["announces"][0]["points"] == 40 and deal["marriages"][0]["side"] == 1


def test_the_preview_stores_nothing_and_answers_the_engines_sentence(csrf_client):
    phone = Phone(csrf_client, "brouc", ["Ana", "Bo", "Cy", "Di"])
    phone.numbers()
    phone.deal("KH")
    fields = {**phone.form(), "v0": "110", "x": "c:0"}
    response = csrf_client.post(f"/t/{phone.id}/sheet/preview?key={phone.key}", data=fields)
    assert response.status_code == 200 and "took every trick but has 110 card points, not 120" in response.text
    fields["v0"] = "120"
    response = csrf_client.post(f"/t/{phone.id}/sheet/preview?key={phone.key}", data=fields)
    assert "2 coches to the side that took no trick" in response.text.replace("&#39;", "'")
    assert phone.state()["version"] == 1
    viewer = csrf_client.post(f"/t/{phone.id}/sheet/preview", data=fields)
    assert viewer.status_code == 401


def test_r_brusq_4_brusquembilles_tapped_with_the_pile_move_the_jetons(csrf_client):
    phone = Phone(csrf_client, "brusquembille", ["Ana", "Bo", "Cy", "Di"])
    phone.deal("9S")
    phone.go(f"/t/{phone.id}?key={phone.key}&mode=capture&side=0")
    for card in ["AH", "10H", "KH", "AD", "10D", "KD", "9D", "8D"]:
        phone.post("tap", {**phone.form_of_picker(), "card": card})
    phone.act("cycle:AH")
    phone.act("who:AH:2")
    phone.act("cycle:AS")
    phone.act("who:AS:1")
    assert "won · Cy" in phone.page and "won · Bo" in phone.page
    phone.post("save", phone.form_posting_to("save"))
    deal = phone.state()["deals"][0]
    assert deal["points"] == [50, 70] and deal["entry"] == "capture" and deal["flags"] == []
    # Cy's ace of hearts won for Ana & Cy: 2 from Bo and from Di; Bo's ace of spades won: 2 from Ana and from Cy
    assert deal["jetons"] == [-2, 4 - 2, 4 - 2, -2] and phone.state()["jetons"] == [-2, 2, 2, -2]


# --- found in review: what a hand-made address or a stale page sends is refused or dropped, never a 500 -----------

@pytest.mark.parametrize("game, rows", [
    ("brouc", ["a:0", "a:x:KH.QH", "c:x", "d:0", "m:5:KH.QH", "a:7:KH.QH", "b:AH", "u:0:gold"]),
    ("brisca", ["l:x", "l:9"]),
    ("brusquembille", ["b:AH", "b:KH:0:won", "b:AH:9:won", "b:AH:0:lost"]),
])
def test_rows_no_tap_can_make_are_dropped_from_the_address_and_the_forms(csrf_client, game, rows):
    players = ["Ana", "Bo", "Cy", "Di"] if game != "brusquembille" else ["Ana", "Bo", "Cy"]
    phone = Phone(csrf_client, game, players)
    phone.numbers()
    phone.deal({"brouc": "KH", "brisca": "1O", "brusquembille": "9S"}[game])
    for row in rows:
        page = csrf_client.get(f"/t/{phone.id}?key={phone.key}&mode=numbers&v=60.&x={row}&pick={row}")
        assert page.status_code == 200, row
        fields = {**phone.form(), "v0": "60", "x": row, "pick": row}
        assert csrf_client.post(f"/t/{phone.id}/sheet/preview?key={phone.key}", data=fields).status_code == 200
        for action in ("save", f"pick:{row}", "add:a:H:KQ", f"cycle:{row}", f"who:{row}:0"):
            response = csrf_client.post(f"/t/{phone.id}/sheet?key={phone.key}", data={**fields, "act": action})
            assert response.status_code in (200, 303), (row, action)
    assert Sheet.read({"x": "~".join(rows)}, 2, players=len(players), sides=2).items == ()


def test_r_common_6_switching_side_while_entering_piles_keeps_what_was_tapped_beside_them(csrf_client):
    phone = Phone(csrf_client, "brouc", ["Ana", "Bo", "Cy", "Di"])
    phone.deal("KH")
    phone.go(f"/t/{phone.id}?key={phone.key}&mode=capture&side=0")
    phone.act("pick:a:0")
    phone.act("add:a:H:KQ")
    side_link = re.search(r'href="([^"]*side=1[^"]*)"', phone.page).group(1)
    phone.go(html.unescape(side_link))
    assert "Ana announces K♥ Q♥" in phone.page and "x=a:0:KH.QH" in html.unescape(side_link)


def test_leaving_piles_for_cards_is_remembered_and_a_rematch_keeps_the_tables_way(csrf_client):
    phone = Phone(csrf_client, "brisca", ["Ana", "Bo"])
    response = csrf_client.get(f"/t/{phone.id}/entry/capture?key={phone.key}")
    phone.go(response.headers["Location"])
    phone.deal("1O")
    assert "Tap every card of the pile" in phone.page
    back = re.search(r'href="([^"]*entry/trick[^"]*)"', phone.page).group(1)
    response = csrf_client.get(html.unescape(back))
    phone.go(response.headers["Location"])
    assert "Tap every card of the pile" not in phone.page and 'class="picker"' in phone.page
    csrf_client.get(f"/t/{phone.id}/entry/numbers?key={phone.key}")
    auth = {"Authorization": f"Bearer {phone.key}"}
    csrf_client.post(f"/api/v1/tables/{phone.id}/undo", headers=auth)
    for _ in range(3):
        csrf_client.post(f"/api/v1/tables/{phone.id}/events", json={"type": "deal", "trump": "1O"}, headers=auth)
        csrf_client.post(f"/api/v1/tables/{phone.id}/events", json={"type": "tally", "points": [70, 50]}, headers=auth)
    phone.go(f"/t/{phone.id}?key={phone.key}")
    response = phone.post("rematch", phone.form_posting_to("rematch"))
    assert response.status_code == 303 and "Set-Cookie" not in response.headers  # the table's, not a cookie's
    new_id = phone.url.split("/t/")[1].split("?")[0]
    assert new_id != phone.id and '<span class="button current" aria-current="true">Numbers</span>' in phone.page


def test_a_card_tapped_at_buraco_outside_a_meld_is_refused_with_a_sentence(csrf_client):
    phone = Phone(csrf_client, "buraco", ["Ana", "Bo"])
    phone.post("deal", {**phone.fields_after('action="/t/'), "dealer": "0"})
    fields = {"csrf_token": phone.form_posting_to("undo")["csrf_token"], "card": "KH"}
    response = csrf_client.post(f"/t/{phone.id}/tap?key={phone.key}", data=fields)
    assert response.status_code == 200 and "Buraco has no tricks" in response.text
