"""No name or input makes a page answer 500 (issue #24, points 4 and 5): player pages are
addressed by a query parameter, so "/", "&", "?" and accents make working links; a NUL in an
address's path is not found and one in its query is refused with a 400 saying so, before any
view sends it to the database (PostgreSQL refuses a NUL in any text); the director's API
refuses an over-long dispute note naming the field; the pairs form refuses an over-long name or
a NUL with a message; an over-long login username is a wrong login, recorded within the
lockout record's column."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.test import Client

from clubwhist.addresses import QUERY_REFUSAL
from tests.web.conftest import make_event
from tournaments.events.models import DirectorCall, Event, Pair, Result
from tournaments.events.services.events import event_finish, event_publish
from tournaments.events.services.results import result_submit
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel import members as register
from tournaments.kernel.models import Member

pytestmark = pytest.mark.django_db

#: Names that must make working player pages.
HOSTILE = ["A/N Other", "Ann & Bob", "Zoë Ñúñez", "Who? #1", "50% off/../x"]


def _published(club: Any, director: Any, first: str, second: str) -> Event:
    event = make_event(club, user=director)
    Pair.objects.filter(section__event=event, number=1, direction="NS").update(
        player1=first, player2=second
    )
    event_simulate(event=event, seed=5, batch=True)
    return event_publish(event=event_finish(event=event, user=director), user=director)


def _player_links(page: str) -> dict[str, str]:
    """name -> link, as the players page shows them."""
    found = re.findall(r'<li><a href="([^"]+)">([^<]*)</a></li>', page)
    return {html.unescape(name): html.unescape(href) for href, name in found}


# -- point 4: a player page for any name -------------------------------------------------------


@pytest.mark.parametrize("name", HOSTILE)
def test_the_players_page_links_every_name_to_its_history(club, director, name: str) -> None:
    partner = "Partner Plain"
    event = _published(club, director, name, partner)
    players = Client().get(f"/clubs/{club.slug}/players/")
    assert players.status_code == 200
    links = _player_links(players.content.decode())
    assert set(links) >= {name, partner}
    page = Client().get(links[name])
    assert page.status_code == 200, links[name]
    text = page.content.decode()
    assert f"/results/{event.pk}/" in text and partner in text
    assert f"<h1>{html.escape(name)}</h1>" in text


def test_the_player_page_takes_the_name_as_a_query_parameter(club, director) -> None:
    event = _published(club, director, "A/N Other", "Ann & Bob")
    page = Client().get(f"/clubs/{club.slug}/player/", {"name": "A/N Other"})
    assert page.status_code == 200 and f"/results/{event.pk}/" in page.content.decode()
    assert Client().get(f"/clubs/{club.slug}/player/", {"name": "Nobody"}).status_code == 404
    bare = Client().get(f"/clubs/{club.slug}/player/")  # no name: the list of players
    assert bare.status_code == 302 and bare["Location"] == f"/clubs/{club.slug}/players/"


def test_old_player_links_still_lead_to_the_page(club, director) -> None:
    event = _published(club, director, "Ann Archer", "Zoë Ñúñez")
    old = Client().get(f"/clubs/{club.slug}/players/Zo%C3%AB%20%C3%91%C3%BA%C3%B1ez/", follow=True)
    assert old.status_code == 200 and f"/results/{event.pk}/" in old.content.decode()
    assert old.redirect_chain[0][1] == 301


@pytest.mark.parametrize(
    "url",
    [
        "/clubs/{slug}/player/?name=Ann%0BArcher",
        "/clubs/{slug}/player/?name=" + "x" * 121,
        "/clubs/{slug}/players/Ann%00Archer/",
    ],
)
def test_a_nul_or_an_unstorable_name_in_a_player_address_is_not_found(
    club, director, url: str
) -> None:
    _published(club, director, "Ann Archer", "Bill Bennett")
    assert Client().get(url.format(slug=club.slug)).status_code == 404


# -- a NUL anywhere in an address (PostgreSQL refuses one in any text it is sent) ------------------

#: Every route taking a free string in its path, with a NUL in it.
NUL_PATHS = [
    "/t/a%00b/",
    "/d/a%00b/",
    "/tt/a%00b/",
    "/api/t/a%00b/",
    "/api/t/a%00b/results/",
    "/api/d/a%00b/",
    "/api/d/a%00b/enter/",
    "/api/tt/a%00b/",
    "/api/tt/a%00b/enter/",
    "/invitations/a%00b/",
    "/results/1/pairs/a%00b/",
    "/api/public/events/1/pairs/a%00b/",
    "/clubs/{slug}/players/Ann%00Archer/",
]


@pytest.mark.parametrize("url", NUL_PATHS)
def test_a_nul_in_an_addresss_path_is_not_found(director_client: Client, club, url: str) -> None:
    for caller in (Client(), director_client):
        answer = caller.get(url.format(slug=club.slug))
        assert answer.status_code == 404, url
        if url.startswith("/api/"):
            assert answer.json() == {"detail": "Not found."}
    posted = Client().post(url.format(slug=club.slug), {}, content_type="application/json")
    assert posted.status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/api/clubs/{slug}/members/?q=%00",
        "/api/clubs/{slug}/members/?q=Ann%00&show=all",
        "/api/clubs/{slug}/members/?%00=1",
        "/clubs/{slug}/members/?q=%00",
        "/clubs/{slug}/player/?name=Ann%00Archer",
        "/clubs/{slug}/player/?name=%00",
    ],
)
def test_a_nul_in_an_addresss_query_is_refused_saying_what_to_do(
    director_client: Client, club, url: str
) -> None:
    register.member_add(club=club, user=None, name="Ann Archer")
    answer = director_client.get(url.format(slug=club.slug))
    assert answer.status_code == 400, url
    if url.startswith("/api/"):
        assert answer.json() == {"detail": QUERY_REFUSAL}
    else:
        assert html.escape(QUERY_REFUSAL) in answer.content.decode()
    assert list(Member.objects.values_list("name", flat=True)) == ["Ann Archer"]
    # The same search without the NUL is answered as ever.
    fine = director_client.get(url.format(slug=club.slug).replace("%00", ""))
    assert fine.status_code in {200, 302, 404}


# -- point 5: the other 500s ---------------------------------------------------------------------


def test_the_director_api_refuses_an_over_long_dispute_note_naming_the_field(
    director_client: Client, running_event: Event
) -> None:
    result, _ = result_submit(
        section=running_event.section, round=1, table=1, board_number=1, entry={"ns_tricks": 7}
    )
    url = f"/api/events/{running_event.pk}/results/{result.pk}/dispute"
    answer = director_client.post(url, {"note": "n" * 201}, content_type="application/json")
    assert answer.status_code == 400 and list(answer.json()) == ["note"]
    assert "150" in answer.json()["note"][0]
    assert Result.objects.get(pk=result.pk).status != Result.Status.DISPUTED
    assert not DirectorCall.objects.filter(section=running_event.section).exists()
    answer = director_client.post(url, {"note": "n" * 150}, content_type="application/json")
    assert answer.status_code == 200
    call = DirectorCall.objects.get(section=running_event.section)
    assert call.note.endswith("n" * 150) and len(call.note) <= 200


@pytest.mark.parametrize(("bad", "said"), [("z" * 121, "121 characters"), ("Ann\x00", "U+0000")])
def test_the_pairs_form_refuses_a_long_name_or_a_nul_and_stores_nothing(
    director_client: Client, running_event: Event, bad: str, said: str
) -> None:
    pairs = list(Pair.objects.filter(section__event=running_event).order_by("pk"))
    post = {f"pair-{p.pk}-{n}": "Fine" for p in pairs for n in (1, 2)}
    post[f"pair-{pairs[0].pk}-1"] = bad
    answer = director_client.post(f"/events/{running_event.pk}/pairs/", post, follow=True)
    assert answer.status_code == 200 and said in answer.content.decode()
    stored = Pair.objects.filter(section__event=running_event).values_list("player1", "player2")
    assert set(stored) == {("", "")}


@pytest.mark.parametrize("username", ["u" * 256, "u" * 5000, "td\x00" + "u" * 300])
def test_an_over_long_login_username_is_a_wrong_login(director, username: str) -> None:
    answer = Client().post("/accounts/login/", {"username": username, "password": "guess"})
    assert answer.status_code == 200
    assert "username and password did not match" in answer.content.decode()
    recorded = list(AccessAttempt.objects.values_list("username", flat=True))
    assert all(name is None or (len(name) <= 255 and "\x00" not in name) for name in recorded)
