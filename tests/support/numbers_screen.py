"""The numbers screen in Chromium: a table made through the API, its deal started, opened on a phone in the numbers
mode (``static/numbers.js`` has shown its keypad)."""
from tests.support.api import api
from tests.support.browser import new_phone


def numbers_screen(browser, server, game: str, players: list, deal: dict, lang: str = "fr"):
    """(context, page, the table as made, the page's problems) on the numbers screen of ``game``'s first deal."""
    made = api(server, "/api/v1/tables", {"game": game, "players": players})
    api(server, f"/api/v1/tables/{made['id']}/events", deal, made["scorer_key"])
    context, page, _, problems = new_phone(browser, locale="fr-CH")
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang={lang}&mode=numbers")
    page.wait_for_selector(".keypad:not([hidden])")
    return context, page, made, problems
