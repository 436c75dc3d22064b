"""The numbers screen through Flask's client: the phone that posts the sheet's forms and reads its fields."""
import html
import re


INPUT = re.compile(r"<input\b[^>]*>")


def attribute(tag: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    return html.unescape(found.group(1)) if found else None


class Phone:
    """A scorer's phone without JavaScript: it reads the form it sees and posts it, as the browser would."""

    def __init__(self, client, game, players, **options):
        client.set_cookie("lang", "en")
        made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
        self.client, self.id, self.key = client, made["id"], made["scorer_key"]
        self.go(f"/t/{self.id}?key={self.key}")

    def go(self, url):
        url = url.partition("#")[0]  # the anchor stays in the browser
        self.url = url
        self.page = self.client.get(url).get_data(as_text=True)

    def form(self) -> dict:
        return self.fields_after('id="sheet"')

    def post(self, path, fields):
        response = self.client.post(f"/t/{self.id}/{path}?key={self.key}", data=fields)
        if response.status_code == 303:
            self.go(response.headers["Location"])
        else:
            self.page = response.get_data(as_text=True)
        return response

    def act(self, action, **typed):
        return self.post("sheet", {**self.form(), **typed, "act": action})

    def deal(self, card):
        fields = {**self.form_of_picker(), "card": card}
        return self.post("deal", fields)

    def form_of_picker(self):
        return self.fields_after('class="picker"')

    def form_posting_to(self, action):
        return self.fields_after(f'action="/t/{self.id}/{action}')

    def fields_after(self, marker):
        start = self.page.index(marker)
        body = self.page[start:self.page.index("</form>", start)]
        return {attribute(t, "name"): attribute(t, "value") or "" for t in INPUT.findall(body) if attribute(t, "name")}

    def state(self):
        return self.client.get(f"/api/v1/tables/{self.id}", headers={"Authorization": f"Bearer {self.key}"}).get_json()

    def numbers(self):
        """The switch: a link that keeps the choice with the table (for every phone) and leads back to the page."""
        response = self.client.get(f"/t/{self.id}/entry/numbers?key={self.key}")
        assert response.status_code == 303
        self.go(response.headers["Location"])
