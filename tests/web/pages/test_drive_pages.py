"""A drive through the director's pages (the Django test client) and its public page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.drives.models import Drive, DriveResult
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Tuesday drive", "game": "classic", "hands": "2", "half_time": "1",
    "scoring": "tricks", "trumps": "HDSC", "move": "progressive", "ends": "wrap",
    "short_table": "sit_out", "sit_out_score": "fixed", "sit_out_tricks": "7",
    "role_a": "Lady", "role_b": "Gent", "prizes": "highest\nfirst_half\nbooby",
    "tie_rule": "countback", "one_prize_each": "on",
    "players": "\n".join(f"Member {n}" for n in range(1, 9)),
}  # fmt: skip


def follow(client: Client, path: str, data: dict[str, Any]) -> str:
    response = client.post(path, data, follow=True)
    assert response.status_code == 200
    return str(response.content.decode())


def test_a_director_runs_a_drive_on_paper(director_client: Client, club: Club) -> None:
    page = follow(director_client, "/drives/new/", FORM)
    drive = Drive.objects.get()
    assert "Member 8" in page and "Drive created" in page
    base = f"/drives/{drive.pk}/manage/"
    page = follow(director_client, base + "players/", {"action": "add", "name": "Late Lou"})
    assert "Late Lou" in page
    page = follow(director_client, base + "players/", {"action": "remove", "number": "9"})
    assert "Late Lou" not in page
    page = follow(director_client, base + "start/", {"seed": "5"})
    assert "Tick the box" in page and Drive.objects.get().status == "draft"
    page = follow(director_client, base + "start/", {"seed": "5", "confirm": "yes"})
    assert "Hand 1 of 2" in page and "trumps: hearts" in page and "(Lady)" in page
    page = follow(director_client, base + "enter/", {"table": "1", "ns_tricks": "14"})
    assert "NS tricks must be between 0 and 13" in page
    assert not DriveResult.objects.exists()
    page = follow(director_client, base + "next/", {"confirm": "yes"})
    assert "no result yet" in page
    for table, tricks in ((1, "9"), (2, "5")):
        page = follow(director_client, base + "enter/", {"table": str(table), "ns_tricks": tricks})
    assert "2 of 2 tables done" in page and "NS 9 tricks, EW 4" in page
    page = follow(director_client, base + "next/", {"confirm": "yes"})
    assert "Hand 2 of 2" in page and "trumps: diamonds" in page
    assert "moved on to hand 2" in page  # the latest changes, in words
    page = follow(
        director_client,
        base + "correct/",
        {"hand": "1", "table": "2", "ns_tricks": "6", "reason": "misread"},
    )
    assert "worked out again" in page
    for table in (1, 2):
        follow(director_client, base + "enter/", {"table": str(table), "ns_tricks": "7"})
    page = follow(director_client, base + "status/finish/", {})
    assert "The drive is finished" in page
    totals = director_client.get(base + "totals/").content.decode()
    assert "Highest total" in totals or "highest" in totals.lower()
    csv = director_client.get(base + "export/hands.csv").content.decode("utf-8-sig")
    assert csv.splitlines()[0].startswith("hand,trumps,table,N,E,S,W")
    assert len(csv.splitlines()) == 1 + 2 * 2
    assert Client().get(f"/drives/{drive.pk}/").status_code == 404  # not published yet
    follow(director_client, base + "status/publish/", {})
    public = Client().get(f"/drives/{drive.pk}/")
    assert public.status_code == 200 and "Member 1" in public.content.decode()
    home = Client().get("/").content.decode()
    assert "Tuesday drive" in home


def test_a_refused_drive_form_says_which_setting(director_client: Client) -> None:
    page = follow(director_client, "/drives/new/", FORM | {"trumps": "QQ"})
    assert "trumps" in page and "suit letters" in page
    assert not Drive.objects.exists()


def test_the_drive_csv_neutralises_formulas(director_client: Client, club: Club) -> None:
    names = "=HYPERLINK(1)\n" + "\n".join(f"M{n}" for n in range(3))
    follow(director_client, "/drives/new/", FORM | {"players": names})
    drive = Drive.objects.get()
    base = f"/drives/{drive.pk}/manage/"
    follow(director_client, base + "start/", {"seed": "1", "confirm": "yes"})
    follow(director_client, base + "enter/", {"table": "1", "ns_tricks": "8"})
    csv = director_client.get(base + "export/totals.csv").content.decode()
    assert "'=HYPERLINK(1)" in csv and ",=HYPERLINK" not in csv
