"""Tablets at the tables: each table's link, and what a link may do.

A table's link carries an unguessable token (`secrets`, 192 bits). Whoever holds it may read
and write that table's meetings of the round it is playing now, nothing else: a board of
another round or another table is refused (`TableForbidden`, HTTP 403), whatever the page
sends. The director can replace a table's link; the old token then says so
(`TableLinkReplaced`) instead of working or vanishing.

Results from a tablet go through the same services as every other result (`result_submit`,
`result_confirm`, `result_dispute`), so idempotency keys, the one-result-per-meeting rule and
results processing are the same wherever a result comes from.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.games import Entry
from tournaments.bridge import engine_board, rules_for
from tournaments.models import Board, DirectorCall, Event, Result, Section, TableAccess
from tournaments.selectors import table_round, table_round_boards
from tournaments.services.audit import User, audit_record
from tournaments.services.results import (
    NOTE_MAX,
    ResultConflict,
    ResultError,
    result_confirm,
    result_dispute,
    result_submit,
)

TOKEN_BYTES = 24  # 192 bits, 32 URL-safe characters


class TableForbidden(ResultError):
    """What this table's link may not touch (another table's or another round's board)."""


class TableLinkReplaced(ResultError):
    """The director replaced this table's link: its holder must scan the new code."""


class TableLinkUnknown(ResultError):
    """No table has this link (mistyped, or its event was deleted)."""


class TableClosed(ResultError):
    """The event is no longer running: the link may still read, not ask (HTTP 409)."""


class KeyOfAnotherTable(ResultError):
    """A submission key already names another table's result (HTTP 409, without that result:
    a table sees only its own)."""


def _new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def table_links_ensure(*, event: Event) -> list[TableAccess]:
    """Give every table of the event a live link (keeping those it has); returns them all."""
    section = event.section
    live = {a.table: a for a in TableAccess.objects.filter(section=section, revoked_at=None)}
    for table in range(1, section.tables + 1):
        if table not in live:
            try:
                with transaction.atomic():
                    live[table] = TableAccess.objects.create(
                        section=section, table=table, token=_new_token()
                    )
            except IntegrityError:  # another request made it meanwhile
                live[table] = TableAccess.objects.get(section=section, table=table, revoked_at=None)
    return [live[t] for t in sorted(live)]


def table_links_ensure_for(*, event: Event, user: User = None) -> list[TableAccess]:
    """`table_links_ensure` for a director's button: only once the event runs."""
    if event.status == Event.Status.DRAFT:
        raise ResultError("Tablet links are made when the event starts.")
    return table_links_ensure(event=event)


@transaction.atomic
def table_link_replace(*, event: Event, table: int, user: User = None) -> TableAccess:
    """Revoke a table's link and issue a new one (a tablet lost, or a link shared too widely)."""
    section = event.section
    if not 1 <= table <= section.tables:
        raise ResultError(f"There is no table {table} (tables are 1 to {section.tables}).")
    TableAccess.objects.select_for_update().filter(
        section=section, table=table, revoked_at=None
    ).update(revoked_at=timezone.now())
    access = TableAccess.objects.create(section=section, table=table, token=_new_token())
    audit_record(event=event, user=user, action="table link replaced", target=f"table {table}")
    return access


def table_access(token: str) -> TableAccess:
    """The live link for this token; TableLinkReplaced or TableLinkUnknown otherwise."""
    access = (
        TableAccess.objects.select_related("section__event").filter(token=token).order_by().first()
        if 8 <= len(token) <= 64
        else None
    )
    if access is None:
        raise TableLinkUnknown("This table link is not known. Ask the director for the code.")
    if not access.is_live:
        raise TableLinkReplaced(
            f"This link for table {access.table} was replaced by the director: "
            "scan the new code on the table."
        )
    return access


def _result_of_table(access: TableAccess, result_id: int) -> Result:
    result = (
        Result.objects.select_related("section__event", "ns_pair", "ew_pair")
        .filter(pk=result_id, section=access.section, table=access.table)
        .first()
    )
    if result is None:
        raise TableForbidden(f"Result {result_id} is not one of table {access.table}'s.")
    if result.round != table_round(access.section, access.table):
        raise TableForbidden(
            f"Board {result.board_number} was played in round {result.round}; this table is "
            "on another round now. Call the director to change it."
        )
    return result


def _check_board(access: TableAccess, board_number: int) -> int:
    """The round in which this table plays `board_number` now; TableForbidden otherwise."""
    section = access.section
    current = table_round(section, access.table)
    if current is None:
        raise TableForbidden(f"Table {access.table} has played all its rounds.")
    boards = table_round_boards(section, access.table, current)
    if board_number not in boards:
        shown = f"boards {boards.start}-{boards.stop - 1}" if boards else "no boards"
        raise TableForbidden(
            f"Table {access.table} plays {shown} in round {current}, not board {board_number}."
        )
    return current


def tablet_preview(
    *, access: TableAccess, board_number: int, entry: Mapping[str, Any]
) -> dict[str, Any]:
    """Check and score an entry without saving it: what the page shows before it is sent.

    No comparison here: before the table's result is its own, a comparison with the board's
    other results or with double dummy would tell the players something about a board they are
    still playing ("at the other tables NS took 6 to 8"). The "are you sure?" check runs when
    the result is submitted (`tablet_submit`); the table is told only that it looks unusual."""
    _check_board(access, board_number)
    event = access.section.event
    rules = rules_for(event)
    board = Board.objects.get(event=event, number=board_number)
    played = engine_board(board)
    parsed = rules.parse_entry(played, dict(entry))
    score = int(rules.ns_score(played, parsed))
    return {
        "ns_score": score,
        "ew_score": -score,
        "describe": rules.describe(parsed),
    }


def unlikely_reason(
    section: Section, board: Board, parsed: Entry, *, exclude_table: int | None = None
) -> str:
    """Why this result looks like a slip, against double dummy in its contract and the board's
    other results; "". The reason carries figures the table must not see: it is stored on the
    result for the director (room, audit trail), and the table is told only that its result
    looks unusual."""
    rules = rules_for(section.event)
    played = engine_board(board)
    others = [
        rules.parse_entry(played, r.entry)
        for r in Result.objects.filter(section=section, board_number=board.number)
        .exclude(entry=None)
        .order_by()
        if r.entry is not None and r.table != exclude_table
    ]
    analysis = board.par if board.par_status == Board.ParStatus.DONE else None
    return rules.unlikely(played, parsed, analysis=analysis, others=others) or ""


def tablet_submit(
    *, access: TableAccess, board_number: int, entry: Mapping[str, Any], key: str
) -> tuple[Result, bool]:
    """A table's result for one of its boards of this round; (result, created).

    The same key with the same entry gives the stored result back; a different entry for a
    board that has a result is a ResultConflict, shown to the players, for the director.
    """
    current = _check_board(access, board_number)
    try:
        return result_submit(
            section=access.section,
            round=current,
            table=access.table,
            board_number=board_number,
            entry=entry,
            idempotency_key=key,
            device=f"table {access.table}",
            flag=lambda board, parsed: unlikely_reason(
                access.section, board, parsed, exclude_table=access.table
            ),
            event=access.section.event,  # read with the link, a moment ago
        )
    except ResultConflict as exc:
        stored = exc.stored
        if stored.section_id != access.section.pk or stored.table != access.table:
            raise KeyOfAnotherTable(
                "This submission key belongs to another result: nothing was saved. "
                "Reload the page and enter the result again."
            ) from None
        raise


def tablet_confirm(*, access: TableAccess, result_id: int) -> Result:
    """The other pair accepts the result on the tablet: it counts from now on."""
    return result_confirm(
        result=_result_of_table(access, result_id), device=f"table {access.table}"
    )


def tablet_dispute(*, access: TableAccess, result_id: int, note: str = "") -> Result:
    """The other pair does not accept it: the director is called to the table."""
    return result_dispute(
        result=_result_of_table(access, result_id),
        note=note[:NOTE_MAX],
        device=f"table {access.table}",
    )


def director_call(
    *,
    section: Section,
    table: int,
    round: int | None,
    note: str = "",
    reason: str = DirectorCall.Reason.OTHER,
) -> DirectorCall:
    """A table asks for the director, saying why; one open call per table is enough (a second
    tap adds nothing). Only while the event runs, as results entry: once it is finished the
    director has closed the room and no longer watches the calls (TableClosed)."""
    event = section.event
    if event.status != Event.Status.RUNNING:
        raise TableClosed(
            f"The event is {event.get_status_display().lower()}: calls from the table are "
            "closed. Please speak to the director in person."
        )
    if reason not in DirectorCall.Reason.values:
        choices = ", ".join(DirectorCall.Reason.values)
        raise ResultError(f"The reason must be one of {choices}; got {reason!r}.")
    open_call = DirectorCall.objects.filter(
        section=section, table=table, handled_at__isnull=True
    ).first()
    if open_call is not None:
        return open_call
    return DirectorCall.objects.create(
        section=section, table=table, round=round, note=note[:200], reason=reason
    )


@transaction.atomic
def director_call_cancel(*, section: Section, table: int) -> DirectorCall | None:
    """The table takes back its open call (tapped by mistake, or settled among the players)
    before the director has handled it; the call stays in the audit trail, marked cancelled.
    A dispute's call is not the table's to take back: the result waits for the director."""
    call = (
        DirectorCall.objects.select_for_update()
        .filter(section=section, table=table, handled_at__isnull=True, board_number__isnull=True)
        .first()
    )
    if call is None:
        return None
    call.handled_at = timezone.now()
    call.cancelled = True
    call.save(update_fields=["handled_at", "cancelled"])
    return call


@transaction.atomic
def round_start(*, event: Event, round: int, user: User = None) -> Section:
    """The director lets the room move to `round` (events that advance by the director)."""
    section = Section.objects.select_for_update().get(pk=event.section.pk)
    if not 1 <= round <= section.rounds:
        raise ResultError(f"Rounds run from 1 to {section.rounds}, not {round}.")
    if round > section.released_round:
        section.released_round = round
        section.save(update_fields=["released_round"])
        audit_record(event=event, user=user, action="round started", target=f"round {round}")
    return section


MAX_CLOCK_MINUTES = 120


@transaction.atomic
def round_clock_start(*, event: Event, minutes: int | None = None, user: User = None) -> Section:
    """Start (or restart) the round clock the room view shows: `minutes` from now, by default
    the club's minutes a board (`Club.minutes_per_board`) times the boards of a round."""
    section = Section.objects.select_for_update().get(pk=event.section.pk)
    if event.status != Event.Status.RUNNING:
        raise ResultError("The round clock runs only while the event is running.")
    if minutes is None:
        minutes = event.club.minutes_per_board * section.boards_per_round
    if not 1 <= minutes <= MAX_CLOCK_MINUTES:
        raise ResultError(f"A round lasts 1 to {MAX_CLOCK_MINUTES} minutes, not {minutes}.")
    section.clock_minutes = minutes
    section.clock_ends_at = timezone.now() + timedelta(minutes=minutes)
    section.save(update_fields=["clock_minutes", "clock_ends_at"])
    audit_record(event=event, user=user, action="round clock started", target=f"{minutes} minutes")
    return section


@transaction.atomic
def round_clock_stop(*, event: Event, user: User = None) -> Section:
    section = Section.objects.select_for_update().get(pk=event.section.pk)
    if section.clock_ends_at is not None:
        section.clock_ends_at = None
        section.save(update_fields=["clock_ends_at"])
        audit_record(event=event, user=user, action="round clock stopped", target="room")
    return section
