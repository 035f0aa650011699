"""Whist drives in the backup and in their own JSON: a draft with its players, a drive running
mid-hand (results confirmed, one entered at a tablet and waiting, corrections, a replaced tablet
link, the audit) and a finished, published one are written, deleted and restored with every row
as it was and the same totals and prizes; restoring where the club or the drive is already here
follows the events' rules; a backup from before drives were in the format still restores; bad
drive documents are refused by name and change nothing; the drive's JSON is its directors'
download, never a public one."""

from __future__ import annotations

import copy
import datetime as dt
import json
import random
import secrets
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import F
from django.test import Client
from django.utils import timezone

from tests.web.conftest import make_event
from tests.web.services.test_backup import played_event, rows_of
from tournaments.drives.models import (
    Drive,
    DriveAudit,
    DrivePlayer,
    DriveResult,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.drives.selectors.drives import drive_state
from tournaments.drives.services import cards as drive_cards
from tournaments.drives.services import drives as services
from tournaments.events.models import Event, Result
from tournaments.files import backup
from tournaments.files.exports import event_import
from tournaments.kernel.models import Club

SETTINGS: dict[str, Any] = {"hands": 4, "half_time": 2, "scoring": "tricks"}
EIGHT = ["Ann Archer", "Bob Bryce", "Zoë Ångström", "Dan O'Neill", "Eve & Co", "Fay", "Gus", "Hal"]
DRIVE_MODELS = (DrivePlayer, DriveSeating, DriveResult, DriveTableAccess, DriveAudit)


# -- drives in every state ------------------------------------------------------------------


def _replace_link(drive: Drive, table: int) -> None:
    """A tablet link replaced, as a director does for a lost tablet: the old one stays,
    revoked; every other table keeps (or gets) a live one."""
    now = timezone.now()
    DriveTableAccess.objects.filter(drive=drive, table=table, revoked_at__isnull=True).update(
        revoked_at=now
    )
    if not DriveTableAccess.objects.filter(drive=drive, table=table).exists():
        DriveTableAccess.objects.create(
            drive=drive,
            table=table,
            token=secrets.token_urlsafe(16),
            created_at=now - dt.timedelta(hours=1),
            revoked_at=now,
        )
    DriveTableAccess.objects.create(drive=drive, table=table, token=secrets.token_urlsafe(16))
    for other in (1, 2):
        if not DriveTableAccess.objects.filter(
            drive=drive, table=other, revoked_at__isnull=True
        ).exists():
            DriveTableAccess.objects.create(
                drive=drive, table=other, token=secrets.token_urlsafe(16)
            )


def draft_drive(club: Club, director: User) -> Drive:
    """A draft: players with names from everywhere, one taken off, one renamed."""
    drive = services.drive_create(
        club=club,
        name="Draft drive",
        settings=SETTINGS | {"roles": ["Lady", "Gent"]},
        players=[*EIGHT[:5], "Leaving Early"],
        date=dt.date(2026, 11, 20),
        user=director,
    )
    services.player_remove(drive=drive, number=6, user=director)
    services.player_rename(drive=drive, number=2, name="Bob Bryce-Smith", user=director)
    return Drive.objects.get(pk=drive.pk)


def running_drive(club: Club, director: User, scorer: User) -> Drive:
    """At hand 3 of 4, half-time passed: hands 1 and 2 complete (hand 2 entered by another
    director, then corrected before and after the players moved), hand 3's table 1 confirmed at
    its tablet and table 2 entered at its tablet and waiting for East-West; table 1's link
    replaced, live totals on, moving on by hand only."""
    drive = services.drive_create(
        club=club,
        name="Running drive",
        settings=SETTINGS,
        players=EIGHT,
        date=dt.date(2026, 11, 21),
        user=director,
    )
    services.drive_start(drive=drive, seed=7, user=director)
    for table, tricks in ((1, 9), (2, 4)):
        services.result_enter(drive=drive, table=table, entry={"ns_tricks": tricks}, user=director)
    services.hand_next(drive=drive, hand=1, user=director)
    for table, tricks in ((1, 7), (2, 10)):
        services.result_enter(drive=drive, table=table, entry={"ns_tricks": tricks}, user=scorer)
    services.hand_next(drive=drive, hand=2, user=director)
    services.result_correct(
        drive=drive, hand=2, table=1, entry={"ns_tricks": 3}, reason="tally misread", user=scorer
    )
    services.result_correct(drive=drive, hand=1, table=2, entry={"ns_tricks": 5}, user=director)
    drive = Drive.objects.get(pk=drive.pk)
    assert drive.hand == 3
    confirmed = services.result_enter(drive=drive, table=1, entry={"ns_tricks": 8})
    DriveResult.objects.filter(pk=confirmed.pk).update(
        source="tablet",
        confirmed_at=confirmed.entered_at + dt.timedelta(seconds=40),
        status=DriveResult.Status.CONFIRMED,
    )
    DriveResult.objects.create(
        drive=drive,
        hand=3,
        table=2,
        entry={"ns_tricks": 6},
        status=DriveResult.Status.ENTERED,
        source="tablet",
    )
    _replace_link(drive, 1)
    services.drive_live(drive=drive, live=True, user=director)
    Drive.objects.filter(pk=drive.pk).update(moves_on=False, version=F("version") + 5)
    return Drive.objects.get(pk=drive.pk)


def finished_drive(club: Club, director: User, *, publish: bool = True) -> Drive:
    """Every hand played, finished and published."""
    drive = services.drive_create(
        club=club,
        name="Finished drive",
        settings=SETTINGS,
        players=EIGHT,
        date=dt.date(2026, 11, 22),
        user=director,
    )
    services.drive_start(drive=drive, seed=11, user=director)
    rng = random.Random(3)
    for hand in range(1, 5):
        for table in (1, 2):
            entry = {"ns_tricks": rng.randint(0, 13)}
            services.result_enter(drive=drive, table=table, entry=entry, user=director)
        if hand < 4:
            services.hand_next(drive=drive, hand=hand, user=director)
    services.drive_finish(drive=drive, user=director)
    if publish:
        services.drive_publish(drive=drive, user=director)
    return Drive.objects.get(pk=drive.pk)


def cards_drive(club: Club, director: User) -> Drive:
    """Played on paper: every player's totals typed from their score card, then finished."""
    drive = services.drive_create(
        club=club,
        name="Card drive",
        settings={"hands": 4, "half_time": 2},
        players=[f"Carder {n}" for n in range(1, 9)],
        user=director,
    )
    services.drive_start(drive=drive, seed=31, user=director)
    typed = {p: {"total": str(40 + p * 3), "first_half": str(20 + p)} for p in range(1, 9)}
    typed[5]["total"] = "52.5"
    drive_cards.cards_enter(drive=drive, cards=typed, user=director)
    services.drive_finish(drive=drive, user=director)
    return Drive.objects.get(pk=drive.pk)


@pytest.fixture
def scorer(club: Club) -> User:
    user = User.objects.create_user("scorer", password="pw-for-scorer")
    club.directors.add(user)
    return user


@pytest.fixture
def drives(club: Club, director: User, scorer: User) -> list[Drive]:
    return [
        draft_drive(club, director),
        running_drive(club, director, scorer),
        finished_drive(club, director),
        cards_drive(club, director),
    ]


# -- reading them back ----------------------------------------------------------------------


def drive_rows(drive_id: int, *, ids: bool = True) -> dict[str, Any]:
    """Every row of the drive, field by field, users by username and the club by its web
    address; without `ids`, every id (and the drive's, in its rows) left out."""
    names = dict(User.objects.values_list("pk", "username"))
    slugs = dict(Club.objects.values_list("pk", "slug"))

    def plain(row: dict[str, Any]) -> dict[str, Any]:
        for key in ("created_by_id", "entered_by_id", "user_id"):
            if row.get(key) is not None:
                row[key] = names[row[key]]
        if "club_id" in row:
            row["club_id"] = slugs[row["club_id"]]
        return {k: v for k, v in row.items() if ids or k not in ("id", "drive_id")}

    out = {"drive": [plain(r) for r in Drive.objects.filter(pk=drive_id).values()]}
    for model in DRIVE_MODELS:
        rows = model._default_manager.filter(drive_id=drive_id).order_by("pk").values()
        out[model.__name__] = [plain(r) for r in rows]
    return out


def figures(drive: Drive) -> tuple[Any, ...]:
    """What the drive's pages show: each hand played, the totals and the prizes."""
    state = drive_state(Drive.objects.get(pk=drive.pk))
    return state.records, state.lines, state.awards, state.problem, state.names


def delete_everything() -> None:
    Drive.objects.all().delete()
    Result.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()


def counts() -> dict[str, int]:
    return {
        m.__name__: m._default_manager.count() for m in (User, Club, Event, Drive, *DRIVE_MODELS)
    }


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# -- the document ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_drive_document_has_every_field_it_says_it_carries(drives: list[Drive]) -> None:
    doc = backup.drive_document(drives[1])
    assert doc["format"] == "clubwhist-drive" and doc["version"] == 2
    assert set(backup.FIELDS[Drive]) == set(doc["drive"])
    for key, model in backup.DRIVE_CHILDREN:
        assert doc[key], key
        for row in doc[key]:
            assert set(backup.FIELDS[model]) == set(row), model.__name__
    assert {r["status"] for r in doc["results"]} == {"confirmed", "entered"}
    assert {r["entered_by"] for r in doc["results"]} == {"td", "scorer", None}
    assert any(link["revoked_at"] for link in doc["table_access"])
    for model in (Drive, *DRIVE_MODELS):
        assert model not in backup.OMITTED_MODELS


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_drives_of_every_state_restore_into_an_empty_database_row_for_row(
    drives: list[Drive], tmp_path: Path
) -> None:
    before = {d.pk: drive_rows(d.pk) for d in drives}
    shown = {d.pk: figures(d) for d in drives}
    assert all(shown[d.pk][2] for d in drives[1:])  # prizes (provisional, final, by cards)
    statuses = {r["status"] for r in before[drives[1].pk]["DriveResult"]}
    assert statuses == {"confirmed", "entered"}
    out = tmp_path / "night.json.gz"
    said = run("backup", "-o", str(out))
    assert "4 drives" in said
    delete_everything()

    said = run("restore", str(out))

    assert said.count("Restored drive") == 4
    assert {d.pk: drive_rows(d.pk) for d in drives} == before  # ids kept too
    assert {d.pk: figures(d) for d in drives} == shown
    for username, password in (("td", "pw-for-tests"), ("scorer", "pw-for-scorer")):
        assert User.objects.get(username=username).check_password(password)
    # Ids were kept, and new rows still get fresh ones (PostgreSQL's sequences moved on).
    highest = {m: m._default_manager.order_by("-pk")[0].pk for m in DRIVE_MODELS}
    later = finished_drive(Club.objects.get(), User.objects.get(username="td"), publish=False)
    for model, pk in highest.items():
        assert model._default_manager.filter(drive=later).order_by("pk")[0].pk > pk
    assert later.pk > max(d.pk for d in drives)


@pytest.mark.django_db
def test_a_restored_drive_carries_on_where_it_stopped(drives: list[Drive]) -> None:
    running = drives[1]
    text = backup.dumps(backup.backup_document())
    delete_everything()
    backup.restore(backup.loads(text))

    restored = Drive.objects.get(pk=running.pk)
    waiting = DriveResult.objects.get(drive=restored, hand=3, table=2)
    assert (waiting.status, waiting.source, waiting.confirmed_at) == ("entered", "tablet", None)
    live = DriveTableAccess.objects.filter(drive=restored, revoked_at__isnull=True)
    assert sorted(live.values_list("table", flat=True)) == [1, 2]
    # The director puts the waiting result right and the evening goes on to its end.
    DriveResult.objects.filter(pk=waiting.pk).update(status=DriveResult.Status.CONFIRMED)
    services.hand_next(drive=restored)
    for table in (1, 2):
        services.result_enter(drive=restored, table=table, entry={"ns_tricks": 7})
    services.drive_finish(drive=restored)
    assert len(drive_state(Drive.objects.get(pk=restored.pk)).records) == 4


@pytest.mark.django_db
def test_a_backup_into_a_database_that_holds_the_club_is_refused_and_changes_nothing(
    drives: list[Drive],
) -> None:
    document = json.loads(backup.dumps(backup.backup_document()))
    for drive in drives:
        Drive.objects.filter(pk=drive.pk).delete()
    before = counts()
    with pytest.raises(backup.RestoreRefused, match="already has what the backup would restore"):
        backup.restore(document)
    assert counts() == before


@pytest.mark.django_db
def test_a_drive_document_restores_into_the_club_already_here(
    club: Club, drives: list[Drive]
) -> None:
    for drive in drives:
        document = json.loads(backup.dumps(backup.drive_document(drive)))
        before, shown = drive_rows(drive.pk), figures(drive)
        Drive.objects.filter(pk=drive.pk).delete()

        report = backup.restore(document)

        assert [d.drive.pk for d in report.of("drives")] == [drive.pk] and not report.of("clubs")
        assert Drive.objects.get(pk=drive.pk).club == club
        assert drive_rows(drive.pk) == before
        assert figures(drive) == shown
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_a_drive_whose_ids_are_taken_comes_back_under_new_ids_row_for_row(
    club: Club, director: User, drives: list[Drive]
) -> None:
    running = drives[1]
    document = json.loads(backup.dumps(backup.drive_document(running)))
    before, shown = drive_rows(running.pk, ids=False), figures(running)
    Drive.objects.filter(pk=running.pk).delete()
    taker = services.drive_create(club=club, name="Taker", settings=SETTINGS, players=EIGHT)
    document["drive"]["id"] = taker.pk

    restored = backup.restore(document).of("drives")[0]

    assert restored.drive.pk not in (running.pk, taker.pk)
    assert "is taken here" in restored.describe()
    assert drive_rows(restored.drive.pk, ids=False) == before
    assert figures(restored.drive) == shown


@pytest.mark.django_db
def test_a_drive_already_here_is_refused_naming_it(drives: list[Drive]) -> None:
    running = drives[1]
    document = json.loads(backup.dumps(backup.drive_document(running)))
    before = counts()
    with pytest.raises(
        backup.RestoreRefused,
        match=f"already holds the drive 'Running drive' .* \\(drive {running.pk}",
    ):
        backup.restore(document)
    copied = copy.deepcopy(document)
    copied["drive"]["name"] = "A copy"
    with pytest.raises(
        backup.RestoreRefused,
        match=r"tablet link of the drive 'A copy' .* already used here by drive",
    ):
        backup.restore(copied)
    assert counts() == before


@pytest.mark.django_db
def test_a_dry_run_of_a_drive_checks_everything_and_changes_nothing(drives: list[Drive]) -> None:
    document = json.loads(backup.dumps(backup.drive_document(drives[2])))
    delete_everything()
    empty = counts()
    report = backup.restore(document, dry_run=True)
    assert report.dry_run and "Would restore drive" in " ".join(report.lines())
    assert report.users_inactive == ["scorer", "td"]  # a drive's JSON carries no accounts
    assert counts() == empty


@pytest.mark.django_db
def test_a_backup_written_before_drives_were_in_it_still_restores(
    club: Club, director: User
) -> None:
    event = played_event(club, director, "classic", "mitchell", "finished")
    before = rows_of(event.pk)
    old = json.loads(backup.dumps(backup.backup_document()))
    # What clubwhist wrote before drives were backed up: version 1, no "drives".
    old["version"] = 1
    del old["drives"]
    delete_everything()

    report = backup.restore(copy.deepcopy(old))

    assert [e.event.pk for e in report.of("events")] == [event.pk] and not report.of("drives")
    assert rows_of(event.pk) == before
    # A version 1 backup listing drives was edited: refused, not dropped without a word.
    delete_everything()
    old["drives"] = []
    with pytest.raises(backup.RestoreRefused, match="version 1 of the format, which has no drives"):
        backup.restore(old)


# -- choosing what to back up ---------------------------------------------------------------


@pytest.mark.django_db
def test_backup_of_a_club_takes_its_drives_and_chosen_events_take_none(
    club: Club, director: User, drives: list[Drive], tmp_path: Path
) -> None:
    event = make_event(club, user=director)
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    elsewhere = services.drive_create(club=other, name="Theirs", settings=SETTINGS, players=EIGHT)
    out = tmp_path / "b.json"

    run("backup", "-o", str(out), "--club", club.slug)
    data = json.loads(out.read_text())
    assert [d["drive"]["id"] for d in data["drives"]] == [d.pk for d in drives]
    assert sorted(u["username"] for u in data["users"]) == ["scorer", "td"]

    run("backup", "-o", str(out), "--event", str(event.pk))
    assert json.loads(out.read_text())["drives"] == []

    said = run("backup", "-o", str(out), "--drive", str(elsewhere.pk))
    data = json.loads(out.read_text())
    assert "1 drive," in said and data["events"] == []
    assert [d["drive"]["id"] for d in data["drives"]] == [elsewhere.pk]
    assert [c["slug"] for c in data["clubs"]] == ["elsewhere"]
    with pytest.raises(CommandError, match="no drive 999"):
        run("backup", "--drive", "999")


# -- refusals -------------------------------------------------------------------------------


def _refused(document: Any, match: str) -> None:
    before = counts()
    with pytest.raises(backup.RestoreRefused, match=match):
        backup.restore(document)
    assert counts() == before


@pytest.mark.django_db
def test_bad_drive_documents_are_refused_by_name_and_change_nothing(drives: list[Drive]) -> None:
    good = json.loads(backup.dumps(backup.drive_document(drives[1])))
    finished = json.loads(backup.dumps(backup.drive_document(drives[2])))
    draft = json.loads(backup.dumps(backup.drive_document(drives[0])))
    delete_everything()

    def edited(source: dict[str, Any], change: Any) -> dict[str, Any]:
        doc = copy.deepcopy(source)
        change(doc)
        return doc

    _refused(edited(good, lambda d: d.update(version=99)), "reads version 1, 2 only")
    _refused(
        edited(good, lambda d: d["drive"].update(colour="blue")),
        "'colour', which version 2 of the format does not have",
    )
    _refused(
        edited(good, lambda d: d["results"][0].update(entry={"ns_tricks": 14})),
        "The result of hand 1 at table 1: the game refuses it",
    )
    _refused(
        edited(good, lambda d: d["results"][0].update(status="lost")),
        "status: Value 'lost' is not a valid choice",
    )
    _refused(
        edited(good, lambda d: d["results"][0].update(table=3)),
        "that hand's tables are 1 to 2",
    )
    _refused(
        edited(finished, lambda d: d["results"].pop()),
        "published at hand 4, but only 3 hand\\(s\\) have every table's result",
    )
    _refused(
        edited(good, lambda d: d["seatings"].pop()),
        "hands 1-3 are seated; the document seats hands \\[1, 2\\]",
    )

    def twice(doc: dict[str, Any]) -> None:
        doc["seatings"][0]["seating"]["tables"][0][1] = doc["seatings"][0]["seating"]["tables"][0][
            0
        ]

    _refused(edited(good, twice), "The seating of hand 1 is not one the drive can have: .* twice")
    _refused(
        edited(good, lambda d: d["players"][0].update(number=9)),
        "numbers them from 1 without a gap",
    )
    _refused(
        edited(good, lambda d: d["drive"]["settings"].update(hands=0)),
        "its settings are refused: hands",
    )
    _refused(
        edited(good, lambda d: d["table_access"][0].update(token="no spaces here")),
        "is not a tablet token",
    )
    _refused(
        edited(draft, lambda d: d["drive"].update(hand=1)),
        "The drive is a draft, yet it has a hand under way",
    )
    _refused(
        edited(good, lambda d: d["audit"][0].update(user=7)),
        "The drive's audit entry 1: the user should be a username, not 7",
    )
    # In a backup, the refusal names the drive's place in it.
    whole = {
        "format": "clubwhist-backup",
        "version": 2,
        "created_at": "2026-11-23T21:40:00+00:00",
        "users": [],
        "clubs": [good["club"]],
        "events": [],
        "drives": [edited(good, lambda d: d["results"][0].update(entry={"ns_tricks": 14}))],
    }
    _refused(whole, "Drive 1 of the backup \\('Running drive'\\): The result of hand 1")
    assert counts() == dict.fromkeys(counts(), 0)


@pytest.mark.django_db
def test_a_drive_json_given_to_the_events_own_reader_is_refused_pointing_to_the_import(
    club: Club, drives: list[Drive]
) -> None:
    text = backup.dumps(backup.drive_document(drives[2]))
    before = counts()
    with pytest.raises(
        backup.RestoreRefused, match="whist drive's JSON, not an event's: the import page"
    ):
        event_import(text=text, club=club)
    assert counts() == before


# -- downloads on the web -------------------------------------------------------------------


@pytest.mark.django_db
def test_the_drives_directors_download_its_json_and_nobody_else_can(
    club: Club, director: User, drives: list[Drive]
) -> None:
    running = drives[1]
    client = Client()
    client.force_login(director)
    page = client.get(f"/drives/{running.pk}/manage/export/json/")
    assert page.status_code == 200 and page["Content-Type"] == "application/json"
    assert page["Cache-Control"] == "private, no-store"
    assert 'filename="running-drive-2026-11-21.drive.clubwhist.json"' in page["Content-Disposition"]
    document = json.loads(page.content)
    assert document["format"] == "clubwhist-drive" and document["drive"]["id"] == running.pk
    tokens = set(DriveTableAccess.objects.filter(drive=running).values_list("token", flat=True))
    assert {link["token"] for link in document["table_access"]} == tokens
    api = client.get(f"/api/drives/{running.pk}/export/json")
    assert api.status_code == 200 and json.loads(api.content)["results"] == document["results"]

    stranger = User.objects.create_user("other-td")
    Club.objects.create(name="Other", slug="other").directors.add(stranger)
    other = Client()
    other.force_login(stranger)
    published = drives[2]
    for path in (
        f"/drives/{published.pk}/manage/export/json/",
        f"/api/drives/{published.pk}/export/json",
    ):
        assert other.get(path).status_code == 404
    assert Client().get(f"/drives/{published.pk}/manage/export/json/").status_code == 302
    assert Client().get(f"/api/drives/{published.pk}/export/json").status_code in (401, 403)
    # The public drive page, open to all once published, never links the JSON.
    public = Client().get(f"/drives/{published.pk}/")
    assert public.status_code == 200 and "export/json" not in public.content.decode()
