"""A phone's scoreboard shows the last deals row by row and sums up the earlier ones in one row, so that the scorer's
page and a viewer's live fragment cost and weigh the same at the two-hundredth deal as at the second (issue 15); the
whole series stays one link away, on the score sheet, and in the API."""
import gzip
import re

from referee.web.shared.filters import RECENT_DEALS
from tests.support.simulate import brisca_deal, brulot_deal

PLAYERS = ["Ana", "Bo", "Cy", "Di"]


def brulot_table(client, deals: int, seed: int = 3):
    events = [event for number in range(deals)
              for event in brulot_deal(4, number % 4, seed * 1000 + number, "dealer_last_card")[0]]
    created = client.post("/api/v1/import", json={"table": {"game": "brulot", "players": PLAYERS,
                                                            "options": {"deals": 1000}, "dealer": 0},
                                                  "events": events}).get_json()
    return created["id"], created["scorer_key"], created["viewer_key"]


def rows(html: str) -> list:
    """The board's row heads in order: deal numbers and the earlier deals' range."""
    return re.findall(r'<tr class="(?:deal|earlier)">\s*<th scope="row">([0-9–]+)', html)


def test_the_board_shows_the_last_deals_and_sums_the_earlier_ones_r_brulot_6(client):
    table_id, scorer, viewer = brulot_table(client, 20)
    state = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()
    shown = state["deals"][-RECENT_DEALS:]
    earlier = [sum(deal["points"][side] for deal in state["deals"][:-RECENT_DEALS]) for side in range(4)]
    assert [a + sum(d["points"][side] for d in shown) for side, a in enumerate(earlier)] == state["totals"]
    for key in (scorer, viewer):
        html = client.get(f"/t/{table_id}?key={key}&lang=en").get_data(as_text=True)
        assert rows(html) == ["1–14"] + [str(n) for n in range(15, 21)]
        row = re.search(r'<tr class="earlier">.*?</tr>', html, re.S).group(0)
        assert re.findall(r'<td class="num">(-?\d+)</td>', row) == [str(p) for p in earlier]
        why = f"deals 1 to 14: {earlier[0]} + deal 15: {shown[0]['points'][0]}"
        assert why in html  # the total's explanation still adds up (R-BRULOT-6)
        assert f'href="/t/{table_id}/sheet?key={key}"' in html and "Every deal of the series (20 deals)" in html
        assert html.count('<details class="tricks"') == 2  # the tricks of the last two deals only


def test_a_short_series_shows_every_deal_and_no_link(client):
    table_id, scorer, _ = brulot_table(client, RECENT_DEALS)
    html = client.get(f"/t/{table_id}?key={scorer}&lang=en").get_data(as_text=True)
    assert rows(html) == [str(n) for n in range(1, RECENT_DEALS + 1)]
    assert 'class="earlier"' not in html and "Every deal of the series" not in html


def test_brisca_deal_wins_of_the_earlier_deals_are_counted_r_brisca_6(client):
    events = []
    for number in range(8):  # eight deals, and no side has won seven yet (wins_needed 7)
        events += brisca_deal(2, number % 2, 40 + number)
    created = client.post("/api/v1/import", json={"table": {"game": "brisca", "players": ["Ana", "Bo"],
                                                            "options": {"wins_needed": 7}},
                                                  "events": events}).get_json()
    state = created["state"]
    hidden = state["deals"][:-RECENT_DEALS]
    wins = [sum(d["outcome"]["wins"] for d in hidden if d["outcome"]["winner"] == side) for side in (0, 1)]
    html = client.get(f"/t/{created['id']}?key={created['viewer_key']}&lang=en").get_data(as_text=True)
    assert rows(html)[0] == "1–2" and sum(wins) == 2
    for side in (0, 1):
        if wins[side]:
            assert f"deals 1 to 2: {wins[side]}," in html


def test_the_scorer_fragment_weighs_and_costs_the_same_at_200_deals_as_at_2(client):
    sizes = {}
    for deals in (2, 200):
        table_id, scorer, _ = brulot_table(client, deals, seed=deals)
        client.post(f"/api/v1/tables/{table_id}/events?key={scorer}", json={"type": "deal"})
        answer = client.get(f"/t/{table_id}?key={scorer}", headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
        assert answer.headers["Content-Encoding"] == "gzip"
        sizes[deals] = (len(answer.data), len(gzip.decompress(answer.data)))
    assert sizes[200][0] <= 8 * 1024  # on the wire
    assert sizes[200][1] <= 1.3 * sizes[2][1]  # the same screen: the earlier row and a link more
