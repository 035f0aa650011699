"""A member's page (every published evening in every format, the summary, the charts, the
handicap, the season filter, its PDF, CSV and API) and the handicapped standings beside an
event's scratch ones: from a ledger filled by playing and publishing real evenings."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine.scoring.document import StandingsDocument
from engine.season import handicaps_before
from engine.season.handicaps import HandicapRule
from tests.web.conftest import make_drive, make_event, make_tournament
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Event, Pair, Standings
from tournaments.events.selectors.handicapped import event_handicapped
from tournaments.events.services.events import event_finish, event_publish
from tournaments.events.services.simulation import event_simulate
from tournaments.files.exports import event_export
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import Season
from tournaments.seasons.selectors.ledger import appearances
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.teams.models import Tournament, TournamentTeam
from tournaments.teams.services import games as team_games
from tournaments.teams.services import teams as team_services

FIRST = dt.date(2026, 9, 1)
SECOND = dt.date(2026, 9, 8)


@dataclass
class World:
    club: Club
    ann: Member  # full name
    bea: Member  # initials
    cy: Member  # hidden
    dee: Member  # erased
    eve: Member  # full name, partnered by a visitor
    first: Event
    second: Event
    drive: Drive
    tournament: Tournament


def _pairs_event(club: Club, director: Any, date: dt.date) -> Event:
    """A pairs event (three tables' Mitchell, scored by matchpoints), started."""
    event = make_event(club, user=director, date=date)
    Event.objects.filter(pk=event.pk).update(name=f"Pairs {date:%d %b}")
    return Event.objects.get(pk=event.pk)


def _link_pairs(event: Event, world: dict[str, Member]) -> None:
    """NS 1 is Ann and Bea, NS 2 Cy and a visitor, EW 1 Dee and a visitor, EW 2 Eve and
    a visitor."""
    section = event.section
    Pair.objects.filter(section=section, number=1, direction="NS").update(
        player1="Ann Archer", member1=world["ann"], player2="Beatrice Smith", member2=world["bea"]
    )
    Pair.objects.filter(section=section, number=2, direction="NS").update(
        player1="Cy Hidden", member1=world["cy"], player2="Vic Visitor", member2=None
    )
    Pair.objects.filter(section=section, number=1, direction="EW").update(
        player1="Former", member1=world["dee"], player2="Val Visitor", member2=None
    )
    Pair.objects.filter(section=section, number=2, direction="EW").update(
        player1="Eve Full", member1=world["eve"], player2="Vic Visitor", member2=None
    )


def _publish_event(event: Event, director: Any, seed: int) -> Event:
    event_simulate(event=event, seed=seed, batch=True)
    event_finish(event=event, user=director)
    event_publish(event=event, user=director)
    return Event.objects.get(pk=event.pk)


def _played_drive(club: Club, director: Any, ann: Member) -> Drive:
    drive = make_drive(club, name="Drive night", user=director)
    Drive.objects.filter(pk=drive.pk).update(date=dt.date(2026, 9, 10))
    DrivePlayer.objects.filter(drive=drive, number=1).update(name="Ann Archer", member=ann)
    for hand in (1, 2):
        for table in (1, 2):
            drive_services.result_enter(
                drive=drive, table=table, entry={"ns_tricks": 5 + table + hand}, user=director
            )
        if hand < 2:
            drive_services.hand_next(drive=drive, hand=hand, user=director)
    drive_services.drive_finish(drive=drive, user=director)
    drive_services.drive_publish(drive=drive, user=director)
    return Drive.objects.get(pk=drive.pk)


def _played_tournament(club: Club, director: Any, ann: Member, cy: Member) -> Tournament:
    tournament = make_tournament(club, name="Teams night", user=director)
    Tournament.objects.filter(pk=tournament.pk).update(date=dt.date(2026, 9, 12))
    TournamentTeam.objects.filter(tournament=tournament, number=1).update(
        player_one="Ann Archer", member_one=ann, player_two="Cy Hidden", member_two=cy
    )
    for round_number in (1, 2):
        for table in (1, 2):
            team_games.game_enter(
                tournament=tournament,
                table=table,
                score={"home_points": 7, "away_points": 2 + table},
                user=director,
            )
        if round_number == 1:
            team_services.round_next(tournament=tournament, user=director)
    team_games.tournament_finish(tournament=tournament, user=director)
    team_games.tournament_publish(tournament=tournament, user=director)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def world(club: Club, director: Any) -> World:
    members = {
        "ann": Member.objects.create(club=club, name="Ann Archer"),
        "bea": Member.objects.create(club=club, name="Beatrice Smith", public_name="initials"),
        "cy": Member.objects.create(club=club, name="Cy Hidden", public_name="hidden"),
        "dee": Member.objects.create(club=club, name="Dee Gone", erased_at=timezone.now()),
        "eve": Member.objects.create(club=club, name="Eve Full"),
    }
    events = []
    for date, seed in ((FIRST, 5), (SECOND, 9)):
        event = _pairs_event(club, director, date)
        _link_pairs(event, members)
        events.append(_publish_event(event, director, seed))
    drive = _played_drive(club, director, members["ann"])
    tournament = _played_tournament(club, director, members["ann"], members["cy"])
    # The ledger job runs on commit; here the test's transaction never commits, so the
    # ledger is taken as the job would take it.
    club_rebuild(club=club)
    return World(
        club, members["ann"], members["bea"], members["cy"], members["dee"], members["eve"],
        events[0], events[1], drive, tournament,
    )  # fmt: skip


def _page(client: Client, world: World, member: Member, **query: Any) -> Any:
    return client.get(f"/clubs/{world.club.slug}/members/{member.pk}/", query)


# ---- the history ------------------------------------------------------------------------


def test_the_history_lists_every_format_with_places_and_figures(
    world: World, director_client: Client
) -> None:
    answer = director_client.get(f"/api/clubs/{world.club.slug}/members/{world.ann.pk}/history/")
    assert answer.status_code == 200
    data = answer.json()
    formats = [e["format"] for e in data["evenings"]]
    assert formats == ["event", "event", "drive", "tournament"]
    lines = {
        a.play_id: a
        for a in appearances(world.club.pk, formats=("event",))
        if a.member_id == world.ann.pk
    }
    first = data["evenings"][0]
    expected = lines[world.first.pk]
    assert first["place"] == f"{expected.rank} of {expected.field_size}"
    assert first["percentage"] == f"{float(expected.percentage or 0):.2f}"
    # A director sees every partner by their full name.
    assert first["partners"] == ["Beatrice Smith"]
    assert data["evenings"][3]["partners"] == ["Cy Hidden"]
    assert data["evenings"][3]["wins"] is not None
    summary = {s["format"]: s for s in data["summaries"]}
    assert summary["event"]["evenings"] == 2 and summary["drive"]["evenings"] == 1
    pairs = [lines[e.pk].percentage or Fraction(0) for e in (world.first, world.second)]
    assert summary["event"]["average_percentage"] == f"{float(sum(pairs) / 2):.2f}"


def test_the_page_shows_every_evening_linked_and_the_charts_as_tables(
    world: World, director_client: Client
) -> None:
    body = _page(director_client, world, world.ann).content.decode()
    assert f'href="/results/{world.first.pk}/"' in body
    assert f'href="/drives/{world.drive.pk}/"' in body
    assert f'href="/tournaments/{world.tournament.pk}/"' in body
    assert 'aria-labelledby="member-percentages-title member-percentages-desc"' in body
    assert 'aria-labelledby="member-placings-title member-placings-desc"' in body
    assert 'id="percentages"' in body and 'id="placings"' in body
    assert "Running average" in body


def test_the_public_sees_each_name_by_its_owners_choice(world: World) -> None:
    body = _page(Client(), world, world.ann).content.decode()
    assert "Ann Archer" in body
    assert "B. S." in body and "Beatrice" not in body  # initials
    assert "Cy Hidden" not in body and "a member" in body  # hidden: "a member"
    api = Client().get(f"/api/clubs/{world.club.slug}/members/{world.ann.pk}/history/").json()
    assert api["evenings"][0]["partners"] == ["B. S."]
    assert api["evenings"][3]["partners"] == ["a member"]
    # A visitor by the name played under.
    eve = _page(Client(), world, world.eve).content.decode()
    assert "Vic Visitor" in eve


def test_a_member_shown_by_initials_has_a_page_under_their_initials(world: World) -> None:
    answer = _page(Client(), world, world.bea)
    body = answer.content.decode()
    assert answer.status_code == 200 and "<h1>B. S.</h1>" in body and "Beatrice" not in body
    # Bea's partner Ann chose her full name.
    assert "Ann Archer" in body


def test_hidden_and_erased_members_are_not_found_by_the_public(
    world: World, director_client: Client
) -> None:
    for member in (world.cy, world.dee):
        assert _page(Client(), world, member).status_code == 404
        url = f"/api/clubs/{world.club.slug}/members/{member.pk}/history/"
        assert Client().get(url).status_code == 404
        for tail in ("results.pdf", "results.csv"):
            url = f"/clubs/{world.club.slug}/members/{member.pk}/{tail}"
            assert Client().get(url).status_code == 404
    cy = _page(director_client, world, world.cy)
    assert cy.status_code == 200 and "<h1>Cy Hidden</h1>" in cy.content.decode()
    dee = _page(director_client, world, world.dee)
    assert dee.status_code == 200 and "<h1>Former member</h1>" in dee.content.decode()
    assert _page(Client(), world, Member(pk=99999)).status_code == 404


def test_the_season_filter_keeps_only_its_dates(world: World, director_client: Client) -> None:
    season = Season.objects.create(
        club=world.club, name="Autumn", starts=SECOND, ends=dt.date(2026, 9, 11)
    )
    url = f"/api/clubs/{world.club.slug}/members/{world.ann.pk}/history/"
    data = director_client.get(url, {"season": season.pk}).json()
    assert [e["play_id"] for e in data["evenings"]] == [world.second.pk, world.drive.pk]
    assert data["season"]["name"] == "Autumn"
    body = _page(director_client, world, world.ann, season=season.pk).content.decode()
    assert f'<option value="{season.pk}" selected>' in body
    # Another club's season, or nonsense: every evening.
    assert len(director_client.get(url, {"season": "x"}).json()["evenings"]) == 4


def test_the_pdf_and_the_csv_carry_the_same_evenings(world: World) -> None:
    base = f"/clubs/{world.club.slug}/members/{world.ann.pk}/"
    pdf = Client().get(base + "results.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    text = Client().get(base + "results.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["format"] for r in rows] == [
        "Duplicate pairs", "Duplicate pairs", "Whist drive", "Bid Whist teams",
    ]  # fmt: skip
    assert rows[0]["partners"] == "B. S."


def test_the_register_links_each_member_to_their_page(
    world: World, director_client: Client
) -> None:
    body = director_client.get(f"/clubs/{world.club.slug}/members/").content.decode()
    assert f'href="/clubs/{world.club.slug}/members/{world.ann.pk}/"' in body
    assert f'href="/clubs/{world.club.slug}/members/{world.ann.pk}/edit/"' in body


# ---- handicaps -------------------------------------------------------------------------


def _by_hand(world: World, season: Season, event: Event) -> dict[str, tuple[Fraction, str]]:
    """The NS field's handicapped table worked out by hand: each pair's handicap from the
    ledger's percentages before the season's start, added to its percentage, ranked."""
    before = season.starts
    history: dict[int, list[Fraction]] = {}
    for a in appearances(world.club.pk, formats=("event",)):
        if a.date < before and a.member_id is not None and a.percentage is not None:
            history.setdefault(a.member_id, []).append(a.percentage)
    mine = {m: 50 - sum(p) / len(p) for m, p in history.items()}
    document = Standings.objects.filter(event=event).order_by("-version").first()
    assert document is not None
    rows = [
        row
        for section in document.data["sections"]
        for field in section["fields"]
        if field["name"] == "NS"
        for row in field["rows"]
    ]
    pairs = {
        p.number: (p.member1_id, p.member2_id)
        for p in Pair.objects.filter(section__event=event, direction="NS")
    }
    figures = {}
    for row in rows:
        first, second = pairs[row["pair"]]
        handicap = (mine.get(first, Fraction(0)) if first else 0) + (
            mine.get(second, Fraction(0)) if second else 0
        )
        figures[f"NS{row['pair']}"] = Fraction(row["percentage"]["exact"]) + Fraction(handicap) / 2
    ordered = sorted(figures.values(), reverse=True)
    return {
        key: (
            value,
            f"{ordered.index(value) + 1}{'=' if ordered.count(value) > 1 else ''}",
        )
        for key, value in figures.items()
    }


def test_the_handicapped_table_equals_a_hand_computation(
    world: World, director_client: Client
) -> None:
    season = Season.objects.create(
        club=world.club, name="Autumn", starts=dt.date(2026, 9, 5), ends=dt.date(2026, 12, 31),
        handicap_min_sessions=1,
    )  # fmt: skip
    expected = _by_hand(world, season, world.second)
    standings = Standings.objects.filter(event=world.second).order_by("-version").first()
    assert standings is not None
    from_page = {
        row.key: (row.handicapped, row.rank)
        for table in event_handicapped(world.second, _document(standings.data))
        if table.field == "NS"
        for row in table.rows
    }
    assert from_page == expected
    # Ann's pair has a handicap: the first evening's percentage counted.
    assert any(row[0] != Fraction(0) for row in expected.values())
    body = Client().get(f"/results/{world.second.pk}/").content.decode()
    assert "Handicapped: NS" in body and "Handicapped %" in body
    director = director_client.get(f"/events/{world.second.pk}/standings/").content.decode()
    assert "Handicapped: NS" in director
    # The CSV export's two more columns.
    text = event_export(world.second, "csv").text
    header = next(csv.reader(io.StringIO(text)))
    assert header[-2:] == ["handicap", "handicapped_percentage"]


def test_a_fluctuating_season_takes_each_evening_from_the_evenings_before_it(
    world: World,
) -> None:
    season = Season.objects.create(
        club=world.club, name="All year", starts=dt.date(2026, 1, 1), ends=dt.date(2026, 12, 31),
        handicap_basis="floating", handicap_min_sessions=1,
    )  # fmt: skip
    found = appearances(world.club.pk, formats=("event",))
    expected = handicaps_before(found, HandicapRule(window=10, min_sessions=1), SECOND)
    assert expected  # the first evening's members
    standings = Standings.objects.filter(event=world.second).order_by("-version").first()
    assert standings is not None
    tables = event_handicapped(world.second, _document(standings.data))
    ann_pair = next(row for t in tables if t.field == "NS" for row in t.rows if row.key == "NS1")
    assert ann_pair.handicap == (expected[world.ann.pk] + expected[world.bea.pk]) / 2
    assert season.handicap_basis == "floating"


def test_no_season_covering_the_date_means_no_handicapped_table(world: World) -> None:
    body = Client().get(f"/results/{world.second.pk}/").content.decode()
    assert "Handicapped" not in body
    header = next(csv.reader(io.StringIO(event_export(world.second, "csv").text)))
    assert "handicap" not in header


def test_the_member_page_shows_the_current_handicap(world: World) -> None:
    Season.objects.create(
        club=world.club, name="Now", starts=dt.date.today(), ends=dt.date.today(),
        handicap_basis="floating", handicap_min_sessions=1,
    )  # fmt: skip
    percentages = [
        a.percentage
        for a in appearances(world.club.pk, formats=("event",))
        if a.member_id == world.ann.pk and a.percentage is not None
    ]
    figure = 50 - sum(percentages, Fraction(0)) / len(percentages)
    body = _page(Client(), world, world.ann).content.decode()
    shown = f"{float(figure):+.2f}" if figure else "0.00"
    assert f"<strong>{shown}</strong>" in body


def _document(data: dict[str, Any]) -> StandingsDocument:
    return StandingsDocument.from_dict(data)


def test_the_players_pages_link_members_shown_by_full_name_to_their_page(world: World) -> None:
    base = f"/clubs/{world.club.slug}/"
    listing = Client().get(base + "players/").content.decode()
    assert f'href="{base}members/{world.ann.pk}/"' in listing
    assert f'href="{base}members/{world.bea.pk}/"' not in listing  # initials: not beside the name
    assert f'href="{base}members/{world.cy.pk}/"' not in listing  # hidden
    player = Client().get(base + "player/", {"name": "Ann Archer"}).content.decode()
    assert f'href="{base}members/{world.ann.pk}/"' in player
