"""The scorer's screen holds still and names fit (issue 24), measured in Chromium at a phone's 360×740 with names of 20
characters: the status bar is at most a quarter of the screen (185 px) in every game at every moment of a deal, the
lines other parts fill (flags, the series' headline, the tournament) standing in with their longest realistic text
where they are empty here; the deck never moves and is never covered when a trick is won, a card is refused, the
winner's light fades or a flag appears; a tap that opens a choice (who announces, claims, shows a hand, whose pile)
brings it whole into view, with and without JavaScript, and after a deal the next deal's turned card is in view;
every board writes its names whole (a name wraps only at its spaces, or shrinks, or stands short with a legend), at
360 and 1280 px. Screenshots land in tests/artifacts/still-*.png."""
import pytest

from referee.games import get_game
from tests.support.api import api
from tests.support.browser import PHONE, Taps, artifact, new_phone, shot
from tests.support.deals import DEAL_A, DEAL_B
from tests.support.simulate import brisca_deal, brulot_deal, brusquembille_deal

LONG = ["Jean-Pierre Rossier", "Marie-Christine Roux", "Anne-Sophie Delacour", "Pierre-Alain Dufresne",
        "Marie-Claude Bérubé", "Louis-Philippe Gagné"]
ORDINARY = ["Ginette", "Réjean", "Sylvie", "Gaétan", "Hortense", "Raphaël"]
QUARTER = PHONE["height"] // 4  # 185 px
DESK = {"width": 1280, "height": 720}

# The longest realistic line of each partial another part of issue 24 fills, put in where it is empty here.
STAND_INS = {
    "flags": "⚑ Pli 3 : Marie-Christine Roux n'a pas fourni à cœur alors qu'elle en avait R-COMMON-4",
    "headline": "Marie-Christine Roux & Pierre-Alain Dufresne mènent 2 – 1, la partie en 3",
    "tournament": "Tournoi du Printemps des Rois de Sion · tour 2 · table 3 · 2 donnes restantes",
}
BAR = """(standIns) => {
  const added = [];
  for (const [part, text] of Object.entries(standIns)) {
    const box = document.querySelector(`.status-bar [data-part=${part}]`);
    if (box && !box.children.length) {
      const line = box.appendChild(document.createElement('p'));
      line.textContent = text;
      added.push(line);
    }
  }
  const height = document.querySelector('.status-bar').getBoundingClientRect().height;
  added.forEach((line) => line.remove());
  return height;
}"""
# The deck as laid out (its shaking card's animation finished first): its top and every card's box.
DECK = """() => {
  document.querySelectorAll('#picker .card').forEach((c) => c.getAnimations().forEach((a) => a.finish()));
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  return {scroll: scrollY, top: document.getElementById('picker').getBoundingClientRect().top,
          cards: Array.from(document.querySelectorAll('#picker button.card')).map((b) => [b.value, ...box(b)])};
}"""
# The cards whose centre something else covers.
COVERED = """() => Array.from(document.querySelectorAll('#picker button.card')).filter((b) => {
  const r = b.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(hit && (hit === b || b.contains(hit)));
}).map((b) => b.value)"""
FLAG = """(text) => {
  const line = document.querySelector('.status-bar [data-part=flags]').appendChild(document.createElement('p'));
  line.textContent = text;
}"""
# Names on the boards: cells narrower than what they hold, words broken over two lines.
NAMES = """() => {
  const cells = Array.from(document.querySelectorAll('#scoreboard th.name, #scoreboard thead th:first-child,'
                                                     + ' #scoreboard tfoot th'));
  const visible = (e) => e.getClientRects().length > 0;
  return {
    narrow: cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => [c.innerText, c.scrollWidth, c.clientWidth]),
    broken: Array.from(document.querySelectorAll('#scoreboard .word')).filter(visible)
      .filter((w) => w.getClientRects().length > 1).map((w) => w.textContent),
    names: Array.from(document.querySelectorAll('#scoreboard th.name')).map((c) => c.innerText.replace(/\\s+/g, ' ')),
    legend: Array.from(document.querySelectorAll('#scoreboard .name-legend')).filter(visible).map((e) => e.innerText),
    overflow: document.documentElement.scrollWidth,
  };
}"""


def inside(box, top=0) -> bool:
    return box["y"] >= top - 0.5 and box["y"] + box["height"] <= PHONE["height"] + 0.5 and box["x"] >= 0 and \
        box["x"] + box["width"] <= PHONE["width"]


def bar_bottom(page) -> float:
    return page.evaluate("document.querySelector('.status-bar').getBoundingClientRect().bottom")


def card(code):
    return f"#picker button.card[value='{code}']"


def phone_at(browser, server, game, players, options=None, events=(), js=True, lang="fr"):
    """A scorer's phone (French, the longest of the bar's sentences here) on a new table with ``events`` entered."""
    made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options or {}})
    for body in events:
        api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])
    context, page, _, problems = new_phone(browser, "fr-CH" if lang == "fr" else "en-GB", js=js)
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang={lang}")
    return context, page, made, problems, Taps(page, js)


def no_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


TRICK_GAMES = {
    "brisca-4": ("brisca", LONG[:4], {}, brisca_deal(4, 0, 6)),
    "brouc": ("brouc", LONG[:4], {}, [{"type": "deal", "trump": "AH"}] + [{"type": "trick", "cards": c}
                                                                          for c in DEAL_A]),
    "brulot-6": ("brulot", LONG[:6], {}, brulot_deal(6, 0, 7)[0]),
    "brusquembille-5": ("brusquembille", LONG[:5], {}, brusquembille_deal(5, 0, 4)),
}


@pytest.mark.parametrize("name", list(TRICK_GAMES))
def test_the_bar_is_a_quarter_of_the_screen_and_the_deck_never_moves(browser, server, name):
    game, players, options, events = TRICK_GAMES[name]
    context, page, made, problems, tap = phone_at(browser, server, game, players, options)
    bars = {"deal start": page.evaluate(BAR, STAND_INS)}
    tap(card(events[0]["trump"]))
    bars["dealt"] = page.evaluate(BAR, STAND_INS)
    first = events[1]["cards"]
    for code in first[:-1]:
        tap(card(code))
    bars[f"{len(first) - 1} cards tapped"] = page.evaluate(BAR, STAND_INS)
    deck = page.evaluate(DECK)
    assert deck["scroll"] == 0 and len(deck["cards"]) == page.locator("#picker button.card").count()
    shot(page, f"still-{name}-1-trick-under-way")

    tap(card(first[-1]))  # the trick is won: its winner in the bar's message room, the deck where it was
    won = page.locator(".status-bar .status-message .status-last.fresh[role=status]")
    assert won.count() == 1 and inside(won.bounding_box()) and page.evaluate(DECK) == deck
    assert page.evaluate(COVERED) == []
    bars["trick won"] = page.evaluate(BAR, STAND_INS)
    shot(page, f"still-{name}-2-trick-won")
    page.wait_for_function("() => document.querySelector('.status-last.fresh').getAnimations()"
                           ".every((a) => a.playState === 'finished')")
    assert page.evaluate("getComputedStyle(document.querySelector('.status-last.fresh')).backgroundColor") in (
        "rgba(0, 0, 0, 0)", "transparent")  # the light faded
    assert page.evaluate(DECK) == deck

    tap(card(first[0]))  # played in trick 1: refused in the bar, the card shakes, nothing moves
    refusal = page.locator(".status-bar .status-message .refusal[role=alert]")
    assert refusal.count() == 1 and inside(refusal.bounding_box(), 0)
    assert page.locator(f"{card(first[0])}.refused").count() == 1 and page.evaluate(DECK) == deck
    bars["refused"] = page.evaluate(BAR, STAND_INS)
    shot(page, f"still-{name}-3-refused")
    height = page.evaluate(BAR, {})
    page.evaluate(FLAG, STAND_INS["flags"])  # a flag raised by the next trick takes a line of the room, not the deck's
    assert page.evaluate(DECK) == deck and page.evaluate(BAR, {}) == height

    # The rest of the deal but its last trick, then that trick by taps: the next deal's turned card comes into view.
    for body in events[2:-1]:
        api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=fr")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the scorer looked at the board meanwhile
    for code in events[-1]["cards"]:
        tap(card(code))
    assert page.locator("#picker").get_attribute("action").split("?")[0].endswith("/deal")
    assert inside(page.locator("#picker").bounding_box(), bar_bottom(page))
    bars["deal over"] = page.evaluate(BAR, STAND_INS)
    shot(page, f"still-{name}-4-next-deal")
    assert all(height <= QUARTER for height in bars.values()), bars
    assert no_overflow(page) and problems == []
    context.close()


def test_buraco_s_bar_is_a_quarter_of_the_screen_at_every_moment_of_a_hand(browser, server):
    context, page, made, problems, tap = phone_at(browser, server, "buraco", LONG[:4])
    bars = {"hand start": page.evaluate(BAR, STAND_INS)}
    tap("#scorer form[action*='/deal'] button.primary")
    bars["hand open"] = page.evaluate(BAR, STAND_INS)
    with page.expect_navigation():
        page.click(".bur-modes a[href*='mode=meld'][href*='side=0']")
    for code in ("5C", "6D", "7C"):
        tap(f".bur-grid button.card[value='{code}']")
    bars["meld"] = page.evaluate(BAR, STAND_INS)
    # The finger goes back up to the meld's strip to lay it (tapping a club low in the grid scrolled the page there);
    # with the lay button in view the click itself scrolls nothing, so only the refusal could move the grid.
    page.evaluate("window.scrollTo(0, 0)")
    grid = page.locator(".bur-grid").bounding_box()
    tap(".bur-lay")  # a run of two suits (R-BURACO-2): refused in the bar's room, the grid where it was
    assert page.locator(".status-bar .status-message .refusal").count() == 1
    assert page.locator(".bur-grid").bounding_box() == grid
    bars["refused"] = page.evaluate(BAR, STAND_INS)
    shot(page, "still-buraco-refused")
    api(server, f"/api/v1/tables/{made['id']}/events", BOARDS["buraco-4"][3][1], key=made["scorer_key"])
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=fr")  # the hand is over: the next one
    bars["hand over"] = page.evaluate(BAR, STAND_INS)
    assert all(height <= QUARTER for height in bars.values()), bars
    assert no_overflow(page) and problems == []
    context.close()


def assert_in_view(page, selector="#choice"):
    """The choice whole on the screen under the status bar, and the deck it taps in with it."""
    top = bar_bottom(page)
    assert inside(page.locator(selector).bounding_box(), top), (page.locator(selector).bounding_box(), top)
    assert inside(page.locator("#picker").bounding_box(), top), page.locator("#picker").bounding_box()
    assert no_overflow(page)


@pytest.mark.parametrize("js", [True, False], ids=["htmx", "no-javascript"])
def test_r_brouc_4_the_announce_opens_whole_in_view_and_is_saved(browser, server, js):
    deal = [{"type": "deal", "trump": "KH"}, {"type": "trick", "cards": DEAL_B[0]}]  # the first player wins trick 1
    context, page, made, problems, tap = phone_at(browser, server, "brouc", LONG[:4], events=deal, js=js)
    with page.expect_navigation():
        page.click("a[href*='mode=announce']")
    assert_in_view(page)
    with page.expect_navigation():
        page.click("#choice .choice-who a.button >> nth=0")
    assert_in_view(page)
    assert page.locator("#choice .choice-who .current").inner_text() == LONG[0]
    for code in ("KH", "QH"):
        tap(card(code))
        assert_in_view(page)
    shot(page, f"still-brouc-announce-{'js' if js else 'nojs'}")
    tap("#choice button.primary")
    announces = api(server, f"/api/v1/tables/{made['id']}", key=made["scorer_key"])["deals"][0]["announces"]
    assert [(a["player"], a["cards"]) for a in announces] == [(0, ["KH", "QH"])] and problems == []
    context.close()


def test_r_brulot_4_the_shown_hand_opens_whole_in_view(browser, server):
    events, _, _ = brulot_deal(4, 0, 7, "dealer_last_card")
    options = {"trump_without_widow": "dealer_last_card"}
    context, page, made, problems, tap = phone_at(browser, server, "brulot", LONG[:4], options, events[:10])
    with page.expect_navigation():  # after trick 9 Pierre-Alain Dufresne is brûlé and must show his hand
        page.click("a[href*='mode=reveal']")
    assert_in_view(page)
    assert page.locator("#choice .choice-who .current").inner_text() == LONG[3]
    shot(page, "still-brulot-reveal")
    assert problems == []
    context.close()


def test_r_brisca_5_the_claim_opens_whole_in_view(browser, server):
    events = brisca_deal(2, 0, 5)
    context, page, made, problems, tap = phone_at(browser, server, "brisca", LONG[:2], events=events[:18])
    with page.expect_navigation():  # the stock is empty after 17 tricks: a side may claim the rest
        page.click("a[href*='mode=claim']")
    assert_in_view(page)
    with page.expect_navigation():
        page.click("#choice .choice-who a.button >> nth=0")
    assert_in_view(page)
    shot(page, "still-brisca-claim")
    assert problems == []
    context.close()


def piles(game_id, players, events, options=None) -> list:
    """Each side's captured cards in a deal, as the engine counts them from its tricks."""
    game = get_game(game_id)
    state = game.serialise(game.replay(players, options or {}, 0, events))
    taken = [[] for _ in state["sides"]]
    for trick in state["deals"][0]["tricks"]:
        side = next(s for s, members in enumerate(state["sides"]) if trick["winner"] in members["players"])
        taken[side] += trick["cards"]
    return taken


@pytest.mark.parametrize("game", ["brisca", "brouc"])
def test_r_common_6_a_pile_s_side_opens_whole_in_view_and_the_next_deal_follows(browser, server, game):
    events = brisca_deal(4, 0, 6) if game == "brisca" else \
        [{"type": "deal", "trump": "AH"}] + [{"type": "trick", "cards": c} for c in DEAL_A]
    taken = piles(game, LONG[:4], events)
    context, page, made, problems, tap = phone_at(browser, server, game, LONG[:4], events=events[:1])
    with page.expect_navigation():
        page.click("a[href*='mode=capture']")
    assert_in_view(page)
    with page.expect_navigation():
        page.click("#choice .choice-who a.button")  # the other side's pile
    assert_in_view(page)
    with page.expect_navigation():
        page.click("#choice .choice-who a.button")  # back to the first side's
    for code in taken[0]:
        tap(card(code))
    assert_in_view(page)
    shot(page, f"still-{game}-pile")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the scorer looked at what the pile carries
    tap("#choice button.primary")  # the other pile is worked out: the deal is over
    assert page.locator("#picker").get_attribute("action").split("?")[0].endswith("/deal")
    assert inside(page.locator("#picker").bounding_box(), bar_bottom(page)) and no_overflow(page)
    shot(page, f"still-{game}-pile-next-deal")
    state = api(server, f"/api/v1/tables/{made['id']}", key=made["scorer_key"])
    assert state["deals"][0]["complete"] and problems == []
    context.close()


def test_without_javascript_a_tap_comes_back_to_the_deck_from_the_top(browser, server):
    """Without JavaScript the redirect carries #picker, whose margin is taller than the bar: the page is at its top,
    the deck whole under the bar."""
    context, page, made, problems, tap = phone_at(browser, server, "brisca", LONG[:4], js=False)
    tap(card("1O"))
    assert page.url.endswith("#picker") and page.evaluate("scrollY") == 0
    tap(card("3C"))
    assert page.url.endswith("#picker") and page.evaluate("scrollY") == 0
    assert inside(page.locator("#picker").bounding_box(), bar_bottom(page))
    tap(card("1O"))  # the turned card, under the stock: refused on the page the post answers, from its top
    assert page.evaluate("scrollY") == 0 and page.locator(".status-bar .refusal").count() == 1
    assert inside(page.locator("#picker").bounding_box(), bar_bottom(page))
    assert page.evaluate(BAR, STAND_INS) <= QUARTER and problems == []
    context.close()


FOUR_TALLY = [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}]
BOARDS = {  # game, players, options, events, name columns: one whole deal or hand each
    "brisca-4": ("brisca", 4, {}, FOUR_TALLY),
    "brouc": ("brouc", 4, {}, [{"type": "deal", "trump": "7D"}, {"type": "tally", "points": [90, 30]}]),
    "brulot-4": ("brulot", 4, {"trump_without_widow": "dealer_last_card"}, brulot_deal(4, 0, 7, "dealer_last_card")[0]),
    "brulot-6": ("brulot", 6, {}, brulot_deal(6, 0, 3)[0]),
    "brusquembille-3": ("brusquembille", 3, {}, brusquembille_deal(3, 0, 8)),
    "brusquembille-5": ("brusquembille", 5, {"jeton_value": 0.5}, brusquembille_deal(5, 0, 4)),
    "buraco-3": ("buraco", 3, {}, [{"type": "deal"}, {"type": "tally", "closed_by": None, "teams": [[0], [1], [2]],
                                   "sides": [{"melds": 300, "burracos": {"pure": 1}, "pot": False, "hand": 0},
                                             {"melds": 150, "pot": False, "hand": 40},
                                             {"melds": 90, "pot": False, "hand": 25}]}]),
    "buraco-4": ("buraco", 4, {}, [{"type": "deal"}, {"type": "tally", "closed_by": 0, "sides": [
        {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0}, {"melds": 150, "pot": True, "hand": 40}]}]),
}


@pytest.mark.parametrize("name", list(BOARDS))
def test_every_board_writes_its_names_whole_at_360_and_1280(browser, server, name):
    game, n, options, events = BOARDS[name]
    for names in (LONG[:n], ORDINARY[:n]):
        made = api(server, "/api/v1/tables", {"game": game, "players": names, "options": options})
        for body in events:
            api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])
        state = api(server, f"/api/v1/tables/{made['id']}", key=made["scorer_key"])
        context, page, _, problems = new_phone(browser, "fr-CH")
        page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=fr")
        for size in (PHONE, DESK):
            page.set_viewport_size(size)
            found = page.evaluate(NAMES)
            assert found["narrow"] == [] and found["broken"] == [], found
            assert found["overflow"] <= size["width"], found
            if found["legend"]:  # short forms stand in: the legend names everyone whole
                assert all(player in found["legend"][0] for player in names), found
            else:
                sides = [s["name"] for s in state["sides"]]
                heads = found["names"][:len(sides)] if game != "brouc" else sorted(found["names"])
                assert heads == (sides if game != "brouc" else sorted(sides)), found
            label = "long" if names == LONG[:n] else "ordinary"
            path = artifact(f"still-board-{name}-{label}-{size['width']}")
            page.locator("#scoreboard").screenshot(path=str(path))
        assert problems == []
        context.close()


def test_short_forms_are_the_players_initials_and_never_twice():
    from referee.web.tables.board_names import board_names, short_forms
    assert short_forms(LONG[:4]) == ["JPR", "MCR", "ASD", "PAD"]
    assert short_forms(["Ginette", "Réjean", "Bo", "Gino Bertrand"]) == ["Gin.", "Réj.", "Bo", "GB"]
    assert short_forms(["Ginette", "Ginevra", "Jean-Paul Roux", "Jean-Pierre Roux"]) == [
        "Ginet.", "Ginev.", "JPR3", "JPR4"]  # more letters of one word; else the seat
    sides = [{"name": " & ".join(LONG[i] for i in s), "players": list(s)} for s in ([0, 2], [1, 3])]
    fit = board_names(sides, LONG[:4], "totals", ["Donne", "Total"])
    assert fit["short"] is None and fit["legend"] == [] and "w-18" in fit["classes"].split()
    alone = [{"name": name, "players": [i]} for i, name in enumerate(LONG[:4])]
    fit = board_names(alone, LONG[:4], "totals", ["Donne", "Total"])
    assert fit["short"] == ["JPR", "MCR", "ASD", "PAD"] and "short-below-560" in fit["classes"].split()
