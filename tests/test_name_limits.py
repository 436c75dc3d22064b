"""Name fields hold what the server accepts, no more (issue 38 item 14): each name field's ``maxlength`` is the limit
the server checks — a player's or a member's name (``MAX_NAME``), a tournament's name (``MAX_TITLE``), a club's
(``MAX_CLUB_NAME``) — so a phone cannot type 215 characters before the refusal at "Create"."""
import re

from referee.club.checks import MAX_CLUB_NAME
from referee.games.base import MAX_NAME
from referee.tournament.store import MAX_TITLE


def maxlengths(page: str, selector: str) -> list:
    """The maxlength of each input whose tag holds ``selector`` (None for one without)."""
    found = []
    for tag in re.findall(r"<input\b[^>]*>", page, re.S):
        if selector in tag:
            limit = re.search(r'maxlength="(\d+)"', tag)
            found.append(int(limit.group(1)) if limit else None)
    return found


def test_the_set_up_forms_player_names_hold_at_most_what_a_table_takes(client):
    page = client.get("/new/buraco").get_data(as_text=True)
    assert maxlengths(page, 'name="player"') == [MAX_NAME] * 4 and MAX_NAME == 40
    too_long = client.post("/api/v1/tables", json={"game": "buraco", "players": ["A" * 41, "Bo", "Cy", "Di"]})
    assert too_long.status_code == 422  # the server's own limit, as the field's


def test_the_tournament_forms_name_holds_at_most_what_a_tournament_takes(client):
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert maxlengths(page, 'name="name"') == [MAX_TITLE] and MAX_TITLE == 120
    refused = client.post("/api/v1/tournaments", json={"game": "brisca", "name": "T" * 121, "entrants": [
        "Ana", "Bo"], "rounds": [{"movement": "round_robin"}]})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "bad_name"


def test_a_clubs_name_and_its_members_names_hold_at_most_what_a_club_takes(client):
    client.application.config["WTF_CSRF_ENABLED"] = False
    assert maxlengths(client.get("/clubs/new").get_data(as_text=True), 'id="club-name"') == [MAX_CLUB_NAME]
    made = client.post("/clubs/new", data={"name": "Le jeudi", "form_id": "f" * 32})
    club_id, key = re.fullmatch(r"/clubs/([\w-]+)\?key=([\w-]+)", made.headers["Location"]).groups()
    client.post(f"/clubs/{club_id}/members?key={key}", data={"name": "Ana"})
    page = client.get(f"/clubs/{club_id}?key={key}").get_data(as_text=True)
    assert maxlengths(page, 'id="new-member"') == [MAX_NAME]
    assert maxlengths(page, 'id="rename-') == [MAX_NAME]
