"""The plain pages: home, a table's scoreboard, security headers, escaping, no inline script."""
import re
from html.parser import HTMLParser

from tests.support.deals import DEAL_4P
from tests.support.env import ROOT


def make_table(client, players=("Ana", "Bo", "Cy", "Di")):
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": list(players)}).get_json()
    headers = {"Authorization": f"Bearer {created['scorer_key']}"}
    client.post(f"/api/v1/tables/{created['id']}/events", json={"type": "deal", "trump": "11E"}, headers=headers)
    for cards, _, _ in DEAL_4P:
        client.post(f"/api/v1/tables/{created['id']}/events", json={"type": "trick", "cards": cards},
                    headers=headers)
    return created


def test_home_lists_the_games_in_the_browser_language(client):
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Brisca" in page and "Spain, Catalonia" in page and "2, 4, 6 players" in page
    page = client.get("/", headers={"Accept-Language": "fr-CH,fr"}).get_data(as_text=True)
    assert "Espagne, Catalogne" in page and "2, 4, 6 joueurs" in page


def test_scoreboard_page_shows_points_totals_and_tricks(client):
    created = make_table(client)
    response = client.get(f"/t/{created['id']}?key={created['viewer_key']}&lang=en")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    deal_row = re.search(r'<tr class="deal">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<summary>(\d+)</summary>", deal_row) == ["65", "55"]
    assert "65 points, more than 60: the deal is won." in page and "R-BRISCA-6" in page
    assert "Ana &amp; Cy" in page and "11 bastos" in page
    assert "change the score" not in page and 'class="picker"' not in page  # the viewer link is read-only
    scorer = client.get(f"/t/{created['id']}?key={created['scorer_key']}&lang=en").get_data(as_text=True)
    assert "anyone who has it can change the score" in scorer


def test_scoreboard_page_needs_the_key(client):
    created = make_table(client)
    assert client.get(f"/t/{created['id']}").status_code == 401
    assert client.get(f"/t/{created['id']}?key=nope").status_code == 401
    assert client.get("/t/nothing?key=nope").status_code == 404


def test_player_names_are_escaped(client):
    created = make_table(client, players=("<script>x</script>", "Bo", "Cy", "Di"))
    page = client.get(f"/t/{created['id']}?key={created['viewer_key']}").get_data(as_text=True)
    assert "<script>x</script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp and "object-src 'none'" in csp
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get("/api/v1/games").headers["Cache-Control"] == "no-store"


def test_templates_hold_no_inline_script_or_handlers():
    for template in sorted((ROOT / "referee").glob("**/templates/*.html")):
        text = template.read_text()
        # A script is a file; the only inline block allowed is data (type="application/json", never executed, its
        # content written through |tojson, which escapes <, > and &).
        assert not re.search(r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>', text), template.name
        for block in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', text, re.S):
            assert block.rstrip().endswith("|tojson }}"), template.name
        assert not re.search(r"\son[a-z]+\s*=", text), template.name
        assert "|safe" not in text, template.name


def test_a_table_without_the_usual_sevens_shows_its_cards(client):
    created = client.post("/api/v1/tables", json={"game": "brusquembille", "players": ["Ana", "Bo", "Cy"],
                                                  "options": {"removed": ["7D", "7S"]}}).get_json()
    headers = {"Authorization": f"Bearer {created['scorer_key']}"}
    client.post(f"/api/v1/tables/{created['id']}/events", json={"type": "deal", "trump": "7H"}, headers=headers)
    page = client.get(f"/t/{created['id']}?key={created['viewer_key']}")
    assert page.status_code == 200 and "7♥" in page.get_data(as_text=True)


class _RuleChips(HTMLParser):
    """The ruling ids a page shows, each with the control it sits in (a button, a link styled as one), if any."""

    def __init__(self):
        super().__init__()
        self.open, self.found = [], []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag in ("button", "a", "summary") and (tag != "a" or "button" in classes):
            self.open.append(tag)
        elif tag in ("span", "small") and "rule" in classes:
            self.found.append(self.open[-1] if self.open else None)

    def handle_endtag(self, tag):
        if self.open and tag == self.open[-1]:
            self.open.pop()


def test_a_ruling_id_is_a_chip_beside_a_control_never_inside_its_words(client):
    """Issue 24: "R-BRISCA-4" broke over two lines inside the exchange button and crowded the announce button; a
    ruling id is a .rule chip that never breaks (referee.css), beside the button, never in it."""
    css = (ROOT / "referee/static/referee.css").read_text()
    chip = re.search(r"^\.rule \{([^}]*)\}", css, re.M).group(1)
    assert "white-space: nowrap" in chip and "display: inline-block" in chip and "color: var(--muted)" in chip
    pages = []
    for game, players, events in (
            ("brisca", ["Montse", "Jordi"], [{"type": "deal", "trump": "4C"}, {"type": "trick", "cards": ["5E", "6E"]}]),
            ("brouc", ["Ana", "Bo", "Cy", "Di"], [{"type": "deal", "trump": "KH"},
                                                  {"type": "trick", "cards": ["7S", "8S", "9S", "AS"]}])):
        made = client.post("/api/v1/tables", json={"game": game, "players": players}).get_json()
        for body in events:
            client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                        headers={"Authorization": f"Bearer {made['scorer_key']}"})
        pages.append(client.get(f"/t/{made['id']}?key={made['scorer_key']}&lang=fr").get_data(as_text=True))
    assert "R-BRISCA-4" in pages[0] and "R-BROUC-4" in pages[1]  # the exchange and the announce are offered
    for page in pages:
        chips = _RuleChips()
        chips.feed(page)
        assert chips.found and set(chips.found) <= {None, "summary"}, chips.found  # a <summary> opens a why
