"""A table's link is a credential: whoever holds it enters and confirms that table's results.
Every director's page and document that shows one (as a link, a QR code or on a printed
table card) is sent with `Cache-Control: no-store`, so no browser, proxy or shared computer
keeps a copy after the director has gone.

`LINK_PAGES` is the list: a new page that shows table links belongs in it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from tests.web.conftest import make_drive, make_tournament
from tournaments.events.models import Event
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


#: Every page and document of a director's with the tables' links: (what, address from the
#: running event, drive and tournament's ids, the table page's path a link opens, if the
#: response is text that shows it).
LINK_PAGES: list[tuple[str, Callable[[int, int, int], str], str | None]] = [
    ("the event's page", lambda e, d, t: f"/events/{e}/", "/t/"),
    ("the event's room", lambda e, d, t: f"/events/{e}/room/", "/t/"),
    ("the event's table cards", lambda e, d, t: f"/events/{e}/print/table-cards.pdf", None),
    ("the drive's page", lambda e, d, t: f"/drives/{d}/manage/", "/d/"),
    ("the drive's table cards", lambda e, d, t: f"/drives/{d}/manage/print/table-cards.pdf", None),
    ("the drive's links (API)", lambda e, d, t: f"/api/drives/{d}/tablets/", "/d/"),
    ("the tournament's page", lambda e, d, t: f"/tournaments/{t}/manage/", "/tt/"),
    ("the tournament's links (API)", lambda e, d, t: f"/api/tournaments/{t}/tablets/", "/tt/"),
]


@pytest.fixture
def ids(club: Club, running_event: Event) -> tuple[int, int, int]:
    return (
        running_event.pk,
        make_drive(club, name="Link drive", scoring="tricks").pk,
        make_tournament(club, name="Link teams").pk,
    )


@pytest.mark.parametrize(("what", "address", "link"), LINK_PAGES, ids=[p[0] for p in LINK_PAGES])
def test_a_page_with_the_tables_links_is_never_stored(
    director_client: Client,
    ids: tuple[int, int, int],
    what: str,
    address: Callable[[int, int, int], str],
    link: str | None,
) -> None:
    response = director_client.get(address(*ids))
    assert response.status_code == 200, what
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert "no-store" in directives, (what, response["Cache-Control"])
    assert "public" not in directives
    if link is not None:  # the page does show a table's link: it belongs in the list
        assert link in response.content.decode(), what
