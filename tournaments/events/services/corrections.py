"""A director's changes to results: corrections, artificial scores and fouled boards.

Each one is audited with the state before and after, settles the calls it answers and moves the
standings on; a correction made against a stale copy of the result is refused
(`CorrectionConflict`), never applied over another director's change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.scoring import method_scope, parse_artificial
from tournaments.events.bridge import as_int_score, engine_board, meeting_rows, rules_for
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    Pair,
    Result,
    Section,
)
from tournaments.events.selectors.room import sit_outs
from tournaments.events.services.audit import audit_record
from tournaments.events.services.results import (
    ResultConflict,
    ResultError,
    result_revision,
    seating_for,
    signed_score,
)
from tournaments.events.services.scoring import results_changed
from tournaments.kernel.audit import User, actor


def _snapshot(result: Result) -> dict[str, Any]:
    return {
        "entry": result.entry,
        "ns_score": result.ns_score,
        "status": result.status,
        "artificial_code": result.artificial_code,
    }


class CorrectionConflict(ResultConflict):
    """A correction made from a result that another change has replaced since the director
    looked at it (HTTP 409, with the stored result): applying it would silently undo that
    change, so nothing is saved and the director is shown what is stored now."""


@transaction.atomic
def result_correct(
    *,
    result: Result,
    entry: Mapping[str, Any],
    reason: str,
    user: User = None,
    seen: str | None = None,
) -> Result:
    """The director replaces a result's entry; the old one stays in the audit trail.

    Two directors correcting one result at once are taken one after the other (the row is
    locked for the whole change). With `seen`, the `result_revision` the director's form was
    made from, the second is refused with CorrectionConflict if the first changed the result
    meanwhile: its director decided from an entry that is no longer there. Without `seen`
    (scripts, older API clients) both apply in that order, each audited with the entry it
    replaced, so the trail shows both.
    """
    if not reason.strip():
        raise ResultError("Say why the result is being corrected.")
    result = Result.objects.select_for_update().select_related("section__event").get(pk=result.pk)
    event = result.section.event
    if event.status == Event.Status.DRAFT:
        raise ResultError("The event has not started.")
    if seen is not None and seen != result_revision(result):
        raise CorrectionConflict(_changed_since(result, event), result)
    board = Board.objects.get(event=event, number=result.board_number)
    rules = rules_for(event)
    parsed = rules.parse_entry(engine_board(board), dict(entry))
    before = _snapshot(result)
    result.entry = rules.entry_to_dict(parsed)
    result.ns_score = as_int_score(rules.ns_score(engine_board(board), parsed))
    result.status = Result.Status.CORRECTED
    result.artificial_code = ""
    return _save_directors_change(result, event, user, "result corrected", before, reason)


def _changed_since(result: Result, event: Event) -> str:
    """What a refused correction's director is told: what the result reads now, and who
    changed it, when and why (its newest audit entry)."""
    now = (
        f"NS {signed_score(result.ns_score)}"
        if result.entry is not None
        else (f"artificial {result.artificial_code}")
    )
    change = (
        AuditEntry.objects.filter(event=event, target=_audit_target(result))
        .select_related("user")
        .order_by("-at", "-id")
        .first()
    )
    by = ""
    if change is not None:
        who = change.user.get_username() if change.user else "someone"
        when = timezone.localtime(change.at).strftime("%H:%M:%S")
        by = f" by {who} at {when}" + (f" ({change.reason})" if change.reason else "")
    return (
        f"Board {result.board_number} was changed{by} after you opened it; it now reads "
        f"{now}. Nothing was saved: look at the result as it is now and correct it again "
        "if it still needs it."
    )


def _audit_target(result: Result) -> str:
    return f"board {result.board_number}, {result.ns_pair.label} v {result.ew_pair.label}"


def _save_directors_change(
    result: Result, event: Event, user: User, action: str, before: Any, reason: str
) -> Result:
    """Save a result the director changed, audit it with before and after, rescore. A
    dispute's director call is settled by the change: the director has ruled on it."""
    result.save()
    DirectorCall.objects.filter(
        section_id=result.section_id,
        table=result.table,
        round=result.round,
        board_number=result.board_number,
        handled_at__isnull=True,
    ).update(handled_at=timezone.now())
    audit_record(
        event=event,
        user=user,
        action=action,
        target=_audit_target(result),
        before=before,
        after=_snapshot(result),
        reason=reason,
    )
    results_changed(event=event)
    return result


@transaction.atomic
def result_set_artificial(
    *,
    section: Section,
    round: int,
    table: int,
    board_number: int,
    code: str,
    reason: str,
    user: User = None,
) -> Result:
    """Give an artificial score (A+, A, A-, split like A+/A-, NP for not played)."""
    if not reason.strip():
        raise ResultError("Say why the artificial score is given.")
    event = Event.objects.get(pk=section.event_id)
    if event.status == Event.Status.DRAFT:
        raise ResultError("The event has not started.")
    ns_code, ew_code = parse_artificial(code)
    refusal = method_scope(event.method).artificial_refusal((ns_code, ew_code))
    if refusal is not None:  # refused here, not by every standings and export afterwards
        raise ResultError(f"Board {board_number}: {refusal}.")
    canonical = ns_code if ns_code == ew_code else f"{ns_code}/{ew_code}"
    seating = seating_for(
        section=section, round=round, table=table, board_number=board_number, absent_ok=True
    )
    result = (
        Result.objects.select_for_update()
        .filter(section=section, board_number=board_number, ns_pair=seating.ns_pair)
        .first()
    )
    before = _snapshot(result) if result else None
    if result is None:
        result = Result(
            section=section,
            board_number=board_number,
            round=round,
            table=table,
            ns_pair=seating.ns_pair,
            ew_pair=seating.ew_pair,
            entered_by=actor(user),
        )
    result.entry = None
    result.ns_score = None
    result.status = Result.Status.ARTIFICIAL
    result.artificial_code = canonical
    return _save_directors_change(result, event, user, "artificial score", before, reason)


@transaction.atomic
def board_mark_fouled(*, board: Board, fouled: bool, reason: str, user: User = None) -> Board:
    """A fouled board (cards mixed between hands) is scored Average to everyone who played it.

    The results entered for it are kept untouched and shown; un-marking the board brings them
    back into the comparison. A method with no Average to give (total points) refuses it.
    """
    if not reason.strip():
        raise ResultError("Say why the board is marked.")
    board = Board.objects.select_for_update().select_related("event").get(pk=board.pk)
    if board.fouled == fouled:
        return board
    refusal = method_scope(board.event.method).fouled_refusal() if fouled else None
    if refusal is not None:  # refused here, not by every standings and export afterwards
        raise ResultError(f"Board {board.number}: {refusal}.")
    board.fouled = fouled
    board.save(update_fields=["fouled"])
    audit_record(
        event=board.event,
        user=user,
        action="board fouled" if fouled else "board unfouled",
        target=f"board {board.number}",
        before={"fouled": not fouled},
        after={"fouled": fouled},
        reason=reason,
    )
    results_changed(event=board.event)
    return board


def award_create(
    *,
    section: Section,
    number: int,
    round: int,
    table: int,
    pairs: tuple[Pair, Pair],
    code: str,
    device: str,
    user: User = None,
) -> Result:
    """An artificial score given by the director's tools for a board nobody played: `code`
    (canonical: "A", or "A+/A-" for North-South's then East-West's), stored with `device`
    naming which tool gave it (`Result.UNFINISHED_DEVICE`, the presence service's
    `ABSENCE_DEVICE`), so that tool alone may later take it back or replace it. `pairs`:
    North-South's, East-West's."""
    return Result.objects.create(
        section=section,
        board_number=number,
        round=round,
        table=table,
        ns_pair=pairs[0],
        ew_pair=pairs[1],
        entry=None,
        ns_score=None,
        status=Result.Status.ARTIFICIAL,
        artificial_code=code,
        entered_by_device=device,
        entered_by=actor(user),
    )


def unfinished_averages(*, section: Section, before: int, code: str, user: User = None) -> int:
    """A table that has not finished when the director starts the next round: each board of
    the rounds before `before` that a meeting playing it has no result for gets `code` (the
    movement's average, "A", unless the director says otherwise), marked as the unfinished
    table's (`Result.UNFINISHED_DEVICE`); how many were given. A board with any result
    (entered, disputed, played) is left alone; a result typed afterwards for one of these
    boards replaces its average (`result_submit`); each can be changed on the
    artificial-score page. Call inside the round's start."""
    stored = set(
        Result.objects.filter(section=section, round__lt=before).values_list(
            "round", "table", "board_number"
        )
    )
    no_game = sit_outs(section)
    pairs = {(p.number, p.direction): p for p in Pair.objects.filter(section=section)}
    given = 0
    for (rnd, table), row in sorted(meeting_rows(section).items()):
        if rnd >= before or (rnd, table) in no_game:
            continue
        ns = pairs[(row.ns_pair, section.direction_of("NS"))]
        ew = pairs[(row.ew_pair, section.direction_of("EW"))]
        for number in section.boards_of_set(row.board_set):
            if (rnd, table, number) in stored:
                continue
            award_create(
                section=section,
                number=number,
                round=rnd,
                table=table,
                pairs=(ns, ew),
                code=code,
                device=Result.UNFINISHED_DEVICE,
                user=user,
            )
            given += 1
    return given
