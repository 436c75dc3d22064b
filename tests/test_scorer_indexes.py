"""A scorer's form field that should hold an index and does not: the refusal names what the field reads (a player,
the dealer, a side), never "There is no player" for a side."""

ENGLISH = {"Accept-Language": "en"}


def refusal_on(response) -> str:
    page = response.get_data(as_text=True)
    start = page.index('<p class="refusal" role="alert">') + len('<p class="refusal" role="alert">')
    return page[start:page.index("</p>", start)]


def make(client, game, players):
    table = client.post("/api/v1/tables", json={"game": game, "players": list(players)}).get_json()
    return table, {"key": table["scorer_key"]}


def test_a_dealer_a_side_and_a_player_that_are_no_number_are_said_as_what_they_are(fuzz_app):
    client = fuzz_app.test_client()
    table, key = make(client, "buraco", ("Ana", "Bo", "Cy", "Di"))
    said = refusal_on(client.post(f"/t/{table['id']}/deal", data={**key, "dealer": "x"}, headers=ENGLISH))
    assert said == "There is no player x to deal."
    client.post(f"/t/{table['id']}/deal", data=key, headers=ENGLISH)
    said = refusal_on(client.post(f"/t/{table['id']}/pot", data={**key, "pot": "x"}, headers=ENGLISH))
    assert said == "There is no side x: sides are 0 to 1."
    table, key = make(client, "brisca", ("Ana", "Bo"))
    client.post(f"/t/{table['id']}/deal", data={**key, "card": "1O"}, headers=ENGLISH)
    said = refusal_on(client.post(f"/t/{table['id']}/exchange", data={**key, "player": "x"}, headers=ENGLISH))
    assert said == "There is no player x: players are 0 to 1."
