"""The season's tables as files: the PDF's document (`engine.printing.season.SeasonSheet`,
built from the stored tables with the names the public pages show) and the CSV, one
competition's or the whole season's, in UTF-8 with a byte-order mark as the member register's
export is, so a spreadsheet opens accented names right."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence

from django.utils import timezone

from engine.exports.csv import safe_cell
from engine.printing.season import SeasonCompetition, SeasonRow, SeasonSheet
from tournaments.kernel.models import Club
from tournaments.seasons.models import Competition, Season
from tournaments.seasons.selectors.seasons import ShownTable, formats_of

FORMAT_WORDS = {"event": "pairs", "drive": "drives", "tournament": "Bid Whist teams"}
CSV_HEADER = (
    "season", "competition", "place", "name", "played", "counted", "figure", "detail", "qualified"
)  # fmt: skip


def rule_words(competition: Competition) -> str:
    """A competition's rule in words, as its page and PDF print it under its name."""
    parts = [f"Counts {', '.join(FORMAT_WORDS[f] for f in formats_of(competition))}"]
    parts.append(f"best {competition.best_of} evenings" if competition.best_of else "every evening")
    if competition.min_sessions:
        parts.append(f"{competition.min_sessions} evenings to qualify")
    parts.append(f"ties: {competition.get_ties_display().lower()}")
    if competition.handicapped:
        parts.append("handicapped")
    return "; ".join(parts) + "."


def as_of_words(as_of: dt.datetime | None) -> str:
    if as_of is None:
        return "not computed yet"
    return f"as of {timezone.localtime(as_of):%d %b %Y %H:%M}"


def season_document(
    season: Season, tables: Sequence[ShownTable], as_of: dt.datetime | None
) -> SeasonSheet:
    """The season's PDF document from its stored tables (names as the public pages show)."""
    return SeasonSheet(
        club=season.club.name,
        name=season.name,
        dates=f"{season.starts:%d %b %Y} to {season.ends:%d %b %Y}",
        as_of=as_of_words(as_of),
        competitions=[
            SeasonCompetition(
                name=shown.competition.name,
                kind=shown.competition.get_kind_display(),
                heading=shown.table.heading if shown.table else "",
                rule=rule_words(shown.competition),
                rows=[
                    SeasonRow(row.place, name, row.played, row.counted, row.shown, row.detail)
                    for row, name in shown.rows
                ],
            )
            for shown in tables
        ],
    )


def paper_of(club: Club) -> str:
    return str(club.paper)


def season_csv(tables: Sequence[ShownTable]) -> str:
    """The tables as CSV: one line a member a competition, after a header (the byte-order
    mark and the workbook are the download's: `kernel.downloads.table_response`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for shown in tables:
        for row, name in shown.rows:
            writer.writerow(
                (
                    shown.competition.season.name,
                    shown.competition.name,
                    row.place,
                    safe_cell(name),
                    row.played,
                    row.counted,
                    row.shown,
                    row.detail,
                    "yes" if row.qualified else "no",
                )
            )
    return out.getvalue()
