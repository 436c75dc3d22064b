"""The set-up page as players use it (a phone in one hand): the player count in one tap, empty seats dropped and
never invented, a refusal in a sentence, options in plain words on every page (never an option id, a value code or
a Python ``False``), no page wider than a 320 px phone, and the last players offered again from the browser."""
import html
import re
from contextlib import nullcontext

import pytest

from referee.games import GAMES
from tests.support.browser import IDLE, artifact, new_phone
from tests.support.deals import DEAL_4P
from tests.support.scorer import token

# What a player must never read: snake_case words (an option id or a value code) and Python's constants.
CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?:True|False|None)\b")
UNSEEN = re.compile(r"<(script|style|template)\b.*?</\1\s*>", re.S | re.I)
ADDRESS = re.compile(r"(?:https?://|/t/)\S+")

# Every option away from its default, so that every value's words are printed somewhere.
CHANGED = {
    "brisca": (["Ana", "Bo", "Cy", "Di"], {"tie_rule": "last_trick", "double_over_100": True, "wins_needed": 5,
                                           "mexican_11": True, "exchange_requires": "nothing"}),
    "brouc": (["Ana", "Bo", "Cy", "Di"], {"coches_to_lose": 3, "scorer_side": 1}),
    "brulot": (["Ana", "Bo", "Cy", "Di"], {"no_trump": True, "penalties": [5, 3, 2, 1],
                                           "clean_deal_bonus": 2, "partnership": True, "deals": 2}),
    "brusquembille": (["Ana", "Bo", "Cy"], {"removed": ["7D", "7S"], "turned_card_last": True, "jeton_value": 0.5,
                                            "target_points": 0, "deals": 3}),
    "buraco": (["Ana", "Bo", "Cy", "Di"], {"target": 1500, "low_ace_counts_5": False}),
}


@pytest.fixture
def csrf_app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def visible(page: str) -> str:
    """The text a player reads: no tags, no attribute values, no script, style or template, no addresses."""
    text = html.unescape(re.sub(r"<[^>]*>", " ", UNSEEN.sub(" ", page)))
    return " ".join(ADDRESS.sub(" ", text).split())


def setup_form(client, game="brisca", lang="en"):
    client.set_cookie("lang", lang)
    page = client.get(f"/new/{game}").get_data(as_text=True)
    return page, {"csrf_token": token(page), "dealer": "0"}


def test_brisca_with_four_seats_of_which_two_are_filled_makes_a_two_player_table(client, csrf_app):
    page, form = setup_form(client)
    assert page.count('name="player"') == 4
    response = client.post("/new/brisca", data={**form, "player": ["Ana", "", "Bo", ""], "op": "create",
                                                  "opt_tie_rule": "draw", "opt_wins_needed": "3"})
    assert response.status_code == 303
    table_id = response.headers["Location"].split("/t/")[1].split("?")[0]
    state = client.get(response.headers["Location"].replace("/t/", "/api/v1/tables/")).get_json()
    assert state["id"] == table_id and state["players"] == ["Ana", "Bo"]
    assert [s["players"] for s in state["sides"]] == [[0], [1]]


def test_the_dealer_stays_with_his_name_when_empty_seats_are_dropped_r_common_2(client, csrf_app):
    _, form = setup_form(client)
    response = client.post("/new/brisca", data={**form, "player": ["", "Ana", "", "Bo"], "dealer": "3",
                                                  "op": "create"})
    state = client.get(response.headers["Location"].replace("/t/", "/api/v1/tables/")).get_json()
    assert state["players"] == ["Ana", "Bo"] and state["next"] == {"action": "deal", "player": 1}


@pytest.mark.parametrize("names, sentence", [
    (["Ana", "", "", ""], "Write at least 2 names: Brisca is played by 2, 4, 6 players."),
    (["", "", "", ""], "Write at least 2 names: Brisca is played by 2, 4, 6 players."),
    (["Ana", "Bo", "Cy", ""], "Brisca is played by 2, 4, 6 players, not 3."),
])
def test_a_refused_set_up_says_why_in_a_sentence_and_keeps_the_seats(client, csrf_app, names, sentence):
    _, form = setup_form(client)
    response = client.post("/new/brisca", data={**form, "player": names, "op": "create"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'role="alert"' in page and sentence in visible(page)
    assert page.count('name="player"') == 4 and "Player 4" not in re.findall(r'value="([^"]*)"', page)


def test_the_count_chips_set_the_seats_and_keep_the_names_written(client, csrf_app):
    page, form = setup_form(client)
    assert re.findall(r'value="count:(\d+)"', page) == ["2", "4", "6"]
    assert re.search(r'value="count:4" class="[^"]*current[^"]*"\s+aria-pressed="true"', page)
    page = client.post("/new/brisca", data={**form, "player": ["Ana", "Bo"], "op": "count:6"}).get_data(as_text=True)
    assert re.findall(r'name="player" value="([^"]*)"', page) == ["Ana", "Bo", "", "", "", ""]
    page = client.post("/new/brisca", data={**form, "player": ["Ana", "", "Bo", "", "Cy", ""],
                                             "op": "count:2"}).get_data(as_text=True)
    assert re.findall(r'name="player" value="([^"]*)"', page) == ["Ana", "Bo"]
    page = client.post("/new/brisca", data={**form, "player": ["Ana", "Bo", "Cy", "Di"],
                                             "op": "count:2"}).get_data(as_text=True)
    assert re.findall(r'name="player" value="([^"]*)"', page) == ["Ana", "Bo"]


def seats(page: str) -> list:
    return re.findall(r'name="player" value="([^"]*)"', page)


def test_brouc_is_four_players_no_seat_is_added_or_removed_with_or_without_a_tap(client, csrf_app):
    """Brouc is played by exactly 4: no "Add a player", no ✕, and a post that asks for it anyway changes nothing."""
    page, form = setup_form(client, "brouc")
    assert seats(page) == [""] * 4 and 'value="add"' not in page and 'value="remove:' not in page
    for op in ("add", "remove:0", "count:5", "count:3"):
        after = client.post("/new/brouc", data={**form, "player": ["Ana", "Bo", "Cy", "Di"], "op": op})
        assert seats(after.get_data(as_text=True)) == ["Ana", "Bo", "Cy", "Di"], op


def test_seats_stay_between_the_fewest_and_the_most_players(client, csrf_app):
    """Brûlot, 3 to 6: "Add a player" up to 6 seats, ✕ disabled at 3; Brisca's count chips are 2, 4, 6 only."""
    page, form = setup_form(client, "brulot")
    six = client.post("/new/brulot", data={**form, "player": ["A", "B", "C", "D", "E"], "op": "add"})
    page = six.get_data(as_text=True)
    assert seats(page) == ["A", "B", "C", "D", "E", ""] and 'value="add"' not in page
    page = client.post("/new/brulot", data={**form, "player": ["A", "B", "C", "D", "E", "F"],
                                             "op": "add"}).get_data(as_text=True)
    assert seats(page) == ["A", "B", "C", "D", "E", "F"]
    page = client.post("/new/brulot", data={**form, "player": ["A", "B", "C"], "op": "remove:1"}).get_data(as_text=True)
    assert seats(page) == ["A", "B", "C"] and 'value="add"' in page
    assert len(re.findall(r'value="remove:\d" class="icon" disabled', page)) == 3
    page = client.post("/new/brulot", data={**form, "player": ["A", "B", "C", "D"],
                                             "op": "remove:1"}).get_data(as_text=True)
    assert seats(page) == ["A", "C", "D"]
    _, form = setup_form(client, "brisca")
    page = client.post("/new/brisca", data={**form, "player": ["A", "B", "C", "D"], "op": "count:3"}).get_data(
        as_text=True)
    assert seats(page) == ["A", "B", "C", "D"]


def test_a_name_longer_than_the_limit_is_refused_with_the_limit_and_stays_as_typed(client, csrf_app, app):
    """A 60-character name was cut to 40 without a word: it is refused, the sentence says the limit, the form keeps
    it whole, and no table is made. The field's maxlength is the server's limit (issue 38 item 14): a phone cannot
    type more, and a name posted longer (a page without it) is given back whole with the sentence."""
    long_name = "Marie-Christine Bernadette de la Tour-Saint-Martin du Val"
    long_name += "x" * (60 - len(long_name))
    page, form = setup_form(client, "brisca")
    assert page.count('maxlength="40"') == 4
    response = client.post("/new/brisca", data={**form, "player": ["Ana", long_name, "Cy", "Di"], "op": "create"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert visible(re.search(r'<p class="refusal" role="alert">(.*?)</p>', page).group(1)) == \
        f"“{long_name}” is 60 characters long: a player's name has at most 40."
    assert seats(page) == ["Ana", long_name, "Cy", "Di"]
    assert re.search(r'id="player-1" name="player" value="[^"]*" autocomplete="off"\s+maxlength="40"\s+'
                     r'placeholder="[^"]*" aria-invalid="true"', page)
    assert ('id="player-0" name="player" value="Ana" autocomplete="off"\n               maxlength="40"\n'
            '               placeholder="Player 1">') in page
    client.set_cookie("lang", "fr")
    page = client.post("/new/brisca", data={**form, "player": ["Ana", long_name], "op": "create"}).get_data(
        as_text=True)
    assert html.unescape(re.search(r'<p class="refusal" role="alert">(.*?)</p>', page).group(1)) == \
        f"«\u00a0{long_name}\u00a0» compte 60 caractères\u00a0: un nom de joueur en a au plus 40."
    forty = long_name[:40]
    assert client.post("/new/brisca", data={**form, "player": ["Ana", forty], "op": "create"}).status_code == 303
    with app.app_context():
        from sqlmodel import Session, select
        from referee.store.records import TableRecord
        with Session(app.extensions["referee.ledger"].engine) as session:
            assert [r.players for r in session.exec(select(TableRecord)).all()] == [["Ana", forty]]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_brulot_offers_no_trump_once_r_brulot_2(client, lang):
    """"Sans atout" was offered twice, a choice and a box: two engine options said it (R-BRULOT-2). Now one."""
    page, _ = setup_form(client, "brulot", lang)
    words = {"fr": "sans atout", "en": "no trump"}[lang]
    assert visible(page).lower().count(words) == 1
    assert page.count('name="opt_no_trump"') == 1 and "trump_without_widow" not in page


def test_brusquembilles_sevens_are_ticked_by_name(client, csrf_app):
    page, form = setup_form(client, "brusquembille")
    assert "7 of hearts" in visible(page) and "7H" not in visible(page)
    response = client.post("/new/brusquembille", data={**form, "player": ["Ana", "Bo", "Cy"], "op": "create",
                                                        "opt_removed": ["", "7D", "7S"], "opt_deals": "5",
                                                        "opt_jeton_value": "1", "opt_target_points": "0"})
    assert response.status_code == 303, response.get_data(as_text=True)[-400:]
    state = client.get(response.headers["Location"].replace("/t/", "/api/v1/tables/")).get_json()
    assert state["options"]["removed"] == ["7D", "7S"]


def test_every_option_has_plain_words_in_both_languages():
    for game in GAMES.values():
        for option in game.options:
            assert set(option.label) == {"fr", "en"} and all(option.label.values()), option.name
            values = list(option.choices or ()) + ([True, False] if option.type == "bool" else [])
            for value in values + [option.default]:
                for lang in ("fr", "en"):
                    said = option.word(value, lang)
                    assert said and not CODE.search(said), (option.name, value, lang, said)


def test_option_words_are_the_players_words():
    brisca = {o.name: o for o in GAMES["brisca"].options}
    assert [brisca["tie_rule"].word(c, "fr") for c in ("draw", "last_trick", "replay")] == [
        "partie nulle", "au dernier pli", "donne rejouée"]
    assert brisca["double_over_100"].word(False, "fr") == "non" and brisca["mexican_11"].word(True, "en") == "yes"
    removed = next(o for o in GAMES["brusquembille"].options if o.name == "removed")
    assert removed.word(["7H", "7C"], "fr") == "7 de cœur, 7 de trèfle"
    jeton = next(o for o in GAMES["brusquembille"].options if o.name == "jeton_value")
    assert jeton.word(0.5, "fr") == "0,5" and jeton.word(0.5, "en") == "0.5"


def play_a_deal(client, created):
    headers = {"Authorization": f"Bearer {created['scorer_key']}"}
    url = f"/api/v1/tables/{created['id']}/events"
    client.post(url, json={"type": "deal", "trump": "11E"}, headers=headers)
    for cards, _, _ in DEAL_4P:
        client.post(url, json={"type": "trick", "cards": cards}, headers=headers)


def pages_of(client, game):
    """Every page that may show a game's options, for a table with every option changed."""
    players, options = CHANGED[game]
    created = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options})
    created = created.get_json()
    assert "id" in created, created
    if game == "brisca":
        plain = client.post("/api/v1/tables", json={"game": game, "players": players}).get_json()
        play_a_deal(client, plain)
        yield f"/t/{plain['id']}?key={plain['scorer_key']}"
        yield f"/t/{plain['id']}/sheet?key={plain['scorer_key']}"
    t, scorer, viewer = created["id"], created["scorer_key"], created["viewer_key"]
    yield from ("/", f"/new/{game}", f"/rules/{game}", f"/sheet/{game}", f"/t/{t}?key={scorer}",
                f"/t/{t}?key={viewer}", f"/t/{t}/live?key={viewer}", f"/t/{t}/share?key={scorer}",
                f"/t/{t}/rules?key={scorer}", f"/t/{t}/sheet?key={scorer}", f"/t/{t}/screen?key={viewer}")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("game", sorted(CHANGED))
def test_no_page_shows_an_option_id_or_a_value_code(client, game, lang):
    client.set_cookie("lang", lang)
    for url in pages_of(client, game):
        response = client.get(url)
        assert response.status_code == 200, url
        text = visible(response.get_data(as_text=True))
        assert not CODE.findall(text), (url, CODE.findall(text))


def test_the_code_finder_finds_codes_and_leaves_words():
    assert CODE.findall(visible("<p>tie_rule = True <span>cape_dehors</span></p>")) == ["tie_rule", "True",
                                                                                          "cape_dehors"]
    assert CODE.findall(visible('<input name="opt_tie_rule" value="last_trick"><p>Au dernier pli</p>')) == []


def test_a_tables_rules_print_its_options_in_plain_words(client):
    players, options = CHANGED["brisca"]
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": players,
                                                  "options": options}).get_json()
    url = f"/t/{created['id']}/rules?key={created['scorer_key']}"
    client.set_cookie("lang", "en")
    text = visible(client.get(url).get_data(as_text=True))
    assert "At 60–60: to the last trick (default: draw)" in text
    assert "Double win over 100: yes (default: no)" in text
    assert "Once a deal, before the last draw, even before winning a trick." in text
    client.set_cookie("lang", "fr")
    text = visible(client.get(url).get_data(as_text=True))
    assert "au dernier pli (par défaut : partie nulle)" in text  # no-break spaces read as spaces here
    assert "avant la dernière pioche, même sans pli gagné." in text


# --- in a real browser ----------------------------------------------------------------------------------------------
WIDTHS = (320, 360, 1280)
TARGETS = ("() => [...document.querySelectorAll('#setup button, #setup select, #setup label.check, "
           "#setup input:not([type=hidden]):not([type=checkbox]):not([type=radio])')].filter(e => e.offsetParent !== null)"
           ".filter(e => e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 44)"
           ".map(e => e.outerHTML.slice(0, 80))")


def shot(page, name):
    """A screenshot that leaves the caret alone: hiding it adds a style the page's CSP refuses (a console error)."""
    page.screenshot(path=str(artifact(name)), full_page=True, caret="initial")


def test_the_setup_page_fits_a_phone_and_its_targets_are_big(browser, server):
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 740}, locale="fr-CH")
        page = context.new_page()
        for game in sorted(GAMES):
            page.goto(f"{server.url}/new/{game}")
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (game, width)
            assert page.evaluate(TARGETS) == [], (game, width)
            if width == 360:
                shot(page, f"setup-{game}-360")
        context.close()


@pytest.mark.parametrize("js", [True, False])
def test_the_count_chips_set_the_seats_with_or_without_javascript(browser, server, js):
    context, page, phone, problems = new_phone(browser, locale="en", js=js)
    page.goto(f"{server.url}/new/brisca")
    page.fill("#player-0", "Ana")
    page.fill("#player-2", "Bo")
    phone.act("button[name=op][value='count:6']")
    assert page.locator("input[name=player]").count() == 6
    assert page.get_attribute("button[value='count:6']", "aria-pressed") == "true"
    phone.act("button[name=op][value='count:2']")
    assert [page.input_value(f"#player-{i}") for i in range(2)] == ["Ana", "Bo"]
    assert page.locator("input[name=player]").count() == 2 and page.locator(".remembered").is_hidden()
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    assert "Ana" in page.inner_text("main") and "Player 3" not in page.inner_text("main")
    assert problems == []
    context.close()


def test_the_last_players_are_offered_again_in_one_tap(browser, server):
    """Only the players of a table made: a set-up the server refused ("Brisca is played by 2, 4, 6 players, not 3")
    is never offered again."""
    context, page, phone, problems = new_phone(browser, locale="en")
    page.goto(f"{server.url}/new/brisca")
    assert page.locator(".remembered").is_hidden()  # nobody played here yet
    for i, name in enumerate(["Ed", "Flo", "Gus"]):
        page.fill(f"#player-{i}", name)
    phone.act("button[name=op][value=create]")
    assert "not 3" in page.inner_text(".refusal")
    page.goto(f"{server.url}/new/brulot")
    assert page.locator(".remembered").is_hidden()  # refused: nothing to offer
    page.goto(f"{server.url}/new/brisca")
    for i, name in enumerate(["Ana", "Bo", "Cy", "Di"]):
        page.fill(f"#player-{i}", name)
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    page.goto(f"{server.url}/new/brulot")
    phone.act("button[name=op][value='count:6']")
    chip = page.locator(".remembered button.same")
    assert chip.count() == 1 and chip.inner_text() == "Ana, Bo, Cy, Di"
    shot(page, "setup-remembered-360")
    phone.act(".remembered button.same")
    assert [page.input_value(f"#player-{i}") for i in range(4)] == ["Ana", "Bo", "Cy", "Di"]
    assert page.locator("input[name=player]").count() == 4 and page.locator(".remembered").is_hidden()
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    state = page.request.get(page.url.replace("/t/", "/api/v1/tables/")).json()
    assert state["game"] == "brulot" and state["players"] == ["Ana", "Bo", "Cy", "Di"]
    assert problems == []
    context.close()


@pytest.mark.parametrize("js", [True, False], ids=["htmx", "no-javascript"])
def test_the_seat_buttons_keep_to_the_games_player_counts_in_a_browser(browser, server, js):
    """Brouc (exactly 4) offers no "Add a player" and no ✕; Brûlot (3 to 6) adds seats up to 6, then offers no more,
    and removes them down to 3. Enter in a name keeps the seats and the names (it pressed the first count chip)."""
    context, page, phone, problems = new_phone(browser, locale="fr-CH", js=js)
    page.goto(f"{server.url}/new/brouc")
    assert page.locator("button[value=add]").count() == 0 and page.locator("button[value^='remove:']").count() == 0
    shot(page, f"setup-brouc-seats-{'js' if js else 'nojs'}-360")
    page.goto(f"{server.url}/new/brulot")
    for i, name in enumerate(["Ginette", "Réjean", "Sylvie", "Gaétan"]):
        page.fill(f"#player-{i}", name)
    with page.expect_navigation() if not js else nullcontext():
        page.press("#player-3", "Enter")
    if js:
        page.wait_for_function(IDLE)
    assert [page.input_value(f"#player-{i}") for i in range(4)] == ["Ginette", "Réjean", "Sylvie", "Gaétan"]
    phone.act("button[name=op][value=add]")
    phone.act("button[name=op][value=add]")
    assert page.locator("input[name=player]").count() == 6 and page.locator("button[value=add]").count() == 0
    for _ in range(3):
        phone.act("button[name=op][value='remove:5']" if page.locator("input[name=player]").count() == 6 else
                  "button[name=op][value='remove:4']" if page.locator("input[name=player]").count() == 5 else
                  "button[name=op][value='remove:3']")
    assert page.locator("input[name=player]").count() == 3
    assert page.locator("button[value^='remove:']:not([disabled])").count() == 0
    assert [page.input_value(f"#player-{i}") for i in range(3)] == ["Ginette", "Réjean", "Sylvie"]
    assert problems == []
    context.close()
