"""Reads of the club's seasons for the pages, PDF, CSV and API: the seasons, each competition's
stored table with the names the reader may see, whether the tables are behind the ledger, and
the club's evenings a competition can choose from. Nothing here recomputes a table: the pages
read what the job stored, so a page costs a few queries whatever the season's size."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Min, QuerySet, Sum

from engine.season import CompetitionRule, CompetitionTable, TableRow
from engine.season.model import FORMATS
from tournaments.drives.models import Drive
from tournaments.events.models import Event
from tournaments.kernel.models import Member
from tournaments.seasons.models import Competition, CompetitionPlay, Season, SeasonLine
from tournaments.teams.models import Tournament

#: What a public page says for a member erased from the register (or no longer in it).
FORMER_MEMBER = "Former member"

#: Each format's evenings, and the status that means published.
PLAY_MODELS: dict[str, Any] = {"event": Event, "drive": Drive, "tournament": Tournament}


def seasons_of(club_id: int) -> QuerySet[Season]:
    """The club's seasons, the latest first."""
    return Season.objects.filter(club_id=club_id).order_by("-starts", "-id")


def competitions_of(season: Season) -> list[Competition]:
    """The season's competitions in their order, with their chosen evenings."""
    return list(season.competitions.order_by("position", "id").prefetch_related("plays"))


def formats_of(competition: Competition) -> tuple[str, ...]:
    """The formats a competition counts, in the season's order."""
    counted = {
        "event": competition.count_events,
        "drive": competition.count_drives,
        "tournament": competition.count_teams,
    }
    return tuple(name for name in FORMATS if counted[name])


def rule_of(competition: Competition) -> CompetitionRule:
    """The competition's settings as the engine's rule (raises the engine's refusal when they
    cannot make a table: the services check before they store)."""
    return CompetitionRule(
        kind=competition.kind,  # type: ignore[arg-type]
        best_of=competition.best_of,
        min_sessions=competition.min_sessions,
        ties=competition.ties,  # type: ignore[arg-type]
        handicapped=competition.handicapped,
        formats=formats_of(competition),
    )


def chosen_of(competition: Competition) -> set[tuple[str, int]]:
    """The evenings chosen for the competition (empty: every published one of its formats)."""
    return {(p.format, p.play_id) for p in competition.plays.all()}


@dataclass(frozen=True)
class ShownTable:
    """A competition and its stored table, with each row's name as this reader may see it."""

    competition: Competition
    table: CompetitionTable | None
    names: dict[int, str]

    @property
    def rows(self) -> list[tuple[TableRow, str]]:
        if self.table is None:
            return []
        return [(row, self.names.get(row.member_id, FORMER_MEMBER)) for row in self.table.rows]

    @property
    def ranked(self) -> list[tuple[TableRow, str]]:
        return [(row, name) for row, name in self.rows if row.qualified]

    @property
    def unranked(self) -> list[tuple[TableRow, str]]:
        return [(row, name) for row, name in self.rows if not row.qualified]


def member_names(member_ids: set[int], *, public: bool) -> dict[int, str]:
    """Members' names as a public page shows them (`Member.shown_name()`, "Former member" once
    erased) or as the director sees them (the register's name)."""
    names = {}
    for member in Member.objects.filter(pk__in=member_ids).only(
        "pk", "name", "public_name", "erased_at"
    ):
        if member.erased_at is not None:
            names[member.pk] = FORMER_MEMBER
        else:
            names[member.pk] = member.shown_name() if public else member.name
    return names


def season_tables(season: Season, *, public: bool) -> list[ShownTable]:
    """Every competition of the season with its stored table and the names to show: one query
    for the competitions, one for their evenings, one for the members."""
    competitions = competitions_of(season)
    tables = [(c, CompetitionTable.from_dict(c.table) if c.table else None) for c in competitions]
    ids = {row.member_id for _, table in tables if table for row in table.rows}
    names = member_names(ids, public=public)
    return [ShownTable(c, table, names) for c, table in tables]


def season_page_key(season: Season) -> str:
    """What a season's public tables are drawn from, as a cache key: the season's own fields,
    its competitions' times and settings (a recompute, an edit or a removal changes them) and
    the club's register (a public-name choice, a merge or an erase changes what a row shows).
    Two small aggregate queries, so a page read costs no table's decoding while nothing
    changed."""
    tables = season.competitions.aggregate(
        n=Count("id"), ids=Sum("id"), at=Max("computed_at"), oldest=Min("computed_at"),
        moved=Sum("position"),
    )  # fmt: skip
    register = Member.objects.filter(club_id=season.club_id).aggregate(
        n=Count("id"), at=Max("updated_at"), gone=Max("erased_at")
    )
    names = "|".join(c.name for c in season.competitions.order_by("position", "id"))
    text = repr((season.pk, season.name, season.starts, season.ends, tables, register, names))
    return "season-tables:" + hashlib.sha256(text.encode()).hexdigest()


def season_as_of(season: Season) -> dt.datetime | None:
    """When the season's oldest table was computed (None: one never was)."""
    found = season.competitions.aggregate(oldest=Min("computed_at"))["oldest"]
    missing = season.competitions.filter(computed_at__isnull=True).exists()
    return None if missing else found


def season_stale(season: Season) -> bool:
    """Whether evenings reached the ledger after the season's tables were last computed (a
    job lost, or a broker down at a publish): the page then says so to the director, and the
    director's "Recompute now" catches up."""
    if not season.competitions.exists():
        return False
    as_of = season_as_of(season)
    if as_of is None:
        return True
    latest = SeasonLine.objects.filter(
        club_id=season.club_id, date__gte=season.starts, date__lte=season.ends
    ).aggregate(latest=Max("taken_at"))["latest"]
    return latest is not None and latest > as_of


@dataclass(frozen=True)
class ClubEvening:
    """One of the club's evenings a competition may choose."""

    format: str
    play_id: int
    name: str
    date: dt.date
    published: bool

    @property
    def key(self) -> str:
        return f"{self.format}:{self.play_id}"


def club_evenings(club_id: int, starts: dt.date, ends: dt.date) -> dict[str, list[ClubEvening]]:
    """The club's evenings within the dates, by format (in the season's order), by date."""
    found: dict[str, list[ClubEvening]] = {}
    for name, model in PLAY_MODELS.items():
        rows = (
            model.objects.filter(club_id=club_id, date__gte=starts, date__lte=ends)
            .order_by("date", "pk")
            .values_list("pk", "name", "date", "status")
        )
        found[name] = [
            ClubEvening(name, pk, title, date, status == "published")
            for pk, title, date, status in rows
        ]
    return found


def evenings_found(keys: set[tuple[str, int]]) -> dict[tuple[str, int], tuple[int, dt.date, str]]:
    """Each named evening that exists: its club, date and name (one query per format)."""
    found: dict[tuple[str, int], tuple[int, dt.date, str]] = {}
    for name, model in PLAY_MODELS.items():
        ids = [play_id for fmt, play_id in keys if fmt == name]
        if ids:
            for pk, club_id, date, title in model.objects.filter(pk__in=ids).values_list(
                "pk", "club_id", "date", "name"
            ):
                found[(name, pk)] = (club_id, date, title)
    return found


def competition_plays(competition_ids: list[int]) -> dict[int, set[tuple[str, int]]]:
    """The chosen evenings of several competitions, by competition (one query)."""
    found: dict[int, set[tuple[str, int]]] = {c: set() for c in competition_ids}
    for competition_id, fmt, play_id in CompetitionPlay.objects.filter(
        competition_id__in=competition_ids
    ).values_list("competition_id", "format", "play_id"):
        found[competition_id].add((fmt, play_id))
    return found
