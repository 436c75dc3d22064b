"""A save the server refuses on the numbers screen says why in the status bar's message room, in view and whole
(R-COMMON-6; issue 38: the room's message was 0 px high on the numbers screen), in a real browser at 360×740 in
French, in every game whose sheet the server can refuse: Brisca's card points that do not add up to the deal's
(R-BRISCA-1), Buraco's hand left blank by a side that did not close (R-BURACO-5), Brusquembille's brusquembille
whose player is not tapped (R-BRUSQ-4). The refusal's box is measured: a real height, inside the screen, not
covered by anything, its sentence not cut."""
from tests.support.browser import IDLE, PHONE, press, shot
from tests.support.numbers_screen import numbers_screen

NBSP = "\u00a0"
# Where the refusal's box is, and whether it is the top element at its middle and holds its sentence whole.
REFUSAL = """() => { const refusal = document.querySelector('.status-message .refusal');
  const box = refusal.getBoundingClientRect();
  const room = refusal.closest('.status-message');
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {top: box.top, bottom: box.bottom, height: box.height, screen: window.innerHeight,
          onTop: refusal.contains(hit), whole: room.scrollHeight <= room.clientHeight + 1}; }"""


def refused(page, sentence):
    """The save tapped and refused: its sentence in the bar, in view, whole, on top of everything."""
    page.click(".sheet-save")
    page.wait_for_selector(".status-message .refusal")
    page.wait_for_function(IDLE)
    assert page.inner_text(".status-message .refusal").strip() == sentence
    box = page.evaluate(REFUSAL)
    assert box["height"] >= 14 and box["onTop"] and box["whole"]  # at least one line of its 0.85rem text
    assert 0 <= box["top"] and box["bottom"] <= box["screen"] == PHONE["height"]
    return box


def test_r_brisca_1_a_save_of_70_and_0_is_refused_in_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brisca", ["Xavi", "Laia"],
                                                   {"type": "deal", "trump": "1O"})
    press(page, "700")  # 70 is whole: Laia's field by itself, then 0
    assert page.eval_on_selector_all("input[data-keypad]", "a => a.map(i => i.value)") == ["70", "0"]
    refused(page, f"Les points de cartes des camps font 70{NBSP}; une donne en contient 120.")
    shot(page, "refused-save-brisca-360", full_page=False)
    assert problems == []
    context.close()


def test_r_buraco_5_a_save_without_the_hand_of_a_side_that_did_not_close_is_refused_in_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", ["Ana", "Bruno", "Céline", "Denis"],
                                                   {"type": "deal"})
    press(page, "250")  # nobody closed (the stock ran out): every side's hand must be typed
    refused(page, "Tapez les points de cartes restés en main de Ana & Céline.")
    shot(page, "refused-save-buraco-360", full_page=False)
    assert problems == []
    context.close()


def test_r_brusq_4_a_save_with_a_brusquembille_nobody_played_is_refused_in_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brusquembille", ["Ana", "Bruno", "Céline"],
                                                   {"type": "deal", "trump": "9S"})
    press(page, "40>50>")
    page.click("button[value='cycle:AH']")  # won, and whose: not tapped
    page.wait_for_selector("#sheet [data-choice]")
    page.wait_for_function(IDLE)
    refused(page, "Touchez qui a joué as de cœur.")
    shot(page, "refused-save-brusquembille-360", full_page=False)
    assert problems == []
    context.close()


def test_r_brusq_4_the_jetons_preview_writes_a_true_minus_sign(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brusquembille", ["Ana", "Bruno", "Céline"],
                                                   {"type": "deal", "trump": "9S"})
    press(page, "40>50>")
    page.click("button[value='cycle:AH']")  # the ace of hearts won for Ana's side: each opponent pays her
    page.wait_for_selector("#sheet [data-choice]")
    page.wait_for_function(IDLE)
    page.click("button[value='who:AH:0']")
    page.wait_for_selector("#sheet-preview table")
    page.wait_for_function(IDLE)
    jetons = [line for line in page.inner_text("#sheet-preview").splitlines() if line.startswith("Jetons")]
    assert jetons == [f"Jetons{NBSP}: Ana +4, Bruno −2, Céline −2 R-BRUSQ-4"]  # U+2212, as the status bar writes
    assert problems == []
    context.close()
