"""A phone that loses the network: a Brisca table dealt over the API, the switch to offline, the wait for the queue
to reach the server, an answer lost on the way back."""
from tests.support.api import api
from tests.support.browser import new_phone


def brisca_table(server) -> tuple:
    """Ana, Bo, Cy, Di; Ana deals, espadas are trump (11E turned): Bo leads the first trick of DEAL_4P."""
    made = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]})
    api(server, f"/api/v1/tables/{made['id']}/events", {"type": "deal", "trump": "11E", "dealer": 0},
        key=made["scorer_key"])
    return made["id"], made["scorer_key"], made["scorer_url"]


def synced(page):
    """The waiting entries were read from IndexedDB (a page just opened has no #offline-queue before that), the queue
    is empty and the fragment came back from the server (no #offline-queue in it)."""
    page.wait_for_function("() => document.documentElement.hasAttribute('data-queue-read')"
                           " && !document.getElementById('offline-queue')"
                           " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')",
                           timeout=20000)


def offline_phone(browser, url):
    """A phone at 360×740 on the scorer's page, then the network gone: (context, page, console problems)."""
    context, page, _, problems = new_phone(browser, "en-GB")
    page.goto(url)
    go_offline(context, page)
    return context, page, problems


# The page's service worker (static/register-sw.js, static/sw.js), when the page registers one: installed (its shell
# cache filled: install waits for it), activated and controlling the page. Going offline before that meets the
# worker's own fetches ("An unknown error occurred when fetching the script.").
WORKER_READY = ("() => !('serviceWorker' in navigator) || !document.querySelector('script[src*=\"register-sw\"]')"
                " || (navigator.serviceWorker.controller !== null"
                " && navigator.serviceWorker.controller.state === 'activated')")


def go_offline(context, page):
    """The network gone, once the page's service worker is ready (WORKER_READY), never in the middle of its start."""
    page.wait_for_function(WORKER_READY, timeout=30000)
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")


def lose_answer(page, pattern: str, lost: int, read) -> list:
    """Routes ``pattern``: the server stores the ``lost``-th request, the phone never hears back. Returns the list
    of what ``read`` takes from each request, as they go."""
    posts = []

    def route_it(route):
        posts.append(read(route.request))
        if len(posts) == lost:
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.route(pattern, route_it)
    return posts
