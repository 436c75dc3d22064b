"""Buraco's count through the pages, without JavaScript and with htmx: nothing tapped in the count is lost (R-BURACO-6).
Every control of the count screen keeps the hands tapped, the player counted and who closed: the players' buttons,
"Closed by", the picker, +, Undo, the pot, the language switch, and the links that lead to a meld laid late — a side's
new meld, a meld's Extend, its wild card replaced. Such a meld, once stored, leads back to the count with its hands;
"Count the hand" comes back to it without storing anything. The way of entry (cards or numbers) is not offered during
the count: it cannot apply to a hand with melds. Each answer is checked in its address and in the stored events."""
import re
from urllib.parse import parse_qs, urlsplit

from tests.support.picker import Phone, address

LAID = ({"type": "deal", "dealer": 0},
        {"type": "meld", "side": 0, "cards": ["5D", "6D", "7D"]},
        {"type": "meld", "side": 1, "cards": ["3C", "4C", "5C", "6C", "7C", "8C", "9C"]},  # a burraco
        {"type": "meld", "side": 1, "cards": ["4H", "JK", "6H"]},
        {"type": "pot", "side": 1})
COUNT = {"mode": "count", "player": "1", "hands": "3S~KD.KD~~", "closed_by": "3"}  # Ana holds 3♠, Bo K♦ K♦; Di closed


def counting(client) -> Phone:
    """Ana's and Bo's hands tapped in the count, Di closing (R-BURACO-5: her side has the pot and a burraco), as a
    scorer taps them; the page shows Bo's hand."""
    phone = Phone(client, events=LAID)
    phone.go(link(phone, "bur-count-link"))
    phone.go(link(phone, "bur-players", "Ana (0)"))
    phone.tap("3S")
    phone.go(link(phone, "bur-players", "Bo (0)"))
    phone.tap("KD")
    phone.another()
    closer = phone.fields_after('class="inline bur-closed"')
    assert closer == {"key": phone.key, "mode": "count", "player": "1", "hands": "3S~KD.KD~~"}
    phone.go(f"/t/{phone.id}?" + "&".join(f"{k}={v}" for k, v in {**closer, "closed_by": "3"}.items()))
    assert phone.entry() == COUNT and phone.laying() == ["K♦", "K♦"]
    return phone


def link(phone: Phone, within: str, text: str | None = None) -> str:
    """The address of the first link inside the element of class ``within`` (whose text is ``text``, if given)."""
    start = phone.page.rindex("<", 0, phone.page.index(f'class="{within}'))  # the element that has it
    for found in re.finditer(r'<a [^>]*href="([^"]*)"[^>]*>([^<]*)</a>', phone.page[start:]):
        if text is None or found.group(2) == text:
            return found.group(1).replace("&amp;", "&")
    raise AssertionError(f"no link {text!r} in {within}")


def hrefs(page: str, marker: str) -> list:
    return [href.replace("&amp;", "&") for href in re.findall(marker + r'[^>]*href="([^"]*)"', page)]


def test_r_buraco_6_every_link_of_the_count_screen_keeps_its_hands_and_who_closed(csrf_client):
    phone = counting(csrf_client)
    kept = {k: COUNT[k] for k in ("player", "hands", "closed_by")}
    sides = hrefs(phone.page, r'aria-label="New meld: [^"]*"')
    assert [address(h) for h in sides] == [{"mode": "meld", "side": "0", **kept}, {"mode": "meld", "side": "1", **kept}]
    extends = hrefs(phone.page, 'class="button small bur-extend"')
    assert [address(h) for h in extends] == [{"mode": "extend", "side": "0", "meld": "0", **kept},
                                             {"mode": "extend", "side": "1", "meld": "0", **kept},
                                             {"mode": "extend", "side": "1", "meld": "1", **kept}]
    assert [address(h) for h in hrefs(phone.page, 'class="button small bur-replace"')] == [
        {"mode": "replace", "side": "1", "meld": "1", **kept}]
    assert address(link(phone, "bur-count-link")) == COUNT  # the count itself: as it is
    assert [address(h) for h in hrefs(phone.page, '<a class="button[^"]*" (?:aria-current="true" )?')
            if "player=" in h and "mode=count" in h][:4] == [
        {**COUNT, "player": str(n)} for n in range(4)]
    # The language switch comes back to the count; the way of entry (cards, numbers) is not offered during it.
    switch = [parse_qs(urlsplit(h).query)["next"][0] for h in hrefs(phone.page, "<a ") if h.startswith("/lang/")]
    assert len(switch) == 6 and all(address(target) == COUNT for target in switch)
    assert 'class="entry-switch"' not in phone.page
    # The forms: the picker, Undo, the pot and the save carry the hands and who closed (+: counting() above).
    for marker in ('class="picker bur-picker"', 'class="undo"', 'class="inline bur-pot"',
                   'action="/t/' + phone.id + '/save'):
        fields = phone.fields_after(marker)
        assert (fields["mode"], fields["player"], fields["hands"], fields["closed_by"]) == \
               ("count", "1", "3S~KD.KD~~", "3"), marker
    response = phone.post("pot", {**phone.fields_after('class="inline bur-pot"'), "pot": "0"})
    assert address(response.headers["Location"]) == COUNT and phone.stored()[-1] == {"type": "pot", "side": 0}


def test_r_buraco_6_a_meld_laid_late_during_the_count_leads_back_to_the_count_with_its_hands(csrf_client):
    phone = counting(csrf_client)
    phone.go(hrefs(phone.page, 'aria-label="New meld: Ana &amp; Cy"')[0])
    assert phone.entry() == {"mode": "meld", "side": "0", "player": "1", "hands": "3S~KD.KD~~", "closed_by": "3"}
    assert 'data-left="0"' in phone.picker_button("KD")  # both K♦ in Bo's hand: none left for the meld
    for code in ("QH", "QS", "QC"):
        phone.tap(code)
    assert phone.entry()["pending"] == "QH.QS.QC" and phone.entry()["hands"] == "3S~KD.KD~~"
    response = phone.lay()
    assert response.status_code == 303 and address(response.headers["Location"]) == COUNT
    assert phone.stored()[-1] == {"type": "meld", "side": 0, "cards": ["QH", "QS", "QC"]}
    assert phone.laying() == ["K♦", "K♦"]
    phone.post("save", phone.form_posting_to("save"))
    assert phone.stored()[-1] == {"type": "count", "closed_by": 3, "hands": [["3S"], ["KD", "KD"], [], []]}
    assert phone.entry() == {}  # the hand counted: the next one is dealt


def test_r_buraco_6_7_an_extension_at_the_start_during_the_count_leads_back_to_it_with_htmx(csrf_client):
    phone = counting(csrf_client)
    phone.go(hrefs(phone.page, 'class="button small bur-extend"')[0])  # Ana & Cy's 5♦ 6♦ 7♦
    phone.tap("4D")
    start = link(phone, "button bur-at")
    assert address(start) == {"mode": "extend", "side": "0", "meld": "0", "at": "start", "pending": "4D",
                              "player": "1", "hands": "3S~KD.KD~~", "closed_by": "3"}
    phone.go(start)
    response = csrf_client.post(f"/t/{phone.id}/save?key={phone.key}", data=phone.form_posting_to("save"),
                                headers={"HX-Request": "true"})
    assert response.status_code == 200 and address(response.headers["HX-Replace-Url"]) == COUNT
    assert 'id="bur-count"' in response.get_data(as_text=True)
    assert phone.stored()[-1] == {"type": "extend", "side": 0, "meld": 0, "cards": ["4D"], "at": "start"}


def test_r_buraco_6_7_a_wild_card_replaced_during_the_count_leads_back_to_it(csrf_client):
    phone = counting(csrf_client)
    phone.go(hrefs(phone.page, 'class="button small bur-replace"')[0])  # Bo & Di's 4♥ JK 6♥
    response = phone.tap("5H")
    assert address(response.headers["Location"]) == COUNT
    assert phone.stored()[-1] == {"type": "replace", "side": 1, "meld": 1, "card": "5H"}


def test_r_buraco_6_count_the_hand_comes_back_from_a_detour_and_stores_nothing(csrf_client):
    phone = counting(csrf_client)
    before = phone.stored()
    phone.go(hrefs(phone.page, 'class="button small bur-extend"')[1])  # Bo & Di's burraco of clubs
    phone.tap("10C")
    assert address(link(phone, "bur-count-link")) == COUNT
    phone.go(link(phone, "bur-count-link"))
    assert phone.entry() == COUNT and phone.laying() == ["K♦", "K♦"] and phone.stored() == before


def test_r_buraco_6_an_undo_in_a_detour_withdraws_the_last_entry_and_leads_back_to_the_count(csrf_client):
    phone = counting(csrf_client)
    phone.go(hrefs(phone.page, 'aria-label="New meld: Bo &amp; Di"')[0])
    response = phone.post("undo", phone.form_posting_to("undo"))  # nothing tapped: the last entry is withdrawn
    assert address(response.headers["Location"]) == COUNT
    assert phone.stored() == list(LAID[:-1])  # the pot


def test_r_buraco_7_without_a_count_under_way_the_links_lead_where_they_did(csrf_client):
    """Nothing tapped in the count, nobody named as closing: there is nothing to keep, and the side chosen for a meld
    stays chosen after it, as before (the count is one tap away)."""
    phone = Phone(csrf_client, events=LAID)
    phone.open(mode="count", player=2)
    assert address(hrefs(phone.page, 'aria-label="New meld: Bo &amp; Di"')[0]) == {"mode": "meld", "side": "1"}
    assert address(link(phone, "bur-count-link")) == {"mode": "count", "player": "0"}
    phone.go(hrefs(phone.page, 'aria-label="New meld: Bo &amp; Di"')[0])
    for code in ("9S", "9H", "9C"):
        phone.tap(code)
    assert address(phone.lay().headers["Location"]) == {"mode": "meld", "side": "1"}
