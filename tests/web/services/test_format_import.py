"""A director imports a drive's or a team tournament's clubwhist JSON through the events' import
(the service, `POST /api/events/import` and the page `events/import/`): exported, deleted and
imported, into the club it came from or by the director of another club into theirs, it comes
back row for row with the same totals, prizes, standings and bracket; a league's weeks come back
into one league. Nobody is linked to an account by a name in the file: the audit keeps each name
as text. A drive or tournament already here (in any club), a damaged file and a backup are
refused, saying why, and change nothing; a file written before the audit kept names still
imports."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import resolve

from tests.support.rows import row_counts
from tests.web.services import test_drive_backup as drive_backup
from tests.web.services import test_team_backup as team_backup
from tournaments.drives.models import Drive, DriveAudit
from tournaments.files import backup
from tournaments.files.exports import file_import
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament, TournamentAudit
from tournaments.teams.services.teams import league_create

CHANNELS = ("service", "api", "page")


@pytest.fixture
def scorer(club: Club) -> User:
    user = User.objects.create_user("scorer", password="pw-for-scorer")
    club.directors.add(user)
    return user


@pytest.fixture
def other_club(db: Any) -> Club:
    return club_get_or_create(name="Other Whist Club")


@pytest.fixture
def other_director(other_club: Club) -> User:
    """Directs the other club only: the file's club is not theirs."""
    user = User.objects.create_user("otd", password="pw-for-otd", is_staff=True)
    other_club.directors.add(user)
    return user


def counts() -> dict[str, int]:
    """Every table of the app, and the users: a refusal changes none of them."""
    every = [*apps.get_app_config("tournaments").get_models(), User]
    return row_counts(every)


def send(how: str, text: str, club: Club, user: User) -> tuple[str, int]:
    """The file imported by `user` into `club` through the service, the API or the page:
    what was made (its kind and id)."""
    if how == "service":
        made = file_import(text=text, club=club, user=user)
        return made.kind, made.item.pk
    client = Client()
    client.force_login(user)
    if how == "api":
        answer = client.post(
            "/api/events/import", {"text": text, "club": club.slug}, content_type="application/json"
        )
        assert answer.status_code == 201, answer.content
        body = answer.json()
        assert body[body["kind"]] == body["id"]
        return body["kind"], body["id"]
    upload = SimpleUploadedFile("night.clubwhist.json", text.encode())
    page = client.post("/events/import/", {"file": upload, "club": club.pk})
    assert page.status_code == 302, page.content.decode()[:2000]
    where = resolve(page["Location"])
    shown = client.get(page["Location"]).content.decode()
    assert "Imported whole" in shown
    return where.url_name.split("-")[0], int(where.kwargs["pk"])


def refused(how: str, text: str, club: Club, user: User, match: str) -> None:
    """The file refused through the service, the API or the page, the reason said."""
    if how == "service":
        with pytest.raises(ValueError, match=re.escape(match)):
            file_import(text=text, club=club, user=user)
        return
    client = Client()
    client.force_login(user)
    if how == "api":
        answer = client.post(
            "/api/events/import", {"text": text, "club": club.slug}, content_type="application/json"
        )
        assert answer.status_code == 400, answer.content
        assert match in answer.json()["detail"], answer.json()
        return
    upload = SimpleUploadedFile("night.clubwhist.json", text.encode())
    page = client.post("/events/import/", {"file": upload, "club": club.pk})
    assert page.status_code == 200
    assert match in page.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


def target(into: str, club: Club, director: User, other: Club, otd: User) -> tuple[Club, User]:
    return (club, director) if into == "same" else (other, otd)


# -- drives ---------------------------------------------------------------------------------


def drive_as_imported(rows: dict[str, Any], club: Club, importer: User) -> dict[str, Any]:
    """A drive's rows as a director's import writes them: into their club, theirs, nobody's
    account linked (each audit line keeps its name as text)."""
    out = copy.deepcopy(rows)
    for row in out["drive"]:
        row.update(club_id=club.slug, created_by_id=importer.username)
    for row in out["DriveResult"]:
        row["entered_by_id"] = None
    for row in out["DriveAudit"]:
        row["user_id"] = None
    return out


@pytest.mark.parametrize("into", ["same", "other"])
@pytest.mark.parametrize("how", CHANNELS)
@pytest.mark.django_db
def test_drives_of_every_state_come_back_whole_through_the_import(
    how: str,
    into: str,
    club: Club,
    director: User,
    scorer: User,
    other_club: Club,
    other_director: User,
) -> None:
    drives = [
        drive_backup.draft_drive(club, director),
        drive_backup.running_drive(club, director, scorer),
        drive_backup.finished_drive(club, director),
        drive_backup.cards_drive(club, director),
    ]
    texts = [backup.dumps(backup.drive_document(d)) for d in drives]
    before = [drive_backup.drive_rows(d.pk, ids=False) for d in drives]
    shown = [drive_backup.figures(d) for d in drives]
    audited = [r for rows in before for r in rows["DriveAudit"] if r["user_id"]]
    assert audited and all(r["user_name"] == r["user_id"] for r in audited)  # writers fill it
    Drive.objects.all().delete()
    dest, importer = target(into, club, director, other_club, other_director)

    for text, rows, figures in zip(texts, before, shown, strict=True):
        kind, pk = send(how, text, dest, importer)

        assert kind == "drive"
        drive = Drive.objects.get(pk=pk)
        assert drive.club == dest and drive.created_by == importer
        after = drive_backup.drive_rows(pk, ids=False)
        made = [r for r in after["DriveAudit"] if r["action"] == "drive imported"]
        after["DriveAudit"] = [r for r in after["DriveAudit"] if r["action"] != "drive imported"]
        assert after == drive_as_imported(rows, dest, importer)
        assert drive_backup.figures(drive) == figures
        assert len(made) == 1 and made[0]["user_id"] == importer.username
        names = {r["user_name"] for r in rows["DriveAudit"] if r["user_name"]}
        assert made[0]["after"].get("people named", "") == ", ".join(sorted(names | {"td"}))
        lines = DriveAudit.objects.filter(drive=drive).exclude(action="drive imported")
        assert not lines.filter(user__isnull=False).exists()
        assert {a.who for a in lines if a.user_name} == {f"{n} (as recorded)" for n in names}
    # No account was made or given a club by the files.
    assert sorted(User.objects.values_list("username", flat=True)) == ["otd", "scorer", "td"]
    assert list(other_club.directors.all()) == [other_director]


@pytest.mark.django_db
def test_a_drive_whose_ids_are_taken_comes_back_under_new_ones(
    club: Club, director: User, other_club: Club, other_director: User
) -> None:
    drive = drive_backup.finished_drive(club, director)
    document = backup.drive_document(drive)
    document["drive"]["name"] = "The same night, elsewhere"
    for link in document["table_access"]:
        link["token"] = link["token"][::-1]

    kind, pk = send("service", backup.dumps(document), other_club, other_director)

    assert kind == "drive" and pk != drive.pk
    assert drive_backup.figures(Drive.objects.get(pk=pk)) == drive_backup.figures(drive)
    assert Drive.objects.get(pk=drive.pk).club == club  # the original is untouched


# -- tournaments and leagues ----------------------------------------------------------------


def teams_as_imported(rows: dict[str, Any], club: Club, importer: User) -> dict[str, Any]:
    out = copy.deepcopy(rows)
    for row in out["League"]:
        if row["name"] == "Winter league":
            row.update(club_id=club.slug, created_by_id=importer.username)
    for row in out["Tournament"]:
        row.update(club_id=club.slug, created_by_id=importer.username)
    for row in out["TournamentAudit"]:
        row["user_id"] = None
    return out


def _sorted(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {
        key: sorted(value, key=lambda r: json.dumps(r, sort_keys=True, default=str))
        for key, value in rows.items()
    }


@pytest.mark.parametrize("into", ["same", "other"])
@pytest.mark.parametrize("how", CHANNELS)
@pytest.mark.django_db
def test_a_league_with_its_weeks_and_a_tournament_come_back_whole_through_the_import(
    how: str,
    into: str,
    club: Club,
    director: User,
    other_club: Club,
    other_director: User,
) -> None:
    league = league_create(club=club, name="Winter league", user=director)
    made = [
        team_backup.week_one(club, director, league),
        team_backup.week_two(club, director, league),
        team_backup.services.tournament_create(
            club=club,
            name="Friday pairs",
            settings={"rotation": "swiss", "rounds": 4},
            teams=team_backup.TEAMS[:3],
            date=dt.date(2026, 12, 11),
            user=director,
        ),
    ]
    texts = [backup.dumps(backup.tournament_document(t)) for t in made]
    before = team_backup.team_rows(ids=False)
    shown = team_backup.figures(made)
    audited = [r for r in before["TournamentAudit"] if r["user_id"]]
    assert audited and all(r["user_name"] == r["user_id"] for r in audited)
    Tournament.objects.all().delete()
    League.objects.all().delete()
    dest, importer = target(into, club, director, other_club, other_director)

    answers = [send(how, text, dest, importer) for text in texts]

    assert [kind for kind, _ in answers] == ["tournament"] * 3
    after = team_backup.team_rows(ids=False)
    added = [r for r in after["TournamentAudit"] if r["action"] == "tournament imported"]
    after["TournamentAudit"] = [
        r for r in after["TournamentAudit"] if r["action"] != "tournament imported"
    ]
    assert _sorted(after) == _sorted(teams_as_imported(before, dest, importer))
    assert team_backup.figures(made) == shown  # standings, brackets, tablets, the league
    assert len(added) == 3 and {r["user_id"] for r in added} == {importer.username}
    winter = League.objects.get(name="Winter league")
    assert winter.club == dest and sorted(winter.weeks.values_list("week", flat=True)) == [1, 2]
    for _, pk in answers:
        lines = TournamentAudit.objects.filter(tournament_id=pk)
        assert not lines.exclude(action="tournament imported").filter(user__isnull=False).exists()
    assert sorted(User.objects.values_list("username", flat=True)) == ["otd", "td"]


@pytest.mark.django_db
def test_a_week_the_chosen_clubs_league_already_has_is_refused(
    club: Club, director: User, other_club: Club, other_director: User
) -> None:
    league = league_create(club=club, name="Winter league", user=director)
    week = team_backup.week_one(club, director, league)
    text = backup.dumps(backup.tournament_document(week))
    Tournament.objects.filter(pk=week.pk).delete()
    theirs = league_create(club=other_club, name="Winter league", user=other_director)
    team_backup.services.tournament_create(
        club=other_club,
        name="Their week 1",
        settings={"rotation": "swiss", "rounds": 4},
        teams=team_backup.TEAMS[:3],
        league=theirs,
        user=other_director,
    )
    before = counts()
    refused("api", text, other_club, other_director, "league 'Winter league' here already has")
    assert counts() == before
    kind, _ = send("service", text, club, director)  # its own club's league has no week 1 now
    assert kind == "tournament"


# -- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize("how", CHANNELS)
@pytest.mark.django_db
def test_another_clubs_drive_or_tournament_already_here_is_refused_naming_it(
    how: str, club: Club, director: User, other_club: Club, other_director: User
) -> None:
    drive = drive_backup.finished_drive(club, director)
    tournament = team_backup.week_one(
        club, director, league_create(club=club, name="Winter league", user=director)
    )
    drive_text = backup.dumps(backup.drive_document(drive))
    tournament_text = backup.dumps(backup.tournament_document(tournament))
    before = counts()

    refused(how, drive_text, other_club, other_director, f"(drive {drive.pk}, club")
    refused(how, tournament_text, other_club, other_director, f"(tournament {tournament.pk}, club")

    assert counts() == before


def _damaged_drive(document: dict[str, Any]) -> None:
    document["results"][0]["entry"] = {"ns_tricks": 14}


def _damaged_tournament(document: dict[str, Any]) -> None:
    document["teams"][1]["number"] = document["teams"][0]["number"]


@pytest.mark.parametrize("how", CHANNELS)
@pytest.mark.django_db
def test_damaged_files_are_refused_saying_what_is_wrong_and_change_nothing(
    how: str, club: Club, director: User, other_club: Club, other_director: User
) -> None:
    drive = drive_backup.finished_drive(club, director)
    week = team_backup.week_one(
        club, director, league_create(club=club, name="Winter league", user=director)
    )
    drive_doc = json.loads(backup.dumps(backup.drive_document(drive)))
    week_doc = json.loads(backup.dumps(backup.tournament_document(week)))
    whole = backup.dumps(backup.backup_document())
    Drive.objects.all().delete()
    Tournament.objects.all().delete()
    League.objects.all().delete()
    before = counts()
    bad_drive = copy.deepcopy(drive_doc)
    _damaged_drive(bad_drive)
    bad_week = copy.deepcopy(week_doc)
    _damaged_tournament(bad_week)
    unknown = {**drive_doc, "format": "clubwhist-season"}
    newer = {**drive_doc, "version": 99}
    audit_extra = copy.deepcopy(week_doc)
    audit_extra["audit"][0]["account"] = "root"
    cases = [
        (backup.dumps(bad_drive), "The result of hand 1 at table 1"),
        (backup.dumps(bad_week), "The tournament's teams are numbered"),
        (backup.dumps(drive_doc)[:-40], "cut short"),
        (backup.dumps(unknown), "'clubwhist-season' document, which this clubwhist does not"),
        (backup.dumps(newer), "version 99"),
        (backup.dumps(audit_extra), "'account'"),
        ('{"club": {}}', 'no "format" marker'),
        (whole, "backup of a whole installation"),
    ]
    for text, match in cases:
        refused(how, text, other_club, other_director, match)
        assert counts() == before, match


# -- older files ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_exports_written_before_the_audit_kept_names_still_import(
    club: Club, director: User, scorer: User, other_club: Club, other_director: User
) -> None:
    drive = drive_backup.running_drive(club, director, scorer)
    week = team_backup.week_one(
        club, director, league_create(club=club, name="Winter league", user=director)
    )
    drive_doc = backup.drive_document(drive)
    week_doc = backup.tournament_document(week)
    for doc, rows, links in (
        (drive_doc, "players", ("member",)),
        (week_doc, "teams", ("member_one", "member_two")),
    ):
        # As the documents were before migration 0015: version 1, no links to members.
        assert doc["version"] == 2
        doc["version"] = 1
        for item in doc[rows]:
            for link in links:
                del item[link]
        for line in doc["audit"]:
            del line["user_name"]  # as the documents were before migration 0015
    shown = drive_backup.figures(drive)
    Drive.objects.all().delete()
    Tournament.objects.all().delete()
    League.objects.all().delete()

    _, drive_pk = send("page", backup.dumps(drive_doc), other_club, other_director)
    _, week_pk = send("api", backup.dumps(week_doc), other_club, other_director)

    assert drive_backup.figures(Drive.objects.get(pk=drive_pk)) == shown
    for model, key in ((DriveAudit, "drive_id"), (TournamentAudit, "tournament_id")):
        lines = model._default_manager.filter(**{key: drive_pk if model is DriveAudit else week_pk})
        named = {a.user_name for a in lines if a.user_id is None}
        assert "td" in named and not lines.filter(user=director).exists()
    # And `manage.py restore` still links them, as it always did.
    Drive.objects.all().delete()
    report = backup.restore(json.loads(backup.dumps(drive_doc)))
    restored = report.of("drives")[0].drive
    assert DriveAudit.objects.filter(drive=restored, user=director).exists()
