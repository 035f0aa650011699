"""Tablets at the tables: each table's link, and what a link may do.

A table's link carries an unguessable token (`secrets`, 192 bits). Whoever holds it may read
and write that table's meetings of the round it is playing now, nothing else: a board of
another round or another table is refused (`TableForbidden`, HTTP 403), whatever the page
sends. The director can replace a table's link; the old token then says so
(`TableLinkReplaced`) instead of working or vanishing.

Results from a tablet go through the same services as every other result (`result_submit`,
`result_confirm`, `result_dispute`), so idempotency keys, the one-result-per-meeting rule and
results processing are the same wherever a result comes from. Every write a link can make
asks `table_gate.table_writes_open` first: once the event has finished or is published, the
table changes nothing (HTTP 409), and the director puts late mistakes right.

A tablet's request brings what the shared cache holds for its link (`tablet_cache.Visit`: the
link, the round the table plays now, its state), read in one round trip with its request count;
these functions read the database only for what the cache did not have, and keep it there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.games import Entry
from engine.scoring import ArtificialCodeError, method_scope, parse_artificial
from tournaments.events.bridge import engine_board, movement_for, rules_for
from tournaments.events.models import Board, DirectorCall, Event, Result, Section, TableAccess
from tournaments.events.selectors import tablet_cache
from tournaments.events.selectors.tablet_cache import Visit
from tournaments.events.selectors.tablets import TableRound, table_round_now
from tournaments.events.services.audit import audit_record
from tournaments.events.services.corrections import unfinished_averages
from tournaments.events.services.results import (
    NOTE_MAX,
    ResultConflict,
    ResultError,
    result_confirm,
    result_confirm_entered,
    result_dispute,
    result_submit,
)
from tournaments.events.services.scoring import results_changed
from tournaments.kernel.audit import User
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.kernel.refusals import Kind
from tournaments.kernel.table_gate import table_writes_open
from tournaments.kernel.tokens import new_link_token


class TableForbidden(ResultError):
    """What this table's link may not touch (another table's or another round's board)."""

    kind = Kind.FORBIDDEN


class TableLinkReplaced(ResultError, LinkReplaced):
    """The director replaced this table's link: its holder must scan the new code."""

    kind = Kind.FORBIDDEN


class TableLinkUnknown(ResultError, LinkUnknown):
    """No table has this link (mistyped, or its event was deleted)."""

    kind = Kind.NOT_FOUND


class TableClosed(ResultError):
    """The event is no longer running: the link may still read, not ask (HTTP 409)."""

    kind = Kind.CLOSED


class KeyOfAnotherTable(ResultError):
    """A submission key already names another table's result (HTTP 409, without that result:
    a table sees only its own)."""

    kind = Kind.CONFLICT


def table_links_ensure(*, event: Event) -> list[TableAccess]:
    """Give every table at which boards are played a live link (keeping those it has);
    returns them all. A table nobody plays at all evening (the sit-out table of a Howell for
    an odd number of pairs, `Movement.idle_tables`) is not set up: it gets no link, and the
    pair sitting out learns where it goes from the tablet it leaves and its pair card."""
    section = event.section
    live = {a.table: a for a in TableAccess.objects.filter(section=section, revoked_at=None)}
    for table in movement_for(section).tables_in_play:
        if table not in live:
            try:
                with transaction.atomic():
                    live[table] = TableAccess.objects.create(
                        section=section, table=table, token=new_link_token()
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
    if table in movement_for(section).idle_tables:
        raise ResultError(
            f"Table {table} is the sit-out table: nobody plays there, so it has no tablet."
        )
    TableAccess.objects.select_for_update().filter(
        section=section, table=table, revoked_at=None
    ).update(revoked_at=timezone.now())
    # The update sends no signal: retire the cached copies of the section's links here, so
    # the old token is refused from the moment this commits.
    tablet_cache.tables_changed([section.pk])
    access = TableAccess.objects.create(section=section, table=table, token=new_link_token())
    audit_record(event=event, user=user, action="table link replaced", target=f"table {table}")
    return access


def table_access(token: str, visit: Visit | None = None) -> TableAccess:
    """The live link for this token; TableLinkReplaced or TableLinkUnknown otherwise. From the
    visit's copy when it is current, else from the database (and kept for the next request)."""
    if visit is not None and visit.access is not None:
        return visit.access
    access = _table_access_read(token)
    if visit is not None and tablet_cache.versions_first(visit, access):
        access = _table_access_read(token)  # again, now that the versions are read
    if visit is not None:
        tablet_cache.link_read(visit, access)
    return access


def _table_access_read(token: str) -> TableAccess:
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


def current_round(access: TableAccess, visit: Visit | None = None) -> TableRound:
    """The round this table plays now and its boards: the visit's copy when current, else read
    (and kept with the link for the next request)."""
    if visit is not None and visit.round is not None:
        return visit.round
    # The process's copy of the section knows its sit-outs (no query for the absences).
    snapshot = tablet_cache.section_snapshot_for(visit, access)
    found = table_round_now(
        access.section, access.table, None if snapshot is None else snapshot.sit_out
    )
    tablet_cache.remember_round(visit, access, found)
    return found


def _result_of_table(
    access: TableAccess, result_id: int, now: TableRound, *, counted_ok: bool = False
) -> Result:
    """This table's result `result_id`, of the round it plays now; `counted_ok`: or of an
    earlier round if it counts already (a confirmation sent again, its first answer lost)."""
    result = (
        Result.objects.select_related("section__event", "ns_pair", "ew_pair")
        .filter(pk=result_id, section=access.section, table=access.table)
        .first()
    )
    if result is None:
        raise TableForbidden(f"Result {result_id} is not one of table {access.table}'s.")
    if counted_ok and result.status == Result.Status.CONFIRMED:
        return result
    if result.round != now.current:
        raise TableForbidden(
            f"Board {result.board_number} was played in round {result.round}; this table is "
            "on another round now. Call the director to change it."
        )
    return result


def _check_board(access: TableAccess, board_number: int, visit: Visit | None) -> int:
    """The round in which this table plays `board_number` now; TableForbidden otherwise."""
    now = current_round(access, visit)
    current, boards = now.current, now.boards
    if current is None:
        raise TableForbidden(f"Table {access.table} has played all its rounds.")
    if board_number not in boards:
        shown = f"boards {boards.start}-{boards.stop - 1}" if boards else "no boards"
        raise TableForbidden(
            f"Table {access.table} plays {shown} in round {current}, not board {board_number}."
        )
    return current


def tablet_preview(
    *, access: TableAccess, board_number: int, entry: Mapping[str, Any], visit: Visit | None = None
) -> dict[str, Any]:
    """Check and score an entry without saving it: what the page shows before it is sent.

    No comparison here: before the table's result is its own, a comparison with the board's
    other results or with double dummy would tell the players something about a board they are
    still playing ("at the other tables NS took 6 to 8"). The "are you sure?" check runs when
    the result is submitted (`tablet_submit`); the table is told only that it looks unusual.
    Refused once the event is over, as the submission it leads to would be."""
    event = access.section.event
    table_writes_open(event)
    _check_board(access, board_number, visit)
    rules = rules_for(event)
    snapshot = tablet_cache.section_snapshot_for(visit, access)
    board = (
        snapshot.boards[board_number]
        if snapshot is not None
        else Board.objects.get(event=event, number=board_number)
    )
    played = engine_board(board)
    parsed = rules.parse_entry(played, dict(entry))
    score = int(rules.ns_score(played, parsed))
    return {
        "ns_score": score,
        "ew_score": -score,
        "describe": rules.describe(parsed),
    }


def unlikely_reason(
    section: Section,
    board: Board,
    parsed: Entry,
    *,
    exclude_table: int | None = None,
    stored: Sequence[Result] | None = None,
) -> str:
    """Why this result looks like a slip, against double dummy in its contract and the board's
    other results (`stored`: the board's results, when the caller has read them); "". The
    reason carries figures the table must not see: it is stored on the result for the
    director (room, audit trail), and the table is told only that its result looks unusual."""
    rules = rules_for(section.event)
    played = engine_board(board)
    if stored is None:
        stored = list(
            Result.objects.filter(section=section, board_number=board.number)
            .exclude(entry=None)
            .order_by()
        )
    others = [
        rules.parse_entry(played, r.entry)
        for r in stored
        if r.entry is not None and r.table != exclude_table
    ]
    analysis = board.par if board.par_status == Board.ParStatus.DONE else None
    return rules.unlikely(played, parsed, analysis=analysis, others=others) or ""


def tablet_submit(
    *,
    access: TableAccess,
    board_number: int,
    entry: Mapping[str, Any],
    key: str,
    visit: Visit | None = None,
) -> tuple[Result, bool]:
    """A table's result for one of its boards of this round; (result, created).

    The same key with the same entry gives the stored result back; a different entry for a
    board that has a result is a ResultConflict, shown to the players, for the director.
    Once the event is over even a retry is refused: the tablet then shows why.
    """
    table_writes_open(access.section.event)
    current = _check_board(access, board_number, visit)
    try:
        return result_submit(
            section=access.section,
            round=current,
            table=access.table,
            board_number=board_number,
            entry=entry,
            idempotency_key=key,
            device=f"table {access.table}",
            flag=lambda board, parsed, stored: unlikely_reason(
                access.section, board, parsed, exclude_table=access.table, stored=stored
            ),
            event=access.section.event,  # read with the link, a moment ago
            snapshot=tablet_cache.section_snapshot_for(visit, access),
        )
    except ResultConflict as exc:
        stored = exc.stored
        if stored.section_id != access.section.pk or stored.table != access.table:
            raise KeyOfAnotherTable(
                "This submission key belongs to another result: nothing was saved. "
                "Reload the page and enter the result again."
            ) from None
        raise


def tablet_confirm(*, access: TableAccess, result_id: int, visit: Visit | None = None) -> Result:
    """The other pair accepts the result on the tablet: it counts from now on.

    The usual case, a result of this table's round waiting for its confirmation, is confirmed
    in one statement; anything else (confirmed already, another table's, another round's, or
    gone) is looked at first, and answered as `result_confirm` does."""
    table_writes_open(access.section.event)
    now = current_round(access, visit)
    if now.current is not None and _may_be_waiting(visit, result_id):
        confirmed = result_confirm_entered(
            event=access.section.event,
            section=access.section,
            round=now.current,
            table=access.table,
            result_id=result_id,
        )
        if confirmed is not None:
            return confirmed
    # A confirmation sent again after its answer was lost (a web node died, the Wi-Fi dropped)
    # may arrive once the round has moved on, when it was the round's last: it counted, and
    # the tablet is told so, as for any confirmation sent twice.
    return result_confirm(
        result=_result_of_table(access, result_id, now, counted_ok=True),
        device=f"table {access.table}",
    )


def _may_be_waiting(visit: Visit | None, result_id: int) -> bool:
    """False when the table's current state shows this result is not one of its own waiting
    for confirmation (confirmed already, another table's): then it is looked at, not tried."""
    state = visit.state if visit is not None else None
    if state is None:
        return True
    return any(
        board["state"] == "waiting" and board["result"] and board["result"]["id"] == result_id
        for board in state["current"]["boards"]
    )


def tablet_dispute(
    *, access: TableAccess, result_id: int, note: str = "", visit: Visit | None = None
) -> Result:
    """The other pair does not accept it: the director is called to the table. Not once the
    event is over: a dispute then would take a result out of the final standings."""
    table_writes_open(access.section.event)
    return result_dispute(
        result=_result_of_table(access, result_id, current_round(access, visit)),
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
    tap adds nothing). Only while the event runs, as results entry: once it is over the
    director has closed the room and no longer watches the calls (TableWritesClosed; before
    the start, TableClosed)."""
    event = section.event
    table_writes_open(event)
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
    A dispute's call is not the table's to take back: the result waits for the director.
    Once the event is over the calls are the director's record of the evening: none is taken
    back from a table then."""
    table_writes_open(section.event)
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
def round_start(
    *, event: Event, round: int, unfinished: str | None = None, user: User = None
) -> Section:
    """The director lets the room move to `round` (events that advance by the director).

    With `unfinished` (an artificial code: "A" for the movement's average, see
    `unfinished_average_code`), a table that has not finished the rounds before gets it on
    each board it has no result for (`corrections.unfinished_averages`) and moves on; a
    result typed later for one of those boards replaces it. Without, such a table goes on
    playing its boards (the round is only released to the tables that have finished)."""
    section = Section.objects.select_for_update().get(pk=event.section.pk)
    if not 1 <= round <= section.rounds:
        raise ResultError(f"Rounds run from 1 to {section.rounds}, not {round}.")
    if round > section.released_round:
        code = ""
        if unfinished:
            try:
                codes = parse_artificial(unfinished)
            except ArtificialCodeError as exc:
                raise ResultError(f"{exc}.") from None
            refusal = method_scope(event.method).artificial_refusal(codes)
            if refusal is not None:
                raise ResultError(f"{refusal}.")
            code = codes[0] if codes[0] == codes[1] else "/".join(codes)
        given = 0
        if code and event.status == Event.Status.RUNNING:
            given = unfinished_averages(section=section, before=round, code=code, user=user)
        section.released_round = round
        section.save(update_fields=["released_round"])
        audit_record(
            event=event,
            user=user,
            action="round started",
            target=f"round {round}",
            after={"unfinished boards": given, "scored": code} if given else None,
        )
        if given:
            results_changed(event=event)
    return section


def unfinished_average_code(event: Event) -> str:
    """What an unfinished table's boards get by default: the movement's average ("A"), or
    nothing ("NP") where the method has no average (total points)."""
    return "A" if method_scope(event.method).artificial_refusal(("A", "A")) is None else "NP"


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
