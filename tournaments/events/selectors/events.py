"""Reads about one event for the director's pages: standings, travellers, the home page's
list, tablet links, unusual results and the audit trail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from engine.scoring import method_scope, parse_artificial
from tournaments.events import access
from tournaments.events.bridge import movement_for
from tournaments.events.models import (
    Event,
    MovementRow,
    Pair,
    Result,
    Section,
    Standings,
    TableAccess,
)


def latest_standings(event: Event) -> Standings | None:
    """The newest complete standings: each version is written whole in one transaction."""
    return Standings.objects.filter(event=event).order_by("-version").first()


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


def events_visible(user: Any) -> list[Event]:
    """The home page's list: a director's own clubs' events (each marked `directed`, linking
    to the director's page) and everyone's published results."""
    mine = set(access.events_for(user).values_list("pk", flat=True)[:200])
    events = list(access.readable_events(user).select_related("club").order_by("-date", "-id")[:50])
    for event in events:
        event.directed = event.pk in mine  # type: ignore[attr-defined]
    return events


@dataclass(frozen=True)
class TabletLink:
    table: int
    token: str
    url: str


def tablet_links(event: Event, base_url: str) -> list[TabletLink]:
    """Each table's live tablet link, as the director shows and prints it."""
    return [
        TabletLink(a.table, a.token, f"{base_url}/t/{a.token}/")
        for a in TableAccess.objects.filter(section__event=event, revoked_at=None).order_by("table")
    ]


def flagged_results(event: Event) -> list[Result]:
    """Results the players were asked "are you sure?" about, for the director to glance at."""
    return list(
        Result.objects.filter(section__event=event)
        .exclude(flag="")
        .select_related("ns_pair", "ew_pair")
        .order_by("round", "table", "board_number")
    )


def tables_words(section: Section) -> str:
    """How many tables the room sets up, as the event's pages say it: "4 tables", or, where
    the sit-out keeps one table all evening, "3 tables to play at (2, 3, 4); table 1 is the
    sit-out: nobody plays there". The tables keep their numbers (the guide cards and the
    movement name them), so the words say which ones. The sit-out table is not set up: it
    has no tablet and no table card; the pair sitting out reads where it goes next on the
    tablet of the table it leaves and on its pair card."""
    movement = movement_for(section)
    playing = movement.tables_in_play
    if not movement.idle_tables:
        return f"{len(playing)} table{'s' if len(playing) != 1 else ''}"
    idle = ", ".join(str(t) for t in sorted(movement.idle_tables))
    listed = ", ".join(str(t) for t in playing)
    return (
        f"{len(playing)} table{'s' if len(playing) != 1 else ''} to play at ({listed}); "
        f"table {idle} is the sit-out: nobody plays there"
    )


@dataclass(frozen=True)
class PresenceLine:
    """A pair's arrivals and departures as the event page lists them."""

    pair: Pair
    changes: list[str]


#: The awards the director's forms offer, as seen from the pair left waiting and then the
#: absent pair; the method's own scope decides which it can score.
AWARD_CHOICES = (
    ("A+/NP", "Average-plus to the pair left waiting, nothing to the absent pair"),
    ("A/NP", "Average to the pair left waiting, nothing to the absent pair"),
    ("A+/A-", "Average-plus to the pair left waiting, average-minus to the absent pair"),
    ("NP", "Nothing either side: a sit-out"),
)


def award_choices(event: Event) -> list[tuple[str, str]]:
    """The awards `AWARD_CHOICES` the event's method can score."""
    scope = method_scope(event.method)
    return [
        (code, words)
        for code, words in AWARD_CHOICES
        if scope.artificial_refusal(parse_artificial(code)) is None
    ]


def presence_lines(pairs: list[Pair]) -> list[PresenceLine]:
    """Each pair that came late or left, with its changes in words."""
    lines = []
    for pair in pairs:
        if not pair.presence:
            continue
        changes = [
            f"{'plays' if c['present'] else 'away'} from round {c['round']}"
            + (f" ({c['award']})" if c.get("award") and c["award"] != "NP" else "")
            for c in pair.presence
        ]
        lines.append(PresenceLine(pair, changes))
    return lines


def phantom_place(section: Section) -> bool:
    """Whether a late pair may take the movement's phantom's place (an odd number of
    pairs, the phantom part of the movement)."""
    return bool(section.movement_params.get("phantom"))
