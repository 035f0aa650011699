"""Closing an event without surprises: what is still missing is shown, and nothing is closed
over it without the director deciding.

Before this, "Close the event" went through with 12 of 120 results in, and a pair with two
boards could top the ranking. Now closing first looks at every meeting of the movement (sit
-outs and absent pairs left out) and finds boards with no result at all, results still
waiting for the opponents' confirmation (they do not count), disputed results and director
calls not marked handled. Boards with no result need a decision about how they score: not
played (NP: left out of both pairs' percentages) or Average (A to both); the rest needs the
director's explicit "close anyway". Publishing takes a closed event, so it inherits this.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from tournaments.events.bridge import meeting_rows
from tournaments.events.models import DirectorCall, Event, Result
from tournaments.events.selectors import sit_outs
from tournaments.events.services.corrections import result_set_artificial
from tournaments.events.services.events import EventError, event_finish
from tournaments.kernel.audit import User

#: How a board with no result may be scored when the event closes.
MISSING_CHOICES = {"not-played": "NP", "average": "A"}


@dataclass(frozen=True)
class MissingBoard:
    round: int
    table: int
    board: int
    ns: int
    ew: int


@dataclass
class ClosingReport:
    missing: list[MissingBoard] = field(default_factory=list)
    waiting: list[Result] = field(default_factory=list)  # entered, not confirmed
    disputed: list[Result] = field(default_factory=list)
    open_calls: list[DirectorCall] = field(default_factory=list)

    @property
    def clear(self) -> bool:
        return not (self.missing or self.waiting or self.disputed or self.open_calls)

    @property
    def needs_confirmation(self) -> bool:
        return bool(self.waiting or self.disputed or self.open_calls)

    def summary(self) -> str:
        """One sentence for a refusal: what is missing, in counts."""
        parts = []
        if self.missing:
            parts.append(f"{len(self.missing)} board(s) have no result")
        if self.waiting:
            parts.append(f"{len(self.waiting)} result(s) wait for the opponents' confirmation")
        if self.disputed:
            parts.append(f"{len(self.disputed)} result(s) are disputed")
        if self.open_calls:
            parts.append(f"{len(self.open_calls)} director call(s) are not marked handled")
        return "; ".join(parts)


def closing_report(event: Event) -> ClosingReport:
    section = event.section
    no_game = sit_outs(section)
    results = list(
        Result.objects.filter(section=section).order_by("round", "table", "board_number")
    )
    have = {(r.round, r.table, r.board_number) for r in results}
    report = ClosingReport()
    for (rnd, table), row in sorted(meeting_rows(section).items()):
        if (rnd, table) in no_game:
            continue
        for board in section.boards_of_set(row.board_set):
            if (rnd, table, board) not in have:
                report.missing.append(MissingBoard(rnd, table, board, row.ns_pair, row.ew_pair))
    report.waiting = [r for r in results if r.status == Result.Status.ENTERED]
    report.disputed = [r for r in results if r.status == Result.Status.DISPUTED]
    report.open_calls = list(
        DirectorCall.objects.filter(section=section, handled_at__isnull=True).order_by("table")
    )
    return report


def event_close(
    *, event: Event, missing: str | None = None, confirm: bool = False, user: User = None
) -> Event:
    """Close the event once the director has decided about everything `closing_report` finds:
    `missing` says how boards with no result score ("not-played" or "average"); `confirm`
    closes over results waiting for confirmation, disputes and open calls. Refusals say what
    is missing and change nothing."""
    if event.status != Event.Status.RUNNING:
        return event_finish(event=event, user=user)  # the usual refusal, in its words
    report = closing_report(event)
    if report.missing and missing not in MISSING_CHOICES:
        first = report.missing[0]
        raise EventError(
            f"{report.summary()}. Choose how boards with no result score (not played or "
            f"average) before closing; the first is board {first.board} at table "
            f"{first.table} in round {first.round}."
        )
    if report.needs_confirmation and not confirm:
        raise EventError(f"{report.summary()}. Settle them, or confirm that you close anyway.")
    code = MISSING_CHOICES.get(missing or "", "")
    # Each artificial score commits on its own, before closing takes the scorer's locks (the
    # order results processing uses), so closing never waits on a lock it holds the other of.
    for gap in report.missing:
        with transaction.atomic():
            result_set_artificial(
                section=event.section,
                round=gap.round,
                table=gap.table,
                board_number=gap.board,
                code=code,
                reason="no result when the event was closed",
                user=user,
            )
    return event_finish(event=Event.objects.get(pk=event.pk), user=user)
