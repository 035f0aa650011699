"""The seasons' services: seasons and competitions set up, changed and refused (a refusal
changes nothing), the evenings chosen, the tables recomputed from the ledger (and not rewritten
when nothing changed), the job after a publish, the stale check, and the command."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

import pytest
from django.core.management import call_command

from engine.season import CompetitionTable
from tests.web.conftest import make_event
from tournaments import tasks
from tournaments.events.models import Event, Pair
from tournaments.events.services import events as ev
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.members import member_add
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import Competition, CompetitionPlay, Season, SeasonAudit, SeasonLine
from tournaments.seasons.selectors.seasons import FORMER_MEMBER, season_stale, season_tables
from tournaments.seasons.services import seasons as svc
from tournaments.seasons.services.seasons import SeasonRefused

START, END = dt.date(2025, 1, 1), dt.date(2025, 6, 30)


def line(
    club: Club, play: int, day: dt.date, entrant: str, member: Member | None, pct: Any, **kw: Any
) -> SeasonLine:
    figures = {"percentage": str(Fraction(str(pct))), "points": str(Fraction(str(pct)))}
    return SeasonLine.objects.create(
        club=club, format=kw.get("format", "event"), play_id=play, play_name=f"Evening {play}",
        date=day, entrant=entrant, member=member, name=member.name if member else "Visitor",
        rank="1", field_size=8, figures=kw.get("figures", figures),
    )  # fmt: skip


@pytest.fixture
def members(club: Club) -> list[Member]:
    return [member_add(club=club, name=name) for name in ("Alice Ash", "Bob Birch", "Cy Cedar")]


@pytest.fixture
def season(club: Club) -> Season:
    return svc.season_create(club=club, name="2025 season", starts=START, ends=END)


def state() -> tuple[Any, ...]:
    return (
        list(Season.objects.values_list("name", "starts", "ends", "handicap_window")),
        list(Competition.objects.values_list("name", "kind", "best_of", "position")),
        list(CompetitionPlay.objects.values_list("competition_id", "format", "play_id")),
        SeasonAudit.objects.count(),
    )


def test_a_season_and_its_competitions_are_set_up_audited_and_computed(
    club: Club, members: list[Member], season: Season
) -> None:
    alice, bob, cy = members
    line(club, 1, dt.date(2025, 1, 7), "NS1", alice, 60)
    line(club, 1, dt.date(2025, 1, 7), "NS1", bob, 60)
    line(club, 1, dt.date(2025, 1, 7), "NS2", cy, 40)
    line(club, 1, dt.date(2025, 1, 7), "NS2", None, 40)
    line(club, 2, dt.date(2024, 12, 7), "NS2", cy, 70)  # before the season: not counted
    ladder = svc.competition_add(season=season, name="Ladder", kind="ladder")
    attendance = svc.competition_add(season=season, name="Attendance", kind="attendance")
    assert (ladder.position, attendance.position) == (0, 1)
    table = CompetitionTable.from_dict(ladder.table)
    assert [(r.place, r.member_id, r.shown) for r in table.rows] == [
        ("1=", alice.pk, "60.00"),
        ("1=", bob.pk, "60.00"),
        ("3", cy.pk, "40.00"),
    ]
    assert ladder.computed_at is not None and ladder.computed_from
    actions = list(SeasonAudit.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["season added", "competition added", "competition added"]
    svc.competitions_reorder(season=season, order=[attendance.pk, ladder.pk])
    assert [t.competition.name for t in season_tables(season, public=True)] == [
        "Attendance",
        "Ladder",
    ]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"name": ""}, "name"),
        ({"starts": "2025-07-01"}, "ends"),
        ({"handicap_window": 0}, "handicap window"),
        ({"handicap_basis": "sometimes"}, "handicap basis"),
        ({"name": "OLD SEASON"}, "already has a season called Old season"),
    ],
)
def test_season_refusals_change_nothing(
    club: Club, season: Season, change: dict[str, Any], words: str
) -> None:
    svc.season_create(club=club, name="Old season", starts="2024-01-01", ends="2024-06-30")
    before = state()
    with pytest.raises(SeasonRefused, match=words):
        svc.season_edit(season=season, **change)
    assert state() == before


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"kind": "total", "count_drives": True}, "one kind of points"),
        ({"kind": "ladder", "count_events": False, "count_drives": True}, "pairs percentages"),
        ({"count_events": False}, "at least one format"),
        ({"best_of": "0"}, "Best of"),
        ({"ties": "coin"}, "tie rule"),
        ({"name": "ladder"}, "already has a competition called Ladder"),
        ({"kind": "attendance", "handicapped": True}, "Only a ladder"),
    ],
)
def test_competition_refusals_change_nothing(
    season: Season, settings: dict[str, Any], words: str
) -> None:
    svc.competition_add(season=season, name="Ladder")
    before = state()
    with pytest.raises(SeasonRefused, match=words):
        svc.competition_add(season=season, **{"name": "Another", **settings})
    assert state() == before


def test_chosen_evenings_are_checked_and_replace_the_set(club: Club, season: Season) -> None:
    other_club = club_get_or_create(name="Another Club")
    inside = make_event(club, start=False, date=dt.date(2025, 2, 1))
    outside = make_event(club, start=False, date=dt.date(2025, 8, 1))
    theirs = make_event(other_club, start=False, date=dt.date(2025, 2, 1))
    ladder = svc.competition_add(season=season, name="Ladder", plays=[("event", inside.pk)])
    assert set(ladder.plays.values_list("format", "play_id")) == {("event", inside.pk)}
    before = state()
    for plays, words in (
        ([("event", outside.pk)], "outside the season"),
        ([("event", theirs.pk)], "another club's"),
        ([("drive", 99999)], "no whist drive evening 99999"),
        ([("bridge", 1)], "No such format"),
    ):
        with pytest.raises(SeasonRefused, match=words):
            svc.competition_plays_choose(competition=ladder, plays=plays)
        assert state() == before
    svc.competition_plays_choose(competition=ladder, plays=[])
    assert not ladder.plays.exists()
    # A season's dates cannot leave a chosen evening outside.
    svc.competition_plays_choose(competition=ladder, plays=[("event", inside.pk)])
    before = state()
    with pytest.raises(SeasonRefused, match="would fall outside the season's dates"):
        svc.season_edit(season=season, starts="2025-03-01")
    assert state() == before


def test_only_the_chosen_evenings_count(club: Club, members: list[Member], season: Season) -> None:
    alice = members[0]
    first = make_event(club, start=False, date=dt.date(2025, 2, 1))
    line(club, first.pk, first.date, "NS1", alice, 70)
    line(club, first.pk + 1000, dt.date(2025, 2, 8), "NS1", alice, 50)
    every = svc.competition_add(season=season, name="Every")
    chosen = svc.competition_add(season=season, name="Chosen", plays=[("event", first.pk)])
    assert CompetitionTable.from_dict(every.table).rows[0].shown == "60.00"
    assert CompetitionTable.from_dict(chosen.table).rows[0].shown == "70.00"


def test_an_unchanged_table_is_not_rewritten_and_a_change_is(
    club: Club, members: list[Member], season: Season
) -> None:
    alice = members[0]
    line(club, 1, dt.date(2025, 1, 7), "NS1", alice, 55)
    ladder = svc.competition_add(season=season, name="Ladder")
    first_print, first_time = ladder.computed_from, ladder.computed_at
    assert svc.competitions_recompute(club_id=club.pk) == 0
    ladder.refresh_from_db()
    assert ladder.computed_from == first_print and ladder.computed_at >= first_time
    line(club, 2, dt.date(2025, 1, 14), "NS1", alice, 45)
    assert svc.competitions_recompute(club_id=club.pk, dates=[dt.date(2025, 1, 14)]) == 1
    ladder.refresh_from_db()
    assert CompetitionTable.from_dict(ladder.table).rows[0].shown == "50.00"
    # A date no season covers recomputes nothing.
    assert svc.competitions_recompute(club_id=club.pk, dates=[dt.date(2026, 1, 1)]) == 0


def test_a_table_behind_the_ledger_is_stale_until_recomputed(
    club: Club, members: list[Member], season: Season
) -> None:
    svc.competition_add(season=season, name="Ladder")
    assert not season_stale(season)
    line(club, 1, dt.date(2025, 1, 7), "NS1", members[0], 55)  # a job lost: no recompute
    assert season_stale(season)
    svc.competitions_recompute(club_id=club.pk)
    assert not season_stale(season)


def test_public_names_hide_and_erased_members_are_former_members(
    club: Club, members: list[Member], season: Season
) -> None:
    alice, bob, _ = members
    line(club, 1, dt.date(2025, 1, 7), "NS1", alice, 60)
    line(club, 1, dt.date(2025, 1, 7), "NS2", bob, 50)
    svc.competition_add(season=season, name="Ladder")
    Member.objects.filter(pk=alice.pk).update(public_name="initials")
    Member.objects.filter(pk=bob.pk).update(erased_at=dt.datetime(2025, 3, 1, tzinfo=dt.UTC))
    [shown] = season_tables(season, public=True)
    assert [name for _, name in shown.rows] == ["A. A.", FORMER_MEMBER]
    [director] = season_tables(season, public=False)
    assert [name for _, name in director.rows] == ["Alice Ash", FORMER_MEMBER]


def test_handicapped_ladder_reads_the_history_before_the_season(
    club: Club, members: list[Member]
) -> None:
    alice, bob, _ = members
    for i, pct in enumerate((45, 44, 46), start=1):
        line(club, 100 + i, dt.date(2024, 12, i), "NS1", alice, pct)
    season = svc.season_create(club=club, name="Handicaps", starts=START, ends=END)
    line(club, 1, dt.date(2025, 1, 7), "NS1", alice, 55)
    line(club, 1, dt.date(2025, 1, 7), "NS1", bob, 55)
    ladder = svc.competition_add(season=season, name="Handicapped", handicapped=True)
    # Alice +5, Bob no handicap: the pair's is +2.50, so 57.50.
    assert [r.shown for r in CompetitionTable.from_dict(ladder.table).rows] == ["57.50", "57.50"]


def test_deleting_a_season_keeps_its_trail(club: Club, season: Season) -> None:
    svc.competition_add(season=season, name="Ladder")
    svc.season_delete(season=season)
    assert not Competition.objects.exists()
    assert SeasonAudit.objects.filter(action="season removed", club=club).exists()


def sent_at_once(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The season's job run in place when sent, as an eager Celery would (with or without a
    broker in the test run)."""
    sent: list[tuple[str, int]] = []

    def run(args: tuple[str, int], **options: Any) -> None:
        sent.append(args)
        tasks.season_play_changed(*args)

    monkeypatch.setattr(tasks.season_play_changed, "apply_async", run)
    return sent


@pytest.mark.django_db(transaction=True)
def test_the_job_recomputes_on_publish_and_unpublished_evenings_never_appear(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    club = club_get_or_create(name="Job Club")
    today = dt.date.today()
    season = svc.season_create(
        club=club, name="Now", starts=today - dt.timedelta(days=30), ends=today
    )
    sent = sent_at_once(monkeypatch)
    alice = member_add(club=club, name="Alice Ash")
    ladder = svc.competition_add(season=season, name="Ladder")
    assert CompetitionTable.from_dict(ladder.table).rows == ()

    def played() -> Event:
        event = make_event(club, start=False, date=today)
        pairs = list(Pair.objects.filter(section__event=event))
        ev.pairs_register(event=event, names={p.pk: (f"A{p.pk}", f"B{p.pk}") for p in pairs})
        Pair.objects.filter(pk=pairs[0].pk).update(member1=alice)
        event = ev.event_start(event=event)
        event_simulate(event=event, seed=3)
        return ev.event_finish(event=event)

    unpublished = played()
    with django_capture_on_commit_callbacks(execute=True):
        published = ev.event_publish(event=played())
    assert ("event", published.pk) in sent
    assert ("event", unpublished.pk) not in sent
    ladder.refresh_from_db()
    [row] = CompetitionTable.from_dict(ladder.table).rows
    assert row.member_id == alice.pk
    assert not SeasonLine.objects.filter(play_id=unpublished.pk, format="event").exists()
    assert set(SeasonLine.objects.values_list("play_id", flat=True)) == {published.pk}
    # Reopened (no longer published), it leaves the table.
    with django_capture_on_commit_callbacks(execute=True):
        ev.event_reopen(event=published, reason="a score was wrong")
    ladder.refresh_from_db()
    assert CompetitionTable.from_dict(ladder.table).rows == ()


def test_the_command_lists_recomputes_and_shows(
    club: Club, members: list[Member], season: Season, capsys: pytest.CaptureFixture[str]
) -> None:
    line(club, 1, dt.date(2025, 1, 7), "NS1", members[0], 55)
    svc.competition_add(season=season, name="Ladder")
    call_command("season", "list", "--club", club.slug)
    call_command("season", "recompute", "--club", club.slug)
    call_command("season", "show", "--club", club.slug, "2025 SEASON", "ladder")
    out = capsys.readouterr().out
    assert "2025 season" in out and "1 tables computed." in out
    assert "Alice Ash" in out and "55.00" in out
