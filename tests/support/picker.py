"""Buraco's meld picker through Flask's client: the entry an address carries, and the phone that posts the picker's
forms."""
import re
from urllib.parse import parse_qs, urlsplit

from sqlmodel import Session, select

from referee.store.records import EventRecord
from tests.support.sheet import Phone as SheetPhone


def address(url: str) -> dict:
    """The entry an address carries, without the key (one value per field, as the page writes them)."""
    query = {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}
    query.pop("key", None)
    return query


class Phone(SheetPhone):
    """A scorer's phone at a Buraco table, without JavaScript: each answer is a 303 to the page with the entry."""

    def __init__(self, client, players=("Ana", "Bo", "Cy", "Di"), events=({"type": "deal", "dealer": 0},)):
        super().__init__(client, "buraco", list(players))
        for body in events:
            response = client.post(f"/api/v1/tables/{self.id}/events", json=body,
                                   headers={"Authorization": f"Bearer {self.key}"})
            assert response.status_code == 201, response.get_json()
        self.go(f"/t/{self.id}?key={self.key}")

    def entry(self) -> dict:
        return address(self.url)

    def open(self, **entry):
        self.go(f"/t/{self.id}?key={self.key}&" + "&".join(f"{k}={v}" for k, v in entry.items()))

    def tap(self, code):
        """A card of the two-deck picker: the picker's own form, with the card's button."""
        response = self.post("tap", {**self.fields_after('class="picker bur-picker"'), "card": code})
        assert response.status_code == 303, self.refusal()
        return response

    def another(self):
        """+, beside the cards being laid: one more copy of the card tapped last."""
        fields = self.fields_after('class="bur-more"')
        button = self.page[self.page.index('class="bur-more"'):]
        code = button[button.index('name="card" value="') + len('name="card" value="'):].split('"')[0]
        return self.post("tap", {**fields, "card": code})

    def lay(self):
        return self.post("save", self.form_posting_to("save"))

    def stored(self) -> list:
        """The events in force, each as its record in the database holds it: its type and its body."""
        engine = self.client.application.extensions["referee.ledger"].engine
        with Session(engine) as session:
            found = session.exec(select(EventRecord).where(EventRecord.table_id == self.id)
                                 .order_by(EventRecord.seq)).all()
            return [{"type": row.type, **row.body} for row in found if not row.withdrawn]

    def refusal(self) -> str | None:
        """The refusal the status bar says (the page's only one)."""
        found = re.findall(r'<p class="refusal" role="alert">([^<]*)</p>', self.page)
        return found[0] if found else None

    def laying(self) -> list:
        """The cards being laid, in order, as the strip above the picker names them."""
        start = self.page.index('class="bur-meld"')
        strip = self.page[start:self.page.index("</ol>", start)]
        return re.findall(r'<li class="bur-new card-inline [^"]*">([^<]*)</li>', strip)

    def picker_button(self, code) -> str:
        start = self.page.index(f'name="card" value="{code}" class="card')
        return self.page[start:self.page.index(">", start)]
