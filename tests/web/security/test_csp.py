"""The Content-Security-Policy: on every page, strict, and nothing in our pages needs it loosened.

The pages are the permission matrix's routes (every route of the URL conf has an audience there,
so a page added later is checked here too), asked by a director of the event's club, who may
read every one of them. Each HTML answer must carry the policy, and its markup must hold
nothing the policy blocks: no inline script, no event-handler attribute, no style attribute
(the browser test, tests/web/browser/test_browser_csp.py, runs the pages under the header).
"""

from __future__ import annotations

import io
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.security import test_permission_matrix as matrix
from tournaments.events.models import PrintJob

pytestmark = pytest.mark.django_db

# The matrix's world, made once for the module (a running and a published event, table links,
# a result, a call, a finished print pack), and its fixture that keeps the live stream off the
# test's connection.
world = matrix.world
_shared_world = matrix._shared_world
_streams = matrix._streams_keep_the_test_connection

WANTED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

#: Pages a club night cannot do without: each must have been checked as a page (HTML, 200).
MAIN_PAGES = {
    "home", "login", "event-new", "event-import-file", "event-detail", "event-room",
    "event-print", "event-enter", "event-traveller", "event-close", "event-audit",
    "event-standings", "public-results", "public-board", "public-pair", "public-display",
    "public-club", "public-players", "public-player", "table-page",
}  # fmt: skip


def policy(response: Any) -> dict[str, str]:
    header = response.get("Content-Security-Policy")
    assert header, f"{response.request['PATH_INFO']}: no Content-Security-Policy"
    directives = [part.strip().partition(" ") for part in header.split(";") if part.strip()]
    return {name: value for name, _, value in directives}


class InlineCode(HTMLParser):
    """What a strict policy blocks in a page's markup."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if "style" in named:
            self.found.append(f'<{tag} style="{named["style"]}">')
        self.found += [f"<{tag} {a}=...>" for a in named if a.lower().startswith("on")]
        for a in ("href", "src", "action"):
            if (named.get(a) or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {a}={named[a]}>")
        if tag == "style":
            self.found.append("<style> block")
        if tag == "script":
            self._script = named

    def handle_data(self, data: str) -> None:
        script = self._script
        if script is None or not data.strip():
            return
        if script.get("src") is None and script.get("type") != "application/json":
            self.found.append(f"inline <script>: {data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def test_the_policy_is_strict() -> None:
    response = Client().get(reverse("login"))
    assert policy(response) == WANTED
    assert "unsafe" not in response["Content-Security-Policy"]


def test_the_checker_finds_what_the_policy_would_block() -> None:
    """The markup check below can fail: it finds each kind of inline code."""
    page = (
        '<p style="color:red" onclick="go()">x</p><a href="javascript:go()">y</a>'
        "<style>p{}</style><script>go()</script>"
        '<script src="/static/js/x.js"></script><script type="application/json">{}</script>'
    )
    assert len(inline_code(page)) == 5


def test_every_html_page_carries_the_policy_and_needs_no_more(world: matrix.World) -> None:
    """Every route, asked by the club's director (table routes with table 1's link): each HTML
    answer, refusals and errors included, has the policy and no inline code."""
    director = matrix.client_for("director", world)
    problems: list[str] = []
    pages: set[str] = set()
    for route in matrix.url_routes():
        if route.name in {"logout", "public-stream"}:
            continue  # a POST only; an event stream that stays open (not a page)
        path = reverse(route.name, kwargs=world.kwargs(route.params, token=world.tokens[1]))
        if route.name == "public-player":
            path += "?" + urlencode({"name": world.player})  # addressed by ?name=
        response = director.get(path)
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        got = policy(response)
        if got != WANTED:
            problems.append(f"{path}: {got}")
        if response.status_code == 200:
            pages.add(route.name)
            problems += [f"{path}: {found}" for found in inline_code(response.content.decode())]
    assert not problems, "\n".join(problems)
    assert pages >= MAIN_PAGES, f"not checked as pages: {sorted(MAIN_PAGES - pages)}"


def test_refusals_and_other_callers_get_the_policy_too(world: matrix.World) -> None:
    anonymous = Client()
    for path, status in (
        (reverse("home"), 200),
        (reverse("public-results", args=[world.published.pk]), 200),
        (reverse("public-results", args=[world.event.pk]), 404),  # running, not live
        ("/t/not-a-real-table-link-0000000000/", 404),
        ("/no/such/page/", 404),
    ):
        response = anonymous.get(path)
        assert response.status_code == status, path
        assert policy(response) == WANTED, path
    tablet = anonymous.get(reverse("table-page", args=[world.tokens[1]]))
    assert tablet.status_code == 200 and policy(tablet) == WANTED
    assert not inline_code(tablet.content.decode())
    # The tablet's script reads its settings from the page's data- attributes.
    assert f'data-token="{world.tokens[1]}"' in tablet.content.decode()


def test_pdfs_open_in_the_browsers_viewer_without_the_pages_policy(world: matrix.World) -> None:
    """Chromium's PDF viewer is an <embed> in a page of its own: object-src 'none' would
    block it, so PDFs carry no policy (they run none of our code)."""
    director = matrix.client_for("director", world)
    document = director.get(reverse("event-print-document", args=[world.event.pk, "travellers"]))
    assert document["Content-Type"] == "application/pdf"
    assert "Content-Security-Policy" not in document
    job = PrintJob.objects.get(pk=world.job.pk)
    pack = director.get(reverse("event-print-pack-pdf", args=[world.event.pk, job.pk]))
    assert pack["Content-Type"] == "application/pdf"
    assert "Content-Security-Policy" not in pack
    assert io.BytesIO(pack.content).read(5) == b"%PDF-"
