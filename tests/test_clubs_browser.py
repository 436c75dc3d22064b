"""A club's evening in Debian's Chromium (issue 29, R-CLUB-1), in French on a 360×740 phone: "Mon club" from the home
page makes "Brisca du jeudi", its page adds four members by name (a fifth, "bogdan", is refused with a sentence and
nothing is added), taps Brisca, seats two members by their chips and creates the table; the scorer's page enters the
series by its numbers (Anne-Marie wins 3 deals to 0) while the club's wall, open with the viewer key in a second
browser context at 1280×720, shows the ladder after the last deal without a reload: Anne-Marie first, both at
their new OpenSkill rating (computed here with the ``openskill`` package), 1/1 and 0/1. A rematch plays a second
series; the winner's page then shows her figures, Brisca's statistics and a chart of three points. Every page fits
the phone's width and its targets are 44 px or more. Screenshots at 360×740 and 1280×720: tests/artifacts/club-*.png
(the member's page, the club's page and its ladder, the wall, the set-up)."""
import re

from openskill.models import PlackettLuce

from tests.support.browser import IDLE, NETWORK_CUT, PHONE, REFUSED, Taps, artifact, new_phone, polls_answered, shot

DESK = {"width": 1280, "height": 720}
CLUB = "Brisca du jeudi"
MEMBERS = ["Anne-Marie", "Bogdan", "Carmen", "Dieter"]
REFUSED_409 = "Failed to load resource: the server responded with a status of 409 (CONFLICT)"  # the refused name
LADDER_HEAD = ["#", "Membre", "Cote", "Gagnées / jouées", "Dernier"]


def french(value: float) -> str:
    """A rating or its move as the French pages write it (referee/web/clubs/filters.py: one decimal, a comma)."""
    return f"{round(value, 1) + 0.0:.1f}".replace(".", ",").replace("-", "−")


def expected(series: int) -> tuple:
    """(Anne-Marie's, Bogdan's) ordinals (mu − 3·sigma) after ``series`` series won by Anne-Marie, each series one
    match of OpenSkill's Plackett–Luce with its defaults (R-CLUB-1)."""
    model = PlackettLuce()
    winner, loser = model.rating(), model.rating()
    for _ in range(series):
        [winner], [loser] = model.rate([[winner], [loser]], ranks=[1, 2])
    return winner.ordinal(), loser.ordinal()


def fits_the_phone(page) -> None:
    """No sideways scrolling at 360 px, and every target of the page's main part at least 44×44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url
    assert small_targets(page) == [], page.url


def small_targets(page) -> list:
    """The visible targets of the page's main part under 44 px either way: [(text, width, height)] (a radio button
    or a check box counts by its label, which is what the finger taps)."""
    return page.locator("main a, main button, main summary, main select, main input:not([type=hidden])"
                        ":not([type=radio]):not([type=checkbox])").evaluate_all(
        "els => els.map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.width > 0 && r.height > 0)"
        ".filter(([e, r]) => r.width < 44 || r.height < 44)"
        ".map(([e, r]) => [(e.textContent || e.name || '').trim().slice(0, 30), Math.round(r.width),"
        " Math.round(r.height)])")


def table_cells(page, part: str) -> list:
    """The first ladder's rows of ``part`` (thead, tbody) as the page shows them, each a list of its cells' text."""
    return page.locator(f".ladder-table >> nth=0 >> {part} tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent.trim()))")


def member_figures(page) -> list:
    """The member's figure boxes: [[label without its ruling, value without the rank], …]."""
    return page.locator(".member-stats .stats > div").evaluate_all(
        "boxes => boxes.map(b => [b.querySelector('dt').firstChild.textContent.trim(),"
        " b.querySelector('dd').firstChild.textContent.trim()])")


def play_a_series(tap, page) -> None:
    """Three deals of Brisca by their numbers, each 70–50 for Anne-Marie (R-BRISCA-6: three deals won take the
    series); the last deal's save is left to the caller."""
    for deal in range(3):
        tap("button.card[value='1O']")  # the turned card: trump oros
        tap.keys("70")  # Bogdan's 50 appears
        assert page.locator("input[name=v1]").get_attribute("placeholder") == "50"
        if deal < 2:
            tap(".sheet-save")


def test_r_club_1_a_club_evening_from_my_club_to_the_wall(browser, server_module):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    server = server_module
    context, page, _phone, problems = new_phone(browser, locale="fr-CH")

    # 1. The home page's "Mon club", the club made.
    page.goto(server.url)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    my_club = page.locator("a[href='/clubs/new']")
    assert my_club.inner_text().strip() == "Mon club"
    box = my_club.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    with page.expect_navigation():
        my_club.click()
    assert page.inner_text("h1") == "Mon club"
    fits_the_phone(page)
    page.fill("#club-name", CLUB)
    with page.expect_navigation():
        page.click(".club-form button.primary")
    found = re.fullmatch(rf"{server.url}/clubs/([\w-]+)\?key=([\w-]+)", page.url)
    assert found, page.url
    club_id, club_key = found.groups()
    assert page.inner_text("h1") == CLUB

    # 2. Four members by name; "bogdan" again is refused with a sentence, nothing added.
    for name in MEMBERS[:2]:
        page.fill("#new-member", name)
        with page.expect_navigation():
            page.click(".add-member button[type=submit]")
    page.fill("#new-member", "bogdan")
    with page.expect_navigation():
        page.click(".add-member button[type=submit]")
    refusal = page.locator("#members .refusal[role=alert]")
    assert refusal.count() == 1
    said = refusal.inner_text().strip()
    assert "bogdan" in said.casefold() and "membre" in said and said.endswith("."), said  # a sentence, in French
    assert page.locator(".member-name").all_inner_texts() == MEMBERS[:2]
    assert problems == [REFUSED_409]  # the refusal's status, nothing else
    problems.clear()
    for name in MEMBERS[2:]:
        page.fill("#new-member", name)
        with page.expect_navigation():
            page.click(".add-member button[type=submit]")
    assert page.locator(".member-name").all_inner_texts() == MEMBERS
    fits_the_phone(page)
    wall_link = page.locator(".club-share a.button").get_attribute("href")
    viewer = re.fullmatch(rf"{server.url}/clubs/{club_id}/wall\?key=([\w-]+)", wall_link).group(1)
    assert viewer != club_key and page.locator(".club-share .link-text code").inner_text() == wall_link

    # 3. Brisca from the club's page: two seats, filled by two chips.
    with page.expect_navigation():
        page.click(f".club-games a[href*='/new/brisca?club={club_id}']")
    chips = page.locator("button.chip.member")
    assert chips.all_inner_texts() == MEMBERS  # nobody has played yet: by name
    page.click("button[value='count:2']")
    page.wait_for_function(IDLE)
    assert page.locator("input[name=player]").evaluate_all("s => s.map(e => e.value)") == ["", ""]
    for name in MEMBERS[:2]:
        page.click(f"button.chip.member >> text={name}")
        page.wait_for_function(IDLE)
    assert page.locator("input[name=player]").evaluate_all("s => s.map(e => e.value)") == MEMBERS[:2]
    assert page.locator("button.chip.member[aria-pressed=true]").all_inner_texts() == MEMBERS[:2]
    assert page.locator("input[name=opt_wins_needed]:checked").get_attribute("value") == "3"  # R-BRISCA-6
    fits_the_phone(page)
    shot(page, "club-setup-360")
    with page.expect_navigation(url=re.compile(r".*/t/[\w-]+\?key=.*")):
        page.click("button[value=create]")
    table_url = page.url

    # 5. (opened before 4's series) The wall, in its own browser context, by the link the club's page gives: no
    # ladder yet.
    wall_context = browser.new_context(viewport=DESK, locale="fr-CH")
    wall = wall_context.new_page()
    wall_problems = []
    wall.on("console", lambda m: wall_problems.append(m.text) if m.type == "error" else None)
    wall.on("pageerror", lambda e: wall_problems.append(str(e)))
    wall.goto(wall_link)
    assert wall.inner_text("h1") == CLUB and wall.locator(".ladder-table").count() == 0

    # 4. The series by its numbers on the scorer's page; the wall shows the ladder after the last deal.
    tap = Taps(page)
    tap("a[href*='/entry/numbers']")  # "Nombres"
    play_a_series(tap, page)
    polls_answered(wall, f"/clubs/{club_id}/live")  # the wall caught up, nothing on its way
    assert wall.locator(".ladder-table").count() == 0
    tap(".sheet-save")  # the third deal: Anne-Marie 3, Bogdan 0
    wall.wait_for_function("() => document.querySelectorAll('.ladder-table tbody tr').length === 2", timeout=30000)
    winner, loser = expected(1)
    assert table_cells(wall, "thead") == [LADDER_HEAD]
    assert table_cells(wall, "tbody") == [["1", "Anne-Marie", french(winner), "1/1", "+" + french(winner)],
                                          ["2", "Bogdan", french(loser), "0/1", french(loser)]]
    assert french(winner) == "3,4" and french(loser) == "−1,8"
    assert wall.locator("#live-status.stale").count() == 0
    assert page.locator("form.rematch button").count() == 1  # the series is over on the phone

    # 6. A rematch: the same members at their seats, the way of entry kept; Anne-Marie wins again.
    with page.expect_navigation(url=re.compile(r".*/t/[\w-]+\?key=.*")):
        page.click("form.rematch button")
    assert page.url != table_url
    assert page.inner_text(".entry-switch [aria-current=true]") == "Nombres"
    play_a_series(tap, page)
    tap(".sheet-save")
    before, (winner, loser) = winner, expected(2)
    wall.wait_for_function("() => document.querySelector('.ladder-table tbody tr td.num + th + td')"
                           f".textContent.trim() === '{french(winner)}'", timeout=30000)
    assert table_cells(wall, "tbody") == [
        ["1", "Anne-Marie", french(winner), "2/2", "+" + french(winner - before)],
        ["2", "Bogdan", french(loser), "0/2", french(loser - expected(1)[1])]]
    wall.screenshot(path=str(artifact("club-wall-1280")))
    wall.set_viewport_size(PHONE)
    fits_the_phone(wall)
    shot(wall, "club-wall-360")

    # The club's page: the same ladder, each name a link to the member's page.
    page.goto(f"{server.url}/clubs/{club_id}?key={club_key}")
    assert [row[:4] for row in table_cells(page, "tbody")] == [["1", "Anne-Marie", french(winner), "2/2"],
                                                               ["2", "Bogdan", french(loser), "0/2"]]
    fits_the_phone(page)
    shot(page, "club-ladder-360")
    page.set_viewport_size(DESK)
    shot(page, "club-ladder-1280")
    page.set_viewport_size(PHONE)

    # The winner's page: her figures, Brisca's statistics, the chart (the start and one point a series).
    with page.expect_navigation():
        page.click(".ladder-table tbody th a >> text=Anne-Marie")
    assert page.inner_text("h1") == "Anne-Marie"
    assert member_figures(page) == [["Séries jouées", "2"], ["Séries gagnées", "2"], ["Cote", french(winner)],
                                    ["Donnes gagnées", "6"], ["Donnes à 60–60", "0"]]  # R-BRISCA-6
    assert page.inner_text(".member-stats .stats dd small") == "rang 1 sur 2"
    chart = page.locator(".member-charts svg.rating-chart")
    assert chart.count() == 1 and chart.locator(".dots circle").count() == 3
    assert page.locator(".series-list li.won").count() == 2
    fits_the_phone(page)
    shot(page, "club-member-360")
    page.set_viewport_size(DESK)
    shot(page, "club-member-1280")
    page.set_viewport_size(PHONE)

    # The phone remembers its club (static/clubs-remembered.js): the home page offers it, first thing.
    page.goto(server.url)
    kept = page.locator(".remembered-clubs a")
    assert kept.all_inner_texts() == ["Brisca du jeudi"]
    assert "/clubs/" in kept.first.get_attribute("href") and "key=" in kept.first.get_attribute("href")
    assert kept.first.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    assert problems == [] and wall_problems == []
    for ctx in (context, wall_context):
        ctx.close()

