"""Back after "Create" (issue 38): the set-up page of a form that made its table is that table, never an empty form
that would make a second one (the form's id names its table, ``referee/store/once.py``; this browser's session keeps which
forms made a table, no key); and a name typed in a seat is at once that seat's name in the first dealer's list and
the partners' sentence, as a member's chip writes it."""
from __future__ import annotations

import sqlite3

from tests.support.browser import new_phone, shot
from tests.support.scorer import token


def made_from_the_form(client, names=("Ana", "Bruno")):
    client.set_cookie("lang", "en")
    page = client.get("/new/brisca").get_data(as_text=True)
    form_id = page.split('name="form_id" value="')[1].split('"')[0]
    form = {"csrf_token": token(page), "form_id": form_id, "player": list(names), "dealer": "0", "op": "create"}
    response = client.post("/new/brisca", data=form)
    assert response.status_code == 303 and "/t/" in response.headers["Location"]
    return form, response.headers["Location"]


def test_the_set_up_page_of_a_form_that_made_its_table_is_that_table(client_on_each_database):
    client = client_on_each_database
    form, table = made_from_the_form(client)
    back = client.get(f"/new/brisca?form={form['form_id']}")  # Back: the page's address names its form
    assert back.status_code == 303 and back.headers["Location"] == table
    htmx = client.post("/new/brisca", data=form, headers={"HX-Request": "true"})  # that form's "Create" again
    assert htmx.status_code == 204 and htmx.headers["HX-Redirect"] == table  # the same table, no second one


def test_another_browser_with_the_same_form_id_gets_a_form_and_no_key(client_on_each_database):
    client = client_on_each_database
    form, table = made_from_the_form(client)
    other = client.application.test_client()
    page = other.get(f"/new/brisca?form={form['form_id']}")
    assert page.status_code == 200 and table.split("key=")[1] not in page.get_data(as_text=True)
    assert f'name="form_id" value="{form["form_id"]}"' in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"  # Back asks the server again, never a stored copy


def test_a_renewed_scorer_link_is_not_given_back_by_the_set_up(client_on_each_database):
    client = client_on_each_database
    form, table = made_from_the_form(client)
    table_id, key = table.split("/t/")[1].split("?key=")
    client.application.extensions["referee.ledger"].renew_own_key(table_id, key)
    answer = client.get(f"/new/brisca?form={form['form_id']}")  # the old link is no way in: a form, no key
    assert answer.status_code == 200 and key not in answer.get_data(as_text=True)


# --- in a real browser (Chromium, French, 360×740) ----------------------------------------------------------------

def tables_in(server) -> int:
    url = server.env["DATABASE_URL"]
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        return db.execute("SELECT count(*) FROM tables").fetchone()[0]


def test_back_after_creating_a_table_is_the_table_and_makes_no_second_one(browser, server):
    context, page, phone, problems = new_phone(browser, locale="fr-CH")
    page.goto(f"{server.url}/new/brisca")
    page.wait_for_url("**/new/brisca?form=*")  # the page's address names its form
    page.fill("#player-0", "Ana")
    page.fill("#player-1", "Bruno")
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    table = page.url
    assert tables_in(server) == 1
    page.go_back()
    page.wait_for_url(table)  # Back: the table again, not an empty set-up form
    assert page.locator("#setup").count() == 0 and "Ana" in page.inner_text("main")
    shot(page, "setup-back-360")
    page.go_back()  # once more: the page before the set-up
    page.go_forward()
    page.wait_for_url(table)
    assert page.locator("#setup").count() == 0 and tables_in(server) == 1
    assert problems == []
    context.close()


def test_typed_names_are_the_dealer_list_and_the_partners_sentence_at_once(browser, server):
    context, page, phone, problems = new_phone(browser, locale="fr-CH")
    page.goto(f"{server.url}/new/brisca")
    placeholder = page.get_attribute("#player-1", "placeholder")
    for i, name in enumerate(["Ana", "Bruno", "Céline", "Denis"]):
        page.fill(f"#player-{i}", name)
    assert page.locator("#dealer option").all_inner_texts() == ["Ana", "Bruno", "Céline", "Denis"]
    assert page.inner_text(".opposite").split() == "Ana est en face de Céline. Bruno est en face de Denis.".split()
    page.fill("#player-1", "")  # an empty seat says its placeholder, as the server writes it
    assert page.locator("#dealer option").all_inner_texts() == ["Ana", placeholder, "Céline", "Denis"]
    assert f"{placeholder} est en face de Denis." in page.inner_text(".opposite")
    page.fill("#player-1", "Bruna")
    page.select_option("#dealer", "1")
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    state = page.request.get(page.url.replace("/t/", "/api/v1/tables/")).json()
    assert state["players"] == ["Ana", "Bruna", "Céline", "Denis"] and state["next"] == {"action": "deal", "player": 1}
    shot(page, "setup-typed-names-360")
    assert problems == []
    context.close()
