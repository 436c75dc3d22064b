"""A flag raised by an entry (a revoke, an under-trump) shows in the scorer's status bar, not only in the scoreboard
far below: one line in the page's language however many flags (the newest in a few words with its rule, "+n" for
the others), from the entry that raised it until the next deal starts (R-COMMON-4). Through Flask's client (the HTML)
and in Chromium at 360×740 (the line's box inside the status bar, one line high)."""
import re

import pytest

from tests.support.browser import PHONE, new_phone, shot

BROUC = ["Raphaël", "Agnès", "Théo", "Mireille"]
# Raphaël deals (9D turned, he keeps it), Agnès leads. Trick 3: hearts led, Raphaël discards 7S; trick 4 he plays AH.
BROUC_TRICKS = [["7C", "8C", "9C", "10C"],  # Agnès leads, Raphaël's 10C wins
                ["8S", "AS", "KS", "QS"],  # Raphaël leads, Agnès's AS wins
                ["KH", "8H", "9H", "7S"],  # Agnès leads hearts; Raphaël plays 7S
                ["QH", "JH", "10H", "AH"]]  # … then AH: the revoke of trick 3 is proved (R-BROUC-3)
BRULOT = ["Ginette", "Sylvie", "Réjean", "Gaétan"]
# No trump (trump_without_widow none), Ginette deals, Sylvie leads. Réjean plays a heart on spades in trick 1,
# Gaétan a diamond on clubs in trick 2; Gaétan then plays 9C (trick 3), Réjean 10S (trick 4): two revokes.
BRULOT_TRICKS = [["AS", "2H", "3S", "4S"], ["5C", "2C", "4D", "6C"], ["7C", "8C", "3H", "9C"],
                 ["KS", "QS", "JS", "10S"]]


def made(client, game, players, options, trump, tricks) -> str:
    """A table through the API with its deal and ``tricks``: its scorer page's address."""
    created = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
    key = created["scorer_key"]
    for body in [{"type": "deal", "trump": trump, "dealer": 0}] + [{"type": "trick", "cards": c} for c in tricks]:
        answer = client.post(f"/api/v1/tables/{created['id']}/events", json=body,
                             headers={"Authorization": f"Bearer {key}"})
        assert answer.status_code == 201, answer.get_json()
    return created["scorer_url"].split("://", 1)[-1].partition("/")[2]


def flags_line(page: str) -> str | None:
    found = re.search(r'<p class="status-flags">(.*?)</p>', page, re.S)
    if found is None:
        return None
    shown = re.sub(r'<span class="sr-only">.*?</span>', "", found.group(1), flags=re.S)
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", shown)).strip()  # a no-break space stays one


def page_of(client, url, lang="en") -> str:
    return client.get("/" + url, headers={"Accept-Language": lang}).get_data(as_text=True)


def test_r_brouc_3_a_revoke_shows_in_the_status_bar_from_the_trick_that_proves_it(client):
    url = made(client, "brouc", BROUC, {}, "9D", BROUC_TRICKS[:3])
    assert flags_line(page_of(client, url)) is None  # the discard proves nothing yet
    url = made(client, "brouc", BROUC, {}, "9D", BROUC_TRICKS)
    page = page_of(client, url)
    assert flags_line(page) == "⚠ Revoke: Raphaël, trick 3 R-BROUC-3"
    status = page[page.index('<section class="status-bar'):page.index("</section>")]
    assert 'class="status-flags"' in status  # in the status bar itself, not only in the scoreboard
    assert "Raphaël did not follow hearts in trick 3, yet held ace of hearts." in status  # read out in full
    assert flags_line(page_of(client, url, "fr")) == "⚠ Renonce\u00a0: Raphaël, pli 3 R-BROUC-3"
    assert flags_line(page_of(client, url, "de")) == "⚠ Farbe nicht angegeben: Raphaël, Stich 3 R-BROUC-3"


def test_r_brulot_3_two_revokes_make_one_line_the_newest_and_plus_one(client):
    url = made(client, "brulot", BRULOT, {"trump_without_widow": "none"}, None, BRULOT_TRICKS[:3])
    assert flags_line(page_of(client, url)) == "⚠ Revoke: Gaétan, trick 2 R-BRULOT-3"
    url = made(client, "brulot", BRULOT, {"trump_without_widow": "none"}, None, BRULOT_TRICKS)
    page = page_of(client, url)
    assert flags_line(page) == "⚠ Revoke: Réjean, trick 1 R-BRULOT-3 +1"
    assert page.count('class="status-flags"') == 1
    assert flags_line(page_of(client, url, "es")) == "⚠ Renuncio: Réjean, baza 1 R-BRULOT-3 +1"


def test_r_common_4_the_flags_stay_until_the_next_deal_starts(client):
    """The line stays once the deal is over (a flag raised by a deal's last trick is seen too) and goes with the next
    deal's first entry; the scoreboard keeps every flag."""
    rest = [["9D", "7D", "8D", "10D"], ["JD", "QD", "KD", "AD"], ["JC", "QC", "KC", "AC"], ["9S", "10S", "JS", "7H"]]
    url = made(client, "brouc", BROUC, {}, "9D", BROUC_TRICKS + rest)
    table_id, key = url.split("/")[1].split("?")[0], url.split("key=")[1]
    state = client.get(f"/api/v1/tables/{table_id}", headers={"Authorization": f"Bearer {key}"}).get_json()
    assert state["deals"][0]["complete"] is True
    assert flags_line(page_of(client, url)) == "⚠ Revoke: Raphaël, trick 3 R-BROUC-3"
    client.post(f"/api/v1/tables/{table_id}/events", json={"type": "deal", "trump": "7D"},
                headers={"Authorization": f"Bearer {key}"})
    page = page_of(client, url)
    assert flags_line(page) is None and "Raphaël did not follow hearts in trick 3" in page  # the scoreboard's


@pytest.mark.parametrize("game, players, options, trump, tricks, line", [
    ("brouc", BROUC, {}, "9D", BROUC_TRICKS, "⚠ Renonce : Raphaël, pli 3"),
    ("brulot", BRULOT, {"trump_without_widow": "none"}, None, BRULOT_TRICKS, "⚠ Renonce : Réjean, pli 1"),
], ids=["brouc-revoke", "brulot-two-revokes"])
def test_the_flags_line_is_one_line_inside_the_status_bar_at_360(server, browser, game, players, options, trump,
                                                                 tricks, line):
    import json
    import urllib.request

    def call(path, body, key=None):
        request = urllib.request.Request(server.url + path, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  **({"Authorization": f"Bearer {key}"} if key else {})})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    created = call("/api/v1/tables", {"game": game, "players": players, "options": options})
    for body in [{"type": "deal", "trump": trump, "dealer": 0}] + [{"type": "trick", "cards": c} for c in tricks]:
        call(f"/api/v1/tables/{created['id']}/events", body, created["scorer_key"])
    context, page, _, problems = new_phone(browser, "fr-CH")
    page.goto(created["scorer_url"])
    flags = page.locator(".status-bar .status-flags")
    assert flags.count() == 1 and flags.locator(".flag-line").inner_text().replace("\u00a0", " ") == line
    bar, box, text = (page.locator(".status-bar").bounding_box(), flags.bounding_box(),
                      flags.locator(".flag-line").bounding_box())
    assert bar["y"] <= box["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"]  # inside the bar
    assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]
    line_height = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.status-flags .flag-line'))"
                                ".lineHeight)")
    assert text["height"] <= line_height + 1 and box["height"] <= line_height + 4  # one line, not two
    more = flags.locator(".flag-more")
    assert more.count() == (1 if game == "brulot" else 0)
    if more.count():  # "+1" in view, at the line's end
        plus = more.bounding_box()
        assert plus["x"] + plus["width"] <= PHONE["width"] and more.inner_text() == "+1"
    shot(page, f"status-flags-{game}-360")
    assert problems == []
    context.close()
