"""The season's ledger kept in step with the formats' published results.

An evening published (or reopened) sends `kernel.jobs.SEASON_PLAY_CHANGED`; its task calls
`play_refresh`, which replaces that evening's lines with what the format's results now say
(none once it is no longer published). `club_rebuild` takes every published evening of a club
again: after a restore, or when a broker was down while evenings were published. Both are
idempotent, so a task run twice does no harm.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.kernel.models import Club
from tournaments.kernel.refusals import Refused
from tournaments.seasons.models import SeasonLine
from tournaments.seasons.selectors.ledger import PUBLISHED, SOURCES, figures_of


class UnknownFormat(Refused):
    """A format the season does not know (a task sent with a wrong name)."""


def play_refresh(*, format_name: str, play_id: int) -> int | None:
    """Take one evening's lines again; the evening's club (None: no such evening)."""
    source = SOURCES.get(format_name)
    if source is None:
        raise UnknownFormat(f"No such format as {format_name!r}: {', '.join(SOURCES)}.")
    club_id, found = source(play_id)
    with transaction.atomic():
        SeasonLine.objects.filter(format=format_name, play_id=play_id).delete()
        if club_id is not None:
            SeasonLine.objects.bulk_create(
                SeasonLine(
                    club_id=club_id,
                    format=a.format,
                    play_id=a.play_id,
                    play_name=a.play_name,
                    date=a.date,
                    entrant=a.entrant,
                    member_id=a.member_id,
                    name=a.name,
                    rank=a.rank,
                    field_size=a.field_size,
                    figures=figures_of(a),
                )
                for a in found
            )
    return club_id


def club_rebuild(*, club: Club) -> int:
    """Take every published evening of the club again, and drop the lines of evenings no
    longer published; how many evenings the ledger now holds."""
    taken = 0
    for format_name, published in PUBLISHED.items():
        ids = published(club.pk)
        SeasonLine.objects.filter(club=club, format=format_name).exclude(play_id__in=ids).delete()
        for play_id in ids:
            play_refresh(format_name=format_name, play_id=play_id)
            taken += 1
    return taken
