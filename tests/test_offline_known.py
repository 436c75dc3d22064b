"""While the Wi-Fi is down the phone refuses what the server would refuse for what it knows of the hands (R-COMMON-4,
static/offline-rules.js as referee/games/tricks.py verify_cards): the turned card on the stock, a card known in
another hand, a card outside a hand the app knows whole; and its picker marks the cards as the server's does. Two
recorded deals (tests/recorded/deals/) are entered offline in Chromium at 360×740 and reach the server unrefused."""
import json

from tests.support.api import api
from tests.support.browser import shot
from tests.support.engine import DEALS
from tests.support.offline import offline_phone, synced

WAITING = "#offline-queue li"


def recorded(name: str) -> dict:
    return json.loads((DEALS / f"{name}.json").read_text(encoding="utf-8"))


def table_with(server, record: dict, events: list) -> tuple:
    made = api(server, "/api/v1/tables", {"game": record["game"], "players": record["players"],
                                         "options": record["options"]})
    for body in events:
        api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])
    return made["id"], made["scorer_key"], made["scorer_url"]


def tap(page, code):
    page.click(f"#picker button.card[value='{code}']")


def classes(page, codes) -> dict:
    return {code: page.get_attribute(f"#picker button.card[value='{code}']", "class") for code in codes}


def note(page) -> str:
    return page.locator("#offline-queue .offline-note").inner_text()


def test_r_common_4_offline_the_turned_card_and_a_hand_known_whole_are_refused_as_the_server_does(server, browser):
    """Brusquembille with turned_card_last (R-BRUSQ-2): the turned 8S on the stock is refused for Basile in trick
    1; after trick 7, the last draw, the phone knows Hortense holds it (the server's rule, worked out on the phone);
    in trick 10 only her 8S is offered to her and Basile's QS is refused with the server's sentence. The ten tricks
    then reach the server, none refused."""
    record = recorded("brusquembille_3p_turned_last")
    events = record["events"]
    table_id, key, url = table_with(server, record, events[:1])
    context, page, problems = offline_phone(browser, url)
    assert classes(page, ["8S"]) == {"8S": "card stock"}
    tap(page, "8S")  # Basile leads trick 1: the turned card lies on the stock
    page.wait_for_function("() => document.querySelector('#offline-queue .offline-note')")
    assert note(page) == "8♠ is the turned card on the stock: nobody has drawn it yet."
    assert page.locator(".status-next .played-now").count() == 0  # nothing tapped
    for i, body in enumerate(events[1:10], start=1):
        for code in body["cards"]:
            tap(page, code)
        page.wait_for_function("n => document.querySelectorAll('#offline-queue li').length === n", arg=i)
    # Trick 10: Colette leads; after her QH it is Hortense's card, and she holds only the 8S she drew last
    tap(page, "QH")
    page.wait_for_function("() => document.querySelector(\"#picker button.card[value='QH']\").className"
                           " === 'card pending'")
    assert page.locator(".status-next .next-card").inner_text() == "Hortense's card"
    assert classes(page, ["8S", "QS", "KS"]) == {"8S": "card free", "QS": "card not-held", "KS": "card played"}
    shot(page, "offline-known-hand-360")
    tap(page, "QS")
    page.wait_for_function("() => document.querySelector('#offline-queue .offline-note')")
    assert note(page) == "Hortense's last card is known: it is 8♠, not Q♠."
    assert page.locator(".status-next .played-now").count() == 1  # her QS was not taken
    tap(page, "8S")
    tap(page, "QS")
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 10")
    context.set_offline(False)
    synced(page)
    deal = api(server, f"/api/v1/tables/{table_id}", key=key)["deals"][-1]
    assert [t["cards"] for t in deal["tricks"]] == [e["cards"] for e in events[1:]] and deal["complete"] is True
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_r_brouc_1_a_deal_started_offline_keeps_the_turned_card_in_the_dealers_hand(server, browser):
    """Brouc: the last trick of a recorded deal entered offline, then the card turned for deal 2 (Agnès deals, AH):
    the phone knows it stays in her hand (R-BROUC-1), marks it with her name and refuses it for Théo, who leads."""
    record = recorded("brouc_announce")
    events = record["events"]
    table_id, key, url = table_with(server, record, events[:-1])
    context, page, problems = offline_phone(browser, url)
    for code in events[-1]["cards"]:
        tap(page, code)
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 1")
    tap(page, "AH")  # the card turned for deal 2
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 2")
    assert page.locator(".status-next .next-card").inner_text() == "Théo's card"
    assert classes(page, ["AH", "KS"]) == {"AH": "card held", "KS": "card free"}
    assert page.locator("#picker button.card[value='AH'] .badge").inner_text() == "Ag"
    tap(page, "AH")
    page.wait_for_function("() => document.querySelector('#offline-queue .offline-note')")
    assert note(page) == "A♥ is known to be in Agnès's hand, so Théo cannot play it."
    assert page.locator(".status-next .played-now").count() == 0
    context.set_offline(False)
    synced(page)
    state = api(server, f"/api/v1/tables/{table_id}", key=key)
    assert (state["deals"][-1]["number"], state["deals"][-1]["known"]) == (2, {"AH": 1})
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()
