"""A season as a club runs one: twelve weeks of a pairs event, a whist drive and a Bid Whist
league week, 40 members and 10 visitors, six competitions, every evening published through
the formats' own services with the season's job running on each publish.

Each competition's stored table is checked against a recount written apart from the engine's:
from the formats' own stored results (an event's standings document and its pairs' links, a
drive's final totals, a tournament's standings), not from the season's ledger, with the rules
of docs/directors/season.md applied by hand.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from celery import current_app

from tournaments.drives.models import Drive, DrivePlayer
from tournaments.drives.selectors.drives import drive_state
from tournaments.events.models import Event, Pair, Standings
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.members import member_add
from tournaments.kernel.models import Club, Member, PublicName
from tournaments.seasons.models import Competition, Season
from tournaments.seasons.services.seasons import competition_add, season_create
from tournaments.seasons.services.simulation import people, season_play
from tournaments.teams.models import Tournament, TournamentTeam
from tournaments.teams.selectors.teams import standings_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.heavy]

SEASON_STARTS = dt.date(2026, 1, 6)  # a Tuesday
WEEKS = 12
#: Each week's evenings: 8 pairs, a drive of 12 players over 4 hands, a league of 6 teams.
EVENINGS: dict[str, Any] = {"pairs": 8, "drive_players": 12, "drive_hands": 4, "league_teams": 6}
BEFORE = 4  # weeks played before the season: the handicaps' and most improved's history


@pytest.fixture
def jobs_in_process() -> Iterator[None]:
    """The season's job run where it is sent, as on a laptop with no broker (`make run`): each
    publish's job then runs before the next evening starts, as a worker would keep up."""
    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = before


def test_a_twelve_week_season_recounts_from_the_stored_results(jobs_in_process: None) -> None:
    club = club_get_or_create(name="Twelve weeks")
    members = people(40)
    visitors = people(10, skip=40)
    for i, name in enumerate(members):
        public = PublicName.INITIALS if i % 8 == 3 else PublicName.FULL
        member_add(club=club, name=name, public_name=public.value)
    season = season_create(
        club=club, name="Spring 2026", starts=SEASON_STARTS,
        ends=SEASON_STARTS + dt.timedelta(days=7 * WEEKS - 1),
        handicap_basis=Season.Basis.FLUCTUATING.value, handicap_window=6, handicap_min_sessions=2,
    )  # fmt: skip
    made = {
        "ladder": competition_add(
            season=season, name="Pairs ladder", kind="ladder", best_of=8, min_sessions=4
        ),
        "handicapped": competition_add(
            season=season,
            name="Handicapped ladder",
            kind="ladder",
            best_of=8,
            min_sessions=4,
            handicapped=True,
        ),
        "improved": competition_add(
            season=season, name="Most improved", kind="improved", min_sessions=3
        ),
        "drive": competition_add(
            season=season,
            name="Drive of the year",
            kind="total",
            count_events=False,
            count_drives=True,
            best_of=10,
            ties="sessions",
        ),
        "attendance": competition_add(
            season=season,
            name="Most evenings",
            kind="attendance",
            count_drives=True,
            count_teams=True,
        ),
        "league": competition_add(
            season=season,
            name="Bid Whist league",
            kind="league",
            count_events=False,
            count_teams=True,
        ),
    }
    # Two weeks before the season (history), then the season's twelve: each publish sends the
    # job that takes the evening into the ledger and recomputes the season's tables.
    season_play(
        club=club, starts=SEASON_STARTS - dt.timedelta(days=7 * BEFORE), weeks=BEFORE,
        members=members, visitors=visitors, seed=5, **EVENINGS,
    )  # fmt: skip
    played = season_play(
        club=club, starts=SEASON_STARTS, weeks=WEEKS, members=members, visitors=visitors, seed=6,
        **EVENINGS,
    )  # fmt: skip
    assert len(played.events) == len(played.drives) == len(played.tournaments) == WEEKS
    linked = Pair.objects.filter(section__event__club=club, member1__isnull=False).count()
    assert linked > 0, "the pairs' names were not linked to the register"

    recount = Recount(club, season)
    tables: dict[str, dict[str, Any]] = {}
    for key, competition in made.items():
        table = Competition.objects.get(pk=competition.pk).table
        assert table is not None, f"{competition.name} was never computed"
        tables[key] = table
    assert tables["ladder"]["evenings"] == WEEKS
    assert rows_of(tables["ladder"]) == recount.ranked(recount.ladder(best=8), min_played=4)
    assert rows_of(tables["handicapped"]) == recount.ranked(
        recount.ladder(best=8, handicapped=True), min_played=4
    )
    assert rows_of(tables["improved"]) == recount.ranked(recount.improved(), min_played=3)
    assert rows_of(tables["drive"]) == recount.ranked(
        recount.drive_total(best=10), tie=lambda m: recount.drive_nights(m)
    )
    assert rows_of(tables["attendance"]) == recount.ranked(recount.attendance())
    assert rows_of(tables["league"]) == recount.league()
    # Enough of each table is ranked for the comparisons to mean something, and the
    # handicaps moved the ladder (a handicapped ladder equal to the scratch one tests nothing).
    ranked = {key: len(rows_of(table)) for key, table in tables.items()}
    assert ranked["ladder"] >= 12 and ranked["improved"] >= 4 and ranked["drive"] >= 30
    assert ranked["league"] == 12 and ranked["attendance"] >= 35
    assert rows_of(tables["handicapped"]) != rows_of(tables["ladder"])
    # Visitors are never listed; every member who came is.
    listed = {row["name"] for t in tables.values() for row in t["rows"]}
    assert not listed & set(visitors)
    assert {row["member_id"] for row in tables["attendance"]["rows"]} == recount.came


def rows_of(table: dict[str, Any]) -> list[tuple[str, int, Fraction]]:
    """A stored table's ranked rows as (place, member, exact figure), best first."""
    return [
        (row["place"], row["member_id"], Fraction(row["figure"]))
        for row in table["rows"]
        if row["qualified"]
    ]


class Recount:
    """The season's figures read again from the formats' own stored results."""

    def __init__(self, club: Club, season: Season) -> None:
        self.season = season
        in_season = {"date__gte": season.starts, "date__lte": season.ends, "club": club}
        # Pairs: each published event's latest standings, each row's pair and its links.
        self.pcts: dict[int, list[tuple[dt.date, int, Fraction, int | None]]] = defaultdict(list)
        history: dict[int, list[tuple[dt.date, int, Fraction]]] = defaultdict(list)
        events = Event.objects.filter(club=club, status="published")
        for event in events:
            doc = Standings.objects.filter(event=event).order_by("-version").first()
            assert doc is not None
            pairs = {(p.number, p.direction): p for p in Pair.objects.filter(section__event=event)}
            for section in doc.data["sections"]:
                for field in section["fields"]:
                    for row in field["rows"]:
                        pair = pairs[
                            (row["pair"], "" if section["one_winner"] else row["direction"])
                        ]
                        pct = Fraction(row["percentage"]["exact"])
                        for me, other in ((pair.member1_id, pair.member2_id),
                                          (pair.member2_id, pair.member1_id)):  # fmt: skip
                            if me is None:
                                continue
                            history[me].append((event.date, event.pk, pct))
                            if season.starts <= event.date <= season.ends:
                                self.pcts[me].append((event.date, event.pk, pct, other))
        self.history = {m: sorted(rows) for m, rows in history.items()}
        # Drives: each published drive's final totals, by its players' links.
        self.drive_points: dict[int, list[Fraction]] = defaultdict(list)
        for drive in Drive.objects.filter(status="published", **in_season):
            links = dict(DrivePlayer.objects.filter(drive=drive).values_list("number", "member"))
            for line in drive_state(drive).standings:
                if links.get(line.player):
                    self.drive_points[links[line.player]].append(Fraction(line.total))
        # Bid Whist: each published week's standings, by its teams' links.
        self.league_rows: dict[int, list[tuple[Fraction, int]]] = defaultdict(list)
        for night in Tournament.objects.filter(status="published", **in_season):
            teams = {t.number: t for t in TournamentTeam.objects.filter(tournament=night)}
            for row in standings_of(night):
                team = teams[row.team.number]
                for member in (team.member_one_id, team.member_two_id):
                    if member:
                        self.league_rows[member].append((row.wins, row.points_for))
        self.came = set(self.pcts) | set(self.drive_points) | set(self.league_rows)

    def handicap(self, member: int | None, day: dt.date) -> Fraction:
        """50 less the average of the member's last 6 pairs percentages before `day`, from 2
        of them; 0 for a visitor or with fewer (the season's rule, fluctuating)."""
        if member is None:
            return Fraction(0)
        before = [p for d, _, p in self.history.get(member, []) if d < day][-6:]
        return Fraction(50) - mean(before) if len(before) >= 2 else Fraction(0)

    def ladder(self, *, best: int, handicapped: bool = False) -> dict[int, tuple[Fraction, int]]:
        found = {}
        for member, rows in self.pcts.items():
            figures = []
            for day, _, pct, partner in rows:
                if handicapped:
                    pct += (self.handicap(member, day) + self.handicap(partner, day)) / 2
                figures.append(pct)
            top = sorted(figures, reverse=True)[:best]
            found[member] = (mean(top), len(figures))
        return found

    def improved(self) -> dict[int, tuple[Fraction, int]]:
        found = {}
        for member, rows in self.pcts.items():
            before = [p for d, _, p in self.history[member] if d < self.season.starts][-6:]
            if len(before) < 2:
                continue  # no average before the season: listed, unqualified
            now = [p for _, _, p, _ in rows]
            found[member] = (mean(now) - mean(before), len(now))
        return found

    def drive_total(self, *, best: int) -> dict[int, tuple[Fraction, int]]:
        return {
            m: (sum(sorted(points, reverse=True)[:best], Fraction(0)), len(points))
            for m, points in self.drive_points.items()
        }

    def drive_nights(self, member: int) -> int:
        return len(self.drive_points[member])

    def attendance(self) -> dict[int, tuple[Fraction, int]]:
        nights = {
            m: len(self.pcts.get(m, ())) + len(self.drive_points.get(m, ()))
            + len(self.league_rows.get(m, ()))
            for m in self.came
        }  # fmt: skip
        return {m: (Fraction(n), n) for m, n in nights.items()}

    def ranked(
        self,
        figures: dict[int, tuple[Fraction, int]],
        *,
        min_played: int = 0,
        tie: Any = None,
    ) -> list[tuple[str, int, Fraction]]:
        """Standard competition ranking of the qualified (see `places`), by the figure and
        then the tie rule's key."""
        return places({
            m: (figure, tie(m) if tie else 0)
            for m, (figure, played) in figures.items()
            if played >= min_played
        })  # fmt: skip

    def league(self) -> list[tuple[str, int, Fraction]]:
        """Games won, then points scored, then evenings played: level on all three, tied."""
        return places({
            m: (sum((w for w, _ in rows), Fraction(0)), sum(p for _, p in rows), len(rows))
            for m, rows in self.league_rows.items()
        })  # fmt: skip


def mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def places(keys: dict[int, tuple[Any, ...]]) -> list[tuple[str, int, Fraction]]:
    """Best key first (names break no tie: they only order the members who share a place):
    a member's place is one more than the number strictly ahead, with "=" when another has
    the same key; each row (place, member, the key's first figure)."""
    names = dict(Member.objects.filter(pk__in=keys).values_list("pk", "name"))
    order = sorted(keys, key=lambda m: (tuple(-k for k in keys[m]), names[m].casefold(), m))
    out = []
    for m in order:
        ahead = sum(1 for o in keys if keys[o] > keys[m])
        level = sum(1 for o in keys if keys[o] == keys[m]) > 1
        out.append((f"{ahead + 1}{'=' if level else ''}", m, keys[m][0]))
    return out
