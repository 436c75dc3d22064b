"""The plain pages: home, a table's scoreboard, security headers, escaping, no inline script."""
import re

from tests.conftest import ROOT
from tests.test_brisca import DEAL_4P


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
    for template in (ROOT / "templates").glob("*.html"):
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
