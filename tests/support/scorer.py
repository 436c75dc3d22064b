"""The scorer's screens through Flask's client, as a browser without JavaScript uses them: the CSRF token of a page,
the scorer who posts its forms, a Brisca table created from the set-up page."""
import re
from urllib.parse import parse_qs, urlsplit


TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def token(page: str) -> str:
    return TOKEN.search(page).group(1)


class Scorer:
    """A scorer with a phone: keeps the page it sees and posts its forms."""

    def __init__(self, client, url):
        self.client, self.url, self.anchor = client, url, ""
        self.page = client.get(url).get_data(as_text=True)

    def post(self, action, htmx=False, **form):
        parts = urlsplit(self.url)
        query = parse_qs(parts.query)
        path = f"{parts.path}/{action}?key={query['key'][0]}"
        seen = re.search(r'name="revision" value="(\d+)"', self.page)
        event_id = re.search(r'name="event_id" value="(\w+)"', self.page)
        pending = re.search(r'name="pending" value="([^"]*)"', self.page)  # the cards the page shows tapped
        fields = {"csrf_token": token(self.page), "revision": seen.group(1) if seen else "",
                  "event_id": event_id.group(1) if event_id else "",
                  "mode": query.get("mode", ["trick"])[0],
                  "pending": pending.group(1) if pending else "", "side": query.get("side", ["0"])[0], **form}
        headers = {"HX-Request": "true"} if htmx else {}
        response = self.client.post(path, data=fields, headers=headers)
        if response.status_code == 303:
            self.url, _, self.anchor = response.headers["Location"].partition("#")  # a browser keeps the anchor
            self.page = self.client.get(self.url).get_data(as_text=True)
        else:
            self.page = response.get_data(as_text=True)
            if "HX-Replace-Url" in response.headers:
                self.url = response.headers["HX-Replace-Url"]
        return response

    def tap(self, code):
        return self.post("tap", card=code)

    def totals(self):
        row = re.search(r'<tr class="total">(.*?)</tr>', self.page, re.S).group(1)
        return [int(x) for x in re.findall(r"<summary>(\d+)</summary>", row)]


def create(client, names=("Ana", "Bo", "Cy", "Di"), **options):
    client.set_cookie("lang", "en")
    page = client.get("/new/brisca", headers={"Accept-Language": "en"}).get_data(as_text=True)
    form = {"csrf_token": token(page), "player": list(names), "dealer": "0", "op": "create",
            "opt_tie_rule": "draw", "opt_wins_needed": "3", "opt_exchange_requires": "player"}
    form.update({f"opt_{k}": v for k, v in options.items()})
    response = client.post("/new/brisca", data=form, headers={"Accept-Language": "en"})
    assert response.status_code == 303
    return Scorer(client, response.headers["Location"])
