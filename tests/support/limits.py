"""Rate limits: an app with its limits on, and the check of a 429 answer."""
from referee import create_app


def limited_app(tmp_path, **config):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}",
                      "SECRET_KEY": "test", **config})
    app.extensions["referee.ledger"].init_db()
    return app


def assert_rate_limited(response, api=True):
    assert response.status_code == 429
    wait = int(response.headers["Retry-After"])
    assert 0 < wait <= 3600
    if api:
        error = response.get_json()["error"]
        assert error["code"] == "rate_limited" and error["retry_after"] == wait
        assert error["message"].startswith("Too many ") and "from this address" in error["message"]
    return wait
