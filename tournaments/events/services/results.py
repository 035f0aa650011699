"""Results: submitted from the tables or from paper travellers, confirmed, corrected, made
artificial. Every accepted result is kept; a director's change is audited with before and after.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from clubwhist.queries import Prepared
from engine.games import Entry
from tournaments.events.bridge import (
    MeetingRow,
    as_int_score,
    engine_board,
    meeting_rows,
    rules_for,
)
from tournaments.events.models import Board, DirectorCall, Event, Pair, Result, Section
from tournaments.events.selectors.section_snapshot import SectionSnapshot
from tournaments.events.selectors.tablet_cache import result_changed, tables_changed
from tournaments.events.services.audit import audit_record
from tournaments.events.services.scoring import results_changed
from tournaments.kernel.audit import User, actor
from tournaments.kernel.refusals import Kind, Refused


class ResultError(Refused):
    """A result that cannot be accepted; the message tells the player or director what to fix."""


class ResultConflict(ResultError):
    """A submission that contradicts a result already stored (HTTP 409): never answered as if it
    had been accepted; the players see it and the director decides (`result_correct`)."""

    kind = Kind.CONFLICT

    def __init__(self, message: str, stored: Result) -> None:
        super().__init__(message)
        self.stored = stored

    def details(self) -> dict[str, Any]:
        return {"stored": result_summary(self.stored)}


@dataclass(frozen=True)
class Seating:
    """Who plays a board at a table in a round, found from the movement."""

    section: Section
    row: MeetingRow
    board: Board
    ns_pair: Pair
    ew_pair: Pair


def seating_for(
    *,
    section: Section,
    round: int,
    table: int,
    board_number: int,
    snapshot: SectionSnapshot | None = None,
    absent_ok: bool = False,
) -> Seating:
    """The meeting's board and pairs, checked; from `snapshot` (the process's copy of the
    section, under a version read before this request's reads) when given. A meeting with a
    pair away that round has no game; `absent_ok` takes it all the same (the director giving
    it an artificial score)."""
    row = meeting_rows(section).get((round, table))
    if row is None:
        raise ResultError(
            f"Round {round}, table {table} is not in this event's movement "
            f"({section.rounds} rounds, {section.tables} tables)."
        )
    boards = section.boards_of_set(row.board_set)
    if board_number not in boards:
        raise ResultError(
            f"Table {table} plays boards {boards.start}-{boards.stop - 1} in round {round}, "
            f"not board {board_number}."
        )
    if row.ns_pair == 0 or row.ew_pair == 0:
        raise ResultError(f"Table {table} has a sit-out in round {round}: no result to enter.")
    ns_direction, ew_direction = section.direction_of("NS"), section.direction_of("EW")
    if snapshot is not None:
        board = snapshot.boards[board_number]
        found: Mapping[tuple[int, str], Pair] = snapshot.pairs
    else:
        board = Board.objects.get(event_id=section.event_id, number=board_number)
        found = {
            (p.number, p.direction): p
            for p in Pair.objects.filter(section=section, number__in={row.ns_pair, row.ew_pair})
            .filter(direction__in={ns_direction, ew_direction})
            .order_by()
        }
    ns_pair = found.get((row.ns_pair, ns_direction))
    ew_pair = found.get((row.ew_pair, ew_direction))
    for pair, number, seat in ((ns_pair, row.ns_pair, "NS"), (ew_pair, row.ew_pair, "EW")):
        if pair is None:
            raise ResultError(f"There is no pair {seat} {number} in this section.")
    assert ns_pair is not None and ew_pair is not None
    absent = [
        p
        for p in (ns_pair, ew_pair)
        if (p.is_phantom or p.presence) and round in p.absent_rounds(section.rounds)
    ]
    if absent and not absent_ok:
        raise ResultError(
            f"{absent[0].label} is marked absent, so table {table} sits out in round {round}."
        )
    return Seating(section=section, row=row, board=board, ns_pair=ns_pair, ew_pair=ew_pair)


def result_preview(*, event: Event, board_number: int, entry: Mapping[str, Any]) -> dict[str, Any]:
    """Validate an entry and score it without saving: what the entry forms show as you type."""
    board = Board.objects.get(event=event, number=board_number)
    rules = rules_for(event)
    parsed = rules.parse_entry(engine_board(board), dict(entry))
    score = as_int_score(rules.ns_score(engine_board(board), parsed))
    return {"ns_score": score, "describe": rules.describe(parsed)}


def _require_running(event: Event) -> None:
    if event.status != Event.Status.RUNNING:
        raise ResultError(
            f"Results can be entered only while the event is running "
            f"(it is {event.get_status_display().lower()})."
        )


# A board's stored results, read at every tablet's submission: built into SQL once per
# connection (clubwhist/queries.py).
_BOARD_RESULTS = Prepared(
    lambda section, board: Result.objects.filter(section_id=section, board_number=board).order_by()
)


def result_submit(
    *,
    section: Section,
    round: int,
    table: int,
    board_number: int,
    entry: Mapping[str, Any],
    idempotency_key: str | None = None,
    device: str = "",
    user: User = None,
    confirm: bool = False,
    flag: Callable[[Board, Entry, Sequence[Result]], str] | None = None,
    event: Event | None = None,
    snapshot: SectionSnapshot | None = None,
) -> tuple[Result, bool]:
    """Accept one table's result for one board; returns (result, created).

    Sending the same thing twice (a tablet retrying on flaky Wi-Fi) returns the stored result
    and changes nothing. A different score for a board the pairs already have a result for is
    refused: two results for one meeting must never exist, and only the director may change an
    accepted one (`result_correct`). The database constraints back this up under races.
    `flag(board, entry, stored)` may give a new result its "are you sure?" note as it is
    stored, from the board's stored results (read for it, and then first looked at for this
    submission: a retry or a conflict is answered from them without an insert); `event` is
    the section's event when the caller has just read it in this request; `snapshot` the
    section's board and pairs as `seating_for` takes them.
    """
    if event is None or event.pk != section.event_id:
        event = Event.objects.get(pk=section.event_id)  # fresh: the status may just have changed
    _require_running(event)
    key = idempotency_key or uuid.uuid4().hex
    seating = seating_for(
        section=section, round=round, table=table, board_number=board_number, snapshot=snapshot
    )
    if seating.board.fouled:
        raise ResultError(f"Board {board_number} is marked fouled: call the director.")
    rules = rules_for(event)
    parsed = rules.parse_entry(engine_board(seating.board), dict(entry))
    clean_entry = rules.entry_to_dict(parsed)
    ns_score = as_int_score(rules.ns_score(engine_board(seating.board), parsed))

    note = ""
    if flag is not None:
        stored: list[Result] = _BOARD_RESULTS(section.pk, board_number)
        if any(_of_meeting(r, seating, key) for r in stored):
            replay = _existing(section, seating, key, clean_entry, stored)
            if replay is not None:
                return replay, False
        note = flag(seating.board, parsed, stored)[:200]

    # Then insert: the unique constraints (the key; one result per pair per board) decide,
    # and only a refused insert looks at what is stored (a retry, or a conflict, that came
    # first meanwhile, or that was not among rows read above). The usual case, a new result,
    # costs no lookups.
    now = timezone.now()
    fields: dict[str, Any] = {
        "section": section,
        "board_number": board_number,
        "round": round,
        "table": table,
        "ns_pair": seating.ns_pair,
        "ew_pair": seating.ew_pair,
        "entry": clean_entry,
        "ns_score": ns_score,
        "status": Result.Status.CONFIRMED if confirm else Result.Status.ENTERED,
        "created_at": now,
        "confirmed_at": now if confirm else None,  # equal: entered confirmed, at once
        "entered_by_device": device[:80],
        "entered_by": actor(user),
        "idempotency_key": key,
        "flag": note,
    }
    try:
        if confirm:
            with transaction.atomic():
                result = Result.objects.create(**fields)
                results_changed(event=event)
        elif connection.in_atomic_block:
            # A savepoint: a refused insert must not spoil the caller's transaction.
            with transaction.atomic():
                result = Result.objects.create(**fields)
        else:
            # One statement is a transaction of its own: no BEGIN and COMMIT round trips.
            result = Result.objects.create(**fields)
    except IntegrityError:
        # The board's average given when the director started the next round before this
        # table had finished: the result played is typed now and takes its place.
        late = _replace_average(section, seating, fields, event, user)
        if late is not None:
            return late, True
        # A retry of a stored submission, a conflicting one, or another device first: answer
        # from what is stored (the same result again, or a ResultConflict).
        replay = _existing(section, seating, key, clean_entry)
        if replay is not None:
            return replay, False
        raise
    return result, True


def _replace_average(
    section: Section, seating: Seating, fields: dict[str, Any], event: Event, user: User
) -> Result | None:
    """The unfinished table's average on this meeting's board, replaced by the result now
    typed (audited); None when the board has no such average (only that is ever replaced: a
    result played, or one the director gave, stays)."""
    with transaction.atomic():
        average = (
            Result.objects.select_for_update()
            .filter(
                section=section,
                board_number=fields["board_number"],
                ns_pair=seating.ns_pair,
                ew_pair=seating.ew_pair,
                status=Result.Status.ARTIFICIAL,
                entered_by_device=Result.UNFINISHED_DEVICE,
            )
            .first()
        )
        if average is None:
            return None
        before = average.artificial_code
        for name in ("entry", "ns_score", "status", "confirmed_at", "entered_by", "flag"):
            setattr(average, name, fields[name])
        average.artificial_code = ""
        average.entered_by_device = fields["entered_by_device"]
        average.idempotency_key = fields["idempotency_key"]
        average.save()
        audit_record(
            event=event,
            user=user,
            action="late result",
            target=f"board {average.board_number}, {seating.ns_pair.label} v "
            f"{seating.ew_pair.label}",
            before={"artificial_code": before},
            after={"ns_score": average.ns_score, "status": average.status},
            reason="played before the round ended; typed after the next round started",
        )
        results_changed(event=event)
        return average


@dataclass(frozen=True)
class TravellerLine:
    """One new line of a paper traveller: its place on the sheet, the meeting, the entry."""

    line: int
    round: int
    table: int
    entry: Mapping[str, Any]


class TravellerError(ResultError):
    """Some lines of a traveller were refused, so none of it was saved."""

    def __init__(self, errors: dict[int, str], conflicts: dict[int, Result] | None = None) -> None:
        super().__init__("Nothing was saved: fix the lines marked in red.")
        self.errors = errors
        # Lines refused because another entry of the same meeting was stored first (another
        # tab, a tablet): line -> the stored result, for the page to show the two side by side.
        self.conflicts = conflicts or {}


def traveller_submit(
    *, section: Section, board_number: int, lines: Sequence[TravellerLine], user: User = None
) -> int:
    """Save a traveller's new lines, confirmed (the director copies them from paper), all
    together or none: a sheet half saved would leave the director unsure what is in. Returns
    how many were saved; TravellerError names each refused line."""
    errors: dict[int, str] = {}
    conflicts: dict[int, Result] = {}
    with transaction.atomic():
        for line in lines:
            try:
                result_submit(
                    section=section,
                    round=line.round,
                    table=line.table,
                    board_number=board_number,
                    entry=line.entry,
                    device="director",
                    user=user,
                    confirm=True,
                )
            except ResultConflict as exc:
                errors[line.line] = str(exc)
                conflicts[line.line] = exc.stored
            except ValueError as exc:
                errors[line.line] = str(exc)
        if errors:
            raise TravellerError(errors, conflicts)
    return len(lines)


def call_mark_handled(*, event: Event, call_id: int, user: User = None) -> bool:
    """The director has dealt with a table's call; True if it was still open."""
    handled = DirectorCall.objects.filter(
        pk=call_id, section__event=event, handled_at__isnull=True
    ).update(handled_at=timezone.now())
    if handled:
        tables_changed(event.sections.values_list("pk", flat=True))
    return bool(handled)


def _of_meeting(result: Result, seating: Seating, key: str) -> bool:
    """This stored result of the board is this submission again, or its meeting's."""
    return (
        result.idempotency_key == key
        or result.ns_pair_id == seating.ns_pair.pk
        or result.ew_pair_id == seating.ew_pair.pk
    )


def _existing(
    section: Section,
    seating: Seating,
    key: str,
    clean_entry: dict[str, Any],
    stored: Sequence[Result] | None = None,
) -> Result | None:
    """The stored result this submission repeats, None if new; raises if it conflicts.
    `stored`: the board's results, when just read (then only a key not among them, which may
    name another board's result, is looked up)."""
    by_key = next((r for r in stored or () if r.idempotency_key == key), None)
    if by_key is None:
        # order_by("pk"): the default ordering joins three tables for nothing here.
        by_key = Result.objects.filter(idempotency_key=key).order_by("pk").first()
    if by_key is not None:
        same = (
            by_key.section_id == section.pk
            and by_key.board_number == seating.board.number
            and by_key.ns_pair_id == seating.ns_pair.pk
        )
        if not same:
            raise ResultConflict(
                "This submission key was already used for a different board.", by_key
            )
        if by_key.entry != clean_entry:
            raise ResultConflict(
                f"Board {by_key.board_number} was already sent with another result "
                f"(NS {signed_score(by_key.ns_score)}). Call the director to change it.",
                by_key,
            )
        return by_key
    if stored is not None:
        ordered = sorted(stored, key=lambda r: r.pk)
        for_meeting = next((r for r in ordered if r.ns_pair_id == seating.ns_pair.pk), None) or (
            next((r for r in ordered if r.ew_pair_id == seating.ew_pair.pk), None)
        )
    else:
        for_meeting = (
            Result.objects.filter(
                section=section, board_number=seating.board.number, ns_pair=seating.ns_pair
            )
            .order_by("pk")
            .first()
            or Result.objects.filter(
                section=section, board_number=seating.board.number, ew_pair=seating.ew_pair
            )
            .order_by("pk")
            .first()
        )
    if for_meeting is None:
        return None
    if for_meeting.entry == clean_entry and for_meeting.ew_pair_id == seating.ew_pair.pk:
        return for_meeting
    raise ResultConflict(
        f"Board {seating.board.number} already has a result for {seating.ns_pair.label} v "
        f"{seating.ew_pair.label} (NS {signed_score(for_meeting.ns_score)}). "
        "Only the director can change it.",
        for_meeting,
    )


def result_summary(result: Result) -> dict[str, Any]:
    """A stored result in a few plain fields, for a conflict answer or an audit line."""
    return {
        "id": result.pk,
        "board": result.board_number,
        "round": result.round,
        "table": result.table,
        "entry": result.entry,
        "ns_score": result.ns_score,
        "status": result.status,
        "revision": result_revision(result),  # a director's correction of it sends it back
    }


def signed_score(score: int | None) -> str:
    return "artificial" if score is None else f"{score:+d}"


@transaction.atomic
def result_confirm(*, result: Result, device: str = "", user: User = None) -> Result:
    """The opponents agree with the entered result: it now counts in the standings."""
    # One query: the row locked (only it: of=self), its section and event read with it.
    result = (
        Result.objects.select_for_update(of=("self",))
        .select_related("section__event")
        .get(pk=result.pk)
    )
    _require_running(result.section.event)
    if result.status == Result.Status.CONFIRMED:
        return result
    if result.status != Result.Status.ENTERED:
        raise ResultError(
            f"This result is {result.get_status_display().lower()}; call the director."
        )
    result.status = Result.Status.CONFIRMED
    result.confirmed_at = timezone.now()
    result.save(update_fields=["status", "confirmed_at", "updated_at"])
    results_changed(event=result.section.event)
    return result


def result_confirm_entered(
    *, event: Event, section: Section, round: int, table: int, result_id: int
) -> Result | None:
    """Confirm an entered result of this meeting (section, round, table) in one statement that
    finds, checks, changes and returns the row; None, with nothing changed, when there is no
    such result waiting for its confirmation (then `result_confirm` looks at what there is).
    `event` is the section's event as the caller has just read it.

    The usual tablet confirmation in four round trips: BEGIN, this UPDATE ... RETURNING, the
    standings' version (`results_changed`), COMMIT. Django's `update()` returns only a count,
    which would need a SELECT (a fifth) to answer with the row."""
    _require_running(event)
    meta = Result._meta
    quote = connection.ops.quote_name
    columns = {f.name: quote(str(f.column)) for f in meta.concrete_fields}

    def column(name: str) -> str:
        return columns[name]

    stamp = meta.get_field("confirmed_at").get_db_prep_value(timezone.now(), connection)
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {column('status')} = %s, "
        f"{column('confirmed_at')} = %s, {column('updated_at')} = %s "
        f"WHERE {column('id')} = %s AND {column('section')} = %s AND {column('table')} = %s "
        f"AND {column('round')} = %s AND {column('status')} = %s RETURNING "
        + ", ".join(columns.values())
    )
    params = [Result.Status.CONFIRMED.value, stamp, stamp, result_id, section.pk, table, round]
    with transaction.atomic():
        found = list(Result.objects.raw(sql, [*params, Result.Status.ENTERED.value]))
        if not found:
            return None
        results_changed(event=event)
        # The statement sends no signal; it only ever settles a board.
        result_changed(section, round, table, confirmed=True)
    result = found[0]
    result.section = section
    return result


#: The longest note a dispute or a call may carry: the call stores "Board N disputed. <note>"
#: in `DirectorCall.note` (200 characters), which leaves this much for the players' words.
NOTE_MAX = 150


@transaction.atomic
def result_dispute(*, result: Result, note: str = "", device: str = "") -> Result:
    """The opponents do not agree: the result waits for the director and does not count.
    Only while the event runs, as a confirmation: a dispute after the close would take a
    result out of the final standings (the director corrects it instead)."""
    # The row locked (only it), its event read with it: the status as it is now.
    result = (
        Result.objects.select_for_update(of=("self",))
        .select_related("section__event")
        .get(pk=result.pk)
    )
    _require_running(result.section.event)
    if result.status not in {Result.Status.ENTERED, Result.Status.CONFIRMED}:
        raise ResultError("Only an entered or confirmed result can be disputed.")
    was_counting = result.counts
    result.status = Result.Status.DISPUTED
    result.save(update_fields=["status", "updated_at"])
    if was_counting:
        results_changed(event=result.section.event)
    DirectorCall.objects.create(
        section=result.section,
        table=result.table,
        round=result.round,
        note=f"Board {result.board_number} disputed. {note}".strip(),
        reason=DirectorCall.Reason.RESULT,
        board_number=result.board_number,
    )
    return result


def result_revision(result: Result) -> str:
    """A short fingerprint of what a correction replaces (the entry, or the artificial
    score). A correction form or API call sends back the revision it was made from
    (`seen`); if the result has changed since, the correction is refused. A confirmation or a
    dispute does not change it: they leave the entry alone."""
    content = json.dumps([result.entry, result.artificial_code], sort_keys=True)
    return hashlib.sha256(content.encode()).hexdigest()[:12]
