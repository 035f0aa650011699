"""The event's deals as PBN hand records (the boards download), with each board's double-dummy
table and par where they are computed."""

from __future__ import annotations

from engine.exports.pbn_results import dumps_hand_records
from tournaments.events.bridge import engine_board
from tournaments.events.models import Board, Event


def board_analyses(event: Event) -> dict[int, dict[str, object]]:
    """Each board's stored double-dummy analysis (table and par), where it is done."""
    return {
        b.number: dict(b.par)
        for b in Board.objects.filter(event=event, par_status=Board.ParStatus.DONE)
        if isinstance(b.par, dict)
    }


def hand_records_pbn(event: Event) -> str:
    """The event's deals as PBN hand records: Event, Site, Date, the deal, and the
    double-dummy table and par where they are computed (for the boards download)."""
    boards = [engine_board(b) for b in Board.objects.filter(event=event).order_by("number")]
    return dumps_hand_records(
        boards,
        title=event.name,
        club=event.club.name,
        date=event.date.isoformat(),
        analyses=board_analyses(event),
    )
