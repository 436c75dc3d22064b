"""A method a path does not take: 405 with the Allow header, in the contract's error shape under /api/."""
import pytest


@pytest.mark.parametrize("method, path, allowed", [
    ("get", "/api/v1/tables", {"POST"}),
    ("delete", "/api/v1/games", {"GET", "HEAD", "OPTIONS"}),
    ("put", "/api/v1/tables/abc/events", {"GET", "HEAD", "OPTIONS", "POST"}),
    ("get", "/api/v1/import", {"POST"}),
    ("patch", "/api/v1/tables/abc/undo", {"POST"}),
])
def test_the_api_answers_405_with_allow_and_its_error_body(client, method, path, allowed):
    response = getattr(client, method)(path)
    assert response.status_code == 405
    assert {m.strip() for m in response.headers["Allow"].split(",")} >= allowed
    error = response.get_json()["error"]
    assert error["code"] == "method_not_allowed" and error["message"]
    assert response.mimetype == "application/json"


def test_a_page_answers_405_with_allow_and_a_page(client):
    response = client.put("/new/brisca", headers={"Accept-Language": "en"})
    assert response.status_code == 405 and response.mimetype == "text/html"
    assert {m.strip() for m in response.headers["Allow"].split(",")} == {"GET", "HEAD", "OPTIONS", "POST"}
    assert "Something is wrong" in response.get_data(as_text=True)


def test_other_http_errors_keep_their_shape(client):
    response = client.get("/api/v1/nowhere")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"
    assert "Allow" not in response.headers
