"""A drive's paper from its director's page: score cards, table cards and the prize sheet as
PDFs on the club's paper, refused with the reason when there is nothing to print yet."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from pypdf import PdfReader

from tests.web.pages.test_drive_pages import FORM, follow
from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state
from tournaments.drives.selectors.public import player_card
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def pdf_text(body: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def printed(client: Client, drive: Drive, what: str) -> bytes:
    answer = client.get(f"/drives/{drive.pk}/manage/print/{what}.pdf")
    assert answer.status_code == 200, answer.content[:300]
    assert answer["Content-Type"] == "application/pdf"
    assert answer["Cache-Control"] == "private, no-store"
    assert "Content-Security-Policy" not in answer  # the browser's PDF viewer is not our page
    return bytes(answer.content)


def new_drive(client: Client, **changes: str) -> Drive:
    follow(client, "/drives/new/", FORM | changes)
    return Drive.objects.get()


def test_cards_print_before_the_start_and_the_prize_sheet_once_a_hand_is_played(
    director_client: Client,
) -> None:
    drive = new_drive(director_client)
    page = director_client.get(f"/drives/{drive.pk}/manage/").content.decode()
    assert "Score cards (PDF)" in page and "Table cards (PDF)" in page
    assert "Prize sheet (PDF)" not in page  # nothing played yet

    cards = pdf_text(printed(director_client, drive, "score-cards"))
    assert all(f"Member {n}" in cards for n in range(1, 9)) and "Tuesday drive" in cards
    tables = pdf_text(printed(director_client, drive, "table-cards"))
    assert "Table 1" in tables and "Table 2" in tables and "Table 3" not in tables

    refused = director_client.get(f"/drives/{drive.pk}/manage/print/prizes.pdf", follow=True)
    assert (
        "enter the first hand&#x27;s results (or every player&#x27;s score card), then print it"
        in refused.content.decode()
    )

    base = f"/drives/{drive.pk}/manage/"
    follow(director_client, base + "start/", {"seed": "5", "confirm": "yes"})
    for table, tricks in ((1, "9"), (2, "5")):
        follow(director_client, base + "enter/", {"table": str(table), "ns_tricks": tricks})
    page = director_client.get(base).content.decode()
    assert "Prize sheet (PDF), as it stands" in page
    provisional = pdf_text(printed(director_client, drive, "prizes"))
    assert "Tuesday drive (provisional)" in provisional and "Member 1" in provisional

    follow(director_client, base + "next/", {"confirm": "yes"})
    for table in (1, 2):
        follow(director_client, base + "enter/", {"table": str(table), "ns_tricks": "7"})
    follow(director_client, base + "status/finish/", {})
    final = pdf_text(printed(director_client, drive, "prizes"))
    assert "provisional" not in final and "Tuesday drive" in final


def test_the_cards_are_laid_out_on_the_clubs_paper(director_client: Client, club: Club) -> None:
    club.paper = Club.Paper.LETTER
    club.save()
    drive = new_drive(director_client)
    page = PdfReader(io.BytesIO(printed(director_client, drive, "table-cards"))).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


def test_too_few_players_is_refused_with_the_reason(director_client: Client) -> None:
    drive = new_drive(director_client, players="Ann\nBob\nCy")
    page = director_client.get(f"/drives/{drive.pk}/manage/").content.decode()
    assert "Score cards (PDF)" not in page
    refused = director_client.get(f"/drives/{drive.pk}/manage/print/score-cards.pdf", follow=True)
    assert "A drive needs at least four players. Fix that" in refused.content.decode()


def test_only_the_clubs_directors_print_and_only_what_there_is(
    director_client: Client, director: Any
) -> None:
    drive = new_drive(director_client)
    path = f"/drives/{drive.pk}/manage/print/score-cards.pdf"
    assert director_client.get(f"/drives/{drive.pk}/manage/print/menu.pdf").status_code == 404
    anonymous = Client().get(path)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    stranger = get_user_model().objects.create_user("other-td", password="pw", is_staff=True)
    club_get_or_create(name="Another Club").directors.add(stranger)
    other = Client()
    other.force_login(stranger)
    assert other.get(path).status_code == 404


def test_scripts_get_the_same_paper_from_the_api(director_client: Client) -> None:
    drive = new_drive(director_client)
    api = f"/api/drives/{drive.pk}/print/"
    cards = director_client.get(api + "score-cards.pdf", {"paper": "letter"})
    assert cards.status_code == 200 and cards["Content-Type"] == "application/pdf"
    assert "attachment" in cards["Content-Disposition"]
    page = PdfReader(io.BytesIO(cards.content)).pages[0]
    assert round(float(page.mediabox.width)) in (612, 792)  # letter, either way up
    assert "Member 8" in pdf_text(cards.content)
    refused = director_client.get(api + "prizes.pdf")
    assert refused.status_code == 400
    assert "enter the first hand's results" in refused.content.decode()
    assert director_client.get(api + "menu.pdf").status_code == 404
    assert Client().get(api + "score-cards.pdf").status_code in (401, 403)


def test_after_play_each_score_card_is_filled_in_to_take_home(director_client: Client) -> None:
    """Printed after the hands are played, each player's card has every hand's tricks, score
    and running total and the final total, as the drive's pages have them; before play the
    same cards are blank for the pencil."""
    drive = new_drive(director_client)
    base = f"/drives/{drive.pk}/manage/"
    follow(director_client, base + "start/", {"seed": "5", "confirm": "yes"})
    blank = pdf_text(printed(director_client, drive, "score-cards"))
    for hand, tricks in ((1, ("9", "5")), (2, ("7", "7"))):
        for table, ns in enumerate(tricks, start=1):
            follow(director_client, base + "enter/", {"table": str(table), "ns_tricks": ns})
        if hand == 1:
            follow(director_client, base + "next/", {"confirm": "yes"})
    follow(director_client, base + "status/finish/", {})
    drive.refresh_from_db()
    state = drive_state(drive)
    filled = printed(director_client, drive, "score-cards")
    text = pdf_text(filled)
    assert text != blank
    for line in state.lines:
        card = player_card(state, line.player)
        assert card is not None and card.line is not None
        rows = [(row.tricks, row.points, row.running) for row in card.rows]
        assert len(rows) == 2 and rows[-1][2] == card.line.total
    # Player 1's card: hand by hand, then the boxed final total.
    first = PdfReader(io.BytesIO(filled)).pages[0].extract_text()
    card = player_card(state, 1)
    assert card is not None and card.line is not None
    assert f"Final {card.line.total}" in " ".join(first.split())
