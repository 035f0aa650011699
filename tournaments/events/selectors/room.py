"""The room as the director watches it: each table's round and results, sit-outs, and which
boards every table has finished (the card-secrecy rule)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from clubwhist.queries import Prepared
from tournaments.events.bridge import MeetingRow, meeting_rows
from tournaments.events.models import DirectorCall, Event, Pair, Result, Section, absent_rounds
from tournaments.events.selectors.documents import Room, RoomTable


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
        call.boards = list(section.boards_of_set(row.board_set)) if row else []  # type: ignore[attr-defined]
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
            boards=section.boards_of_set(row.board_set),
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


def room_document(event: Event, room: dict[str, Any] | None = None) -> Room:
    """The room as the API sends it: each table's round, pairs, boards and where its results
    stand (`room_view`, which holds model objects for the director's page, as plain data)."""
    room = room if room is not None else room_view(event)
    return Room(
        results_in=room["results_in"],
        results_expected=room["results_expected"],
        tables=tuple(
            RoomTable(
                table=t.table,
                round=t.round,
                ns=t.ns,
                ew=t.ew,
                boards=(t.boards.start, t.boards.stop - 1),
                entered=t.entered,
                confirmed=t.confirmed,
                disputed=t.disputed,
                missing=t.missing,
                sit_out=t.sit_out,
                state=t.state,
                director_called=bool(t.calls),
            )
            for t in room["tables"]
        ),
    )


# What a tablet's round asks after each change of the room, built into SQL once per
# connection (clubwhist/queries.py).
# Every pair of the section (a few dozen rows), those away in some round picked out by the
# caller: a JSON "no changes" in the query would be a value the prepared query does not take.
_ABSENT = Prepared(
    lambda section: (
        Pair.objects.filter(section_id=section)
        .order_by()
        .values_list("number", "direction", "is_phantom", "presence")
    )
)

#: Who is away in which rounds: (number, direction) -> the rounds that pair misses.
Absences = Mapping[tuple[int, str], AbstractSet[int]]
# A table's own results and the room's in the rounds it sits out (`room_progress`).
# .order_by(): the models' default orderings join the section and event tables, which costs
# more than the rows here; these reads need no order.
_TABLE_STATUSES = Prepared(
    lambda section, table, *waiting: (
        Result.objects.filter(section_id=section)
        .filter(Q(table=table) | Q(round__in=waiting))
        .order_by()
        .values_list("round", "table", "status")
    )
)
TABLES_STATUSES = Prepared(
    lambda section, rnd, *tables: (
        Result.objects.filter(section_id=section, round=rnd, table__in=tables)
        .order_by()
        .values_list("table", "status")
    )
)


def absences(section: Section, pairs: Iterable[Pair]) -> dict[tuple[int, str], frozenset[int]]:
    """The rounds each of `pairs` misses (absent all evening, came late or left early), for
    those that miss any."""
    found = {}
    for pair in pairs:
        if pair.is_phantom or pair.presence:
            missed = pair.absent_rounds(section.rounds)
            if missed:
                found[(pair.number, pair.direction)] = missed
    return found


def _absent_numbers(section: Section) -> dict[tuple[int, str], frozenset[int]]:
    found = {}
    for number, direction, phantom, presence in _ABSENT(section.pk):
        if not (phantom or presence):
            continue
        missed = absent_rounds(phantom, presence, section.rounds)
        if missed:
            found[(number, direction)] = missed
    return found


def sit_outs(section: Section, absent: Absences | None = None) -> set[tuple[int, int]]:
    """The (round, table) meetings with no game: the movement's phantom, or a pair away that
    round (`absent`: the rounds each (number, direction) misses, read here when not given)."""
    if absent is None:
        absent = _absent_numbers(section)
    rows = meeting_rows(section)
    if not absent:  # nobody away (most evenings): the movement's own sit-outs alone
        return {key for key, row in rows.items() if not (row.ns_pair and row.ew_pair)}
    # A tablet's write asks this on every result: the directions once, not per meeting.
    ns, ew = section.direction_of("NS"), section.direction_of("EW")
    return {
        key
        for key, row in rows.items()
        if not (row.ns_pair and row.ew_pair)
        or row.round in absent.get((row.ns_pair, ns), ())
        or row.round in absent.get((row.ew_pair, ew), ())
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
    rows = (
        Result.objects.filter(section=section)
        .order_by()
        .values_list("board_number", "round", "table", "status")
    )
    played, pending = board_progress(section, rows)
    return frozenset(played - pending)


def board_progress(
    section: Section, results: Iterable[tuple[int, int, int, str]]
) -> tuple[frozenset[int], frozenset[int]]:
    """The boards the section's movement plays, and those of them still pending at some
    meeting, from the section's results as (board, round, table, status) rows.

    One read of the results serves both this and the scoring that uses it
    (`tournaments.events.selectors.standings`), so the public standings never count a board on the
    strength of a result that changed between two reads."""
    no_game = sit_outs(section)
    counted = {
        (number, rnd, table) for number, rnd, table, status in results if status in Result.COUNTING
    }
    pending: set[int] = set()
    played: set[int] = set()
    for (rnd, table), row in meeting_rows(section).items():
        if (rnd, table) in no_game or not row.board_set:
            continue
        for number in section.boards_of_set(row.board_set):
            played.add(number)
            if (number, rnd, table) not in counted:
                pending.add(number)
    return frozenset(played), frozenset(pending)


SETTLED = Result.COUNTING | {Result.Status.DISPUTED}  # a table may move on; disputes wait


@dataclass(frozen=True)
class RoomProgress:
    rows: dict[tuple[int, int], MeetingRow]  # (round, table) -> meeting
    settled: dict[tuple[int, int], int]  # (round, table) -> boards settled
    sit_out: AbstractSet[tuple[int, int]]


def room_progress(
    section: Section, *, table: int, sit_out: AbstractSet[tuple[int, int]] | None = None
) -> RoomProgress:
    """Which meetings have settled their boards, as far as `table_round` needs for `table`:
    its own results, and the whole room's only in the rounds it sits out (it moves on when the
    room has played); a tablet's write asks this on every result, and the room's results would
    be every row of the evening. `sit_out`: the section's sit-outs when the caller has them
    (the web process's copy of the section), else worked out here."""
    if sit_out is None:
        sit_out = sit_outs(section)
    waiting = rounds_waiting(sit_out, table)
    return progress_of(section, sit_out, _TABLE_STATUSES(section.pk, table, *waiting))


def rounds_waiting(sit_out: AbstractSet[tuple[int, int]], table: int) -> list[int]:
    """The rounds `table` sits out: it moves on in them when the whole room has played."""
    return sorted({rnd for (rnd, t) in sit_out if t == table})


def progress_of(
    section: Section,
    sit_out: AbstractSet[tuple[int, int]],
    statuses: Iterable[tuple[int, int, str]],
) -> RoomProgress:
    """The progress from the (round, table, status) of the results read for it."""
    settled: dict[tuple[int, int], int] = defaultdict(int)
    for rnd, at, status in statuses:
        if status in SETTLED:
            settled[(rnd, at)] += 1
    return RoomProgress(meeting_rows(section), settled, sit_out)


def round_done(section: Section, progress: RoomProgress, rnd: int, table: int) -> bool:
    if (rnd, table) in progress.sit_out:
        # A table without a game waits for the room: done when every game of the round is.
        return all(
            progress.settled[key] >= section.boards_per_round
            for key in progress.rows
            if key[0] == rnd and key not in progress.sit_out
        )
    return progress.settled[(rnd, table)] >= section.boards_per_round
