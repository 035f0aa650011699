"""Clubs and their directors: the `clubs` command, the home page's list, the new-event form."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from tests.web.conftest import make_event
from tournaments.events.models import Event
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("clubs", *args, stdout=out)
    return out.getvalue()


def test_the_clubs_command_makes_clubs_and_names_their_directors() -> None:
    get_user_model().objects.create_user("jo")
    assert "Created Riverside Whist (riverside)" in run(
        "create", "Riverside Whist", "--slug", "riverside"
    )
    assert "jo now directs Riverside Whist" in run("add-director", "riverside", "jo")
    listed = json.loads(run("list", "--json"))
    assert listed == [{"name": "Riverside Whist", "slug": "riverside", "directors": ["jo"]}]
    assert "jo no longer directs" in run("remove-director", "riverside", "jo")
    assert not Club.objects.get(slug="riverside").directors.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add-director", "nowhere", "jo"), "There is no club 'nowhere'"),
        (("add-director", "riverside", "nobody"), "There is no account 'nobody'"),
        (("create", "Riverside Whist"), "exists already"),
        (("create", "!!!"), "at least one letter"),
    ],
)
def test_the_clubs_command_refuses_with_the_reason(args: tuple[str, ...], message: str) -> None:
    get_user_model().objects.create_user("jo")
    run("create", "Riverside Whist", "--slug", "riverside")
    with pytest.raises(CommandError, match=message):
        run(*args)
    assert Club.objects.count() == 1
    assert not Club.objects.get().directors.exists()


def test_the_home_page_lists_my_clubs_events_and_everyones_published_ones(
    club: Club, director: Any
) -> None:
    mine = make_event(club, user=director)
    other_club = Club.objects.create(name="Elsewhere", slug="elsewhere")
    theirs = make_event(other_club)
    client = Client()
    client.force_login(director)
    page = client.get("/").content.decode()
    assert f'href="/events/{mine.pk}/"' in page
    assert f"/events/{theirs.pk}/" not in page and f"/results/{theirs.pk}/" not in page
    Event.objects.filter(pk=theirs.pk).update(status=Event.Status.PUBLISHED)
    page = client.get("/").content.decode()
    assert f'href="/results/{theirs.pk}/"' in page  # public results, not the director's page


def test_a_director_of_two_clubs_chooses_the_club_of_a_new_event(club: Club, director: Any) -> None:
    second = Club.objects.create(name="Second Club", slug="second")
    second.directors.add(director)
    client = Client()
    client.force_login(director)
    page = client.get("/events/new/").content.decode()
    assert "Second Club" in page and "Test Whist Club" in page
    refused = client.post(
        "/api/events/",
        {"name": "x", "game": "classic", "movement_kind": "mitchell",
         "movement_params": {"tables": 3, "boards_per_round": 2}},
        content_type="application/json",
    )  # fmt: skip
    assert refused.status_code == 403
    assert "say which club" in refused.json()["detail"]
    assert not Event.objects.exists()


def test_clubs_whose_names_make_the_same_slug_each_get_their_own() -> None:
    """ "Riverside!", "riverside" and "RIVERSIDE" all slugify to riverside: each later one
    gets the next free slug, and a name already known gives back its club, not a new one."""
    first = club_get_or_create(name="Riverside!")
    second = club_get_or_create(name="riverside")
    third = club_get_or_create(name="RIVERSIDE")
    assert (first.slug, second.slug, third.slug) == ("riverside", "riverside-2", "riverside-3")
    assert club_get_or_create(name="riverside") == second
    assert Club.objects.filter(slug__startswith="riverside").count() == 3
