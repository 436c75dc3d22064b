"""A club evening in Debian's Chromium: the director creates a Burraco evening from the home page (8 pairs typed, 2
Mitchell rounds of 3 hands), seats round 1 and prints the table cards — the four on one sheet of A4 (pdfinfo), each QR
code decoding (zbarimg) to that table's card link, which opens that table's scorer page in a phone's browser; a
table's phone scores a hand by its numbers and the standings on the wall, open in a second browser context, show it
without a reload. Screenshots of each screen at 360×740 and 1280×720: tests/artifacts/tournament-*.png."""
import re
import shutil

from tests.support.api import api
from tests.support.browser import IDLE, Taps, artifact, new_phone, polls_answered, shot
from tests.support.deals import HAND_TO_NS, PAIRS
from tests.support.env import need
from tests.support.pdfread import read
from tests.support.printing import sheet_cards, sheet_qr_links


def test_a_club_evening_from_the_home_page_to_the_wall(browser, server, tmp_path):
    need(shutil.which("zbarimg") is not None, "zbarimg is missing (Debian zbar-tools; .ci/run installs it)")
    need(shutil.which("pdftoppm") is not None, "pdftoppm is missing (Debian poppler-utils; .ci/run installs it)")
    context, page, _phone, problems = new_phone(browser, locale="en-GB")
    page.goto(server.url)
    with page.expect_navigation():
        page.click("text=Organise a tournament or a club evening")
    assert page.locator("button[value='game:buraco'][aria-pressed=true]").count() == 1  # Burraco first
    page.fill("#t-name", "Tuesday at the Circolo")
    page.fill("#t-entrants", "\n".join(PAIRS))
    # the plan offered: Mitchell, Danish, Danish (any number of pairs can play it); eight pairs on four tables play
    # two Mitchell rounds: the second round becomes a Mitchell, the third goes
    page.locator(".plan-row select").nth(1).select_option("mitchell")
    page.click("button[value='remove:2']")
    page.wait_for_function(IDLE)
    assert page.locator(".plan-row select").evaluate_all("s => s.map(e => e.value)") == ["mitchell", "mitchell"]
    assert page.locator(".plan-row input.length").evaluate_all("s => s.map(e => e.value)") == ["3", "3"]
    assert page.locator("#t-name").input_value() == "Tuesday at the Circolo"  # the swap keeps what was typed
    assert page.locator("input[name=vp][value=burraco_3]").is_checked()
    shot(page, "tournament-new-360")
    with page.expect_navigation():
        page.click("button[value=create]")
    found = re.fullmatch(rf"{server.url}/tournaments/([\w-]+)\?key=([\w-]+)", page.url)
    assert found, page.url
    tid, key = found.groups()
    with page.expect_navigation():
        page.click("text=Seat round 1")
    assert "The round is seated: print its table cards." in page.inner_text("main")
    assert page.locator(".table-progress").count() == 4
    shot(page, "tournament-director-360")
    seated = api(server, f"/api/v1/tournaments/{tid}", key=key)["rounds"][0]["tables"]
    assert [(t["number"], t["entrants"]) for t in seated] == [(1, [0, 4]), (2, [1, 5]), (3, [2, 6]), (4, [3, 7])]

    # The table cards: six a sheet of A4 (the four on one), each QR code the card's link, which opens that table's
    # scorer page.
    with page.expect_navigation():
        page.click("text=Table cards (print)")
    pdf = tmp_path / "cards.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    printed = read(pdf)
    assert printed.pages == 1 and (round(printed.width), round(printed.height)) in {(595, 842), (596, 843)}
    links = sorted(sheet_qr_links(pdf, tmp_path, 1), key=lambda link: int(re.search(r"/tables/(\d+)", link)[1]))
    assert len(links) == 4
    cards = sheet_cards(pdf, 1)
    assert sorted(cards) == [0, 1, 2, 3]
    for number, (link, table) in enumerate(zip(links, seated), start=1):
        assert re.fullmatch(rf"{server.url}/tournaments/{tid}/tables/{number}\?key=[\w-]+", link), link
        words = cards[number - 1].lower()  # the winds are printed in capitals
        ns, ew = (PAIRS[i].split(" & ") for i in table["entrants"])
        assert f"table {number}" in words and f"north {ns[0]}".lower() in words and f"south {ns[1]}".lower() in words
        assert f"east {ew[0]}".lower() in words and f"west {ew[1]}".lower() in words
    phone_context, phone, _, phone_problems = new_phone(browser, locale="en-GB")
    for link, table in zip(links, seated):
        phone.goto(link)
        assert re.fullmatch(rf"{server.url}/t/{table['table_id']}\?key=[\w-]+", phone.url), phone.url
        assert phone.locator(".status-bar").count() == 1  # the scorer's page, not a viewer's

    # Table 1 plays two hands (through the API with its card's key), its phone enters the third by its numbers.
    card_key = links[0].split("key=")[1]
    for body in HAND_TO_NS * 2:
        api(server, f"/api/v1/tables/{seated[0]['table_id']}/events", body, card_key)
    phone.goto(links[0])
    tap = Taps(phone)
    tap("text=Numbers")
    tap("form[action*='/deal'] button.primary")  # "Start hand 3"
    tap("button[value='toggle:k:0']")  # Ana closes
    tap.keys("250")  # Ana & Bo's melds, then their cards left
    tap.keys("15")
    tap("button[value='more:u:0:pure']")  # a pure burraco
    tap.keys("120")  # Ida & Jo's melds and cards left
    tap.keys("45")
    shot(phone, "tournament-table-1-360")

    # The wall, in its own browser context, with the viewer's link the director's page gives.
    page.goto(f"{server.url}/tournaments/{tid}?key={key}")
    wall_link = page.locator("a", has_text="Standings on the wall").get_attribute("href")
    wall_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    wall = wall_context.new_page()
    wall_problems = []
    wall.on("console", lambda m: wall_problems.append(m.text) if m.type == "error" else None)
    wall.goto(server.url + wall_link)
    assert "key=" + key not in wall_link
    assert "Round 1: tables 1 (2/3), 2 (0/3), 3 (0/3), 4 (0/3) still playing" in wall.inner_text(".round-note")
    polls_answered(wall, f"/tournaments/{tid}/live")  # a poll or two with nothing new
    tap(".sheet-save")  # 535 – 75: after 600 – 110 twice, Ana & Bo 1735 – 295 Ida & Jo: 1440 apart, VP 19 – 1
    wall.wait_for_function("() => document.querySelector('.wall-table tbody tr .vp').textContent.trim() === '19'",
                           timeout=30000)
    first = wall.locator(".wall-table tbody tr").first.inner_text().split("\t")
    assert [cell.strip() for cell in first] == ["1", "Ana & Bo", "19", "1735", "19"]
    assert "Round 1: tables 2 (0/3), 3 (0/3), 4 (0/3) still playing" in wall.inner_text(".round-note")
    wall.screenshot(path=str(artifact("tournament-wall-1280")))
    assert wall.locator("#live-status.stale").count() == 0
    assert problems == [] and phone_problems == [] and wall_problems == []
    for ctx in (context, phone_context, wall_context):
        ctx.close()


