"""The seasons in a whole backup: a season of two competitions over published evenings of two
formats is written, the database emptied and the backup restored, and the season pages' tables
come back as they were (the ledger taken again, every table computed again); the chosen
evenings follow their evenings when the restore gives those new ids; a version 4 backup
restores with no season; a bad season is refused, naming it, and nothing is written."""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from tournaments.drives.models import Drive
from tournaments.events.models import Event, Result
from tournaments.files import backup
from tournaments.kernel.backup.driver import backup_document, backup_restore
from tournaments.kernel.backup.registry import club_parts
from tournaments.kernel.members import member_add
from tournaments.kernel.models import Club
from tournaments.seasons import backup as season_backup
from tournaments.seasons.models import (
    Competition,
    CompetitionPlay,
    Season,
    SeasonAudit,
    SeasonLine,
)
from tournaments.seasons.services import seasons as svc
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.simulation import drive_evening, pairs_evening, people
from tournaments.teams.models import League, Tournament

pytestmark = pytest.mark.django_db

START, END = dt.date(2025, 1, 1), dt.date(2025, 6, 30)


def delete_everything() -> None:
    """An empty database, as on another laptop."""
    Tournament.objects.all().delete()
    League.objects.all().delete()
    Drive.objects.all().delete()
    Result.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()


def tables() -> dict[tuple[str, str], Any]:
    """Every competition's table and settings, by season and competition name."""
    return {
        (c.season.name, c.name): (
            c.table,
            c.kind,
            c.count_events,
            c.count_drives,
            c.best_of,
            c.min_sessions,
            c.ties,
            c.position,
        )
        for c in Competition.objects.select_related("season")
    }


def chosen() -> dict[str, set[tuple[str, str]]]:
    """Each competition's chosen evenings, by the evenings' names (ids may differ)."""
    names = {("event", e.pk): e.name for e in Event.objects.all()}
    names |= {("drive", d.pk): d.name for d in Drive.objects.all()}
    out: dict[str, set[tuple[str, str]]] = {}
    for play in CompetitionPlay.objects.select_related("competition"):
        out.setdefault(play.competition.name, set()).add(
            (play.format, names[(play.format, play.play_id)])
        )
    return out


def trail() -> list[tuple[Any, ...]]:
    return list(
        SeasonAudit.objects.order_by("pk").values_list(
            "user__username", "user_name", "at", "action", "target", "before", "after",
            "season__name",
        )
    )  # fmt: skip


def seasons() -> list[tuple[Any, ...]]:
    return list(
        Season.objects.order_by("pk").values_list(
            "name", "starts", "ends", "handicap_basis", "handicap_window",
            "handicap_min_sessions", "created_by__username", "created_at",
        )
    )  # fmt: skip


@pytest.fixture
def season_night(club: Club, director: Any) -> dict[str, Any]:
    """Two pairs evenings and a drive, published; a season with a ladder over the first
    pairs evening (chosen) and an attendance over every evening, and a removed season."""
    names = people(12)
    for name in names[:10]:  # two visitors: never in a table, before or after
        member_add(club=club, name=name)
    couples = [(names[2 * i], names[2 * i + 1]) for i in range(6)]
    first = pairs_evening(
        club=club, name="Pairs one", date=dt.date(2025, 1, 7), pairs=couples, seed=1
    )
    second = pairs_evening(
        club=club, name="Pairs two", date=dt.date(2025, 1, 14), pairs=couples[::-1], seed=2
    )
    drive = drive_evening(
        club=club, name="Drive one", date=dt.date(2025, 1, 8), players=names[:8], seed=3
    )
    season = svc.season_create(club=club, name="2025 season", starts=START, ends=END, user=director)
    ladder = svc.competition_add(
        season=season, name="Ladder", kind="ladder", plays=[("event", first.pk)], user=director
    )
    attendance = svc.competition_add(
        season=season, name="Attendance", kind="attendance", count_drives=True, user=director
    )
    svc.competition_plays_choose(
        competition=attendance,
        plays=[("event", first.pk), ("event", second.pk), ("drive", drive.pk)],
        user=director,
    )
    gone = svc.season_create(club=club, name="Old season", starts="2024-01-01", ends="2024-06-30")
    svc.season_delete(season=gone, user=director)
    club_rebuild(club=club)  # the publish job does not run inside a test's transaction
    svc.competitions_recompute(club_id=club.pk, force=True)
    return {"first": first, "second": second, "drive": drive, "ladder": ladder}


def test_a_whole_backup_carries_the_seasons_and_a_restore_shows_the_same_tables(
    club: Club, season_night: dict[str, Any]
) -> None:
    before = (tables(), chosen(), trail(), seasons())
    assert all(table is not None for table, *_ in before[0].values())
    # The tables list the members, through the links a restore must bring back.
    assert all(len(table["rows"]) >= 8 for table, *_ in before[0].values())
    assert before[1] == {
        "Ladder": {("event", "Pairs one")},
        "Attendance": {("event", "Pairs one"), ("event", "Pairs two"), ("drive", "Drive one")},
    }
    lines = SeasonLine.objects.count()
    document = json.loads(backup.dumps(backup_document()))
    assert document["version"] == 7
    block = document["clubs"][0]
    # What the block says it carries, and not the table computed from the evenings.
    for season in block["seasons"]:
        assert set(backup.FIELDS[Season]) | {"competitions"} == set(season)
        for competition in season["competitions"]:
            assert set(backup.FIELDS[Competition]) | {"plays"} == set(competition)
            assert "table" not in competition
            for play in competition["plays"]:
                assert set(backup.FIELDS[CompetitionPlay]) == set(play)
    assert [line["season"] for line in block["season_audit"]] == [
        "2025 season", "2025 season", "2025 season", "2025 season", None, None,
    ]  # fmt: skip
    assert all(set(backup.FIELDS[SeasonAudit]) == set(line) for line in block["season_audit"])
    delete_everything()
    assert not Season.objects.exists() and not SeasonLine.objects.exists()

    report = backup_restore(document)

    assert (tables(), chosen(), trail(), seasons()) == before
    assert SeasonLine.objects.count() == lines
    assert "Restored 1 season(s), their tables computed again: 2025 season" in " ".join(
        report.lines()
    )
    # Ids were free here: kept, so a chosen evening names the same id as before.
    ladder = Competition.objects.get(name="Ladder")
    assert ladder.pk == season_night["ladder"].pk
    assert set(ladder.plays.values_list("format", "play_id")) == {
        ("event", season_night["first"].pk)
    }


def test_the_chosen_evenings_follow_their_evenings_to_new_ids(
    club: Club, director: Any, season_night: dict[str, Any]
) -> None:
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    taken = pairs_evening(
        club=other,
        name="Their night",
        date=dt.date(2025, 2, 1),
        pairs=[(a, b) for a, b in zip(people(6), people(6, skip=6), strict=True)],
        seed=9,
    )
    before = (tables(), chosen())
    document = json.loads(backup.dumps(backup_document(clubs=[club])))
    # The first evening's id in this backup is one taken here by another club's evening: the
    # restore gives that evening new ids throughout, and the chosen evenings must follow.
    first = season_night["first"].pk
    for item in document["events"]:
        if item["event"]["id"] == first:
            item["event"]["id"] = taken.pk
    for season in document["clubs"][0]["seasons"]:
        for competition in season["competitions"]:
            for play in competition["plays"]:
                if play == {"format": "event", "play_id": first}:
                    play["play_id"] = taken.pk
    Drive.objects.filter(club=club).delete()
    Result.objects.filter(section__event__club=club).delete()
    Event.objects.filter(club=club).delete()
    club.delete()

    report = backup_restore(document)

    restored = Event.objects.get(club__slug=club.slug, name="Pairs one")
    assert restored.pk not in (first, taken.pk)
    assert f"its id {taken.pk} is taken here" in " ".join(report.lines())
    assert set(
        CompetitionPlay.objects.filter(competition__name="Ladder").values_list("format", "play_id")
    ) == {("event", restored.pk)}
    assert (tables(), chosen()) == before


def test_a_version_4_backup_restores_with_no_season(
    club: Club, season_night: dict[str, Any]
) -> None:
    document = json.loads(backup.dumps(backup_document()))
    document["version"] = 4
    for block in document["clubs"]:
        del block["seasons"], block["season_audit"]
    lines = SeasonLine.objects.count()
    delete_everything()

    backup_restore(document)

    assert Club.objects.filter(slug=club.slug).exists()
    assert not Season.objects.exists() and not SeasonAudit.objects.exists()
    # The ledger is taken again all the same: the members' pages read it.
    assert SeasonLine.objects.count() == lines > 0


def _bad(document: dict[str, Any], change: str) -> None:
    block = document["clubs"][0]
    season, competition = block["seasons"][0], block["seasons"][0]["competitions"][0]
    if change == "season twice":
        block["seasons"].append({**copy.deepcopy(season), "id": None, "name": "2025 SEASON"})
    elif change == "ends before starts":
        season["ends"] = "2024-12-31"
    elif change == "competition twice":
        season["competitions"].append({**copy.deepcopy(competition), "id": None, "name": "ladder"})
    elif change == "no format":
        competition["count_events"] = competition["count_drives"] = False
    elif change == "unknown kind":
        competition["kind"] = "lottery"
    elif change == "rule":
        competition.update(kind="ladder", count_events=False, count_drives=True)
    elif change == "not in the backup":
        competition["plays"].append({"format": "event", "play_id": 999999})
    elif change == "format not counted":
        competition["plays"].append({"format": "drive", "play_id": 1})
    elif change == "unknown season":
        block["season_audit"][0]["season"] = "Next season"
    elif change == "window":
        season["handicap_window"] = 0


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("season twice", r"season 2 \('2025 SEASON'\) is also that of season 1"),
        ("ends before starts", r"season 1 \('2025 season'\) ends \(2024-12-31\) before it starts"),
        ("competition twice", r"competition 3 \('ladder'\) is also that of competition 1"),
        ("no format", "competition 1 counts no format"),
        ("unknown kind", "kind: Value 'lottery' is not a valid choice"),
        ("rule", "competition 1: "),
        ("not in the backup", "chooses the duplicate pairs evening 999999, which the backup"),
        ("format not counted", "chosen evening 2 is a whist drive evening, which the comp"),
        ("unknown season", "'Next season' is not one of the club's seasons in the backup"),
        ("window", "handicap_window should be 1 to 999, not 0"),
    ],
)
def test_a_bad_season_is_refused_by_name_and_nothing_is_written(
    club: Club, director: Any, change: str, words: str
) -> None:
    names = people(12)
    first = pairs_evening(
        club=club,
        name="Pairs one",
        date=dt.date(2025, 1, 7),
        pairs=[(names[2 * i], names[2 * i + 1]) for i in range(6)],
        seed=1,
    )
    season = svc.season_create(club=club, name="2025 season", starts=START, ends=END, user=director)
    svc.competition_add(season=season, name="Ladder", plays=[("event", first.pk)], user=director)
    svc.competition_add(season=season, name="Attendance", kind="attendance", user=director)
    document = json.loads(backup.dumps(backup_document()))
    _bad(document, change)
    delete_everything()

    with pytest.raises(backup.RestoreRefused, match=words):
        backup_restore(document)

    assert not Club.objects.exists() and not Event.objects.exists()
    assert not Season.objects.exists() and not Competition.objects.exists()
    assert not SeasonAudit.objects.exists() and not User.objects.exists()


def test_a_dry_run_computes_the_tables_and_keeps_nothing(
    club: Club, season_night: dict[str, Any]
) -> None:
    document = json.loads(backup.dumps(backup_document()))
    delete_everything()
    report = backup_restore(document, dry_run=True)
    assert any("Would restore 1 season(s)" in line for line in report.lines())
    assert not Season.objects.exists() and not SeasonLine.objects.exists()


def test_the_seasons_are_registered_once_with_their_tables() -> None:
    season_backup.register_seasons()  # again, as a second `ready`: nothing changes
    keys = [part.key for part in backup_club_parts()]
    assert keys == ["members", "people_audit", "member_audit", "seasons", "season_audit"]
    assert backup.OMITTED[Competition] == {
        "table": "computed again after a restore",
        "computed_at": "computed again after a restore",
        "computed_from": "computed again after a restore",
    }
    assert SeasonLine in backup.OMITTED_MODELS


def backup_club_parts() -> list[Any]:
    """The parts only a whole backup's club block carries."""
    return [part for part in club_parts(backup=True) if part not in club_parts()]
