"""The management commands directors and scripts use."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state
from tournaments.events.models import Event, Result
from tournaments.kernel.models import Member
from tournaments.seasons.models import SeasonLine
from tournaments.teams.models import League, Tournament
from tournaments.teams.selectors.teams import league_standings, week_notes

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_demo_is_idempotent_and_prints_json() -> None:
    first = json.loads(run("demo", "--json"))
    results = Result.objects.count()
    second = json.loads(run("demo", "--json"))
    assert first == second
    assert {e["game"] for e in first["events"]} == {"classic", "bidwhist"}
    shown = Event.objects.filter(pk__in=[e["id"] for e in first["events"]])
    assert Result.objects.count() == results > 0
    assert len(shown) == 2 and all(e.status == "running" for e in shown)
    (drive,) = Drive.objects.filter(pk__in=[d["id"] for d in first["drives"]])
    assert first["drives"] == [{"id": drive.pk, "name": drive.name}]
    state = drive_state(drive)
    assert drive.status == "running" and len(state.names) == 12
    assert state.hands_played == 3 and state.current is not None and state.current.hand == 4
    assert state.current.done == 0 and len(state.lines) == 12
    # Eleven started with a dummy; a late arrival took the dummy's seat at hand 3.
    assert [line.note for line in state.lines if line.note] == ["came for hand 3"]
    assert all(seat.player for table in state.current.tables for seat in table.seats)
    # The league: week 1 published, week 2 running with one team absent and a substitute.
    (league,) = League.objects.filter(pk__in=[g["id"] for g in first["leagues"]])
    assert first["leagues"] == [{"id": league.pk, "name": league.name}]
    one, two = league.weeks.order_by("week")
    assert (one.status, two.status) == ("published", "running")
    notes = week_notes(league, [one, two])
    assert notes[two.pk] == "absent: Kitty Cats; Book Keepers with Sally (sub) standing in"
    assert sum(row.played for row in league_standings(league)) > 0
    # The season: six weeks of each format played and published by the register's members,
    # every one of them in the ledger (and the demo's own league week 1).
    assert first["members"] == Member.objects.count() == 30
    published = [
        model.objects.filter(status="published").count() for model in (Event, Drive, Tournament)
    ]
    assert published == [6, 6, 7]
    assert SeasonLine.objects.values("format", "play_id").distinct().count() == 19


def test_simulate_plays_the_rest_and_standings_prints_them() -> None:
    events = json.loads(run("demo", "--json"))["events"]
    classic = next(e for e in events if e["game"] == "classic")
    assert "result(s) played" in run(
        "simulate", str(classic["id"]), "--rounds", "all", "--seed", "1"
    )
    event = Event.objects.get(pk=classic["id"])
    section = event.sections.get()
    played = sum(1 for r in section.movement_rows.all() if r.ns_pair and r.ew_pair)
    assert Result.objects.filter(section=section).count() == played * section.boards_per_round
    data = json.loads(run("standings", str(event.pk), "--json"))
    assert data["event"] == event.pk and data["sections"][0]["fields"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "999"), "no event 999"),
        (("standings", "999"), "no event 999"),
    ],
)
def test_commands_name_a_missing_event(args, message) -> None:
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_simulate_rejects_a_bad_round_count() -> None:
    events = json.loads(run("demo", "--json"))["events"]
    with pytest.raises(CommandError, match="whole number"):
        run("simulate", str(events[0]["id"]), "--rounds", "two")
