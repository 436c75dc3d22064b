"""Debian's Chromium as a phone: the viewport, the screenshots folder (tests/artifacts/, one per xdist worker), the
axe-core script, the htmx idle condition, a phone's page and its taps, the keypad, a page's totals and width."""
import os
from pathlib import Path

from tests.support.api import api
from tests.support.env import ROOT


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


PHONE = {"width": 360, "height": 740}


ARTIFACTS = ROOT / "tests" / "artifacts" / os.environ.get("PYTEST_XDIST_WORKER", "")  # gw0/, gw1/ under xdist


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


class WatchedBrowser:
    """The module's Chromium (``browser`` fixture, tests/conftest.py) with every page it opens watched: a console
    message of type error (a CSP violation shows so in Chromium: an inline style or script refused) and an uncaught
    exception (``pageerror``) are kept in ``problems``, which the ``no_console_error`` fixture empties before each
    test and turns into a failure after it. A test that provokes one on purpose names it with ``allow`` (a part of
    its text), for that test only. Everything else is the real browser's."""

    def __init__(self, real):
        self._real = real
        self.problems: list[str] = []
        self.allowed: list[str] = []

    def __getattr__(self, name):
        return getattr(self._real, name)

    def allow(self, *parts: str) -> None:
        """Console errors holding one of ``parts`` are expected in this test (a refusal it provokes)."""
        self.allowed.extend(parts)

    def watch(self, page) -> None:
        def console(message):
            if message.type == "error":
                self.problems.append(f"console error on {page.url}: {message.text}")

        page.on("console", console)
        page.on("pageerror", lambda error: self.problems.append(f"uncaught on {page.url}: {error}"))

    def new_context(self, **options):
        context = self._real.new_context(**options)
        context.on("page", self.watch)
        return context

    def new_page(self, **options):
        page = self._real.new_page(**options)
        self.watch(page)
        return page

    def unexpected(self) -> list[str]:
        """The problems seen since the last call that no ``allow`` names; both lists emptied."""
        found = [p for p in self.problems if not any(part in p for part in self.allowed)]
        self.problems.clear()
        self.allowed.clear()
        return found


# What a page says in its console when a test cuts its network or its stream on purpose (a fetch refused, htmx's
# sendError and afterRequest, the EventSource's error event), or provokes a refusal (a stale tap: 409; a renewed key:
# 401): a test that does so names them (``browser.allow(*NETWORK_CUT)``)
NETWORK_CUT = ("net::ERR_", "htmx:sendError", "htmx:afterRequest", ": Event")
REFUSED = ("status of 409 (CONFLICT)", "status of 401 (UNAUTHORIZED)")


def artifact(name: str) -> Path:
    """Where the screenshot ``name`` goes (tests/artifacts/, git-ignored, made when missing)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def shot(page, name, **options):
    """The whole page as it is now, for review (``options``: Playwright's screenshot options)."""
    page.screenshot(path=str(artifact(name)), **{"full_page": True, **options})


class Phone:
    """One phone's page; ``act`` clicks and waits for the swap (htmx) or the next page (no JavaScript)."""

    def __init__(self, page, js: bool):
        self.page, self.js = page, js

    def act(self, selector):
        if self.js:
            self.page.click(selector)
            self.page.wait_for_function(IDLE)
        else:
            with self.page.expect_navigation():
                self.page.click(selector)

    def tap(self, code):
        self.act(f"button.card[value='{code}']")

    def totals(self):
        return self.page.locator("#scoreboard tr.total td summary").all_inner_texts()


def new_phone(browser, locale="fr-CH", js=True, **options):
    """A phone-size page whose console errors are collected in ``problems``."""
    context = browser.new_context(viewport=PHONE, locale=locale, java_script_enabled=js, **options)
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page, Phone(page, js), problems


# htmx asks for the sheet's preview 250 ms after the last input (referee/web/tables/templates/_sheet_preview.html, delay:250ms), or queues
# the ask behind one on its way: the page notes when the last input and the last ask happened (htmx:trigger).
WATCH_PREVIEW = """() => { if (window.refereePreview) { return; } window.refereePreview = {input: 0, asked: 0};
  document.addEventListener('input', () => { window.refereePreview.input = performance.now(); }, true);
  document.addEventListener('htmx:trigger', (event) => {
    if (event.target.id === 'sheet-preview') { window.refereePreview.asked = performance.now(); } }, true); }"""
PREVIEW_ASKED = ("() => !window.refereePreview || !document.getElementById('sheet-preview')"
                 " || window.refereePreview.asked >= window.refereePreview.input")


def watch_preview(page) -> None:
    """From now on the page notes its inputs and its preview's asks (WATCH_PREVIEW); once per page."""
    page.evaluate(WATCH_PREVIEW)


def preview_asked(page) -> None:
    """Waits until the preview was asked (sent or queued) after the last input watched: no timer left running."""
    page.wait_for_function(PREVIEW_ASKED)


KEYS = {">": "next", "<": "back"}


def press(page, keys: str):
    for key in keys.replace(" ", ""):
        page.click(f".keypad [data-key='{KEYS.get(key, key)}']")


class Taps(Phone):
    """The scorer's finger: every tap counted, each waiting for the swap (htmx) or the next page."""

    def __init__(self, page, js=True):
        super().__init__(page, js)
        self.count = 0

    def __call__(self, selector):
        self.count += 1
        self.act(selector)

    def keys(self, digits):
        watch_preview(self.page)
        for digit in digits:
            self.count += 1
            self.page.click(f".keypad [data-key='{digit}']")
        preview_asked(self.page)  # the preview follows the typing
        self.page.wait_for_function(IDLE)


def open_table(browser, server, game, players, js=True, **options):
    made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options})
    context, page, _, problems = new_phone(browser, locale="en-GB", js=js)
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=en")
    return context, page, made, problems


def at_table(browser, server, game, players, entry, **options):
    """A scorer's phone on a new table that chose its way of entry (once for the evening: not a tap of the deal)."""
    context, page, made, problems = open_table(browser, server, game, players, **options)
    page.click(f"text={entry}")
    page.wait_for_function(IDLE)
    return context, page, made, problems, Taps(page)


PUSHED = "() => document.documentElement.getAttribute('data-live') === 'pushed'"  # static/live.js: stream healthy


def polls_answered(page, path: str, count: int = 2) -> None:
    """Waits until the page has caught up and nothing is on its way: its stream is healthy (``PUSHED``: it sent what
    the page did not show at once, and the page holds its poll back), else ``count`` answers to its live poll
    (``hx-trigger="every 1s"`` on an address holding ``path``)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(PUSHED, timeout=5000)
        return
    except PlaywrightTimeout:
        pass
    for _ in range(count):
        with page.expect_response(lambda response: path in response.url):
            pass


def totals_on_page(page):
    return page.locator("#scoreboard tfoot tr.total td summary").all_inner_texts()


def no_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
