"""The wall for a big field in Debian's Chromium (issue 27): a Burraco evening of 60 pairs, a Mitchell round of 2
hands seated (30 tables). At 1280×720 the standings do not fit: every one of the 60 rows passes whole through the
scrolling box (wall-scroll.js, sped up by the wall's address: ``pace`` seconds a row, ``pause`` at the top and the
bottom), the loop goes down to the last row and starts again at the top; at its own pace the box keeps its place
when the live part is swapped, and "results in" counts the tables finished meanwhile. With reduced motion nothing
moves, and without JavaScript the box scrolls by hand. Screenshots: tests/artifacts/wall-60-1280.png (1280×720)
and wall-60-360.png (360×740)."""
import time

from tests.support.api import api
from tests.support.browser import PHONE, PUSHED, artifact
from tests.support.burraco import VP_ROWS

WIDE = {"width": 1280, "height": 720}
FIRST = ["Ana", "Bruno", "Chiara", "Dario", "Elena", "Fabio", "Giulia", "Jordi", "Lucía", "Montse", "Pierre",
         "Élodie", "Hans", "Greta", "João", "Inês"]  # 16 × 11: each pair's first player a name of their own
LAST = ["Rossi", "Puig", "Bianchi", "Ferrer", "Dubois", "Müller", "Silva", "Costa", "Martí", "Romano", "Vidal"]
PARTNER = ["Bo", "Carla", "Xavier", "Núria", "Luca", "Marta", "Otto", "Paula", "Sergi", "Teresa", "Yves", "Zoe",
           "Rui"]  # 13 × 7: their partners' from other names
PARTNER_LAST = ["Santos", "Moreau", "Schmidt", "Lefèvre", "Conti", "Serra", "Weber"]
PAIRS = [[f"{FIRST[i % 16]} {LAST[i % 11]}", f"{PARTNER[i % 13]} {PARTNER_LAST[i % 7]}"] for i in range(60)]


# Each animation frame, what the box shows whole (under its sticky headings): the rows' names, the loop's phases,
# and, when a swap gave the page a new box, the old box's place and the new one's.
WATCH = """() => {
  const seen = window.wallSeen = {names: new Set(), phases: [], swaps: []};
  let before = null, top = 0;
  function frame() {
    const box = document.querySelector('.wall-standings');
    if (box) {
      const shown = box.getBoundingClientRect();
      const head = box.querySelector('thead').getBoundingClientRect().bottom;
      for (const row of box.querySelectorAll('tbody tr')) {
        const r = row.getBoundingClientRect();
        if (r.height > 0 && r.top >= head - 1 && r.bottom <= shown.bottom + 1) {
          seen.names.add(row.querySelector('.names').textContent.trim());
        }
      }
      const phase = box.getAttribute('data-wall-phase');
      if (seen.phases[seen.phases.length - 1] !== phase) { seen.phases.push(phase); }
      if (before !== null && box !== before) { seen.swaps.push([top, box.scrollTop]); }
      before = box; top = box.scrollTop;
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
}"""
SEEN = "() => ({names: [...window.wallSeen.names], phases: window.wallSeen.phases, swaps: window.wallSeen.swaps})"


def side(melds: int, left: int) -> dict:
    return {"melds": melds, "burracos": {}, "pot": True, "hand": left}


def finish(server, table: dict) -> None:
    """Two hands at the table, through the tables' API with its card's key: 500 – 200."""
    key = table["scorer_url"].split("key=")[1]
    for ns, ew in (((300, 0), (100, 0)), ((200, 0), (100, 0))):
        api(server, f"/api/v1/tables/{table['table_id']}/events", {"type": "deal", "trump": None}, key)
        api(server, f"/api/v1/tables/{table['table_id']}/events",
            {"type": "tally", "closed_by": None, "sides": [side(*ns), side(*ew)]}, key)


def wall_of(browser, url: str, viewport=WIDE, **options):
    context = browser.new_context(viewport=viewport, locale="en-GB", **options)
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url)
    return context, page, problems


def box(page) -> dict:
    return page.locator(".wall-standings").evaluate(
        "b => ({top: b.scrollTop, height: b.scrollHeight, shown: b.clientHeight, phase: b.getAttribute("
        "'data-wall-phase'), overflow: getComputedStyle(b).overflowY, rows: b.querySelectorAll('tbody tr').length})")


def test_the_wall_of_60_pairs_scrolls_through_every_row_and_counts_the_results_in(browser, server_module):
    made = api(server_module, "/api/v1/tournaments", {"game": "buraco", "name": "Torneo di primavera",
                                                      "entrants": PAIRS,
                                                      "rounds": [{"movement": "mitchell", "hands": 2}] * 2,
                                                      "vp_table": VP_ROWS})
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    tables = api(server_module, f"/api/v1/tournaments/{tid}/rounds", {}, director)["rounds"][0]["tables"]
    assert len(tables) == 30 and tables[0]["entrants"] == [0, 30]
    for table in tables[:2]:
        finish(server_module, table)
    names = {" & ".join(pair) for pair in PAIRS}
    wall = f"{server_module.url}/tournaments/{tid}/screen?key={viewer}&lang=en"

    # Sped up (a row a 0.1 s, half a second at each end): every row passes whole through the box, down then up.
    context, page, problems = wall_of(browser, wall + "&pace=0.1&pause=0.5")
    page.wait_for_function(PUSHED, timeout=10000)
    found = box(page)
    assert found["rows"] == 60 and found["overflow"] == "auto" and found["height"] > 2 * found["shown"]
    assert page.inner_text(".results-in") == "Results in: 2 / 30"
    page.evaluate(WATCH)
    page.wait_for_function("(all) => window.wallSeen.names.size === all && window.wallSeen.phases.join(' ')"
                           ".includes('down bottom up top')", arg=len(names), timeout=60000)
    seen = page.evaluate(SEEN)
    assert set(seen["names"]) == names
    assert problems == []
    context.close()

    # At a wall's own pace (a row a second): the loop keeps its place when a result swaps the live part in.
    context, page, problems = wall_of(browser, wall + "&pace=1&pause=1")
    page.wait_for_function(PUSHED, timeout=10000)
    page.screenshot(path=str(artifact("wall-60-1280")))  # the top of the loop, its first pause
    page.evaluate(WATCH)
    page.wait_for_function("() => document.querySelector('.wall-standings').scrollTop > 60", timeout=10000)
    for table in tables[2:5]:
        finish(server_module, table)
    page.wait_for_function("() => document.querySelector('.results-in').textContent.trim() === "
                           "'Results in: 5 / 30'", timeout=5000)
    seen = page.evaluate(SEEN)
    assert seen["swaps"] and all(after >= before - 1 and after > 60 for before, after in seen["swaps"]), seen["swaps"]
    assert box(page)["phase"] == "down"
    assert "Round 1: tables 6 (0/2), 7 (0/2)" in page.inner_text(".round-note")
    assert problems == []
    context.close()

    # Reduced motion: nothing moves, the box scrolls by hand; without JavaScript, the same box.
    for options in ({"reduced_motion": "reduce"}, {"java_script_enabled": False}):
        context, page, problems = wall_of(browser, wall + "&pace=0.05&pause=0", **options)
        time.sleep(1.5)  # time is the subject: moving, the box would have scrolled (a row 0.05 s) by now
        found = box(page)
        assert (found["top"], found["rows"], found["overflow"]) == (0, 60, "auto") and found["height"] > found["shown"]
        assert found["phase"] == ("off" if "reduced_motion" in options else None)
        page.locator(".wall-standings").evaluate("b => { b.scrollTop = b.scrollHeight; }")
        assert box(page)["top"] == found["height"] - found["shown"]
        assert problems == []
        context.close()

    context, page, problems = wall_of(browser, wall, viewport=PHONE)  # a phone: one list, the page scrolls
    assert box(page)["height"] <= box(page)["shown"] + 1
    page.screenshot(path=str(artifact("wall-60-360")))
    assert problems == []
    context.close()
