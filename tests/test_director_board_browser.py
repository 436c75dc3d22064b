"""The director's page of a 150-table evening in Debian's Chromium (issue 40), at 1280×720 and 360×740: a table's
change redraws that table's row alone (every other row is the same DOM node after the update), a call to the
director (R-COMMON-7) comes first and is counted; a filter and a search swap the board (the address pushed), and
work as plain GET without JavaScript; without its stream, the page's poll redraws the changed row alone too; axe
finds no serious violation. The wall of its 300 entrants keeps its scroll position when a result arrives, and with
require_signatures its "results in" counts the settled tables only (R-COMMON-7).
Screenshots: tests/artifacts/director-150-1280.png, director-150-360.png (the page's top) and
director-150-1280-board.png, director-150-360-board.png (its board)."""
import pytest

from tests.support import big_round as evening
from tests.support.api import api
from tests.support.browser import AXE, NETWORK_CUT, PHONE, PUSHED, artifact

WIDE = {"width": 1280, "height": 720}
ROWS = "() => [...document.querySelectorAll('#tables > li')].map(li => Number(li.id.slice(6)))"
# The rows in the order the eye reads them (CSS grid, calls first by their order): top to bottom, left to right.
SEEN = """() => [...document.querySelectorAll('#tables > li')].map(li => [li.getBoundingClientRect(), li.id])
  .sort((a, b) => a[0].top - b[0].top || a[0].left - b[0].left).map(r => Number(r[1].slice(6)))"""
MARK = "() => { window.keptRows = [...document.querySelectorAll('#tables > li')]; window.samePage = true; }"
# The rows that are no longer the node marked: swapped (or gone)
REDRAWN = """() => window.samePage && window.keptRows.filter(li => !li.isConnected ||
  document.getElementById(li.id) !== li).map(li => Number(li.id.slice(6)))"""


@pytest.fixture(scope="module")
def played(server_module):
    return evening.big_round(lambda path, body, key: api(server_module, path, body, key))


def director_page(browser, server, played, viewport, query="", js=True, **options):
    context = browser.new_context(viewport=viewport, locale="en-GB", java_script_enabled=js, **options)
    page = context.new_page()
    page.goto(f"{server.url}/tournaments/{played['id']}?key={played['director']}&lang=en{query}")
    return context, page


def count(page, group: str) -> int:
    return int(page.inner_text(f"#count-{group}"))


def test_r_common_7_a_tables_change_redraws_its_row_alone_and_a_call_comes_first(browser, server_module, played):
    for viewport, name in ((WIDE, "1280"), (PHONE, "360")):
        context, page = director_page(browser, server_module, played, viewport)
        page.wait_for_function(PUSHED, timeout=10000)
        assert {group: count(page, group) for group in evening.COUNTS} == evening.COUNTS
        assert page.evaluate(SEEN)[:4] == [41, 42, 43, 1]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        small = page.evaluate("() => [...document.querySelectorAll('.status-filter a, .table-search button, "
                              ".table-search input:not([type=hidden])')].filter(e => e.getBoundingClientRect()"
                              ".height < 44).length")
        assert small == 0  # big touch targets
        page.screenshot(path=str(artifact(f"director-150-{name}")))
        top = page.evaluate("() => document.getElementById('table-q').getBoundingClientRect().top + scrollY")
        page.screenshot(path=str(artifact(f"director-150-{name}-board")), full_page=True,
                        clip={"x": 0, "y": top - 60, **viewport})  # the search, the calls, the first rows
        context.close()

    context, page = director_page(browser, server_module, played, WIDE)
    page.wait_for_function(PUSHED, timeout=10000)
    page.evaluate(MARK)
    table = played["tables"][46]  # table 47: its first hand
    evening.hand(lambda path, body, key: api(server_module, path, body, key), table, evening.card_key(table))
    page.wait_for_function("() => document.querySelectorAll('#table-47 .pip.on').length === 1", timeout=10000)
    assert page.evaluate(REDRAWN) == [47]
    assert "1 hand done" in page.inner_text("#table-47")

    page.evaluate(MARK)  # table 21 (to confirm) calls the director: counted, redrawn, first among the calls
    api(server_module, f"/api/v1/tables/{played['tables'][20]['table_id']}/events",
        {"type": "dispute", "side": 0, "message": "The score sheet says otherwise"},
        evening.card_key(played["tables"][20]))
    page.wait_for_function("() => document.getElementById('count-called').textContent.trim() === '4'",
                           timeout=10000)
    page.wait_for_function("() => document.getElementById('table-21').classList.contains('group-called')")
    assert page.evaluate(REDRAWN) == [21]
    assert (count(page, "to_confirm"), count(page, "called")) == (9, 4)
    assert page.evaluate(SEEN)[:5] == [41, 42, 43, 21, 1]  # with the calls, never redrawing the others
    assert "4 calls to the director" in page.inner_text(".calls")

    # A filter: the board alone swapped, the address pushed; then a search from every table
    page.click(".status-filter .filter-called")
    page.wait_for_function("() => location.search.includes('status=called')")
    page.wait_for_function(f"() => JSON.stringify(({ROWS})()) === '[21,41,42,43]'")
    assert page.evaluate("() => window.samePage") is True
    page.click(".status-filter .filter-all")
    page.wait_for_function("() => !location.search.includes('status=')")
    page.fill("#table-q", "élodie")
    page.wait_for_function(f"() => JSON.stringify(({ROWS})()) === '[8,11]'")
    assert "q=%C3%A9lodie" in page.url and page.evaluate("() => window.samePage") is True
    page.evaluate(MARK)  # filtered, a change elsewhere redraws nothing here; table 8's own change its row
    evening.hand(lambda path, body, key: api(server_module, path, body, key), played["tables"][47],
                 evening.card_key(played["tables"][47]))
    evening.hand(lambda path, body, key: api(server_module, path, body, key), played["tables"][7],
                 evening.card_key(played["tables"][7]))
    page.wait_for_function("() => document.querySelectorAll('#table-8 .pip.on').length === 1", timeout=10000)
    assert page.evaluate(REDRAWN) == [8] and page.evaluate(ROWS) == [8, 11]
    context.close()


def test_without_its_stream_the_page_polls_and_still_redraws_the_changed_row_alone(browser, server_module, played):
    browser.allow(*NETWORK_CUT)  # the stream refused on purpose
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.route("**/stream?**", lambda route: route.abort())  # a proxy that buffers streams: the poll takes over
    page = context.new_page()
    page.goto(f"{server_module.url}/tournaments/{played['id']}?key={played['director']}&lang=en")
    with page.expect_response(lambda answer: "/live?" in answer.url):
        pass
    page.evaluate(MARK)
    table = played["tables"][48]  # table 49: its first hand
    evening.hand(lambda path, body, key: api(server_module, path, body, key), table, evening.card_key(table))
    page.wait_for_function("() => document.querySelectorAll('#table-49 .pip.on').length === 1", timeout=10000)
    assert page.evaluate(REDRAWN) == [49]
    assert page.evaluate("() => document.documentElement.getAttribute('data-live')") == "polled"
    context.close()


def test_without_javascript_the_filter_and_the_search_are_plain_get(browser, server_module, played):
    context, page = director_page(browser, server_module, played, PHONE, "&status=signed", js=False)
    assert page.evaluate(ROWS) == list(range(31, 41))
    page.fill("#table-q", "Pl035")
    with page.expect_navigation():
        page.press("#table-q", "Enter")
    assert page.evaluate(ROWS) == [36] and "status=signed" in page.url and "q=Pl035" in page.url
    with page.expect_navigation():
        page.click(".status-filter .filter-all")
    assert page.evaluate(ROWS) == [36] and "status=" not in page.url  # the search kept
    context.close()


def test_the_board_has_no_serious_accessibility_violation(browser, server_module, played):
    context, page = director_page(browser, server_module, played, PHONE, bypass_csp=True)  # to inject axe
    page.wait_for_function(PUSHED, timeout=10000)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: "
                          "v.impact, nodes: v.nodes.length}))")
    assert [v for v in found if v["impact"] in ("serious", "critical")] == []
    context.close()


WATCH = """() => {
  const seen = window.wallSeen = {swaps: []};
  let before = null, top = 0;
  function frame() {
    const box = document.querySelector('.wall-standings');
    if (box) {
      if (before !== null && box !== before) { seen.swaps.push([top, box.scrollTop]); }
      before = box; top = box.scrollTop;
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
}"""


def test_r_common_7_the_wall_of_300_entrants_keeps_its_place_and_counts_the_settled_tables(
        browser, server_module, played):
    context = browser.new_context(viewport=WIDE, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server_module.url}/tournaments/{played['id']}/screen?key={played['viewer']}&lang=en&pace=0.5&pause=0")
    page.wait_for_function(PUSHED, timeout=10000)
    assert page.locator(".wall-standings tbody tr").count() == 300
    results = page.inner_text(".results-in")
    assert results.startswith("Results in: ") and "/ 150" in results
    done = int(results.split(": ")[1].split(" /")[0])
    assert done == 13  # R-COMMON-7: the 10 signed, 2 corrected and the arbitral one; never 21-30 or the calls
    page.evaluate(WATCH)
    page.wait_for_function("() => document.querySelector('.wall-standings').scrollTop > 400", timeout=20000)
    table = played["tables"][29]  # table 30, to confirm: its signatures put its result in
    for number in (0, 1):
        api(server_module, f"/api/v1/tables/{table['table_id']}/events", {"type": "confirm", "side": number},
            evening.card_key(table))
    page.wait_for_function("(n) => document.querySelector('.results-in').textContent.includes("
                           "'Results in: ' + n + ' / 150')", arg=done + 1, timeout=10000)
    swaps = page.evaluate("() => window.wallSeen.swaps")
    assert swaps and all(after >= before - 1 and after > 400 for before, after in swaps), swaps
    context.close()
