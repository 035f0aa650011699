"""Read-side queries for pages and the API: they never write."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from tournaments.models import (
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.services.engine_bridge import MeetingRow, meeting_rows
from tournaments.services.results import boards_of_set


def latest_standings(event: Event) -> Standings | None:
    """The newest complete standings: each version is written whole in one transaction."""
    return Standings.objects.filter(event=event).order_by("-version").first()


@dataclass
class TableStatus:
    table: int
    round: int | None  # the round the table is on; None when it has finished
    ns: int
    ew: int
    boards: range
    entered: int = 0
    confirmed: int = 0
    disputed: int = 0
    missing: int = 0
    sit_out: bool = False
    calls: list[DirectorCall] = field(default_factory=list)
    # Played its round through; the next starts on the director's word (or, for a table that
    # sits out, when the rest of the room has played the round).
    waiting: bool = False
    waiting_room: bool = False  # a table with no game this round, until the room has played it

    @property
    def state(self) -> str:
        if self.calls or self.disputed:
            return "attention"
        if self.round is None:
            return "done"
        if self.waiting:
            return "waiting-next"
        if self.entered:
            return "waiting"
        return "playing"


def room_view(event: Event) -> dict[str, Any]:
    """Per table: the round it is on and where its results stand; open director calls first."""
    section = event.section
    rows = sorted(meeting_rows(section).values(), key=lambda r: (r.table, r.round))
    results = defaultdict(list)
    for r in Result.objects.filter(section=section).order_by().values("round", "table", "status"):
        results[(r["round"], r["table"])].append(r["status"])
    calls: dict[int, list[DirectorCall]] = defaultdict(list)
    meetings = meeting_rows(section)
    for call in DirectorCall.objects.filter(section=section, handled_at__isnull=True):
        # The boards the table was playing when it called (a dispute names one of them), for
        # the room to link each call to its table's travellers.
        row = meetings.get((call.round or 0, call.table))
        call.boards = list(boards_of_set(section, row.board_set)) if row else []  # type: ignore[attr-defined]
        calls[call.table].append(call)
    no_game = sit_outs(section)

    def sits_out(row: MeetingRow) -> bool:
        return (row.round, row.table) in no_game

    per_table: dict[int, list[MeetingRow]] = defaultdict(list)
    for row in rows:
        per_table[row.table].append(row)

    def played(row: MeetingRow) -> bool:
        statuses = results[(row.round, row.table)]
        settled = sum(s in Result.COUNTING for s in statuses)
        return settled >= section.boards_per_round and Result.Status.DISPUTED not in statuses

    # A meeting with no game (the phantom's table, an absent pair's) is over when every game
    # of its round is: that table waits for the room, as its tablet does.
    round_over = {
        rnd: all(played(r) for r in rows if r.round == rnd and not sits_out(r))
        for rnd in {r.round for r in rows}
    }
    held = event.advance == Event.Advance.DIRECTOR
    tables = []
    done_rounds = 0
    for table, table_rows in sorted(per_table.items()):
        current = None
        for row in table_rows:
            if not (round_over[row.round] if sits_out(row) else played(row)):
                current = row
                break
        waiting = waiting_room = current is not None and sits_out(current)
        if held and current is not None and current.round > section.released_round:
            # The next round has not been started: the card shows the round just played.
            shown = [r for r in table_rows if r.round <= section.released_round]
            if shown:
                current, waiting, waiting_room = shown[-1], True, False
        row = current or table_rows[-1]
        statuses = results[(row.round, row.table)]
        status = TableStatus(
            table=table,
            round=current.round if current else None,
            ns=row.ns_pair,
            ew=row.ew_pair,
            boards=boards_of_set(section, row.board_set),
            entered=statuses.count(Result.Status.ENTERED),
            confirmed=sum(s in Result.COUNTING for s in statuses),
            disputed=statuses.count(Result.Status.DISPUTED),
            sit_out=sits_out(row),
            calls=calls.get(table, []),
            waiting=waiting,
            waiting_room=waiting_room,
        )
        status.missing = (
            0
            if status.sit_out
            else max(
                0, section.boards_per_round - status.entered - status.confirmed - status.disputed
            )
        )
        if current is None:
            done_rounds += 1
        tables.append(status)
    total = sum(len(statuses) for statuses in results.values())
    # Results stay expected from the meetings that have a game, and count where they were
    # played before a pair was marked absent (a pair that left mid-evening): so "x of y" never
    # shows more results in than expected.
    expected = sum(
        section.boards_per_round if not sits_out(row) else len(results[(row.round, row.table)])
        for row in rows
    )
    # Each round's progress: how many tables have played it through (a table on round r has
    # played every round before r; a table with no round left has played them all).
    progress = [
        {
            "round": rnd,
            "done": sum(
                1
                for t in tables
                if t.round is None or t.round > rnd or (t.waiting and t.round == rnd)
            ),
            "tables": len(tables),
        }
        for rnd in range(1, section.rounds + 1)
    ]
    return {
        "rounds": progress,
        "section": section,
        "tables": tables,
        "results_in": total,
        "results_expected": expected,
        "tables_done": done_rounds,
        "open_calls": [c for cs in calls.values() for c in cs],
    }


def _absent_numbers(section: Section) -> set[tuple[int, str]]:
    return set(
        Pair.objects.filter(section=section, is_phantom=True)
        .order_by()
        .values_list("number", "direction")
    )


def _is_absent(section: Section, absent: set[tuple[int, str]], number: int, seat: str) -> bool:
    return (number, section.direction_of(seat)) in absent


def sit_outs(section: Section, absent: set[tuple[int, str]] | None = None) -> set[tuple[int, int]]:
    """The (round, table) meetings with no game: the movement's phantom, or a pair marked
    absent (`absent`: their (number, direction), read here when not given)."""
    if absent is None:
        absent = _absent_numbers(section)
    return {
        key
        for key, row in meeting_rows(section).items()
        if not (row.ns_pair and row.ew_pair)
        or _is_absent(section, absent, row.ns_pair, "NS")
        or _is_absent(section, absent, row.ew_pair, "EW")
    }


def boards_finished(section: Section) -> frozenset[int]:
    """The boards every table that plays them has finished: each meeting of the movement that
    plays the board (sit-outs and absent pairs' meetings aside) has a result on it that counts
    (confirmed, corrected or an artificial score). Entered-but-unconfirmed and disputed results
    do not finish a board: the table may still be at it, and its players must not learn the
    other tables' results before they have agreed their own.

    This is the card-secrecy rule (docs/directors/secrecy.md): while an event runs, the public
    sees a board's hands and results only once it is in this set; in a Howell, or a Mitchell
    with a relay, that may be late in the evening."""
    no_game = sit_outs(section)
    counted = {
        (number, rnd, table)
        for number, rnd, table, status in Result.objects.filter(section=section)
        .order_by()
        .values_list("board_number", "round", "table", "status")
        if status in Result.COUNTING
    }
    pending: set[int] = set()
    played: set[int] = set()
    for (rnd, table), row in meeting_rows(section).items():
        if (rnd, table) in no_game or not row.board_set:
            continue
        for number in boards_of_set(section, row.board_set):
            played.add(number)
            if (number, rnd, table) not in counted:
                pending.add(number)
    return frozenset(played - pending)


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
    from tournaments import access

    mine = set(access.events_for(user).values_list("pk", flat=True)[:200])
    events = list(access.readable_events(user).select_related("club").order_by("-date", "-id")[:50])
    for event in events:
        event.directed = event.pk in mine  # type: ignore[attr-defined]
    return events


# ---- tablets --------------------------------------------------------------------------------

_SETTLED = Result.COUNTING | {Result.Status.DISPUTED}  # a table may move on; disputes wait


@dataclass(frozen=True)
class _RoomProgress:
    rows: dict[tuple[int, int], MeetingRow]  # (round, table) -> meeting
    settled: dict[tuple[int, int], int]  # (round, table) -> boards settled
    sit_out: set[tuple[int, int]]


def _progress(
    section: Section, absent: set[tuple[int, str]] | None = None, *, table: int | None = None
) -> _RoomProgress:
    """Which meetings have settled their boards. With `table`, only what `table_round` needs
    for that table: its own results, and the whole room's only in the rounds it sits out (it
    moves on when the room has played); a tablet's write asks this on every result, and the
    room's results would be every row of the evening."""
    rows = meeting_rows(section)
    sit_out = sit_outs(section, absent)
    results = Result.objects.filter(section=section)
    if table is not None:
        waits_for_room = sorted({rnd for (rnd, t) in sit_out if t == table})
        results = results.filter(Q(table=table) | Q(round__in=waits_for_room))
    settled: dict[tuple[int, int], int] = defaultdict(int)
    # .order_by(): the models' default orderings join the section and event tables, which
    # costs more than the rows here; these reads need no order.
    for rnd, at, status in results.order_by().values_list("round", "table", "status"):
        if status in _SETTLED:
            settled[(rnd, at)] += 1
    return _RoomProgress(rows, settled, sit_out)


def _round_done(section: Section, progress: _RoomProgress, rnd: int, table: int) -> bool:
    if (rnd, table) in progress.sit_out:
        # A table without a game waits for the room: done when every game of the round is.
        return all(
            progress.settled[key] >= section.boards_per_round
            for key in progress.rows
            if key[0] == rnd and key not in progress.sit_out
        )
    return progress.settled[(rnd, table)] >= section.boards_per_round


def table_round(section: Section, table: int, progress: _RoomProgress | None = None) -> int | None:
    """The round a table's tablet shows: its first round not yet played through, held back to
    the round the director has started when the event moves on the director's word; None
    when the table has played every round."""
    progress = progress or _progress(section, table=table)
    rounds = sorted(r for (r, t) in progress.rows if t == table)
    current = next((r for r in rounds if not _round_done(section, progress, r, table)), None)
    if current is None:
        return None
    if section.event.advance == Event.Advance.DIRECTOR:
        current = min(current, max(section.released_round, rounds[0] if rounds else 1))
    if current > rounds[0] and tables_holding(section, table, current, progress):
        current = max(r for r in rounds if r < current)
    return current


def tables_holding(
    section: Section, table: int, rnd: int, progress: _RoomProgress | None = None
) -> list[int]:
    """The tables still playing round `rnd - 1` that send `table` its pairs or boards for
    round `rnd`. A table that moves on by itself must wait for them: otherwise it would start
    a round whose players are still at another table (or whose boards are still in play
    there), and a pair would be at two tables at once."""
    from tournaments.services.engine_bridge import movement_for

    if rnd <= 1:
        return []
    progress = progress or _progress(section, table=table)
    movement = movement_for(section)
    sources = []
    for r, t in progress.rows:
        if r != rnd - 1 or t == table or (r, t) in progress.sit_out:
            continue
        after = movement.next_places(r, t)
        goes_to = {
            after.boards,
            after.ns[0] if after.ns else None,
            after.ew[0] if after.ew else None,
        }
        if table in goes_to:
            sources.append(t)
    if not sources:
        return []
    settled: dict[int, int] = defaultdict(int)
    for t, status in (
        Result.objects.filter(section=section, round=rnd - 1, table__in=sources)
        .order_by()
        .values_list("table", "status")
    ):
        if status in _SETTLED:
            settled[t] += 1
    return sorted(t for t in sources if settled[t] < section.boards_per_round)


def table_round_boards(section: Section, table: int, rnd: int) -> range:
    row = meeting_rows(section).get((rnd, table))
    return boards_of_set(section, row.board_set) if row else range(0)


def _pair_view(
    section: Section, pairs: dict[tuple[int, str], Pair], number: int, seat: str
) -> dict[str, Any] | None:
    pair = pairs.get((number, section.direction_of(seat)))
    if pair is None:
        return None
    return {
        "number": pair.number,
        "label": pair.label,
        "names": pair.names,
        "absent": pair.is_phantom,  # the phantom, or a pair marked absent
    }


def _board_views(
    section: Section, rules: Any, rnd: int, table: int, boards: range
) -> list[dict[str, Any]]:
    from tournaments.services.engine_bridge import board_from_record

    stored = dict(
        Board.objects.filter(event_id=section.event_id, number__in=boards)
        .order_by()
        .values_list("number", "record")
    )
    results = {
        r.board_number: r
        for r in Result.objects.filter(
            section=section, round=rnd, table=table, board_number__in=boards
        ).order_by()
    }
    views = []
    for number in boards:
        played = board_from_record(stored[number])
        result = results.get(number)
        view: dict[str, Any] = {
            "number": number,
            "dealer": played.dealer.full_name,
            "trumps": rules.trumps_text(played),
            "state": "to enter" if result is None else _STATE[result.status],
            "result": None,
        }
        if result is not None:
            parsed = rules.parse_entry(played, result.entry) if result.entry else None
            view["result"] = {
                "id": result.pk,
                "key": result.idempotency_key,
                "entry": result.entry,
                "describe": rules.describe(parsed) if parsed else result.artificial_code,
                "short": rules.describe_short(parsed) if parsed else result.artificial_code,
                "ns_score": result.ns_score,
                "ew_score": None if result.ns_score is None else -result.ns_score,
                # Only that it looks unusual: the reason names other tables' results.
                "unusual": bool(result.flag),
            }
        views.append(view)
    return views


_STATE: dict[str, str] = {
    Result.Status.ENTERED: "waiting",
    Result.Status.CONFIRMED: "confirmed",
    Result.Status.DISPUTED: "disputed",
    Result.Status.CORRECTED: "confirmed",
    Result.Status.ARTIFICIAL: "confirmed",
}


def _round_view(
    section: Section, progress: _RoomProgress, rules: Any, rnd: int, table: int, pairs: Any
) -> dict[str, Any]:
    from tournaments.services.engine_bridge import movement_for

    row = progress.rows[(rnd, table)]
    boards = boards_of_set(section, row.board_set)
    after = movement_for(section).next_places(rnd, table)
    return {
        "round": rnd,
        "sit_out": (rnd, table) in progress.sit_out,
        "ns": _pair_view(section, pairs, row.ns_pair, "NS") if row.ns_pair else None,
        "ew": _pair_view(section, pairs, row.ew_pair, "EW") if row.ew_pair else None,
        "boards": _board_views(section, rules, rnd, table, boards),
        "done": _round_done(section, progress, rnd, table),
        "next": {
            "ns": None if after.ns is None else {"table": after.ns[0], "seat": after.ns[1]},
            "ew": None if after.ew is None else {"table": after.ew[0], "seat": after.ew[1]},
            "boards_to": after.boards,
            # boards not played next round: where and when they are played again
            "boards_later": None
            if after.boards_later is None
            else {"round": after.boards_later[0], "table": after.boards_later[1]},
            "last_round": rnd >= section.rounds,
        },
    }


def table_state(access: TableAccess) -> dict[str, Any]:
    """Everything a table's tablet shows: the round, the pairs, the boards and their results,
    the previous round's recap and where everyone goes next, and how to enter a result."""
    from tournaments.services.engine_bridge import rules_for

    section = access.section
    event = section.event
    rules = rules_for(event)
    pairs = {(p.number, p.direction): p for p in Pair.objects.filter(section=section).order_by()}
    absent = {key for key, pair in pairs.items() if pair.is_phantom}
    progress = _progress(section, absent)
    current = table_round(section, access.table, progress)
    rounds = sorted(r for (r, t) in progress.rows if t == access.table)
    shown = current if current is not None else rounds[-1]
    now = _round_view(section, progress, rules, shown, access.table, pairs)
    earlier = [r for r in rounds if r < shown]
    call = (
        DirectorCall.objects.filter(section=section, table=access.table, handled_at__isnull=True)
        .order_by("-created_at")
        .first()
    )
    previous = (
        _round_view(section, progress, rules, earlier[-1], access.table, pairs) if earlier else None
    )
    return {
        "event": {
            "id": event.pk,
            "name": event.name,
            "game": rules.title,
            "status": event.status,
            "advance": event.advance,
        },
        "table": access.table,
        "rounds": section.rounds,
        "finished": current is None,
        "accepting": event.status == Event.Status.RUNNING and current is not None,
        "waiting_for_tables": (
            tables_holding(section, access.table, shown + 1, progress)
            if current is not None and now["done"] and shown < section.rounds
            else []
        ),
        "waiting_for_director": bool(
            now["done"]
            and current is not None
            and event.advance == Event.Advance.DIRECTOR
            and current < section.rounds
        ),
        "current": now,
        "previous": previous,
        # The director's round clock (the room view's), while the event runs: the page counts
        # down to `ends_at` against the server's clock (`server_time`, added to every answer).
        "clock": (
            {
                "ends_at": section.clock_ends_at.isoformat(timespec="seconds"),
                "minutes": section.clock_minutes,
            }
            if section.clock_ends_at is not None and event.status == Event.Status.RUNNING
            else None
        ),
        "calls_open": call is not None,
        # The table's open call: why, and whether the table may take it back (a dispute's
        # call waits for the director).
        "call": None
        if call is None
        else {"reason": call.get_reason_display(), "cancellable": call.board_number is None},
        "fields": [entry_field_view(f) for f in rules.entry_fields()],
    }


def entry_field_view(field: Any) -> dict[str, Any]:
    """An engine `EntryField` as plain data for the tablet page's pickers."""
    return {
        "key": field.key,
        "kind": field.kind,
        "label": field.label,
        "short": field.short,
        "help": field.help,
        "min": field.minimum,
        "max": field.maximum,
        "choices": [{"value": c.value, "label": c.label, "mark": c.mark} for c in field.choices],
        "only_when": [[other, list(values)] for other, values in field.only_when],
    }


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


@dataclass(frozen=True)
class AuditLine:
    """One line of the audit trail as the director reads it."""

    at: Any
    who: str
    action: str
    target: str
    change: str
    reason: str = ""

    def mentions(self, words: str) -> bool:
        text = f"{self.action} {self.target} {self.change} {self.reason} {self.who}".lower()
        return words.lower() in text


def audit_lines(event: Event, query: str = "", limit: int = 2000) -> list[AuditLine]:
    """Everything that happened to the event's results, newest first: the director's changes
    (audit entries, each value old → new), every result as it was entered and confirmed (from
    the results themselves, so a tablet's submission costs no extra write), and every call and
    dispute with its handling. `query` keeps the lines that mention it."""
    from tournaments.models import AuditEntry
    from tournaments.services.audit import describe_change
    from tournaments.services.engine_bridge import engine_board, rules_for

    lines: list[AuditLine] = [
        AuditLine(
            a.at,
            str(a.user) if a.user else "—",
            a.action.capitalize(),
            a.target,
            describe_change(a.before, a.after),
            a.reason,
        )
        for a in AuditEntry.objects.filter(event=event).select_related("user")[:limit]
    ]
    section = event.section
    rules = rules_for(event)
    boards = {b.number: b for b in Board.objects.filter(event=event).order_by()}
    results = (
        Result.objects.filter(section=section)
        .select_related("ns_pair", "ew_pair", "entered_by")
        .order_by("-created_at")[:limit]
    )
    for r in results:
        if r.status == Result.Status.ARTIFICIAL and r.entry is None:
            continue  # the director's artificial score is an audit entry already
        where = (
            f"board {r.board_number}, table {r.table}, round {r.round} "
            f"({r.ns_pair.label} v {r.ew_pair.label})"
        )
        who = str(r.entered_by) if r.entered_by else (r.entered_by_device or "—")
        if r.status == Result.Status.CORRECTED:
            said = "corrected later (see the correction)"
        elif r.entry is not None:
            parsed = rules.parse_entry(engine_board(boards[r.board_number]), r.entry)
            score = "" if r.ns_score is None else f" (NS {r.ns_score:+d})"
            said = f"{rules.describe(parsed)}{score}"
        else:
            said = ""
        at_once = r.confirmed_at is not None and r.confirmed_at == r.created_at
        lines.append(
            AuditLine(
                r.created_at,
                who,
                "Result entered and confirmed" if at_once else "Result entered",
                where,
                said,
                r.flag and f"looked unusual: {r.flag}",
            )
        )
        if r.confirmed_at is not None and not at_once:
            lines.append(AuditLine(r.confirmed_at, who, "Result confirmed", where, ""))
    for call in DirectorCall.objects.filter(section=section).order_by():
        target = f"table {call.table}" + (f", round {call.round}" if call.round else "")
        said = call.get_reason_display() + (f": {call.note}" if call.note else "")
        lines.append(
            AuditLine(call.created_at, f"table {call.table}", "Director called", target, said)
        )
        if call.handled_at is not None and call.cancelled:
            lines.append(
                AuditLine(call.handled_at, f"table {call.table}", "Call taken back", target, said)
            )
        elif call.handled_at is not None:
            lines.append(AuditLine(call.handled_at, "director", "Call handled", target, said))
    if query:
        lines = [line for line in lines if line.mentions(query)]
    lines.sort(key=lambda line: line.at, reverse=True)
    return lines[:limit]
