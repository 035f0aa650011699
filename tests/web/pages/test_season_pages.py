"""The seasons' pages and files: the director sets up a season and a competition through the
forms, the public pages show the stored table with public names (never a visitor, never an
unpublished evening), the stale note and "Recompute now", the PDF and the CSV."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from tournaments.kernel import members as register
from tournaments.kernel.members import member_add
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import Competition, Season, SeasonLine
from tournaments.seasons.services import seasons as svc


def line(
    club: Club, play: int, day: dt.date, entrant: str, member: Member | None, pct: int
) -> None:
    SeasonLine.objects.create(
        club=club, format="event", play_id=play, play_name=f"Evening {play}", date=day,
        entrant=entrant, member=member, name=member.name if member else "Vera Visitor",
        rank="1", field_size=8, figures={"percentage": str(pct), "points": str(pct)},
    )  # fmt: skip


@pytest.fixture
def season(club: Club) -> Season:
    alice = member_add(club=club, name="Alice Ash", public_name="initials")
    bob = member_add(club=club, name="Bob Birch")
    line(club, 1, dt.date(2025, 1, 7), "NS1", alice, 60)
    line(club, 1, dt.date(2025, 1, 7), "NS2", bob, 50)
    line(club, 1, dt.date(2025, 1, 7), "NS2", None, 50)
    season = svc.season_create(club=club, name="Winter", starts="2025-01-01", ends="2025-03-31")
    svc.competition_add(season=season, name="Ladder")
    return season


def test_the_director_sets_up_a_season_and_a_competition(
    club: Club, director_client: Client
) -> None:
    response = director_client.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "Spring", "starts": "2025-04-01", "ends": "2025-06-30",
         "handicap_basis": "fixed", "handicap_window": "10", "handicap_min_sessions": "3"},
    )  # fmt: skip
    season = Season.objects.get(name="Spring")
    assert response.status_code == 302 and response.url.endswith(f"/seasons/{season.pk}/")
    response = director_client.post(
        f"/clubs/{club.slug}/seasons/{season.pk}/competitions/new/",
        {"name": "Drives total", "kind": "total", "count_drives": "on", "min_sessions": "0",
         "ties": "share", "evenings": "all"},
    )  # fmt: skip
    assert response.status_code == 302
    competition = Competition.objects.get(name="Drives total")
    assert competition.table is not None and not competition.count_events
    # A refusal is shown on the form, bound to it, and stores nothing.
    response = director_client.post(
        f"/clubs/{club.slug}/seasons/{season.pk}/competitions/new/",
        {"name": "Mixed", "kind": "total", "count_events": "on", "count_drives": "on",
         "min_sessions": "0", "ties": "share", "evenings": "all"},
    )  # fmt: skip
    assert response.status_code == 200
    assert "one kind of points" in response.content.decode()
    assert not Competition.objects.filter(name="Mixed").exists()
    response = director_client.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "", "starts": "2025-04-01", "ends": "2025-06-30", "handicap_basis": "fixed",
         "handicap_window": "0", "handicap_min_sessions": "3"},
    )  # fmt: skip
    page = response.content.decode()
    assert 'aria-invalid="true"' in page and 'aria-describedby="id_handicap_window-error"' in page
    assert 'id="id_handicap_window-error"' in page


def test_the_public_page_shows_public_names_and_never_a_visitor(club: Club, season: Season) -> None:
    page = Client().get(f"/clubs/{club.slug}/season/{season.pk}/").content.decode()
    assert "A. A." in page and "Bob Birch" in page and "60.00" in page
    assert "Alice Ash" not in page and "Vera Visitor" not in page
    assert "as of" in page
    assert f"/clubs/{club.slug}/season/" in Client().get(f"/clubs/{club.slug}/").content.decode()
    listing = Client().get(f"/clubs/{club.slug}/season/").content.decode()
    assert "Winter" in listing
    one = season.competitions.get()
    page = Client().get(f"/clubs/{club.slug}/season/{season.pk}/{one.pk}/").content.decode()
    assert "A. A." in page


def test_a_lost_job_shows_the_director_a_note_and_recompute_now_catches_up(
    club: Club, season: Season, director_client: Client
) -> None:
    line(club, 2, dt.date(2025, 1, 14), "NS1", Member.objects.get(name="Bob Birch"), 70)
    page = director_client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert 'id="season-stale"' in page
    public = director_client.get(f"/clubs/{club.slug}/season/{season.pk}/").content.decode()
    assert "For the director" in public
    assert (
        "For the director"
        not in Client().get(f"/clubs/{club.slug}/season/{season.pk}/").content.decode()
    )
    director_client.post(f"/clubs/{club.slug}/seasons/{season.pk}/", {"action": "recompute"})
    page = director_client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert 'id="season-stale"' not in page and "60.00" in page


def test_the_pdf_and_the_csv_carry_the_tables(club: Club, season: Season) -> None:
    response = Client().get(f"/clubs/{club.slug}/season/{season.pk}/season.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "Winter" in text and "Ladder" in text and "A. A." in text and "60.00" in text
    assert "Alice Ash" not in text
    body = Client().get(f"/clubs/{club.slug}/season/{season.pk}/season.csv").content.decode()
    assert body.startswith("\ufeffseason,competition,place,name")
    assert "Winter,Ladder,1,A. A.,1,1,60.00,best 60.00,yes" in body
    one = season.competitions.get()
    body = (
        Client()
        .get(f"/clubs/{club.slug}/season/{season.pk}/{one.pk}/competition.csv")
        .content.decode()
    )
    assert "Bob Birch" in body


def test_another_clubs_director_gets_404(club: Club, season: Season, director: Any) -> None:
    other = get_user_model().objects.create_user("someone-else", password="pw-for-tests")
    client = Client()
    client.force_login(other)
    assert client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").status_code == 404


def test_a_current_seasons_page_fetches_its_tables_again_and_a_past_one_does_not(
    club: Club, season: Season
) -> None:
    """A season under way refreshes its live part (a publish's recomputed table shows without
    a reload); the part is the tables alone; a season that has ended stays still."""
    url = f"/clubs/{club.slug}/season/{season.pk}/"
    past = Client().get(url).content.decode()
    assert 'data-part="?part=1"' not in past and "drive-live.js" not in past
    today = dt.date.today()
    Season.objects.filter(pk=season.pk).update(starts=today - dt.timedelta(days=30), ends=today)
    current = Client().get(url).content.decode()
    assert 'data-part="?part=1" data-refresh="60"' in current and "drive-live.js" in current
    # A table recomputed meanwhile (here by hand, as a recompute writes it) is in the next
    # fetch of the part.
    Competition.objects.filter(season=season).update(
        table={**season.competitions.get().table, "rows": []}, computed_at=timezone.now()
    )
    part = Client().get(url + "?part=1").content.decode()
    assert "<h1>" not in part and "Ladder" in part
    assert "Bob Birch" not in part and "Bob Birch" in current


def test_the_public_tables_are_kept_until_what_they_show_changes(
    club: Club, season: Season
) -> None:
    """The drawn tables are kept in the cache; a member's new public-name choice, a table
    computed again and a renamed competition each show at the next read."""
    url = f"/clubs/{club.slug}/season/{season.pk}/"
    assert "A. A." in Client().get(url).content.decode()
    alice = Member.objects.get(name="Alice Ash")
    register.member_edit(member=alice, public_name="full")
    page = Client().get(url).content.decode()
    assert "Alice Ash" in page and "A. A." not in page
    one = season.competitions.get()
    svc.competition_edit(competition=one, name="Winter ladder")
    assert "Winter ladder" in Client().get(url).content.decode()
    line(club, 2, dt.date(2025, 1, 14), "NS1", alice, 70)
    svc.competitions_recompute(club_id=club.pk)
    assert "65.00" in Client().get(url).content.decode()  # (60 + 70) / 2


def test_a_change_naming_an_evening_without_its_format_is_refused(
    club: Club, season: Season, director: Any, director_client: Client
) -> None:
    """A PATCH is partial, and DRF made each chosen evening's fields optional with it: an
    evening without its format ended in a server error (found by the schema fuzzing)."""
    competition = Competition.objects.get(season=season)
    url = f"/api/clubs/{club.slug}/seasons/{season.pk}/competitions/{competition.pk}/"
    answer = director_client.patch(
        url, {"plays": [{"play_id": 1}]}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert "format" in str(answer.json())
    assert not Competition.objects.get(pk=competition.pk).plays.exists()
