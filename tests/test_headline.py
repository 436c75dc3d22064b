"""Every page leads with the series' standing in the series' own unit (series.standing; in words by
referee/web/shared/headline.py): the scorer's status bar, the viewer, the scoreboard's winner, the big screen and the
printed sheet name the leader ("Montse mène 2 – 1") or the winner ("Montse gagne la série 3 – 2"), in every
language. A Brisca series is won in deals (R-BRISCA-6), whatever the card points: Montse wins 3 deals to 2 with 223
card points to Jordi's 377, and no page's headline says the card points. Flask's test client."""
import html
import re

import pytest

from referee.languages import LANGUAGES
from tests.support.deals import MONTSE_WINS, deals
from tests.support.text import NNBSP


def table(client, game, players, events, **options):
    made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
    for body in events:
        answer = client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                             headers={"Authorization": f"Bearer {made['scorer_key']}"})
        assert answer.status_code == 201, answer.get_json()
    return made


def words(fragment: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()  # NNBSP kept


def headlines(page: str, kind: str) -> list:
    """The text of each headline of a kind (status-headline, viewer-headline, winner, result) on a page."""
    found = re.findall(r'<p class="headline ' + kind + r'">(.*?)</p>', page, re.S)
    return [words(f) for f in found]


def main_of(page: str) -> str:
    found = re.search(r'<span class="headline-main">(.*?)</span>\s*(?:<span class="(?:chip|fit)|</p>)', page, re.S)
    return words(found[1])


def pages(client, made, lang="fr"):
    scorer = client.get(f"/t/{made['id']}?key={made['scorer_key']}&lang={lang}").get_data(as_text=True)
    viewer = client.get(f"/t/{made['id']}?key={made['viewer_key']}&lang={lang}").get_data(as_text=True)
    screen = client.get(f"/t/{made['id']}/screen?key={made['viewer_key']}&lang={lang}").get_data(as_text=True)
    sheet = client.get(f"/t/{made['id']}/sheet?key={made['viewer_key']}&lang={lang}").get_data(as_text=True)
    return scorer, viewer, screen, sheet


def test_r_brisca_6_a_series_won_with_fewer_card_points_is_headlined_by_its_deals_3_2_on_every_page(client):
    made = table(client, "brisca", ["Montse", "Jordi"], deals(MONTSE_WINS))
    scorer, viewer, screen, sheet = pages(client, made)
    won = f"Montse gagne la série 3{NNBSP}–{NNBSP}2 donnes gagnées"
    assert headlines(scorer, "status-headline") == [won]
    assert headlines(scorer, "") == [won] and headlines(viewer, "") == [won]  # the scoreboard's winner
    assert headlines(sheet, "result") == [won]
    assert re.findall(r'class="screen-total">([^<]*)<', screen) == ["3", "2"]  # the giant numbers: deals won
    assert words(re.search(r'<p class="winner-line">(.*?)</p>', screen, re.S)[1]) == \
        f"Montse gagne la série 3{NNBSP}–{NNBSP}2"
    assert re.findall(r'<span class="total">([^<]*)</span>', screen) == ["3", "2"]
    assert re.findall(r'class="lbl detail">([^<]*)<', screen) == ["223 points des cartes", "377 points des cartes"] * 2
    for page in (scorer, viewer, sheet):  # the card points are on the boards, never in a headline
        lines = re.findall(r'<p class="headline[^>]*>.*?</p>', page, re.S)
        assert lines and all("223" not in h and "377" not in h for h in lines)


@pytest.mark.parametrize("lang, leads, wins", [
    ("fr", f"Montse mène 2{NNBSP}–{NNBSP}1", f"Montse gagne la série 3{NNBSP}–{NNBSP}2"),
    ("en", "Montse leads 2–1", "Montse wins the series 3–2"),
    ("es", "Montse lidera 2-1", "Montse gana la serie 3-2"),
    ("ca", "Montse lidera 2-1", "Montse guanya la sèrie 3-2"),
    ("it", "Montse in testa 2-1", "Montse vince la serie 3-2"),
    ("pt_BR", "Montse lidera 2-1", "Montse vence a partida por 3-2"),
    ("de", "Montse führt 2:1", "Montse gewinnt die Serie 3:2")])
def test_r_brisca_6_the_leader_and_the_winner_in_every_language(client, lang, leads, wins):
    assert set(LANGUAGES) >= {lang}
    during = table(client, "brisca", ["Montse", "Jordi"], deals(MONTSE_WINS[:3]))
    over = table(client, "brisca", ["Montse", "Jordi"], deals(MONTSE_WINS))
    for page in pages(client, during, lang)[:2]:
        assert main_of(page.split('class="headline', 1)[1]) == leads
    for page in pages(client, over, lang)[:2]:
        assert main_of(page.split('class="headline', 1)[1]) == wins


def test_r_brisca_6_level_deals_say_level_and_the_leader_comes_first_in_the_score(client):
    level = table(client, "brisca", ["Montse", "Jordi"], deals(MONTSE_WINS[:2]))
    assert headlines(pages(client, level)[0], "status-headline") == [f"Égalité 1{NNBSP}–{NNBSP}1 donnes gagnées"]
    jordi = table(client, "brisca", ["Montse", "Jordi"], deals([[20, 100]]))
    assert headlines(pages(client, jordi, "en")[1], "viewer-headline") == ["Jordi leads 1–0 deals won"]


def test_r_brisca_6_during_a_deal_its_card_points_come_small_after_the_headline_in_the_same_order(client):
    made = table(client, "brisca", ["Montse", "Jordi"], deals([[20, 100]]) + [
        {"type": "deal", "trump": "1O"}, {"type": "trick", "cards": ["3O", "1C"]}])  # Jordi's 1–0; Montse 21
    scorer, viewer, *_ = pages(client, made, "en")
    assert headlines(scorer, "status-headline") == ["Jordi leads 1–0 deals won deal 0–21"]  # the unit, then the deal where it fits
    assert headlines(viewer, "viewer-headline") == ["Jordi leads 1–0 deals won deal 0–21"]
    assert re.findall(r'<strong data-side="(\d)">(\d+)</strong>', scorer) == [("1", "0"), ("0", "21")]


def test_r_brisca_7_equal_deal_wins_broken_by_the_card_points_say_so(client):
    made = table(client, "brisca", ["Montse", "Jordi"], [b for p in ([70, 50], [50, 70], [61, 59], [20, 100])
                                                         for b in ({"type": "deal"}, {"type": "tally", "points": p})],
                 trump_rotation=True)
    scorer, _, screen, _ = pages(client, made, "en")
    assert headlines(scorer, "status-headline") == ["Jordi wins the series 2–2 on points deals won"]
    assert re.findall(r'class="screen-total">([^<]*)<', screen) == ["2", "2"]


BROUC = ["Ana", "Bo", "Cy", "Di"]


def test_r_brouc_6_7_the_slate_in_tens_with_the_coches_beside_it(client):
    partie = deals([[90, 30]] * 4, "7D")  # 36–12: out at 31, a coche to Bo & Di; the slates start again
    made = table(client, "brouc", BROUC, partie + deals([[44, 76]], "7D"))  # then 4 to 8
    scorer, viewer, screen, sheet = pages(client, made)
    line = f"Bo & Di mènent 8{NNBSP}–{NNBSP}4 à l'ardoise coches 1{NNBSP}–{NNBSP}0"
    assert headlines(viewer, "viewer-headline") == [line] and headlines(sheet, "result") == [line]
    assert headlines(scorer, "status-headline") == [  # the unit last, where it fits
        f"Bo & Di mènent 8{NNBSP}–{NNBSP}4 coches 1{NNBSP}–{NNBSP}0 à l'ardoise"]
    assert re.findall(r'class="screen-total">([^<]*)<', screen) == ["8", "4"]  # the scorer's side on the right


def test_r_brouc_7_the_evening_won_by_the_fewer_coches(client):
    made = table(client, "brouc", BROUC, deals([[90, 30]] * 4, "7D"), coches_to_lose=1)
    scorer, viewer, screen, _ = pages(client, made, "en")
    assert headlines(scorer, "status-headline") == ["Ana & Cy win the series 0–1 coches"]
    assert words(re.search(r'<p class="winner-line">(.*?)</p>', screen, re.S)[1]) == "Ana & Cy win the series 0–1"


def test_r_brulot_6_the_lowest_penalties_lead_and_a_shared_win_names_both(client):
    three = ["Ginette", "Sylvie", "Réjean"]
    tally = [{"type": "deal", "trump": "2D"}, {"type": "tally", "penalties": [9, 13, 18]}]
    during = table(client, "brulot", three, tally, deals=2)
    assert headlines(pages(client, during)[0], "status-headline") == [
        "Ginette mène avec 9 Sylvie 13 Réjean 18 points de pénalité"]
    shared = table(client, "brulot", three, tally + [{"type": "deal", "trump": "2D"},
                                                     {"type": "tally", "penalties": [13, 9, 18]}], deals=2)
    scorer, _, screen, sheet = pages(client, shared)
    assert headlines(scorer, "status-headline") == [
        "Victoire partagée à 22\u00a0: Ginette, Sylvie Réjean 36 points de pénalité"]
    assert headlines(sheet, "result") == headlines(scorer, "status-headline")
    assert re.findall(r'class="screen-total">([^<]*)<', screen) == ["22", "22", "36"]


def test_r_brusq_4_5_points_lead_with_the_jetons_beside_them(client):
    aces = [{"card": "AH", "player": 0, "outcome": "won"}]
    made = table(client, "brusquembille", ["Ana", "Bo", "Cy", "Di"], [
        {"type": "deal", "trump": "9S"}, {"type": "tally", "points": [70, 50], "brusquembilles": aces}])
    line = "Ana & Cy lead 70–50 points jetons 4 to −4"  # a dash before a minus sign would read as one
    scorer, viewer, _, sheet = pages(client, made, "en")
    assert headlines(viewer, "viewer-headline") == [line] and headlines(sheet, "result") == [line]
    assert headlines(scorer, "status-headline") == ["Ana & Cy lead 70–50 jetons 4 to −4 points"]


def test_r_buraco_6_the_status_bar_shows_the_totals_toward_the_target(client):
    hand = {"type": "tally", "closed_by": 0, "sides": [{"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0},
                                                       {"melds": 150, "pot": True, "hand": 40}]}
    made = table(client, "buraco", ["Ana", "Bo"], [{"type": "deal"}, hand, {"type": "deal"}])
    scorer, viewer, screen, sheet = pages(client, made)
    line = f"Ana mène 600{NNBSP}–{NNBSP}110 fin à 2005"
    assert headlines(scorer, "status-headline") == [line] and headlines(viewer, "viewer-headline") == [line]
    assert headlines(sheet, "result") == [line]
    assert re.findall(r'class="screen-total">([^<]*)<', screen) == ["600", "110"]


def test_a_name_keeps_its_hyphen_whole_and_a_score_never_breaks(client):
    made = table(client, "brisca", ["Jean-Pierre", "Marie-Ève"], deals([[70, 50]]))
    scorer = pages(client, made)[0]
    assert '<span class="side-name">Jean\u2011Pierre</span>' in scorer  # a no-break hyphen: it wraps at spaces only
    assert f'<span class="score">1{NNBSP}–{NNBSP}0</span>' in scorer
