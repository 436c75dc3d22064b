"""Issue 24: a page names cards, suits and ranks in its own language, everywhere it writes one: the picker's corners,
the status bar, the announces, the melds, the numbers screen's buttons, the phone's offline labels and the
refusals (R D V on a French page, K D B on a German one, K Q J in English; suits by name, never "C, D, S"). The
codes stay codes in the API and in the forms' values."""
import json
import re

import pytest

from referee.cards import BURACO_108, PIQUET_32
from referee.errors import RuleError
from tests.support.text import read_text

BROUC = [{"type": "deal", "trump": "KH"}, {"type": "trick", "cards": ["7S", "8S", "9S", "AS"]},
         {"type": "announce", "player": 0, "cards": ["KH", "QH"]}]
LETTERS = {"fr": {"A", "R", "D", "V", "10", "9", "8", "7"}, "de": {"A", "K", "D", "B", "10", "9", "8", "7"},
           "en": {"A", "K", "Q", "J", "10", "9", "8", "7"}, "it": {"A", "K", "Q", "J", "10", "9", "8", "7"}}
ENGLISH_ONLY = {"fr": re.compile(r"\b[KQJ][♠♥♦♣]"), "de": re.compile(r"\b[QJ][♠♥♦♣]")}  # a letter not theirs


def table(client, game, players, events):
    made = client.post("/api/v1/tables", json={"game": game, "players": players}).get_json()
    for body in events:
        answer = client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                             headers={"Authorization": f"Bearer {made['scorer_key']}"})
        assert answer.status_code == 201, answer.get_json()
    return f"/t/{made['id']}?key={made['scorer_key']}", made


def offline_labels(page: str) -> dict:
    data = re.search(r'<script type="application/json" id="offline-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(data)["labels"]


@pytest.mark.parametrize("lang", sorted(LETTERS))
def test_r_brouc_4_the_picker_the_status_bar_the_announce_and_the_offline_labels_write_the_languages_letters(
        client, lang):
    scorer, _ = table(client, "brouc", ["Ana", "Bo", "Cy", "Di"], BROUC)
    page = client.get(f"{scorer}&lang={lang}").get_data(as_text=True)
    corners = set(re.findall(r'<span class="rank" aria-hidden="true">([^<]+)</span>', page))
    assert corners == LETTERS[lang]
    king, queen, jack = {"fr": ("R♥", "D♥", "V♥"), "de": ("K♥", "D♥", "B♥")}.get(lang, ("K♥", "Q♥", "J♥"))
    assert re.search(r'title="[^"]+">' + king + "</span>", page)  # the status bar's trump, named in its title
    assert {"fr": f"Ana annonce {king} {queen}\u00a0: 40", "de": f"Ana weist {king} {queen}: 40"}.get(
        lang, f" {king} {queen}") in page
    labels = offline_labels(page)
    assert (labels["KH"], labels["QH"], labels["JH"], labels["10H"]) == (king, queen, jack, "10♥")
    assert 'value="KH"' in page and 'value="QS"' in page  # the forms post the codes, as the API takes them
    if lang in ENGLISH_ONLY:
        assert [found for text in read_text(page) for found in ENGLISH_ONLY[lang].findall(text)] == []


@pytest.mark.parametrize("lang, buttons", [("fr", ["♥ R D", "♥ R D V"]), ("de", ["♥ K D", "♥ K D B"]),
                                           ("en", ["♥ K Q", "♥ K Q J"])])
def test_r_brouc_4_the_numbers_screens_announce_buttons_name_the_ranks_in_the_page_language(client, lang, buttons):
    scorer, _ = table(client, "brouc", ["Ana", "Bo", "Cy", "Di"], BROUC[:1])
    page = client.get(f"{scorer}&mode=numbers&pick=a:0&lang={lang}").get_data(as_text=True)
    shown = re.findall(r'value="add:a:H:KQJ?" class="button suit-button[^"]*">\s*<span>([^<]+)</span>', page)
    assert shown == buttons


def test_r_buraco_2_melds_and_the_picker_in_french_letters_a_joker_as_a_star(client):
    scorer, _ = table(client, "buraco", ["Ana", "Bo", "Cy", "Di"], [
        {"type": "deal"}, {"type": "meld", "side": 0, "cards": ["KH", "KS", "JK"]},
        {"type": "meld", "side": 1, "cards": ["9S", "10S", "JS"]}])
    page = client.get(f"{scorer}&lang=fr").get_data(as_text=True)
    text = " ".join(read_text(page))
    assert "R♥ R♠ ★" in " ".join(text.split()) and "frimée pour R" in text  # the set's wild stands for a king
    assert "9♠ 10♠ V♠" in " ".join(text.split())
    laying = client.get(f"{scorer}&mode=meld&side=0&lang=fr").get_data(as_text=True)
    faces = re.findall(r'<span class="bur-face" aria-hidden="true">([^<]*)<span class="bur-symbol">([^<]+)</span>',
                       laying)
    assert ("R", "♥") in faces and ("V", "♣") in faces and ("", "★") in faces and ("K", "♥") not in faces
    assert ENGLISH_ONLY["fr"].findall(text) == [] and "JK" not in text


@pytest.mark.parametrize("lang, said", [
    ("fr", "Une suite est d'une seule couleur\u00a0; celle-ci mélange pique, cœur et carreau."),
    ("es", "Una escalera es de un solo palo; esta mezcla picas, corazones y diamantes."),
    ("de", "Eine Folge ist von einer Farbe; diese mischt Pik, Herz und Karo."),
    ("en", "A run is of one suit; this one mixes spades, hearts and diamonds."),
])
def test_r_buraco_2_a_mixed_run_is_refused_naming_its_suits_in_the_asked_language(client, lang, said):
    _, made = table(client, "buraco", ["Ana", "Bo", "Cy", "Di"], [{"type": "deal"}])
    answer = client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "meld", "side": 0,
                                                                      "cards": ["5H", "6S", "7D"]},
                         headers={"Authorization": f"Bearer {made['scorer_key']}", "Accept-Language": lang})
    body = answer.get_json()["error"]
    assert (answer.status_code, body["code"], body["rule"]) == (422, "run_mixed_suits", "R-BURACO-2")
    english = "A run is of one suit; this one mixes D, H, S."  # the API's English keeps the codes
    assert body["message"] == (said if lang != "en" else english)
    assert body["suit_codes"] == ["S", "H", "D"]  # the API keeps the codes beside the words


def test_r_buraco_2_a_refusals_cards_and_rank_are_written_in_the_page_language(app):
    from referee.web.i18n import refusal
    sequence = RuleError("not_a_sequence", "These cards are not a sequence of one suit, in order: {cards}.",
                         cards="KH AH 2H")
    mixed = RuleError("meld_mixed", "{card} does not belong in a set of {rank}s.", card="QD", rank="K")
    with app.test_request_context("/?lang=fr"):
        assert refusal(sequence, BURACO_108) == (
            "Ces cartes ne forment pas une suite d'une couleur, dans l'ordre\u00a0: R♥ A♥ 2♥.")
        assert refusal(mixed, BURACO_108) == "Dame de carreau n'a pas sa place dans une série de R."
    with app.test_request_context("/?lang=de"):
        assert refusal(mixed, PIQUET_32) == "Karo-Dame passt nicht in einen Satz aus K."
    with app.test_request_context("/?lang=en"):
        assert refusal(sequence, BURACO_108).endswith("in order: K♥ A♥ 2♥.")
        assert refusal(sequence) == "These cards are not a sequence of one suit, in order: KH AH 2H."  # no deck
