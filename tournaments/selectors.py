"""Read-side queries for pages and the API: they never write."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from tournaments.models import (
    Club,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Result,
    Section,
    Standings,
)
from tournaments.services.results import boards_of_set


def latest_standings(event: Event) -> Standings | None:
    """The newest complete standings: each version is written whole in one transaction."""
    return Standings.objects.filter(event=event).order_by("-version").first()


@dataclass
class TableStatus:
    table: int
    round: int | None  # the round the table is on; None when it has finished
    ns: int
    ew: int
    boards: range
    entered: int = 0
    confirmed: int = 0
    disputed: int = 0
    missing: int = 0
    sit_out: bool = False
    calls: list[DirectorCall] = field(default_factory=list)

    @property
    def state(self) -> str:
        if self.calls or self.disputed:
            return "attention"
        if self.round is None:
            return "done"
        if self.entered:
            return "waiting"
        return "playing"


def room_view(event: Event) -> dict[str, Any]:
    """Per table: the round it is on and where its results stand; open director calls first."""
    section = event.section
    rows = list(MovementRow.objects.filter(section=section).order_by("table", "round"))
    results = defaultdict(list)
    for r in Result.objects.filter(section=section).values("round", "table", "status"):
        results[(r["round"], r["table"])].append(r["status"])
    calls: dict[int, list[DirectorCall]] = defaultdict(list)
    for call in DirectorCall.objects.filter(section=section, handled_at__isnull=True):
        calls[call.table].append(call)
    absent = _absent_numbers(section)

    def sits_out(row: MovementRow) -> bool:
        """The movement's phantom, or a pair marked absent, leaves the table without a game."""
        return not (row.ns_pair and row.ew_pair) or (
            _is_absent(section, absent, row.ns_pair, "NS")
            or _is_absent(section, absent, row.ew_pair, "EW")
        )

    per_table: dict[int, list[MovementRow]] = defaultdict(list)
    for row in rows:
        per_table[row.table].append(row)
    tables = []
    done_rounds = 0
    for table, table_rows in sorted(per_table.items()):
        current = None
        for row in table_rows:
            statuses = results[(row.round, row.table)]
            need = 0 if sits_out(row) else section.boards_per_round
            settled = sum(s in Result.COUNTING for s in statuses)
            if settled < need or Result.Status.DISPUTED in statuses:
                current = row
                break
        row = current or table_rows[-1]
        statuses = results[(row.round, row.table)]
        status = TableStatus(
            table=table,
            round=current.round if current else None,
            ns=row.ns_pair,
            ew=row.ew_pair,
            boards=boards_of_set(section, row.board_set),
            entered=statuses.count(Result.Status.ENTERED),
            confirmed=sum(s in Result.COUNTING for s in statuses),
            disputed=statuses.count(Result.Status.DISPUTED),
            sit_out=sits_out(row),
            calls=calls.get(table, []),
        )
        status.missing = (
            0
            if status.sit_out
            else max(
                0, section.boards_per_round - status.entered - status.confirmed - status.disputed
            )
        )
        if current is None:
            done_rounds += 1
        tables.append(status)
    total = Result.objects.filter(section=section).count()
    expected = sum(section.boards_per_round for row in rows if not sits_out(row))
    return {
        "section": section,
        "tables": tables,
        "results_in": total,
        "results_expected": expected,
        "tables_done": done_rounds,
        "open_calls": [c for cs in calls.values() for c in cs],
    }


def _absent_numbers(section: Section) -> set[tuple[int, str]]:
    return set(
        Pair.objects.filter(section=section, is_phantom=True).values_list("number", "direction")
    )


def _is_absent(section: Section, absent: set[tuple[int, str]], number: int, seat: str) -> bool:
    return (number, section.direction_of(seat)) in absent


@dataclass(frozen=True)
class TravellerRow:
    round: int
    table: int
    ns_pair: Pair
    ew_pair: Pair
    result: Result | None


def traveller(section: Section, board_number: int) -> list[TravellerRow]:
    """Every meeting that plays this board, in round order, with its result if there is one."""
    k = section.boards_per_round
    board_set = (board_number - 1) // k + 1
    pairs = {(p.number, p.direction): p for p in Pair.objects.filter(section=section)}
    results = {
        r.ns_pair_id: r
        for r in Result.objects.filter(section=section, board_number=board_number).select_related(
            "ns_pair", "ew_pair"
        )
    }
    rows = []
    for row in MovementRow.objects.filter(section=section, board_set=board_set).order_by(
        "round", "table"
    ):
        if not (row.ns_pair and row.ew_pair):
            continue
        ns = pairs[(row.ns_pair, section.direction_of("NS"))]
        ew = pairs[(row.ew_pair, section.direction_of("EW"))]
        if (ns.is_phantom or ew.is_phantom) and ns.pk not in results:
            continue
        rows.append(
            TravellerRow(
                round=row.round, table=row.table, ns_pair=ns, ew_pair=ew, result=results.get(ns.pk)
            )
        )
    return rows


def traveller_counts(event: Event) -> dict[int, int]:
    """How many results each board has, for the director's board picker."""
    rows = (
        Result.objects.filter(section__event=event)
        .values_list("board_number")
        .annotate(n=Count("id"))
        .values_list("board_number", "n")
    )
    return dict(rows)


def default_club_name() -> str:
    """The club new events belong to (one club per installation, until clubs have members)."""
    club = Club.objects.order_by("pk").first()
    return club.name if club else "My whist club"


def events_visible(*, signed_in: bool) -> list[Event]:
    """The home page's list: every event for a director, published ones for anyone else."""
    events = Event.objects.select_related("club")
    if not signed_in:
        events = events.filter(status=Event.Status.PUBLISHED)
    return list(events[:50])
