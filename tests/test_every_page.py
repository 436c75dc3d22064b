"""Every kind of page, as a phone of 320 and 360 px and a 1280 px screen show it: nothing wider than the screen
(`scrollWidth <= innerWidth`), and axe-core finds no serious or critical violation, in French and in English.
Pages: home; set-up, scorer (a deal under way), rule summary and blank sheet of each game; a table's viewer page, big
screen, share page, rule summary with its options, score sheet and history."""
import pytest

from tests.support.api import api
from tests.support.browser import AXE, new_phone
from tests.support.env import need
from tests.support.simulate import brulot_deal
from tests.support.text import PLAIN_SPACE_BEFORE
from tests.support.burraco import VP_ROWS

GAMES = {
    "brisca": (["Ana", "Bo", "Cy", "Di"], [{"type": "deal", "trump": "4C"},
                                          {"type": "trick", "cards": ["5E", "6C", "5B", "1O"]}], {"tie_rule": "last_trick"}),
    "brouc": (["Ana", "Bo", "Cy", "Di"], [{"type": "deal", "trump": "KH"},
                                         {"type": "trick", "cards": ["7S", "8S", "9S", "AS"]},
                                         {"type": "announce", "player": 0, "cards": ["KH", "QH"]}], {}),
    "brulot": (["Jean-François", "Marie-Claude", "Ghislain", "Geneviève", "Édouard", "Flo"],
               brulot_deal(6, 0, 3)[0][:3], {"partnership": True}),
    "brusquembille": (["Ana", "Bo", "Cy", "Di", "Ed"], [{"type": "deal", "trump": "9S"}], {"jeton_value": 0.5}),
    "buraco": (["Ana", "Bo", "Cy", "Di"], [{"type": "deal"}, {"type": "meld", "side": 0, "cards": ["3H", "4H", "5H"]}],
               {"target": 1505}),
}
WIDTHS = (320, 360, 1280)


@pytest.fixture(scope="module")
def pages(server_module):
    """Every page kind's address: one table of each game with a deal under way."""
    server = server_module
    found = {"home": "/"}
    for game, (players, events, options) in GAMES.items():
        made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options})
        for body in events:
            api(server, f"/api/v1/tables/{made['id']}/events", body, made["scorer_key"])
        table, scorer, viewer = made["id"], made["scorer_key"], made["viewer_key"]
        found.update({f"setup-{game}": f"/new/{game}", f"scorer-{game}": f"/t/{table}?key={scorer}",
                      f"rules-{game}": f"/rules/{game}", f"blank-sheet-{game}": f"/sheet/{game}"})
        if game == "brulot":  # the widest board: six players with long names
            found.update({"viewer": f"/t/{table}?key={viewer}", "big-screen": f"/t/{table}/screen?key={viewer}",
                          "share": f"/t/{table}/share?key={scorer}", "table-rules": f"/t/{table}/rules?key={scorer}",
                          "sheet": f"/t/{table}/sheet?key={scorer}", "history": f"/t/{table}/history?key={viewer}"})
    found.update(tournament_pages(server))
    return {name: server.url + path for name, path in found.items()}


def tournament_pages(server) -> dict:
    """A Burraco evening of 8 pairs with its first round seated and a table finished: each page of a tournament."""
    made = api(server, "/api/v1/tournaments", {"game": "buraco", "name": "Mardi au Circolo", "entrants": [
        ["Jean-François", "Marie-Claude"], ["Ghislain", "Geneviève"], ["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"],
        ["Gus", "Hal"], ["Ida", "Jo"], ["Kim", "Lu"]], "rounds": [{"movement": "mitchell", "hands": 2}] * 2,
        "vp_table": VP_ROWS})
    tid, key, viewer = made["id"], made["director_key"], made["viewer_key"]
    table = api(server, f"/api/v1/tournaments/{tid}/rounds", {}, key)
    first = api(server, f"/api/v1/tournaments/{tid}", key=key)["rounds"][0]["tables"][0]
    hand = [{"type": "deal"}, {"type": "tally", "closed_by": 0, "sides": [
        {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0}, {"melds": 150, "pot": True, "hand": 40}]}]
    for body in hand * 2:
        api(server, f"/api/v1/tables/{first['table_id']}/events", body, first["scorer_url"].split("key=")[1])
    assert table
    return {"tournament-new": "/tournaments/new", "tournament-director": f"/tournaments/{tid}?key={key}",
            "tournament-standings": f"/tournaments/{tid}/standings?key={viewer}",
            "tournament-screen": f"/tournaments/{tid}/screen?key={viewer}",
            "tournament-cards": f"/tournaments/{tid}/cards?key={key}",
            "tournament-print": f"/tournaments/{tid}/print?key={viewer}"}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_page_fits_the_screen_and_axe_finds_no_serious_violation(browser, pages, lang):
    need(AXE.exists(), f"{AXE} is missing (npm ci installs axe-core)")
    context, page, _, problems = new_phone(browser, locale="fr-CH" if lang == "fr" else "en-GB", bypass_csp=True)
    too_wide, violations, typography = {}, {}, {}
    for name, url in pages.items():
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 740 if width < 1000 else 720})
            page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
            scroll = page.evaluate("document.documentElement.scrollWidth")
            if scroll > width:
                too_wide[f"{name}@{width}"] = scroll
        if lang == "fr":  # French typography: a no-break space before : ; ! ? (never a plain one)
            text = page.inner_text("body")
            plain = [text[max(0, m.start() - 30):m.end()] for m in PLAIN_SPACE_BEFORE.finditer(text)]
            if plain:
                typography[name] = plain[:3]
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("async () => (await axe.run(document)).violations"
                              ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))")
        serious = [v for v in found if v["impact"] in ("serious", "critical")]
        if serious:
            violations[name] = serious
    assert (too_wide, violations, typography) == ({}, {}, {})
    context.close()
