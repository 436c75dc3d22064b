"""The director's page in French keeps French typography (issue 38 item 12, DEVELOPERS.md "Words"): a no-break space
before the colon of "Tour 1 · table 1 : …" (a call to the director) and of a penalty's line ("Ana & Bo · Tour 1 :
reason"): the colon is in the catalogue's sentence, never added after it by the template."""
import re
from html import unescape

from tests.support.burraco import VP_ROWS

PAIRS = [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]
NBSP = "\u00a0"


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).replace(NBSP, "~").split()).replace("~", NBSP)


def test_the_directors_page_in_french_puts_a_no_break_space_before_each_colon(client):
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Mardi", "entrants": PAIRS,
                                                    "rounds": [{"movement": "round_robin", "hands": 1}],
                                                    "vp_table": VP_ROWS}).get_json()
    director = {"Authorization": f"Bearer {made['director_key']}"}
    table = client.post(f"/api/v1/tournaments/{made['id']}/rounds", headers=director).get_json()["rounds"][0][
        "tables"][0]
    card = {"Authorization": f"Bearer {table['scorer_url'].split('key=')[1]}"}
    for body in ({"type": "deal", "trump": None}, {"type": "tally", "closed_by": None, "sides": [
            {"melds": 300, "burracos": {}, "pot": True, "hand": 0}, {"melds": 100, "burracos": {}, "pot": True,
                                                                   "hand": 0}]},
                 {"type": "dispute", "side": 1, "message": "Compte faux"}):
        assert client.post(f"/api/v1/tables/{table['table_id']}/events", json=body, headers=card).status_code == 201
    assert client.post(f"/api/v1/tournaments/{made['id']}/penalties", headers=director,
                       json={"entrant": 1, "vp": -2, "reason": "Retard", "round": 1}).status_code == 201
    client.set_cookie("lang", "fr")
    page = words(client.get(f"/tournaments/{made['id']}?key={made['director_key']}").get_data(as_text=True))
    # the call (its sentence is another part's); its msgid "Round %(round)s · table %(table)s:" is new (issue 38)
    assert f"Tour 1 · table 1{NBSP}: Gus & Hal" in page
    assert f"Cy & Di · Tour 1{NBSP}: Retard" in page
    # the log says each act in the page's language, the entrant by name (its sentences are new: issue 38)
    assert f"Pénalité de −2 PV pour Cy & Di{NBSP}: Retard" in page and "Penalty of" not in page
    # a penalty's VP with the app's true minus sign (U+2212), never a hyphen (issue 38): the list and the log
    assert f"−2{NBSP}PV Cy & Di · Tour 1{NBSP}: Retard" in page and "-2" not in page
    printed = words(client.get(f"/tournaments/{made['id']}/print?key={made['director_key']}").get_data(as_text=True))
    assert f"Cy & Di · Tour 1{NBSP}: Retard" in printed and "−2 PV ·" in printed and "-2 PV" not in printed
