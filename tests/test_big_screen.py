"""The big screen (/t/<id>/screen) as a club's TV shows it, in Debian's Chromium: at 1280×720, 1920×1080 and on its
side (1080×1920), for a table of each game with a deal under way and for a finished series, the series' numbers in its own unit (Brisca's deals won) are at least a
tenth of the screen's height and the largest text on it, nothing overflows the screen or its box, the QR code in the
corner decodes (zbarimg) to the viewer link, and a Buraco and a Brouc table's screen follows an entry made through the
API without a reload. Screenshots: tests/artifacts/screen-*.png."""
import html
import re
import shutil
import subprocess

import pytest

from tests.support.api import api
from tests.support.browser import artifact, polls_answered
from tests.support.env import need
from tests.support.simulate import brisca_deal, brulot_deal, brusquembille_deal

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080), "portrait": (1080, 1920)}
FOUR = ["Ana", "Bo", "Cy", "Di"]
BROUC_PARTIE = [{"type": "deal", "trump": "7D"}, {"type": "tally", "points": [90, 30]}] * 4  # 36–12: a coche to Bo & Di
TABLES = {
    # Deal 1 won by Ana & Cy (70–50), three tricks of deal 2.
    "brisca": (FOUR, {}, [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}]
               + brisca_deal(4, 1, 11)[:4]),
    # A partie lost by Bo & Di (one coche), the next deal: a trick to Ana and her announce of K Q of trump (40: 4).
    "brouc": (FOUR, {}, BROUC_PARTIE + [{"type": "deal", "trump": "KH"},
                                        {"type": "trick", "cards": ["7S", "8S", "9S", "AS"]},
                                        {"type": "announce", "player": 0, "cards": ["KH", "QH"]}]),
    # Six players alone with long names, the widest: a whole deal, then three tricks of the next.
    "brulot": (["Jean-François", "Marie-Claude", "Ghislain", "Geneviève", "Édouard", "Flo"], {"partnership": False},
               brulot_deal(6, 0, 3)[0] + brulot_deal(6, 1, 5)[0][:4]),
    # Five players: a whole deal whose brusquembilles moved jetons, then four tricks of the next.
    "brusquembille": (FOUR + ["Ed"], {"jeton_value": 0.5}, brusquembille_deal(5, 0, 4) + brusquembille_deal(5, 1, 9)[:5]),
    # A hand by its numbers, then a pure burraco laid, a meld of the other side and a pot taken.
    "buraco": (FOUR, {}, [{"type": "deal"},
                          {"type": "tally", "closed_by": 0, "sides": [{"melds": 300, "burracos": {"pure": 1}, "pot": True,
                                                                       "hand": 0},
                                                                      {"melds": 150, "pot": True, "hand": 40}]},
                          {"type": "deal"}, {"type": "meld", "side": 0, "cards": ["3H", "4H", "5H", "6H", "7H", "8H", "9H"]},
                          {"type": "meld", "side": 1, "cards": ["5S", "5D", "5C"]}, {"type": "pot", "side": 0}]),
    # A series over: the winner fills the screen.
    "brisca-won": (FOUR, {}, [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}] * 3),
}
# The giant numbers: each side's in the series' own unit (series.standing): Brisca's deals won (R-BRISCA-6), not its
# card points; Brouc's slate, Brûlot's penalties, Brusquembille's and Buraco's points.
EXPECTED_TOTALS = {"brisca": ["1", "0"], "brouc": ["0", "4"], "brulot": ["0", "5", "10", "0", "10", "13"],
                   "brusquembille": ["0", "51", "55", "0", "14"], "buraco": ["600", "110"]}

# Every box with text on the page, checked against the screen and its parent: [what, how far out in px].
OVERFLOWS = """() => {
  const out = [], W = innerWidth, H = innerHeight;
  const root = document.documentElement;
  if (root.scrollWidth > W) out.push(['page width', root.scrollWidth - W]);
  if (root.scrollHeight > H) out.push(['page height', root.scrollHeight - H]);
  const shown = el => { for (let e = el; e; e = e.parentElement) {
    const s = getComputedStyle(e); if (s.display === 'none' || s.visibility === 'hidden' || e.classList.contains('sr-only')) return false; }
    return true; };
  const box = el => { let e = el; while (e && getComputedStyle(e).display === 'contents') e = e.parentElement; return e; };
  const winner = document.querySelector('.screen-winner');
  for (const el of document.querySelectorAll('main *')) {
    if (!shown(el) || el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    if (winner && !winner.contains(el) && !el.closest('.rematch')) continue;  // under the winner: hidden by it
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    const name = el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? '.' + el.className : '');
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) out.push([name + ' off screen', Math.round(Math.max(-r.left, -r.top, r.right - W, r.bottom - H))]);
    if (s.display !== 'inline' && (el.scrollWidth > el.clientWidth + 1)) out.push([name + ' text wider than its box', el.scrollWidth - el.clientWidth]);
    if (s.display !== 'inline' && s.overflow !== 'visible' && el.scrollHeight > el.clientHeight + 1) out.push([name + ' text taller than its box', el.scrollHeight - el.clientHeight]);
    const parent = box(el.parentElement);
    if (parent && parent !== document.body && el.parentElement.tagName.toLowerCase() !== 'main') {
      const p = parent.getBoundingClientRect();
      const far = Math.max(p.left - r.left, r.right - p.right, p.top - r.top, r.bottom - p.bottom);
      if (far > 2) out.push([name + ' out of ' + parent.tagName.toLowerCase() + '.' + parent.className, Math.round(far)]);
    }
  }
  return out;
}"""
FONTS = """() => {
  const px = el => parseFloat(getComputedStyle(el).fontSize);
  const winner = document.querySelector('.screen-winner');
  const scope = winner || document;
  const totals = [...scope.querySelectorAll(winner ? '.winner-totals .total' : '.screen-total')];
  const headline = [...document.querySelectorAll('.winner-line')];
  const texts = [...document.querySelectorAll('main *')].filter(el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
    && !totals.includes(el) && !el.closest('.winner-line, .sr-only, [aria-hidden=true]')
    && (!winner || winner.contains(el)) && el.getClientRects().length);
  const names = [...document.querySelectorAll('.screen-name')];
  const deal = [...document.querySelectorAll('.screen-deal, .screen-deal *, .screen-series')];
  return {totals: totals.map(px), texts: texts.map(px), names: names.map(px), deal: deal.map(px), headline: headline.map(px),
          biggest: texts.sort((a, b) => px(b) - px(a)).slice(0, 1).map(el => el.className + ' ' + px(el))};
}"""


@pytest.fixture(scope="module")
def tables(server_module):
    made = {}
    for name, (players, options, events) in TABLES.items():
        table = api(server_module, "/api/v1/tables", {"game": name.split("-")[0], "players": players, "options": options})
        for body in events:
            api(server_module, f"/api/v1/tables/{table['id']}/events", body, table["scorer_key"])
        made[name] = table
    return made


def screen_of(browser, server, table, size, lang="en"):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB" if lang == "en" else "fr-CH",
                                  reduced_motion="reduce")  # the winner's moment drawn at once, not half faded in
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{server.url}/t/{table['id']}/screen?key={table['viewer_key']}&lang={lang}")
    return context, page, problems


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", TABLES)
def test_the_screen_fills_the_screen_totals_a_tenth_of_its_height_and_nothing_overflows(browser, server_module, tables,
                                                                                        name, size):
    lang = "fr" if size == "1080p" else "en"  # French is the longer: it has the widest boxes to fit
    context, page, problems = screen_of(browser, server_module, tables[name], SIZES[size], lang)
    page.screenshot(path=str(artifact(f"screen-{name}-{size}")))
    fonts = page.evaluate(FONTS)
    height = SIZES[size][1]
    assert fonts["totals"] and min(fonts["totals"]) >= height / 10, fonts
    assert min(fonts["totals"]) >= 1.4 * max(fonts["texts"]), fonts  # the totals, far the largest
    assert all(size >= 1.4 * max(fonts["texts"]) for size in fonts["headline"]), fonts  # and who won the series
    assert not fonts["names"] or min(fonts["names"]) >= max(fonts["deal"]), fonts  # the names next
    assert page.evaluate(OVERFLOWS) == []
    if name in EXPECTED_TOTALS:
        assert page.locator(".screen-total").all_inner_texts() == EXPECTED_TOTALS[name]
    assert problems == []
    context.close()


def test_the_qr_code_in_the_corner_decodes_to_the_viewer_link(browser, server_module, tables, tmp_path):
    need(shutil.which("zbarimg") is not None, "zbarimg is missing (Debian zbar-tools; .ci/run installs it)")
    for size in ("720p", "1080p"):
        table = tables["brouc"]
        context, page, problems = screen_of(browser, server_module, table, SIZES[size])
        qr = page.locator(".screen-qr .qr-box")
        box = qr.bounding_box()
        width, height = SIZES[size]
        assert box["x"] + box["width"] > width * 0.8 and box["y"] < height * 0.3  # the top right corner
        png = tmp_path / f"qr-{size}.png"
        qr.screenshot(path=str(png))
        decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, check=True)
        assert decoded.stdout.strip() == f"{server_module.url}/t/{table['id']}?key={table['viewer_key']}"
        context.close()


@pytest.mark.parametrize("game", ["buraco", "brouc"])
def test_the_screen_follows_an_entry_made_elsewhere(browser, server_module, game):
    players, options, events = TABLES[game]
    table = api(server_module, "/api/v1/tables", {"game": game, "players": players, "options": options})
    for body in events[:-1]:
        api(server_module, f"/api/v1/tables/{table['id']}/events", body, table["scorer_key"])
    context, page, problems = screen_of(browser, server_module, table, SIZES["720p"])
    before = page.locator(".screen-sides").inner_text()
    polls_answered(page, f"/t/{table['id']}/live")  # a poll or two with nothing new
    api(server_module, f"/api/v1/tables/{table['id']}/events", events[-1], table["scorer_key"])  # the last entry
    if game == "buraco":  # Ana & Cy take their pot
        page.wait_for_selector(".screen-side .pot", timeout=30000)
    else:  # Ana announces K Q of trump: 4 on the slate at once
        page.wait_for_function("() => document.querySelectorAll('.screen-total')[1].textContent.trim() === '4'",
                               timeout=30000)
    assert page.locator(".screen-sides").inner_text() != before
    assert page.locator("#live-status.stale").count() == 0 and problems == []
    context.close()


def every_kind_of_table():
    """(label, game, players, options, entries): each game at each player count, before its first deal, with a deal
    under way, between deals and after a whole deal."""
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
    for n in (2, 4, 6):
        yield f"brisca-{n}", "brisca", names[:n], {}, brisca_deal(n, 0, 3)[:3] + brisca_deal(n, 0, 3)[3:]
    yield "brisca-rotation", "brisca", names[:4], {"trump_rotation": True}, [{"type": "deal"}] + brisca_deal(
        4, 0, 5, trump_suit="O")[1:]  # oros, the first suit of the rotation (R-BRISCA-7)
    yield "brouc", "brouc", names[:4], {"coches_to_lose": 3}, BROUC_PARTIE[:2] + [
        {"type": "deal", "trump": "KH"}, {"type": "trick", "cards": ["7S", "8S", "9S", "AS"]},
        {"type": "announce", "player": 1, "cards": ["KH", "QH"]}]  # Bo deals, holds the king and took the trick
    for n in (3, 4, 5, 6):
        yield f"brulot-{n}", "brulot", names[:n], {"partnership": n in (4, 6)}, brulot_deal(
            n, 0, 2, trump_rule="dealer_last_card")[0]
    for n in (3, 4, 5):
        yield f"brusquembille-{n}", "brusquembille", names[:n], {"target_points": 200} if n == 4 else {}, \
            brusquembille_deal(n, 0, 6)
    for n in (2, 4):
        yield f"buraco-{n}", "buraco", names[:n], {}, TABLES["buraco"][2][:4]
    for n in (3, 5):  # a player takes the 18 cards: the others become one team (R-BURACO-1b)
        yield f"buraco-{n}", "buraco", names[:n], {}, [{"type": "deal"}, {"type": "pot", "side": 0},
                                                        {"type": "meld", "side": 1, "cards": ["5S", "5D", "5C"]}]


@pytest.mark.parametrize("label, game, players, options, entries", list(every_kind_of_table()),
                         ids=[kind[0] for kind in every_kind_of_table()])
def test_every_game_at_every_player_count_draws_its_screen_at_each_step(client, label, game, players, options,
                                                                        entries):
    made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
    auth = {"Authorization": f"Bearer {made['scorer_key']}"}
    for step in range(len(entries) + 1):
        if step:
            assert client.post(f"/api/v1/tables/{made['id']}/events", json=entries[step - 1], headers=auth).status_code == 201
        state = client.get(f"/api/v1/tables/{made['id']}?key={made['viewer_key']}").get_json()
        page = client.get(f"/t/{made['id']}/screen?key={made['viewer_key']}&lang=en").get_data(as_text=True)
        totals = re.findall(r'class="screen-total">([^<]*)<', page)
        assert sorted(totals) == sorted(str(t) for t in state["series"]["standing"]["values"]), (label, step)
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1]))
        assert not re.search(r"\b(None|True|False|[a-z]+_[a-z_]+)\b", text), (label, step, text)
        assert all(side["name"] in text for side in state["sides"])
