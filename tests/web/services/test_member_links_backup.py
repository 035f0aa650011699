"""The links of every format's names to the club's member register in backups and documents: a
whole backup carries each link as the member's id in the backup's register and its restore
follows the members (new ids included); an event's, a drive's or a tournament's JSON on its own
names each member and links again by name in the club it is imported into; an older backup
restores with no link; a link to a member the register does not list refuses the backup and
changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import models

from tests.support.rows import row_counts
from tests.web.services import test_drive_backup as drive_backup
from tests.web.services import test_team_backup as team_backup
from tests.web.services.test_backup import played_event
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.events.models import Event, Pair, Result
from tournaments.files import backup
from tournaments.files.exports import file_import
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.member_links import names_link
from tournaments.kernel.models import Club, Member
from tournaments.teams.models import League, Tournament, TournamentTeam
from tournaments.teams.services.teams import league_create

LINKED: tuple[type[models.Model], ...] = (Pair, DrivePlayer, TournamentTeam)
#: Where each format's document lists its rows that link: (the document's key, how to reach
#: the rows), by the backup's key.
ROWS = {
    "events": lambda doc: [p for s in doc["sections"] for p in s["pairs"]],
    "drives": lambda doc: doc["players"],
    "tournaments": lambda doc: doc["teams"],
}


@pytest.fixture
def scorer(club: Club) -> User:
    user = User.objects.create_user("scorer", password="pw-for-scorer")
    club.directors.add(user)
    return user


@pytest.fixture
def other_club(db: Any) -> Club:
    return club_get_or_create(name="Other Whist Club")


def names_played(club: Club) -> list[str]:
    """Every name the club's plays keep, once each, in a stable order."""
    found: dict[str, None] = {}
    for model in LINKED:
        for row in model._default_manager.order_by("pk"):
            for name_field in model.MEMBER_NAMES.values():  # type: ignore[attr-defined]
                name = getattr(row, name_field)
                if name.strip():
                    found.setdefault(name, None)
    assert found, "the plays keep names"
    return list(found)


@pytest.fixture
def night(club: Club, director: User, scorer: User) -> dict[str, Any]:
    """An event, a drive and a league week of one club, most of whose names are members
    (linked by the sweep, as a director would); the last two names stay visitors."""
    event = played_event(club, director, "classic", "mitchell", "finished")
    drive = drive_backup.finished_drive(club, director)
    week = team_backup.week_one(
        club, director, league_create(club=club, name="Winter league", user=director)
    )
    names = names_played(club)
    for i, name in enumerate(names[:-2]):  # the last two stay visitors
        Member.objects.create(club=club, name=name, number=f"M{i + 1}", email=f"m{i}@example.org")
    names_link(club=club)
    for model in LINKED:
        linked = [
            row
            for row in model._default_manager.all()
            for link in model.MEMBER_NAMES  # type: ignore[attr-defined]
            if getattr(row, f"{link}_id") is not None
        ]
        assert linked, f"some {model.__name__} links a member"
    return {"event": event, "drive": drive, "week": week}


def links(club: Club | None = None) -> list[tuple[str, str, str, str, int]]:
    """Every link (model, name kept, link field, member's name, member's id); a visitor's as
    no member, id 0."""
    out = []
    for model in LINKED:
        rows = model._default_manager.all()
        if club is not None:
            rows = rows.filter(**{{Pair: "section__event__club", DrivePlayer: "drive__club",
                                   TournamentTeam: "tournament__club"}[model]: club})  # fmt: skip
        for row in rows:
            for link, name_field in model.MEMBER_NAMES.items():  # type: ignore[attr-defined]
                member = getattr(row, link)
                out.append(
                    (
                        model.__name__,
                        getattr(row, name_field),
                        link,
                        "" if member is None else member.name,
                        0 if member is None else member.pk,
                    )
                )
    return sorted(out)


def delete_plays() -> None:
    Tournament.objects.all().delete()
    League.objects.all().delete()
    Drive.objects.all().delete()
    Result.objects.all().delete()
    Event.objects.all().delete()


def delete_everything() -> None:
    delete_plays()
    Club.objects.all().delete()
    User.objects.all().delete()


def counts() -> dict[str, int]:
    every = [*apps.get_app_config("tournaments").get_models(), User]
    return row_counts(every)


def the_backup() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(backup.dumps(backup.backup_document()))
    return document


# -- a whole backup: ids in the backup's register -------------------------------------------


@pytest.mark.django_db
def test_a_whole_backup_keeps_every_link_of_every_format(club: Club, night: dict[str, Any]) -> None:
    before = links()
    document = the_backup()
    assert document["version"] == 7
    register = {m["id"] for m in document["clubs"][0]["members"]}
    for key, rows_of in ROWS.items():
        carried = [
            value
            for doc in document[key]
            for row in rows_of(doc)
            for name, value in row.items()
            if name.startswith("member")
        ]
        doc_ids = [v for v in carried if v is not None]
        assert doc_ids, key
        assert all(isinstance(v, int) and v in register for v in doc_ids), key
    delete_everything()

    backup.restore(copy.deepcopy(document))

    assert links() == before  # the same members, under the same ids
    assert Member.objects.count() == len(register)


@pytest.mark.django_db
def test_restored_where_the_member_ids_are_taken_the_links_follow_the_new_ids(
    club: Club, night: dict[str, Any]
) -> None:
    before = [row[:4] for row in links()]
    old_ids = set(Member.objects.values_list("pk", flat=True))
    document = the_backup()
    # The club here now under another name and address, its members (their ids) kept.
    delete_plays()
    Club.objects.filter(pk=club.pk).update(name="Renamed club", slug="renamed-club")

    report = backup.restore(copy.deepcopy(document))

    restored = Club.objects.get(slug=document["clubs"][0]["slug"])
    assert report.of("clubs") and restored.pk != club.pk
    members = Member.objects.filter(club=restored)
    assert (
        members.count() == len(old_ids) and not set(members.values_list("pk", flat=True)) & old_ids
    )
    after = links(restored)
    assert [row[:4] for row in after] == before
    linked = {row[4] for row in after if row[4]}
    assert linked and linked <= set(members.values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_backup_written_before_the_links_restores_with_none(
    club: Club, night: dict[str, Any]
) -> None:
    before = [(*row[:3], "", 0) for row in links()]
    old = the_backup()
    # What clubwhist wrote before the links were carried: version 4, each document version 1.
    old["version"] = 4
    for key, rows_of in ROWS.items():
        for doc in old[key]:
            doc["version"] = 1
            for row in rows_of(doc):
                for name in [n for n in row if n.startswith("member")]:
                    del row[name]
    delete_everything()

    backup.restore(old)

    assert links() == before and Member.objects.count() == len(old["clubs"][0]["members"])


@pytest.mark.django_db
def test_a_link_to_a_member_the_register_does_not_list_is_refused_and_nothing_written(
    club: Club, night: dict[str, Any]
) -> None:
    document = the_backup()
    delete_everything()
    before = counts()
    dangling = copy.deepcopy(document)
    pair = dangling["events"][0]["sections"][0]["pairs"][0]
    pair["member1"] = 999999
    with pytest.raises(
        backup.RestoreRefused,
        match=r"Event 1 of the backup \('.*'\), Section A, pair 1, member1 is member 999999, "
        r"whom the register of the club 'test-whist-club' in the backup does not list",
    ):
        backup.restore(dangling)
    # A name where the backup has ids: the register it carries would be bypassed.
    named = copy.deepcopy(document)
    named["drives"][0]["players"][0]["member"] = {"name": "Somebody"}
    with pytest.raises(backup.RestoreRefused, match=r"Drive 1 of the backup .*player 1, member "):
        backup.restore(named)
    wrong = copy.deepcopy(document)
    wrong["tournaments"][0]["teams"][0]["member_one"] = "7"
    with pytest.raises(backup.RestoreRefused, match="member_one should be null"):
        backup.restore(wrong)
    assert counts() == before


# -- a document on its own: names, linked again where it goes ------------------------------


@pytest.mark.django_db
def test_a_document_handed_to_another_club_links_by_name_there(
    club: Club, director: User, night: dict[str, Any], other_club: Club
) -> None:
    documents = {
        "event": backup.event_document(night["event"]),
        "drive": backup.drive_document(night["drive"]),
        "tournament": backup.tournament_document(night["week"]),
    }
    members = {m.name: m for m in Member.objects.filter(club=club)}
    for kind, doc in documents.items():
        text = backup.dumps(doc)
        assert "@example.org" not in text, kind  # no member's email leaves the club
        rows = ROWS[f"{kind}s"](doc)
        carried = [v for row in rows for n, v in row.items() if n.startswith("member") and v]
        assert carried and all(v == {"name": v["name"]} and v["name"] in members for v in carried)
    # The other club has some of those members, one under other capitals and spacing, and one
    # erased (never linked).
    names = list(members)
    here = {
        names[0]: Member.objects.create(club=other_club, name=names[0].upper()),
        names[1]: Member.objects.create(club=other_club, name=f" {names[1]} "),
    }
    gone = Member.objects.create(club=other_club, name=names[2])
    Member.objects.filter(pk=gone.pk).update(erased_at=gone.created_at)
    expected = sorted(
        (model, name, link, "" if member == "" or member not in here else here[member].name)
        for model, name, link, member, _ in links()
    )
    delete_plays()
    other_club.directors.add(director)

    for doc in documents.values():
        file_import(text=backup.dumps(doc), club=other_club, user=director)

    after = links(other_club)
    assert [row[:4] for row in after] == expected
    assert {row[4] for row in after if row[4]} == {m.pk for m in here.values()}


@pytest.mark.django_db
def test_a_member_id_in_a_document_on_its_own_is_refused_and_nothing_written(
    club: Club, director: User, night: dict[str, Any], other_club: Club
) -> None:
    doc = backup.event_document(night["event"])
    linked = next(p for p in doc["sections"][0]["pairs"] if p["member1"])
    linked["member1"] = Member.objects.filter(club=club).first().pk  # type: ignore[union-attr]
    delete_plays()
    other_club.directors.add(director)
    before = counts()
    with pytest.raises(backup.RestoreRefused, match="which means nothing outside the backup"):
        file_import(text=backup.dumps(doc), club=other_club, user=director)
    with pytest.raises(backup.RestoreRefused, match="which means nothing outside the backup"):
        backup.restore(json.loads(backup.dumps(doc)))
    assert counts() == before


@pytest.mark.django_db
def test_a_document_restored_into_its_own_club_links_by_name_again(
    club: Club, night: dict[str, Any]
) -> None:
    before = links()
    doc = json.loads(backup.dumps(backup.drive_document(night["drive"])))
    Drive.objects.all().delete()
    backup.restore(doc)
    assert links() == before
