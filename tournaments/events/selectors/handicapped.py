"""An event's handicapped standings, beside the scratch ones: each pair's handicap (the mean
of its two linked members' handicaps, a visitor counting 0) added to its percentage, ranked.

Only for events scored by matchpoints, and only when a season of the club covers the event's
date: the figures come from the seasons through the kernel's slot
(`kernel.handicaps.handicaps_for`), since this package may not import the seasons (see that
module for why). Computed from the standings document the reader was given, never from the
stored rows: a running event's public page passes the document of finished boards only, so the
handicapped table shows no more than the scratch one beside it (card secrecy).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.scoring.document import StandingsDocument
from engine.scoring.model import format_points
from engine.season import handicapped_standings, pair_handicap, signed
from tournaments.events.models import Event, Pair
from tournaments.kernel.handicaps import handicaps_for


@dataclass(frozen=True)
class HandicappedRow:
    """One pair's line of the handicapped table, as pages and exports show it."""

    key: str  # "NS3", "3": the pair's key in the standings
    pair: str  # "NS 3", "3"
    names: str
    rank: str
    percentage: Fraction
    handicap: Fraction
    handicapped: Fraction

    @property
    def percentage_text(self) -> str:
        return format_points(self.percentage)

    @property
    def handicap_text(self) -> str:
        return signed(self.handicap)

    @property
    def handicapped_text(self) -> str:
        return format_points(self.handicapped)


@dataclass(frozen=True)
class HandicappedField:
    """One field's handicapped table (a section's NS, EW or single field)."""

    section: str
    field: str
    title: str
    rows: tuple[HandicappedRow, ...]


def event_handicapped(event: Event, document: StandingsDocument | None) -> list[HandicappedField]:
    """The handicapped tables of `document` (as this reader may see it), field by field;
    none for an event not scored by matchpoints or on a date no season covers."""
    if document is None or document.method != "mp":
        return []
    figures = handicaps_for(event.club_id, event.date)
    if figures is None:
        return []
    members = {
        (section, number, direction): (first, second)
        for section, number, direction, first, second in Pair.objects.filter(
            section__event=event, is_phantom=False
        ).values_list("section__name", "number", "direction", "member1", "member2")
    }
    found = []
    for section in document.sections:
        for field in section.fields:
            rows = {row.key: row for row in field.rows}
            pairs = []
            for row in field.rows:
                if row.withdrew or row.percentage is None:
                    continue  # unranked in the scratch table: unranked here too
                direction = "" if section.one_winner else row.direction
                first, second = members.get((section.name, row.pair, direction), (None, None))
                handicap = pair_handicap(
                    figures.get(first, Fraction(0)) if first else Fraction(0),
                    figures.get(second, Fraction(0)) if second else Fraction(0),
                )
                pairs.append((row.key, row.percentage.value, handicap))
            lines = tuple(
                HandicappedRow(
                    key=line.key,
                    pair=f"{rows[line.key].direction} {rows[line.key].pair}".strip(),
                    names=rows[line.key].names,
                    rank=line.rank,
                    percentage=line.percentage,
                    handicap=line.handicap,
                    handicapped=line.handicapped,
                )
                for line in handicapped_standings(pairs)
            )
            if lines:
                title = "Handicapped" if field.name == "ALL" else f"Handicapped: {field.name}"
                found.append(HandicappedField(section.name, field.name, title, lines))
    return found


def handicap_columns(
    event: Event, document: StandingsDocument
) -> dict[tuple[str, str], tuple[Fraction, Fraction]] | None:
    """For the CSV export: (section, pair key) -> (pair handicap, handicapped percentage);
    None when the event has no handicapped standings (then the CSV has no such columns)."""
    fields = event_handicapped(event, document)
    if not fields:
        return None
    return {
        (field.section, row.key): (row.handicap, row.handicapped)
        for field in fields
        for row in field.rows
    }
