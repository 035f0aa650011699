"""The new-drive form's "Choose from the register": members ticked join the names typed, once
each, linked to their member; too many in all, a twin or another club's member is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine.drives.settings import MAX_PLAYERS
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.kernel import members as register
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Member

from .test_drive_pages import FORM

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(club: Club) -> list[Member]:
    names = ["Ann Lee", "Bob Ray", "Cath Oduya", "Dev Patel", "Eve Stone", "Fay Wu", "Gus Holm"]
    made = [
        register.member_add(club=club, name=name, number=f"{n:03}")
        for n, name in enumerate(names, start=1)
    ]
    register.member_deactivate(member=register.member_add(club=club, name="Old Lapsed"))
    return made


def post(client: Client, data: dict[str, Any]) -> str:
    response = client.post("/drives/new/", data, follow=True)
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_form_lists_the_active_members_to_tick(
    director_client: Client, members: list[Member]
) -> None:
    page = director_client.get("/drives/new/").content.decode()
    assert "Choose from the register" in page and "Type to filter" in page
    assert f'name="members" value="{members[0].pk}"' in page and "(no. 001)" in page
    assert "Old Lapsed" not in page  # an inactive member is typed by name
    assert "0 members chosen" in page and "js/register-picker.js" in page


def test_ticked_members_join_the_typed_names_once_each(
    director_client: Client, members: list[Member]
) -> None:
    ticked = [m.pk for m in members[:6]]
    typed = "Vic Visitor\n  ann  LEE \nOld Lapsed"  # Ann typed and ticked: one player
    page = post(director_client, FORM | {"players": typed, "members": ticked})
    assert "Drive created" in page
    players = list(DrivePlayer.objects.order_by("number"))
    assert [p.name for p in players] == [
        "Vic Visitor", "ann  LEE", "Old Lapsed",
        "Bob Ray", "Cath Oduya", "Dev Patel", "Eve Stone", "Fay Wu",
    ]  # fmt: skip
    linked = {p.name: p.member for p in players}
    assert linked["Vic Visitor"] is None
    assert linked["ann  LEE"] == members[0] and linked["Fay Wu"] == members[5]
    assert linked["Old Lapsed"] is not None and linked["Old Lapsed"].name == "Old Lapsed"


def test_too_many_in_all_is_refused_with_the_ticks_kept(
    director_client: Client, members: list[Member]
) -> None:
    typed = "\n".join(f"Guest {n}" for n in range(1, MAX_PLAYERS))  # one short of the limit
    ticked = [members[0].pk, members[1].pk]
    page = post(director_client, FORM | {"players": typed, "members": ticked})
    assert 'role="alert"' in page and str(MAX_PLAYERS) in page
    assert not Drive.objects.exists()
    assert f'value="{members[0].pk}" checked' in page and "2 members chosen" in page


def test_a_name_typed_twice_is_refused(director_client: Client, members: list[Member]) -> None:
    page = post(director_client, FORM | {"players": "Vic\nvic", "members": [members[0].pk]})
    assert "Two players are called Vic" in page and not Drive.objects.exists()


def test_a_member_of_another_club_is_refused(
    director_client: Client, director: Any, club: Club, members: list[Member]
) -> None:
    other = club_get_or_create(name="Other Whist Club")
    other.directors.add(director)
    stranger = register.member_add(club=other, name="Zed Other")
    data = FORM | {"club": club.pk, "members": [m.pk for m in members] + [stranger.pk]}
    page = post(director_client, data)
    assert "Zed Other is a member of Other Whist Club, not of Test Whist Club" in page
    assert not Drive.objects.exists()


def test_a_member_no_longer_active_cannot_be_ticked(
    director_client: Client, members: list[Member]
) -> None:
    register.member_deactivate(member=members[0])
    page = post(director_client, FORM | {"members": [members[0].pk]})
    assert "reload the page and tick again" in page and 'aria-describedby="register-error"' in page
    assert not Drive.objects.exists()
