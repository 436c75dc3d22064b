"""Issue 40: a tournament's pages are told of its changes at most once every ``LIVE_REDRAW_SECONDS`` (the watcher
gathers them: referee/web/serving/live_streams.py, ``Watcher.gathered``), a table's own at each change; and a page
drawn after a change its stream's watcher still gathers is sent nothing older than itself (``shared/live.newest``).
The watcher's reads are made here one by one (its thread never started): what each read tells is asserted, never
how soon. On SQLite and PostgreSQL."""
import pytest

from referee.web.serving.live_streams import GATHERED, Topic, Watcher
from referee.web.shared.live import newest
from tests.support.burraco import bearer, card_key, signed_tournament


@pytest.fixture
def app(app_on_each_database):
    return app_on_each_database


def watched(app, *topics) -> Watcher:
    """A watcher of ``topics`` as their first streams' ``join`` leaves it (each with its value now, nothing told
    yet), its thread not started: each read below is one call of ``_read``."""
    watcher = Watcher(app, refresh_seconds=3600.0, redraw_seconds=3600.0)
    watcher._own()
    with app.app_context():
        for topic in topics:
            watcher._topics[topic] = Topic()
        watcher._read(list(topics))  # the values now
    for topic in topics:
        watcher._topics[topic] = Topic()
    watcher._told.clear()
    return watcher


def read(app, watcher: Watcher) -> None:
    with app.app_context():
        watcher._read(list(watcher._topics))


def revision(app, tournament_id: str) -> int:
    return app.extensions["referee.tournaments"].revision(tournament_id)


def test_a_tournaments_changes_are_gathered_and_its_tables_told_at_each(app):
    client = app.test_client()
    tournament_id, _director, _viewer, state = signed_tournament(client)
    table = state["rounds"][0]["tables"][0]
    post = f"/api/v1/tables/{table['table_id']}/events"
    tournament, table_topic = ("tournament", tournament_id), ("table", table["table_id"])
    assert GATHERED == ("tournament", "club")
    watcher = watched(app, tournament, table_topic)
    first = revision(app, tournament_id)
    assert watcher.value(tournament) == first and watcher._topics[tournament].seq == 0

    assert client.post(post, json={"type": "deal", "trump": None}, headers=bearer(card_key(table))).status_code == 201
    read(app, watcher)  # the first change after a quiet time: told at once
    assert watcher._topics[tournament].seq == 1 and watcher.value(tournament) == first + 1
    assert watcher._topics[table_topic].seq == 1

    tally = {"type": "tally", "closed_by": None, "sides": [{"melds": 100, "burracos": {}, "pot": True, "hand": 0},
                                                           {"melds": 50, "burracos": {}, "pot": True, "hand": 5}]}
    for body in (tally, {"type": "deal", "trump": None}):  # two more within the redraw time: gathered
        assert client.post(post, json=body, headers=bearer(card_key(table))).status_code == 201
        read(app, watcher)
    assert watcher._topics[tournament].seq == 1 and watcher.value(tournament) == first + 1
    assert watcher._topics[table_topic].seq == 3  # the table's own page: told of each
    told = watcher._told[tournament]
    assert watcher._due == told + 3600.0  # the watcher comes back by then, whatever its tick

    watcher._told[tournament] = told - 3600.0  # the redraw time over: both told together
    read(app, watcher)
    assert watcher._topics[tournament].seq == 2 and watcher.value(tournament) == first + 3 == revision(app,
                                                                                                       tournament_id)
    assert watcher._due is None
    read(app, watcher)  # nothing new: nothing told
    assert watcher._topics[tournament].seq == 2


def test_a_stream_never_sends_a_page_older_than_itself():
    assert newest(12, "15") == "15"  # drawn at 15 while the watcher still gathers from 12: nothing to send yet
    assert newest(16, "15") == "16"
    assert newest(12, "") == "12" and newest(12, "x9") == "12"  # no stamp, or not one of ours: the watcher's
    assert newest(None, "15") is None  # the tournament gone: the stream ends
