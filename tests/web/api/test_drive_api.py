"""The drive API: create, players, start, results, next hand, corrections, totals."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.drives.models import Drive
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def post(client: Client, path: str, body: object) -> tuple[int, dict]:
    response = client.post(path, body, content_type="application/json")
    return response.status_code, response.json()


def test_a_drive_through_the_api(director_client: Client, club: Club) -> None:
    code, made = post(
        director_client,
        "/api/drives/",
        {"name": "API drive", "settings": {"hands": 2, "scoring": "tricks"},
         "players": [f"P{n}" for n in range(1, 8)]},
    )  # fmt: skip
    assert code == 201, made
    base = f"/api/drives/{made['id']}/"
    code, body = post(director_client, base + "players/", {"name": "P8"})
    assert code == 200 and len(body["players"]) == 8
    code, body = post(director_client, base + "start/", {"seed": 3})
    assert code == 200 and body["hand"]["hand"] == 1 and len(body["hand"]["tables"]) == 2
    code, body = post(director_client, base + "results/", {"table": 3, "entry": {"ns_tricks": 7}})
    assert code == 400 and "no table 3" in body["detail"]
    code, body = post(director_client, base + "next/", {})
    assert code == 400 and "no result yet" in body["detail"]
    for table in (1, 2):
        code, body = post(
            director_client, base + "results/", {"table": table, "entry": {"ns_tricks": 8}}
        )
        assert code == 200
    code, body = post(director_client, base + "next/", {})
    assert code == 200 and body["hand"]["hand"] == 2
    code, body = post(
        director_client, base + "correct/", {"hand": 1, "table": 1, "entry": {"ns_tricks": 3}}
    )
    assert code == 200
    totals = director_client.get(base + "totals/").json()
    assert totals["hands_played"] == 1 and len(totals["totals"]) == 8
    assert Drive.objects.get().hand == 2


def test_settings_refused_by_the_engine_are_a_400_naming_the_field(
    director_client: Client,
) -> None:
    code, body = post(
        director_client, "/api/drives/", {"name": "Bad", "settings": {"ends": "sideways"}}
    )
    assert code == 400 and "ends" in body["detail"]
    assert not Drive.objects.exists()
