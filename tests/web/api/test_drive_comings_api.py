"""A late arrival and a leaver through the director's API: each answers the drive as it
stands (the newcomer in the seating, the leaver gone, the settings saying both); a refusal is
a 400 with its text and changes nothing; another club's director cannot do either."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.web.conftest import make_drive
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def post(client: Client, path: str, body: object) -> tuple[int, Any]:
    response = client.post(path, body, content_type="application/json")
    return response.status_code, response.json()


def test_arrive_and_leave_through_the_api(director_client: Client, club: Club) -> None:
    drive = make_drive(club, players=11, hands=4, short_table="dummy")
    base = f"/api/drives/{drive.pk}/"
    code, body = post(director_client, base + "arrive/", {"name": "Nell Newcomer"})
    assert code == 200, body
    seated = [s["player"] for t in body["hand"]["tables"] for s in t["seats"]]
    assert 12 in seated and 0 not in seated  # the dummy's seat went to the newcomer
    assert body["drive"]["settings"]["arrivals"] == [[12, 1]]  # nobody had played hand 1
    code, body = post(director_client, base + "arrive/", {"name": "nell newcomer"})
    assert code == 400 and "already playing as player 12" in str(body)
    code, body = post(director_client, base + "leave/", {"player": 3})
    assert code == 200, body
    seated = [s["player"] for t in body["hand"]["tables"] for s in t["seats"]]
    assert 3 not in seated and 0 in seated  # eleven again: the leaver's seat is the dummy's
    assert body["drive"]["settings"]["departures"] == [[3, 0]]
    code, body = post(director_client, base + "leave/", {"player": 3})
    assert code == 400 and "already" in str(body)
    code, body = post(director_client, base + "leave/", {"player": "x"})
    assert code == 400


def test_another_clubs_director_cannot(club: Club) -> None:
    drive = make_drive(club, players=8)
    other = get_user_model().objects.create_user("other", password="pw-other-123")
    Club.objects.create(name="Other", slug="other").directors.add(other)
    client = Client()
    client.force_login(other)
    before = DrivePlayer.objects.count(), Drive.objects.get().settings
    code, _ = post(client, f"/api/drives/{drive.pk}/arrive/", {"name": "Sneaky"})
    assert code in (403, 404)
    code, _ = post(client, f"/api/drives/{drive.pk}/leave/", {"player": 1})
    assert code in (403, 404)
    assert (DrivePlayer.objects.count(), Drive.objects.get().settings) == before
