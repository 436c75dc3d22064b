"""A correction asks the sides again, in Debian's Chromium on a 360×740 phone in French (issue 38, R-COMMON-7b):
a Burraco evening's table 1, signed 1130–475, corrected by the director to 1130–465 with a reason. The table's
phone no longer says "Signé par tous les camps": it says the result is the director's, what the sides had signed
and why, and offers each pair its confirmation again; once both have tapped it, the table is signed again, and the
director's page follows. Screenshots: tests/artifacts/corrected-*.png."""
from tests.support.api import api
from tests.support.browser import IDLE, Taps, new_phone, shot

PLAN = [{"movement": "mitchell", "hands": 3}]
PAIRS = [["Eli", "Fabi"], ["Ana", "Bo"], ["Cy", "Di"], ["Gus", "Hana"]]
HANDS = [((500, 0), (200, 0)), ((400, 0), (200, 0)), ((230, 0), (80, 5))]  # 1130 v 475 (R-BURACO-6)


def side(melds: int, left: int) -> dict:
    return {"melds": melds, "burracos": {}, "pot": True, "hand": left}


def corrected_table(server) -> tuple:
    """Table 1 signed 1130–475 by both pairs, then corrected by the director to 1130–465: (tournament id, director's
    key, table id, the table card's key)."""
    made = api(server, "/api/v1/tournaments", {"game": "buraco", "name": "Soirée signée", "require_signatures": True,
                                               "entrants": PAIRS, "rounds": PLAN})
    director = made["director_key"]
    table = api(server, f"/api/v1/tournaments/{made['id']}/rounds", {}, director)["rounds"][0]["tables"][0]
    table_id, card = table["table_id"], table["scorer_url"].split("key=")[1]
    events = f"/api/v1/tables/{table_id}/events"
    for ns, ew in HANDS:
        api(server, events, {"type": "deal", "trump": None}, card)
        api(server, events, {"type": "tally", "closed_by": None, "sides": [side(*ns), side(*ew)]}, card)
    for number in (0, 1):
        api(server, events, {"type": "confirm", "side": number}, card)
    reason = "Cy & Di avaient 15 en main, pas 5"
    api(server, f"/api/v1/tables/{table_id}/undo", {"reason": reason}, director)
    state = api(server, events, {"type": "tally", "closed_by": None, "reason": reason,
                                 "sides": [side(230, 0), side(80, 15)]}, director)["state"]
    assert state["totals"] == [1130, 465] and state["signed"]["sides"] == []
    assert (state["signed"]["corrected"]["sides_before"], state["signed"]["corrected"]["result_before"]) == (
        [0, 1], [1130, 475])
    return made["id"], director, table_id, card


def test_r_common_7b_a_corrected_table_asks_both_pairs_again_on_the_phone(browser, server):
    tid, director, table_id, card = corrected_table(server)
    context, phone, _, problems = new_phone(browser, locale="fr-FR")
    phone.goto(f"{server.url}/t/{table_id}?key={card}&lang=fr")
    signing = phone.locator("#signing")
    assert "is-corrected" in signing.get_attribute("class")
    assert phone.locator(".signed-badge").count() == 0
    assert "Signé par tous les camps" not in phone.inner_text("body")
    assert [" ".join(t.split()) for t in phone.locator(".signing-result li").all_inner_texts()] == [
        "Eli & Fabi 1130 16 PV", "Cy & Di 465 4 PV"]  # the director's result, and its VP
    corrected = " ".join(phone.inner_text(".signing-corrected").split())
    assert "« Cy & Di avaient 15 en main, pas 5 »" in corrected
    assert "Eli & Fabi 1130, Cy & Di 475 (points)" in corrected  # what the pairs had signed, in its unit
    assert phone.locator(".sign-button").all_inner_texts() == ["Eli & Fabi confirment", "Cy & Di confirment"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    signing.scroll_into_view_if_needed()
    shot(phone, "corrected-360")

    desk_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    desk = desk_context.new_page()
    desk_problems = []
    desk.on("console", lambda m: desk_problems.append(m.text) if m.type == "error" else None)
    desk.goto(f"{server.url}/tournaments/{tid}?key={director}&lang=fr")
    badge = ".table-progress >> nth=0 >> .status-badge"
    assert "status-corrected" in desk.get_attribute(badge, "class")

    tap = Taps(phone)
    tap(".sign-button >> text=Eli & Fabi confirment")
    assert phone.locator(".signed-side").inner_text().strip() == "✓ Eli & Fabi ont confirmé"
    assert phone.locator(".signed-badge").count() == 0
    tap(".sign-button >> text=Cy & Di confirment")
    phone.wait_for_function(IDLE)
    assert phone.locator(".signed-badge").inner_text().startswith("✓ Signé par tous les camps")
    assert "Eli & Fabi 1130, Cy & Di 475 (points)" in " ".join(phone.inner_text(".signing-corrected").split())
    shot(phone, "corrected-signed-again-360")
    desk.wait_for_function("() => { const b = document.querySelector('.table-progress .status-badge');"
                           " return b && b.classList.contains('status-signed'); }", timeout=30000)
    assert problems == [] and desk_problems == []
    for ctx in (context, desk_context):
        ctx.close()
