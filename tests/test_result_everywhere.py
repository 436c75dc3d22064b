"""One result vocabulary (R-COMMON-7b): every screen that states a finished series' result says what the engine's
``Game.result`` says, in its unit, for each of the five games — the scorer's signing screen, the watchers' page, the
printed sheet, the history once signed, and the table's CSV and JSON exports."""
from __future__ import annotations

import csv
import io
import re

import pytest

from referee.games import get_game
from tests.support.series import FINISHED, finished


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html).replace("&nbsp;", " ")).replace("&amp;", "&").strip()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(FINISHED))
def test_r_common_7b_every_screen_states_a_finished_series_as_game_result_says(client, game, lang):
    client.set_cookie("lang", lang)
    ledger = client.application.extensions["referee.ledger"]
    table_id, scorer, viewer, state = finished(ledger, game)
    players, options, dealer, bodies, _, _ = FINISHED[game]
    said = get_game(game).result(get_game(game).replay(players, options, dealer, bodies))
    assert said["winners"] and said["values"] == state["series"]["standing"]["values"]
    names = [s["name"] for s in state["sides"]]
    pairs = [f"{names[s]} {said['values'][s]}" for s in range(len(names))]
    signing = text(re.search(r'<section class="signing[^"]*".*?</section>',
                             client.get(f"/t/{table_id}?key={scorer}").get_data(as_text=True), re.S)[0])
    for pair in pairs:
        assert pair in signing, (pair, signing)
    assert said["label"][lang] in signing, (said["label"][lang], signing)
    for address in (f"/t/{table_id}?key={viewer}", f"/t/{table_id}/sheet?key={scorer}"):
        page = text(client.get(address).get_data(as_text=True))
        assert said["label"][lang] in page, address
    rows = list(csv.reader(io.StringIO(client.get(f"/api/v1/tables/{table_id}/export.csv?key={scorer}")
                                       .get_data(as_text=True))))
    assert [r for r in rows if r[0] == "series"] == [
        ["series", str(s), names[s], str(said["values"][s]), said["unit"], "True"] for s in range(len(names))]
