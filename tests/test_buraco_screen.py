"""Buraco's meld screen on one phone screen (issue 13), in a real browser at 360×740, with JavaScript (htmx swaps the
scorer) and without (forms post and redirect): while a meld is built or extended, the cards being laid, the button
that lays them and every card of the two-deck picker that can still be tapped lie inside the screen, at least
44×44 px, not hidden under anything; each card says how many of its copies are still free (two of each card, four
jokers: R-BURACO-1) and is disabled with none left. A set and a run are built by taps and laid, a run is extended,
a mixed run is refused, and the melds and their points are read on the page. Nothing is wider than the screen at
320, 360 and 1280 px, and the pages say hand, never deal or trick. Screenshots land in tests/artifacts/buraco-*.png."""
import re

import pytest

from tests.support.api import api
from tests.support.browser import AXE, Phone, artifact, new_phone, no_overflow
from tests.support.env import need

PHONE_HEIGHT = 740

# Every target the scorer needs while building a meld, with where it is and whether something covers its centre.
TARGETS = """() => Array.from(document.querySelectorAll('.bur-grid button.card:enabled, .bur-lay'))
  .map((e) => { const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {value: e.value || e.className, x: r.left, y: r.top, w: r.width, h: r.height,
            covered: !(hit && (hit === e || e.contains(hit)))}; })"""


def shot(page, name, full=False):
    page.screenshot(path=str(artifact(f"buraco-{name}")), full_page=full)


class Scorer(Phone):
    """The scorer's phone at a Buraco table: taps wait for the swap (htmx) or the next page (no JavaScript)."""

    def go(self, selector):
        """A link: a new page, with or without JavaScript."""
        with self.page.expect_navigation():
            self.page.click(selector)

    def tap(self, code):
        self.act(f".bur-grid button.card[value='{code}']")
        self.on_one_screen()

    def lay(self):
        self.act(".bur-lay")

    def laying(self):
        return self.page.locator(".bur-meld li.bur-new").all_inner_texts()

    def card(self, code):
        return self.page.locator(f".bur-grid button.card[value='{code}']")

    def on_one_screen(self):
        """The cards being laid, the lay button and every card still free: on the screen, finger-sized, uncovered;
        the cards being laid and the lay button right above the picker."""
        targets = self.page.evaluate(TARGETS)
        assert len(targets) >= 40
        outside = [t for t in targets if t["y"] < 0 or t["y"] + t["h"] > PHONE_HEIGHT or t["x"] < 0
                   or t["x"] + t["w"] > 360]
        small = [t for t in targets if t["w"] < 44 or t["h"] < 44]
        covered = [t for t in targets if t["covered"]]
        assert (outside, small, covered) == ([], [], []), (outside, small, covered)
        meld = self.page.locator(".bur-meld").bounding_box()
        grid = self.page.locator(".bur-grid").bounding_box()
        assert 0 <= meld["y"] and meld["y"] + meld["height"] <= grid["y"] < meld["y"] + meld["height"] + 12
        if self.page.locator(".bur-lay").count():
            lay = self.page.locator(".bur-lay").bounding_box()
            assert lay["y"] + lay["height"] <= grid["y"] < lay["y"] + lay["height"] + 12
        assert self.page.evaluate("window.scrollX") == 0 and no_overflow(self.page)

    def another(self):
        """+, right after the card tapped last: one more copy of it."""
        self.act(".bur-laying .bur-another")
        self.on_one_screen()

    def chosen(self, name, side):
        """The side chosen for a new meld: its button pressed, named in the help, carried in the address."""
        assert self.page.locator(".bur-modes a.current").all_inner_texts() == [name]
        assert self.page.get_attribute(".bur-modes a.current", "aria-current") == "true"
        assert self.page.inner_text(".bur-builder .help").startswith("Tap the cards of the new meld, runs in")
        assert "mode=meld" in self.page.url and f"side={side}" in self.page.url

    def in_view(self, selector):
        """A control once scrolled to (as a finger would): inside the screen, finger-sized, not covered (the sticky
        status bar above it, nothing over it), nothing wider than the screen."""
        control = self.page.locator(selector)
        control.scroll_into_view_if_needed()
        box = control.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= 360 and 0 <= box["y"]
        assert box["y"] + box["height"] <= PHONE_HEIGHT and box["width"] >= 44 and box["height"] >= 44, box
        hit = control.evaluate("""(e) => { const r = e.getBoundingClientRect();  // the corners 8 px in, the centre
          return [[r.left + 8, r.top + 8], [r.right - 8, r.top + 8], [r.left + 8, r.bottom - 8],
                  [r.right - 8, r.bottom - 8], [r.left + r.width / 2, r.top + r.height / 2]]
            .every(([x, y]) => e.contains(document.elementFromPoint(x, y))); }""")
        assert hit, selector
        assert no_overflow(self.page)

    def team_points(self):
        return self.page.locator(".melds-table .bur-team-head .bur-points").all_inner_texts()

    def melds(self, team):
        return [" ".join(li.locator(".card-inline").all_inner_texts())
                for li in self.page.locator(".melds-table .bur-team").nth(team).locator("li.meld").all()]


def without_deal_or_trick(text):
    """Buraco is played in hands (manches): never a deal (donne) or a trick (pli) on its pages."""
    return re.findall(r"\b(deals?|tricks?|donnes?|plis?)\b", text, re.IGNORECASE)


@pytest.mark.parametrize("js", [True, False], ids=["htmx", "no-javascript"])
def test_r_buraco_1_2_melds_built_by_taps_on_one_phone_screen(server, browser, js):
    made = api(server, "/api/v1/tables", {"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"]})
    context, page, _, problems = new_phone(browser, "en-GB", js=js)
    scorer = Scorer(page, js)
    label = "htmx" if js else "nojs"
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=en")
    scorer.act("#scorer button.primary")  # start hand 1
    modes = page.locator(".bur-modes a")
    assert modes.all_inner_texts() == ["Ana & Cy", "Bo & Di"] and page.inner_text(".bur-modes-label") == "New meld:"
    assert [modes.nth(i).get_attribute("aria-label") for i in range(2)] == ["New meld: Ana & Cy", "New meld: Bo & Di"]
    assert not without_deal_or_trick(page.inner_text("#scorer"))

    # A set of Ana & Cy: 7♥ 7♥ 7♠ 7♣ (R-BURACO-1). A wrong tap tapped again leaves nothing; the second 7♥ comes
    # from +, right after the first; with both tapped none is left, and a tap on 7♥ would take both back.
    scorer.go(".bur-modes a[href*='mode=meld'][href*='side=0']")
    scorer.on_one_screen()
    assert page.locator(".bur-lay").is_disabled()
    assert page.locator(".bur-grid button.card").count() == 53  # 52 cards and the joker, each once
    assert scorer.card("7H").get_attribute("data-left") == "2" and scorer.card("JK").get_attribute("data-left") == "4"
    assert scorer.card("JK").locator(".bur-pips").inner_text() == "●●●●"
    assert "Tap a card again to take it back; + adds another copy of it." in page.inner_text(".bur-builder .help")
    shot(page, f"{label}-1-meld")
    scorer.tap("7H")
    seven = scorer.card("7H")
    assert seven.locator(".bur-pips").inner_text() == "●○" and seven.get_attribute("aria-pressed") == "true"
    assert "1 of 2 left, 1 copy tapped" in seven.locator(".sr-only").inner_text()
    assert scorer.laying() == ["7♥"] and page.inner_text(".bur-another [aria-hidden]") == "+7♥"
    assert page.inner_text(".bur-another .sr-only") == "One more copy: 7 of hearts"
    shot(page, f"{label}-2-tapped")
    scorer.tap("7H")  # the same card again: taken back
    assert scorer.laying() == [] and page.locator(".bur-another").count() == 0
    assert seven.locator(".bur-pips").inner_text() == "●●" and seven.get_attribute("aria-pressed") == "false"
    assert page.locator(".bur-lay").is_disabled() and page.locator(".bur-grid .card.bur-taken").count() == 0
    scorer.tap("7H")
    scorer.another()
    assert scorer.laying() == ["7♥", "7♥"] and page.locator(".bur-another").count() == 0  # no third 7♥
    assert seven.is_enabled() and seven.get_attribute("data-left") == "0" and seven.locator(".badge").inner_text() == "×2"
    assert seven.locator(".bur-pips").inner_text() == "○○"
    assert "0 of 2 left, 2 copies tapped" in seven.locator(".sr-only").inner_text()
    for code in ("7S", "7C"):
        scorer.tap(code)
    assert scorer.laying() == ["7♥", "7♥", "7♠", "7♣"]
    shot(page, f"{label}-3-set-built")
    scorer.lay()
    assert scorer.melds(0) == ["7♥ 7♥ 7♠ 7♣"] and scorer.team_points() == ["20 points", "0 points"]

    # Ana & Cy stay chosen for their next meld (the side in the address), the builder empty and ready.
    scorer.chosen("Ana & Cy", side=0)
    assert scorer.laying() == [] and scorer.card("7H").is_disabled()  # both 7♥ on the table: none left
    scorer.on_one_screen()
    shot(page, f"{label}-4-still-chosen")

    # A run of Bo & Di in sequence order (R-BURACO-3): 9♠ 10♠ J♠; a mixed run on the way is refused (R-BURACO-2).
    scorer.go(".bur-modes a[href*='mode=meld'][href*='side=1']")
    scorer.chosen("Bo & Di", side=1)
    assert scorer.card("7H").is_disabled()  # both laid in the set: still none left
    for code in ("5C", "6D", "7C"):
        scorer.tap(code)
    scorer.lay()
    refusal = page.locator(".refusal").first
    assert refusal.inner_text() == "A run is of one suit; this one mixes diamonds and clubs."  # by name (issue 24)
    box = refusal.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE_HEIGHT
    scorer.on_one_screen()
    shot(page, f"{label}-5-refused")
    for _ in range(3):
        scorer.act("form.undo button")  # takes back the last card tapped
    assert scorer.laying() == []
    for code in ("9S", "10S", "JS"):
        scorer.tap(code)
    scorer.lay()
    assert scorer.melds(1) == ["9♠ 10♠ J♠"] and scorer.team_points() == ["20 points", "30 points"]
    scorer.chosen("Bo & Di", side=1)

    # Bo & Di extend their run with Q♠ K♠ at the end, from the "Extend" beside it (each laid meld has its own, in
    # view, never folded): the meld as it is, then the cards added, then Extend.
    extends = page.locator(".melds-table li.meld .bur-extend")
    assert extends.count() == 2 and extends.all_inner_texts() == ["Extend", "Extend"]
    scorer.in_view(".melds-table .bur-team >> nth=1 >> li.meld >> nth=0 >> .bur-extend")
    shot(page, f"{label}-6-extend-beside")
    scorer.go(".melds-table .bur-team >> nth=1 >> li.meld >> nth=0 >> .bur-extend")
    assert "mode=extend" in page.url and "side=1" in page.url and "meld=0" in page.url
    scorer.on_one_screen()
    for code in ("QS", "KS"):
        scorer.tap(code)
    assert page.locator(".bur-meld li.bur-old").all_inner_texts() == ["9♠", "10♠", "J♠"]
    assert scorer.laying() == ["Q♠", "K♠"] and page.inner_text(".bur-lay") == "Extend"
    shot(page, f"{label}-7-extend")
    scorer.lay()
    assert scorer.melds(1) == ["9♠ 10♠ J♠ Q♠ K♠"] and scorer.team_points() == ["20 points", "50 points"]
    scorer.chosen("Bo & Di", side=1)
    assert "50 points" in page.locator(".melds-table .bur-team").nth(1).locator("li.meld .meld-value").inner_text()
    assert not without_deal_or_trick(page.inner_text("#scorer"))
    shot(page, f"{label}-8-melds", full=True)

    # Nothing wider than the screen, from the smallest phone to a laptop; a meld being built at each width.
    scorer.go(".bur-modes a[href*='mode=meld'][href*='side=0']")
    scorer.tap("AD")
    for width, height in ((320, 640), (360, PHONE_HEIGHT), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
        shot(page, f"{label}-9-meld-{width}")
    page.set_viewport_size({"width": 360, "height": PHONE_HEIGHT})

    # The count: Bo holds K♦ when the stock runs out; the breakdown before saving, then the totals (R-BURACO-5, 6).
    scorer.go(".bur-count-link a")
    scorer.go(".bur-players a[href*='player=1']")
    scorer.tap("KD")
    assert page.locator(".bur-meld li.bur-new").all_inner_texts() == ["K♦"]
    scorer.go(".bur-closed button")  # closed by nobody: the stock ran out
    assert page.locator(".breakdown tfoot td").all_inner_texts() == ["-80", "-60"]  # 20 - 100; 50 - 10 - 100
    assert not without_deal_or_trick(page.inner_text("#scorer"))
    shot(page, f"{label}-10-count")
    scorer.act("#bur-count button.primary")
    assert page.locator("#scoreboard tfoot tr.total td summary").all_inner_texts() == ["-80", "-60"]
    assert problems == []
    context.close()


def serious_violations(page):
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))")
    return [v for v in found if v["impact"] in ("serious", "critical")]


def test_r_buraco_6_the_count_says_hand_in_both_languages(server, browser):
    """The count screen and the scoreboard say hand (manche), never deal or trick; no serious accessibility
    violation on the meld, extend and count screens (axe-core)."""
    made = api(server, "/api/v1/tables", {"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"]})
    need(AXE.exists(), f"{AXE} is missing (npm ci installs axe-core)")
    key = made["scorer_key"]
    for body in ({"type": "deal", "dealer": 0}, {"type": "meld", "side": 0, "cards": ["KC", "QC", "JC"]},
                 {"type": "pot", "side": 0}):
        api(server, f"/api/v1/tables/{made['id']}/events", body, key)
    for locale, lang, hand, king in (("en-GB", "en", "Hand 1", "K♦"), ("fr-CH", "fr", "Manche 1", "R♦")):
        context, page, _, problems = new_phone(browser, locale, bypass_csp=True)  # to inject axe
        page.goto(f"{server.url}/t/{made['id']}?key={key}&lang={lang}&mode=count&player=1&hands=~KD")
        assert page.locator(".bur-meld li.bur-new").all_inner_texts() == [king]  # the roi on a French page (issue 24)
        assert page.locator(".breakdown tfoot td").all_inner_texts() == ["30", "-110"]  # the stock ran out: melds 30; K♦ left -10, no pot -100
        assert hand in page.inner_text("#scorer")
        assert not without_deal_or_trick(page.inner_text("#scorer")), without_deal_or_trick(page.inner_text("#scorer"))
        shot(page, f"count-{lang}", full=True)
        page.goto(f"{server.url}/t/{made['id']}?key={made['viewer_key']}&lang={lang}")
        assert not without_deal_or_trick(page.inner_text("main"))
        if lang == "en":
            for query in ("&mode=count&player=1&hands=~KD", "&mode=meld&side=1&pending=5D.6D",
                          "&mode=extend&side=0&meld=0&pending=10C", ""):
                page.goto(f"{server.url}/t/{made['id']}?key={key}&lang=en{query}")
                assert serious_violations(page) == [], query
        assert problems == []
        context.close()


def test_r_buraco_7_a_wild_card_replaced_from_beside_its_meld_and_the_team_stays_chosen(server, browser):
    """A run with a joker has its "Replace the wild card" beside its "Extend", in view once scrolled to and not
    covered; the natural card tapped takes the joker's place, which moves to the end (R-BURACO-7), and the team
    stays chosen for its next meld. In French, the page the players read: "Compléter" beside each meld."""
    made = api(server, "/api/v1/tables", {"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"]})
    for body in ({"type": "deal", "dealer": 0}, {"type": "meld", "side": 0, "cards": ["4D", "JK", "6D"]},
                 {"type": "meld", "side": 0, "cards": ["KC", "KH", "KS"]},
                 {"type": "meld", "side": 1, "cards": ["9S", "10S", "JS"]}):
        api(server, f"/api/v1/tables/{made['id']}/events", body, made["scorer_key"])
    context, page, _, problems = new_phone(browser, "fr-CH")
    scorer = Scorer(page, True)
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=fr&mode=meld&side=0")
    scorer.on_one_screen()
    assert page.locator(".melds-table li.meld .bur-extend").all_inner_texts() == ["Compléter"] * 3
    replace = ".melds-table .bur-team >> nth=0 >> li.meld >> nth=0 >> .bur-replace"
    assert page.locator(".melds-table .bur-replace").count() == 1
    assert page.inner_text(replace) == "Remplacer la carte frimée"
    for meld in range(2):
        scorer.in_view(f".melds-table .bur-team >> nth=0 >> li.meld >> nth={meld} >> .bur-extend")
    scorer.in_view(".melds-table .bur-team >> nth=1 >> li.meld >> nth=0 >> .bur-extend")
    scorer.in_view(replace)
    shot(page, "fr-melds-beside")
    scorer.go(replace)
    assert page.locator(".bur-meld li.bur-old").all_inner_texts() == ["4♦", "★", "6♦"]
    scorer.tap("5D")
    assert scorer.melds(0)[0] == "4♦ 5♦ 6♦ ★"
    assert page.locator(".bur-modes a.current").all_inner_texts() == ["Ana & Cy"]
    assert "mode=meld" in page.url and "side=0" in page.url
    shot(page, "fr-replaced")
    # The next meld of Ana & Cy, in French: a second tap takes a card back, + adds its other copy (R-BURACO-1).
    assert "Touchez de nouveau une carte pour la reprendre\u00a0; + en ajoute un autre exemplaire." in \
        page.inner_text(".bur-builder .help")
    scorer.tap("QH")
    assert page.inner_text(".bur-another .sr-only") == "Un exemplaire de plus\u00a0: dame de cœur"
    scorer.another()
    scorer.tap("QS")
    scorer.tap("QS")
    # On codes (the French card letters are another part's): both Q♥ tapped, Q♠ tapped and taken back.
    assert page.locator(".bur-meld li.bur-new").count() == 2
    assert [scorer.card(code).get_attribute("data-taken") for code in ("QH", "QS")] == ["2", "0"]
    shot(page, "fr-meld-building")
    assert problems == []
    context.close()


@pytest.mark.parametrize("js", [True, False], ids=["htmx", "no-javascript"])
def test_r_buraco_6_a_meld_extended_during_the_count_leads_back_to_the_count_with_its_hands(server, browser, js):
    """The count under way: Bo's K♦ K♦ tapped, Ana & Cy's run is extended from the "Extend" beside it (a card laid
    late), and the screen comes back to the count with Bo's cards as tapped; who closed is chosen, the count saved. The
    cards being laid and the picker stay on one screen at each step; the way of entry is not in the menu meanwhile."""
    made = api(server, "/api/v1/tables", {"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"]})
    for body in ({"type": "deal", "dealer": 0}, {"type": "meld", "side": 0, "cards": ["5D", "6D", "7D"]},
                 {"type": "meld", "side": 1, "cards": ["3C", "4C", "5C", "6C", "7C", "8C", "9C"]},
                 {"type": "meld", "side": 1, "cards": ["4H", "JK", "6H"]}, {"type": "pot", "side": 1}):
        api(server, f"/api/v1/tables/{made['id']}/events", body, made["scorer_key"])
    context, page, _, problems = new_phone(browser, "en-GB", js=js)
    scorer = Scorer(page, js)
    label = "htmx" if js else "nojs"
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=en")
    scorer.go(".bur-count-link a")
    scorer.go(".bur-players a >> nth=1")  # Bo
    scorer.tap("KD")
    scorer.another()
    assert scorer.laying() == ["K♦", "K♦"] and page.locator(".menu .entry-switch").count() == 0
    shot(page, f"{label}-count-1-counting")

    extend = ".melds-table .bur-team >> nth=0 >> li.meld >> nth=0 >> .bur-extend"  # Ana & Cy's 5♦ 6♦ 7♦
    scorer.in_view(extend)
    scorer.go(extend)
    assert "mode=extend" in page.url and "hands=~KD.KD~~" in page.url
    scorer.on_one_screen()
    assert scorer.card("KD").get_attribute("data-left") == "0"  # both in Bo's hand
    scorer.tap("8D")
    assert page.locator(".bur-meld li.bur-old").all_inner_texts() == ["5♦", "6♦", "7♦"] and scorer.laying() == ["8♦"]
    shot(page, f"{label}-count-2-extend")
    scorer.lay()

    # Back at the count, Bo's cards as tapped, the run extended.
    assert "mode=count" in page.url and "hands=~KD.KD~~" in page.url and "player=1" in page.url
    assert scorer.laying() == ["K♦", "K♦"] and scorer.melds(0) == ["5♦ 6♦ 7♦ 8♦"]
    assert page.locator(".bur-players a").all_inner_texts() == ["Ana (0)", "Bo (2)", "Cy (0)", "Di (0)"]
    assert page.locator(".bur-players a.current").all_inner_texts() == ["Bo (2)"]
    scorer.on_one_screen()
    assert page.locator(".menu .entry-switch").count() == 0
    shot(page, f"{label}-count-3-back")
    page.select_option("#closed_by", "3")  # Di closed (R-BURACO-5: her side has the pot and a burraco)
    scorer.go(".bur-closed button")
    # R-BURACO-6: Ana & Cy 5♦ 6♦ 7♦ 8♦ 25, no pot -100; Bo & Di 45 + pure burraco 200 + 4♥ JK 6♥ 40, K♦ K♦ -20,
    # closing 100.
    assert page.locator(".breakdown tfoot td").all_inner_texts() == ["-75", "365"]
    shot(page, f"{label}-count-4-breakdown", full=True)
    scorer.act("#bur-count button.primary")
    assert page.locator("#scoreboard tfoot tr.total td summary").all_inner_texts() == ["-75", "365"]
    assert problems == []
    context.close()
