"""Buraco's meld picker through the pages, without JavaScript (Flask's client posting the page's own forms, as the
browser would) and with htmx (the same posts, the fragment and its address): a tap takes a card, a tap on a card
taken takes it back (all its copies), and + takes one more copy of the card tapped last while the two decks hold one
(R-BURACO-1); the side chosen for a new meld stays chosen after a meld, an extension, a replacement, a pot or an
undo; each meld on the table has its own "Extend" beside it and a run with a wild card its "Replace the wild card"
(R-BURACO-7). The entry in progress lives in the address: each answer is checked there (mode, side, pending cards,
hands) and in the stored events."""
from urllib.parse import urlsplit

import pytest


from tests.support.picker import Phone, address

LAYING_SENTENCE = "Tap a card again to take it back; + adds another copy of it."


def test_r_buraco_1_a_card_tapped_again_is_taken_back_and_the_address_says_so(csrf_client):
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=1)
    assert LAYING_SENTENCE in phone.page
    phone.tap("7H")
    assert phone.entry() == {"mode": "meld", "pending": "7H", "side": "1"}
    button = phone.picker_button("7H")
    assert 'aria-pressed="true"' in button and 'data-taken="1"' in button and 'data-left="1"' in button
    assert '<span aria-hidden="true">+7♥</span><span class="sr-only">One more copy: 7 of hearts</span>' in phone.page
    phone.tap("7H")  # the same card again: taken back, nothing tapped
    assert phone.entry() == {"mode": "meld", "side": "1"}
    assert phone.laying() == [] and 'class="bur-more"' not in phone.page
    button = phone.picker_button("7H")
    assert 'aria-pressed="false"' in button and 'data-taken="0"' in button and 'data-left="2"' in button
    assert phone.stored() == [{"type": "deal", "dealer": 0}]  # a tap stores nothing


def test_r_buraco_1_both_copies_through_plus_and_a_tap_takes_both_back(csrf_client):
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=0)
    phone.tap("7S")
    phone.tap("7H")
    phone.another()
    assert phone.entry() == {"mode": "meld", "pending": "7S.7H.7H", "side": "0"}
    button = phone.picker_button("7H")
    assert 'data-left="0"' in button and 'data-taken="2"' in button and "disabled" not in button  # still taken back
    assert ">×2<" in phone.page and 'class="bur-more"' not in phone.page  # both tapped: no + for a third
    phone.tap("7H")  # a tap on a card taken takes back all its copies
    assert phone.entry() == {"mode": "meld", "pending": "7S", "side": "0"} and phone.laying() == ["7♠"]
    phone.tap("7H")
    phone.another()
    phone.tap("7C")
    assert phone.laying() == ["7♠", "7♥", "7♥", "7♣"]
    phone.lay()
    assert phone.stored()[-1] == {"type": "meld", "side": 0, "cards": ["7S", "7H", "7H", "7C"]}
    assert "disabled" in phone.picker_button("7H")  # both 7♥ on the table now: none left to tap


def test_r_buraco_1_a_third_copy_through_plus_is_refused_with_a_sentence(csrf_client):
    phone = Phone(csrf_client, events=({"type": "deal", "dealer": 0},
                                       {"type": "meld", "side": 0, "cards": ["7H", "7S", "7C"]}))
    phone.open(mode="meld", side=1, pending="7H")  # the other 7♥: no + for it, the decks hold none more
    assert 'class="bur-more"' not in phone.page
    fields = {**phone.fields_after('class="picker bur-picker"'), "card": "7H", "copy": "another"}
    response = phone.post("tap", fields)
    assert response.status_code == 200
    assert phone.refusal() == "The two decks hold only 2 of 7 of hearts: this would be one more."
    assert phone.laying() == ["7♥"] and len(phone.stored()) == 2


def test_r_buraco_7_the_side_stays_chosen_after_each_meld_without_javascript(csrf_client):
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=1)
    for code in ("9S", "10S", "JS"):
        phone.tap(code)
    response = phone.lay()
    assert response.status_code == 303 and address(response.headers["Location"]) == {"mode": "meld", "side": "1"}
    assert urlsplit(response.headers["Location"]).fragment == "picker"
    assert phone.stored()[-1] == {"type": "meld", "side": 1, "cards": ["9S", "10S", "JS"]}
    assert 'class="button current" aria-current="true" aria-label="New meld: Bo &amp; Di"' in phone.page
    phone.tap("5D")
    phone.tap("6D")
    phone.tap("7D")
    phone.lay()
    assert phone.entry() == {"mode": "meld", "side": "1"}
    assert phone.stored()[-1] == {"type": "meld", "side": 1, "cards": ["5D", "6D", "7D"]}


def test_r_buraco_7_the_side_stays_chosen_with_htmx_in_the_fragments_address(csrf_client):
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=1, pending="KC.QC.JC")
    response = csrf_client.post(f"/t/{phone.id}/save?key={phone.key}", data=phone.form_posting_to("save"),
                                headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert address(response.headers["HX-Replace-Url"]) == {"mode": "meld", "side": "1"}
    fragment = response.get_data(as_text=True)
    assert fragment.strip().startswith('<div id="scorer"')
    assert 'aria-current="true" aria-label="New meld: Bo &amp; Di"' in fragment
    assert phone.stored()[-1] == {"type": "meld", "side": 1, "cards": ["KC", "QC", "JC"]}


def test_r_buraco_7_picking_the_other_side_keeps_the_cards_tapped(csrf_client):
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=0)
    phone.tap("KC")
    phone.tap("QC")
    link = phone.page[phone.page.index('aria-label="New meld: Bo &amp; Di"'):]
    href = link[link.index('href="') + 6:].split('"')[0].replace("&amp;", "&")
    assert address(href) == {"mode": "meld", "side": "1", "pending": "KC.QC"}
    phone.go(href)
    assert phone.laying() == ["K♣", "Q♣"] and phone.entry()["side"] == "1"


def test_r_buraco_7_each_meld_has_its_own_extend_and_the_side_stays_after_it(csrf_client):
    phone = Phone(csrf_client, events=({"type": "deal", "dealer": 0},
                                       {"type": "meld", "side": 0, "cards": ["KC", "QC", "JC"]},
                                       {"type": "meld", "side": 1, "cards": ["5D", "6D", "7D"]},
                                       {"type": "meld", "side": 1, "cards": ["9S", "9H", "9C"]}))
    phone.open(mode="meld", side=0)  # a meld being built: the melds on the table stay unfolded below it
    assert "<details class=\"team" not in phone.page
    links = [part.split('"')[0].replace("&amp;", "&") for part in phone.page.split('class="button small bur-extend" href="')[1:]]
    assert [address(link) for link in links] == [{"mode": "extend", "side": "0", "meld": "0"},
                                                 {"mode": "extend", "side": "1", "meld": "0"},
                                                 {"mode": "extend", "side": "1", "meld": "1"}]
    phone.go(links[2])  # Bo & Di's set of nines
    assert 'aria-current="true" href="' + links[2].replace("&", "&amp;") in phone.page
    phone.tap("9D")
    assert phone.entry() == {"mode": "extend", "side": "1", "meld": "1", "pending": "9D"}
    response = phone.lay()
    assert address(response.headers["Location"]) == {"mode": "meld", "side": "1"}
    assert phone.stored()[-1] == {"type": "extend", "side": 1, "meld": 1, "cards": ["9D"], "at": "end"}


def test_r_buraco_7_the_wild_card_is_replaced_from_beside_its_meld_and_the_side_stays(csrf_client):
    phone = Phone(csrf_client, events=({"type": "deal", "dealer": 0},
                                       {"type": "meld", "side": 0, "cards": ["4D", "JK", "6D"]}))
    phone.open(mode="meld", side=0)
    start = phone.page.index('class="button small bur-replace" href="')
    href = phone.page[start:].split('href="')[1].split('"')[0].replace("&amp;", "&")
    assert address(href) == {"mode": "replace", "side": "0", "meld": "0"}
    phone.go(href)
    response = phone.tap("5D")  # the natural card: stored at once
    assert address(response.headers["Location"]) == {"mode": "meld", "side": "0"}
    assert phone.stored()[-1] == {"type": "replace", "side": 0, "meld": 0, "card": "5D"}


def test_r_buraco_1_the_pot_goes_to_the_side_whose_button_is_tapped_and_the_chosen_side_stays(csrf_client):
    """The pot's button names its side in its own field: the entry's side (the side chosen for a new meld) is another
    side, and the second side's pot was stored for the first one's."""
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=0, pending="KC")
    fields = phone.fields_after('class="inline bur-pot"')
    assert fields["side"] == "0"
    response = phone.post("pot", {**fields, "pot": "1"})
    assert phone.stored()[-1] == {"type": "pot", "side": 1}
    assert address(response.headers["Location"]) == {"mode": "meld", "side": "0", "pending": "KC"}


def test_r_buraco_7_an_undo_with_nothing_tapped_withdraws_the_meld_and_the_side_stays(csrf_client):
    phone = Phone(csrf_client, events=({"type": "deal", "dealer": 0},
                                       {"type": "meld", "side": 1, "cards": ["KC", "QC", "JC"]}))
    phone.open(mode="meld", side=1)
    response = phone.post("undo", phone.form_posting_to("undo"))
    assert address(response.headers["Location"]) == {"mode": "meld", "side": "1"}
    assert phone.stored() == [{"type": "deal", "dealer": 0}]


def test_r_buraco_6_the_count_takes_a_card_back_and_a_second_copy_through_plus(csrf_client):
    phone = Phone(csrf_client)
    phone.open(mode="count", player=1)
    phone.tap("KD")
    phone.tap("KD")
    assert phone.entry() == {"mode": "count", "player": "1", "hands": "~~~"}
    phone.tap("KD")
    phone.another()
    phone.tap("4S")
    assert phone.entry() == {"mode": "count", "player": "1", "hands": "~KD.KD.4S~~"}
    assert phone.laying() == ["K♦", "K♦", "4♠"]


@pytest.mark.parametrize("query", ["mode=meld&side=0&pending=7H.7H.7H", "mode=count&player=0&hands=JK.JK.JK.JK.JK"])
def test_r_buraco_1_an_address_with_more_copies_than_the_decks_shows_no_plus(csrf_client, query):
    phone = Phone(csrf_client)
    phone.go(f"/t/{phone.id}?key={phone.key}&{query}")
    assert 'class="bur-more"' not in phone.page


def test_r_buraco_7_a_meld_sent_twice_is_stored_once_and_the_side_stays_chosen(csrf_client):
    """A double tap on "Lay the meld" (the same form twice): one meld stored, and the second answer, the one the phone
    shows last, still has the side chosen."""
    phone = Phone(csrf_client)
    phone.open(mode="meld", side=1, pending="KC.QC.JC")
    form = phone.form_posting_to("save")
    first = csrf_client.post(f"/t/{phone.id}/save?key={phone.key}", data=form)
    again = csrf_client.post(f"/t/{phone.id}/save?key={phone.key}", data=form, headers={"HX-Request": "true"})
    assert address(first.headers["Location"]) == {"mode": "meld", "side": "1"}
    assert again.status_code == 200 and address(again.headers["HX-Replace-Url"]) == {"mode": "meld", "side": "1"}
    assert phone.stored() == [{"type": "deal", "dealer": 0}, {"type": "meld", "side": 1, "cards": ["KC", "QC", "JC"]}]
