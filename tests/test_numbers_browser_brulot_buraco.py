"""A deal in seconds, in a real browser at 360×740: one Brûlot deal of 4 players and one Buraco hand of 4 entered by
their numbers from the scorer page (the switch, the turned card or "Start hand", the keypad, the closer, a burraco,
save), the taps counted against the issue's goals (Brûlot ≤ 10, Buraco ≤ 14), the totals read on the page and the
state through the API; nothing overflows 360 px and every target is at least 44×44 px. Without JavaScript the phone's
own keyboard and the same buttons enter the same deal. Screenshots land in tests/artifacts/."""
import pytest

from tests.support.api import api, state
from tests.support.browser import AXE, Taps, at_table, new_phone, no_overflow, open_table, shot, totals_on_page
from tests.support.env import need

# Targets of the numbers screen smaller than 44×44 px (a finger's), as "tag value: width×height".
SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    '.entry-switch .button, #sheet button:not([hidden]), #sheet input:not([type=hidden])'))
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width < 44 || r.height < 44)
  .map(([e, r]) => `${e.tagName} ${e.value || e.name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def values(page, count):
    return [page.input_value(f"input[name=v{i}]") for i in range(count)]


def looks_right(page, name):
    """What a player sees: nothing wider than the phone, every target big enough, a screenshot to look at."""
    assert no_overflow(page), page.evaluate("document.documentElement.scrollWidth")
    assert page.evaluate(SMALL_TARGETS) == []
    shot(page, name)


def test_r_brulot_5_a_four_player_deal_by_numbers_in_ten_taps(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "brulot", ["Ana", "Bo", "Cy", "Di"], "Numbers")
    tap("button.card[value='3H']")  # Ana shows her last card, the 3 of hearts: trump hearts, the deal starts
    assert page.locator(".keypad").is_visible() and page.locator("input[name=v0].active").count() == 1
    tap.keys("13")  # 13 can take no more digit (at most 40): Bo's field is next by itself
    tap.keys("15")
    tap.keys("10")
    assert values(page, 4) == ["13", "15", "10", ""]
    assert page.locator("input[name=v3]").get_attribute("placeholder") == "2"  # Di's is what remains of 40
    preview = page.locator("#sheet-preview")
    assert preview.locator("td.total").all_inner_texts() == ["13", "15", "10", "2"]  # a row per player
    assert "the lowest total wins" in preview.inner_text()
    looks_right(page, "numbers-brulot-360")
    tap(".sheet-save")
    assert tap.count <= 10, tap.count
    deal = state(server, made)["deals"][0]
    assert deal["penalties"] == [13, 15, 10, 2] and deal["entry"] == "tally" and deal["check"]["widow"] == 0
    assert state(server, made)["totals"] == [13, 15, 10, 2] and totals_on_page(page) == ["13", "15", "10", "2"]
    tap("button.card[value='KS']")  # the next deal: Bo shows the king of spades, back on the numbers screen
    page.set_viewport_size({"width": 1280, "height": 720})
    tap.keys("8")
    assert no_overflow(page)
    shot(page, "numbers-brulot-1280")
    assert problems == []
    context.close()


def test_r_buraco_6_a_four_player_hand_by_numbers_in_fourteen_taps(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "buraco", ["Ana", "Bo", "Cy", "Di"], "Numbers")
    tap("form[action*='/deal'] button.primary")  # "Start hand 1": the numbers screen
    assert page.locator("input[name=v0].active").count() == 1  # Ana & Cy's melds, typed first
    tap("button[value='toggle:k:0']")  # Ana closes
    tap.keys("250")  # Ana & Cy's melds: no fourth digit fits (at most 1080), Cy's cards left are next
    tap.keys("15")
    tap("button[value='more:u:0:pure']")  # their pure burraco; the first blank field is next: Bo & Di's melds
    tap.keys("120")
    tap.keys("45")
    assert values(page, 4) == ["250", "15", "120", "45"]
    assert page.locator("button[value='flip:n:0']").get_attribute("aria-pressed") == "true"  # both pots taken
    preview = page.locator("#sheet-preview")
    assert preview.locator("td.num").all_inner_texts() == [
        "250", "120", "200", "0", "-15", "-45", "100", "0", "0", "0", "535", "75", "535", "75"]
    looks_right(page, "numbers-buraco-360")
    tap(".sheet-save")
    assert tap.count <= 14, tap.count
    hand = state(server, made)["deals"][0]
    assert hand["entry"] == "tally" and hand["closed_by"] == 0 and hand["points"] == [535, 75]
    assert hand["tally"]["sides"][0] == {"melds": 250, "burracos": {"pure": 1, "semi": 0, "dirty": 0}, "pot": True,
                                         "hand": 15}
    assert state(server, made)["totals"] == [535, 75] and totals_on_page(page) == ["535", "75"]
    tap("form[action*='/deal'] button.primary")  # hand 2 starts on the numbers screen too
    tap("button[value='toggle:k:1']")
    tap.keys("95")
    page.set_viewport_size({"width": 1280, "height": 720})
    assert no_overflow(page)
    shot(page, "numbers-buraco-1280")
    assert problems == []
    context.close()


@pytest.mark.parametrize("js", [False])
def test_r_common_6_without_javascript_the_phones_keyboard_enters_both(browser, server, js):
    context, page, made, problems = open_table(browser, server, "brulot", ["Ana", "Bo", "Cy", "Di"], js=js)
    tap = Taps(page, js=False)
    tap("text=Numbers")
    tap("button.card[value='3H']")
    assert page.locator(".keypad").is_hidden()
    for name, typed in (("v0", "13"), ("v1", "15"), ("v2", "10")):
        page.fill(f"input[name={name}]", typed)
    tap(".sheet-save")
    assert state(server, made)["deals"][0]["penalties"] == [13, 15, 10, 2]
    assert totals_on_page(page) == ["13", "15", "10", "2"]
    shot(page, "numbers-brulot-nojs-360")
    context.close()

    context, page, made, problems = open_table(browser, server, "buraco", ["Ana", "Bo", "Cy", "Di"], js=js)
    tap = Taps(page, js=False)
    tap("text=Numbers")
    tap("form[action*='/deal'] button.primary")
    page.fill("input[name=v0]", "250")
    tap("button[value='toggle:k:0']")  # the chip posts what was typed with it
    assert page.input_value("input[name=v0]") == "250"
    page.fill("input[name=v1]", "15")
    tap("button[value='more:u:0:pure']")
    page.fill("input[name=v2]", "120")
    page.fill("input[name=v3]", "45")
    looks_right(page, "numbers-buraco-nojs-360")
    tap(".sheet-save")
    assert state(server, made)["deals"][0]["points"] == [535, 75]
    assert totals_on_page(page) == ["535", "75"]
    context.close()


def test_the_numbers_screens_have_no_serious_accessibility_violation(browser, server):
    need(AXE.exists(), f"{AXE} is missing (npm ci installs axe-core)")
    context, page, _, _ = new_phone(browser, locale="en-GB", bypass_csp=True)  # to inject axe
    found = {}
    for game, players, deal, sheet in (
            ("brulot", 4, {"type": "deal", "trump": "3H"}, "v=13.15.10."),
            ("brulot", 5, {"type": "deal", "trump": "AS"}, "v=0.3.6.5."),
            ("buraco", 4, {"type": "deal"}, "v=250.15.120.45&x=k:0~u:0:pure"),
            ("buraco", 3, {"type": "deal"}, "v=100..60.20.40.15&x=k:0~p:0~e:2~u:0:pure")):
        made = api(server, "/api/v1/tables", {"game": game, "players": ["Ana", "Bo", "Cy", "Di", "Ed"][:players]})
        api(server, f"/api/v1/tables/{made['id']}/events", deal, made["scorer_key"])
        page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=en&mode=numbers&{sheet}")
        assert page.locator("#sheet-preview table").count() >= 1 or game == "brulot" and players == 5
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => (await axe.run(document)).violations"
                               ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))")
        found[f"{game}-{players}"] = [v for v in result if v["impact"] in ("serious", "critical")]
        assert no_overflow(page)
    assert found == {"brulot-4": [], "brulot-5": [], "buraco-4": [], "buraco-3": []}
    context.close()
