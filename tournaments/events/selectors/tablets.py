"""What a table's tablet shows: its round, pairs, boards and results, the recap and where
everyone goes next, and the fields to enter a result with."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from clubwhist.queries import Prepared
from tournaments.events.bridge import board_from_record, meeting_rows, movement_for, rules_for
from tournaments.events.models import Board, DirectorCall, Event, Pair, Result, Section, TableAccess
from tournaments.events.selectors.documents import (
    BoardsLater,
    NextPlaces,
    RoundClock,
    SeatMove,
    TabletBoard,
    TabletCall,
    TabletEvent,
    TabletPair,
    TabletResult,
    TabletRound,
    TabletState,
)
from tournaments.events.selectors.room import (
    SETTLED,
    TABLES_STATUSES,
    RoomProgress,
    absences,
    progress_of,
    room_progress,
    round_done,
    rounds_waiting,
    sit_outs,
)
from tournaments.events.selectors.section_snapshot import section_snapshot
from tournaments.kernel.documents import entry_field_document
from tournaments.kernel.member_links import shown_player


def table_round(section: Section, table: int, progress: RoomProgress | None = None) -> int | None:
    """The round a table's tablet shows: its first round not yet played through, held back to
    the round the director has started when the event moves on the director's word; None
    when the table has played every round."""
    progress = progress or room_progress(section, table=table)
    rounds = sorted(r for (r, t) in progress.rows if t == table)
    current = next((r for r in rounds if not round_done(section, progress, r, table)), None)
    if current is None:
        return None
    if section.event.advance == Event.Advance.DIRECTOR:
        current = min(current, max(section.released_round, rounds[0] if rounds else 1))
    if current > rounds[0] and tables_holding(section, table, current, progress):
        current = max(r for r in rounds if r < current)
    return current


@dataclass(frozen=True)
class TableRound:
    """The round a table's link may write now, and its boards; `current` None (and no
    boards) once the table has played every round. Kept with the link in the shared cache,
    so a tablet's write learns it without a query (`tablet_cache`)."""

    current: int | None
    boards: range

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> TableRound | None:
        """The round a computed state shows; None for a table sitting its round out (it moves
        on with the whole room, so its round is never kept)."""
        if state["finished"]:
            return cls(None, range(0))
        current = state["current"]
        if current["sit_out"]:
            return None
        numbers = [b["number"] for b in current["boards"]]
        return cls(current["round"], range(min(numbers), max(numbers) + 1) if numbers else range(0))


def table_round_now(
    section: Section, table: int, sit_out: AbstractSet[tuple[int, int]] | None = None
) -> TableRound:
    """`table_round` with the round's boards; `sit_out` as `room_progress` takes it."""
    progress = room_progress(section, table=table, sit_out=sit_out)
    current = table_round(section, table, progress)
    return TableRound(
        current, range(0) if current is None else table_round_boards(section, table, current)
    )


def tables_holding(
    section: Section, table: int, rnd: int, progress: RoomProgress | None = None
) -> list[int]:
    """The tables still playing round `rnd - 1` that send `table` its pairs or boards for
    round `rnd`. A table that moves on by itself must wait for them: otherwise it would start
    a round whose players are still at another table (or whose boards are still in play
    there), and a pair would be at two tables at once."""
    if rnd <= 1:
        return []
    progress = progress or room_progress(section, table=table)
    sources = [
        t
        for t in movement_for(section).feeders(rnd, table)
        if t != table and (rnd - 1, t) in progress.rows and (rnd - 1, t) not in progress.sit_out
    ]
    if not sources:
        return []
    settled: dict[int, int] = defaultdict(int)
    for t, status in TABLES_STATUSES(section.pk, rnd - 1, *sources):
        if status in SETTLED:
            settled[t] += 1
    return sorted(t for t in sources if settled[t] < section.boards_per_round)


def table_round_boards(section: Section, table: int, rnd: int) -> range:
    row = meeting_rows(section).get((rnd, table))
    return section.boards_of_set(row.board_set) if row else range(0)


def _pair_view(
    section: Section, pairs: dict[tuple[int, str], Pair], number: int, seat: str, rnd: int
) -> TabletPair | None:
    pair = pairs.get((number, section.direction_of(seat)))
    if pair is None:
        return None
    missed = pair.absent_rounds(section.rounds) if pair.is_phantom or pair.presence else ()
    away = rnd in missed
    # It played earlier this evening and has gone: its opponents are told so.
    left = away and any(r not in missed for r in range(1, rnd))
    # The players at the tables are the public: a member's name as they chose it shown.
    players = (
        " & ".join(
            shown_player(n, m)
            for n, m in ((pair.player1, pair.member1), (pair.player2, pair.member2))
            if n
        )
        or pair.NAMES_TO_COME
    )
    return TabletPair(
        number=pair.number,
        label=pair.label,
        # "Phantom (sit-out)" for a slot nobody fills (yet); the players' names otherwise.
        names=Pair.PHANTOM_NAMES if away and not left else players,
        absent=away,  # the phantom, or a pair away this round
        left=left,
    )


def _board_views(
    rules: Any,
    rnd: int,
    boards: range,
    records: dict[int, Any],
    own: list[Result],
) -> list[TabletBoard]:
    results = {r.board_number: r for r in own if r.round == rnd and r.board_number in boards}
    views = []
    for number in boards:
        played = board_from_record(records[number])
        result = results.get(number)
        shown = None
        if result is not None:
            parsed = rules.parse_entry(played, result.entry) if result.entry else None
            shown = TabletResult(
                id=result.pk,
                key=result.idempotency_key,
                entry=result.entry,
                describe=rules.describe(parsed) if parsed else result.artificial_code,
                short=rules.describe_short(parsed) if parsed else result.artificial_code,
                ns_score=result.ns_score,
                ew_score=None if result.ns_score is None else -result.ns_score,
                # Only that it looks unusual: the reason names other tables' results.
                unusual=bool(result.flag),
            )
        views.append(
            TabletBoard(
                number=number,
                dealer=played.dealer.full_name,
                trumps=rules.trumps_text(played),
                state="to enter" if result is None else _STATE[result.status],
                result=shown,
            )
        )
    return views


_STATE: dict[str, str] = {
    Result.Status.ENTERED: "waiting",
    Result.Status.CONFIRMED: "confirmed",
    Result.Status.DISPUTED: "disputed",
    Result.Status.CORRECTED: "confirmed",
    Result.Status.ARTIFICIAL: "confirmed",
}


def _round_view(
    section: Section,
    progress: RoomProgress,
    rules: Any,
    rnd: int,
    table: int,
    pairs: Any,
    records: dict[int, Any],
    own: list[Result],
) -> TabletRound:
    row = progress.rows[(rnd, table)]
    boards = section.boards_of_set(row.board_set)
    movement = movement_for(section)
    after = movement.next_places(rnd, table)

    def move(place: tuple[int, str] | None) -> SeatMove | None:
        """Where a pair goes; past a round at the idle table (not set up), where it plays
        the round after, so the pair is not sent to a table nobody sets up."""
        if place is None:
            return None
        if place[0] not in movement.idle_tables:
            return SeatMove(table=place[0], seat=place[1])
        later = movement.next_places(rnd + 1, place[0])
        then = later.ns if place[1] == "NS" else later.ew
        return SeatMove(
            table=place[0],
            seat=place[1],
            idle=True,
            then_table=then[0] if then else None,
            then_seat=then[1] if then else None,
        )

    return TabletRound(
        round=rnd,
        sit_out=(rnd, table) in progress.sit_out,
        ns=_pair_view(section, pairs, row.ns_pair, "NS", rnd) if row.ns_pair else None,
        ew=_pair_view(section, pairs, row.ew_pair, "EW", rnd) if row.ew_pair else None,
        boards=tuple(_board_views(rules, rnd, boards, records, own)),
        done=round_done(section, progress, rnd, table),
        next=NextPlaces(
            ns=move(after.ns),
            ew=move(after.ew),
            boards_to=after.boards,
            # boards not played next round: where and when they are played again
            boards_later=None
            if after.boards_later is None
            else BoardsLater(round=after.boards_later[0], table=after.boards_later[1]),
            last_round=rnd >= section.rounds,
        ),
    )


def _pairs_at(section: Section, table: int) -> dict[tuple[int, str], Pair]:
    """The pairs the table seats in any round, and every pair marked absent (the phantom or
    a pair that did not come: it makes a sit-out wherever it was due, this table included),
    by (number, direction): a tablet's state needs these, not the whole room's."""
    seated: dict[str, set[int]] = defaultdict(set)
    for (_, at), row in meeting_rows(section).items():
        if at == table:
            for seat, number in (("NS", row.ns_pair), ("EW", row.ew_pair)):
                if number:
                    seated[section.direction_of(seat)].add(number)
    wanted = Q(is_phantom=True) | ~Q(presence=[])
    for direction, numbers in seated.items():
        wanted |= Q(direction=direction, number__in=numbers)
    return {
        (p.number, p.direction): p
        for p in Pair.objects.filter(section=section)
        .filter(wanted)
        .select_related("member1", "member2")
        .order_by()
    }


# The two queries a state computed again makes, built into SQL once per connection
# (clubwhist/queries.py): a busy room recomputes states many times a second.
_OWN = Prepared(
    lambda section, table: Result.objects.filter(section_id=section, table=table).order_by()
)
_OPEN_CALL = Prepared(
    lambda section, table: DirectorCall.objects.filter(
        section_id=section, table=table, handled_at__isnull=True
    ).order_by("-created_at")[:1]
)


def table_state(access: TableAccess, section_version: str | None = None) -> dict[str, Any]:
    """`tablet_state` as the JSON the tablet cache keeps and the pages embed."""
    return tablet_state(access, section_version).to_dict()


def tablet_state(access: TableAccess, section_version: str | None = None) -> TabletState:
    """Everything a table's tablet shows: the round, the pairs, the boards and their results,
    the previous round's recap and where everyone goes next, and how to enter a result.
    `section_version`: the section's, read from the shared cache before anything here; its
    pairs, boards and sit-outs then come from the process's copy (`section_snapshot`)."""
    section = access.section
    event = section.event
    rules = rules_for(event)
    table = access.table
    snapshot = None if section_version is None else section_snapshot(section, section_version)
    if snapshot is not None:
        pairs: Mapping[tuple[int, str], Pair] = snapshot.pairs
        sit_out: AbstractSet[tuple[int, int]] = snapshot.sit_out
    else:
        pairs = _pairs_at(section, table)
        sit_out = sit_outs(section, absences(section, pairs.values()))
    # This table's results serve both its progress and its boards' views (one query); the
    # room's are read only for a round the table sits out (it moves on with the room).
    own: list[Result] = _OWN(section.pk, table)
    statuses = [(r.round, r.table, r.status) for r in own]
    waiting = rounds_waiting(sit_out, table)
    if waiting:
        statuses += (
            Result.objects.filter(section=section, round__in=waiting)
            .exclude(table=table)
            .order_by()
            .values_list("round", "table", "status")
        )
    progress = progress_of(section, sit_out, statuses)
    current = table_round(section, table, progress)
    rounds = sorted(r for (r, t) in progress.rows if t == table)
    shown = current if current is not None else rounds[-1]
    earlier = [r for r in rounds if r < shown]
    shown_rounds = [shown, *earlier[-1:]]
    numbers = {
        n
        for rnd in shown_rounds
        for n in section.boards_of_set(progress.rows[(rnd, table)].board_set)
    }
    if snapshot is not None:
        records = {number: snapshot.boards[number].record for number in numbers}
    else:
        records = dict(
            Board.objects.filter(event_id=section.event_id, number__in=numbers)
            .order_by()
            .values_list("number", "record")
        )
    now = _round_view(section, progress, rules, shown, table, pairs, records, own)
    call = next(iter(_OPEN_CALL(section.pk, table)), None)
    previous = (
        _round_view(section, progress, rules, earlier[-1], table, pairs, records, own)
        if earlier
        else None
    )
    return TabletState(
        event=TabletEvent(
            id=event.pk,
            name=event.name,
            game=rules.title,
            status=event.status,
            advance=event.advance,
        ),
        table=access.table,
        rounds=section.rounds,
        finished=current is None,
        accepting=event.status == Event.Status.RUNNING and current is not None,
        waiting_for_tables=tuple(
            tables_holding(section, access.table, shown + 1, progress)
            if current is not None and now.done and shown < section.rounds
            else []
        ),
        waiting_for_director=bool(
            now.done
            and current is not None
            and event.advance == Event.Advance.DIRECTOR
            and current < section.rounds
        ),
        current=now,
        previous=previous,
        # The director's round clock (the room view's), while the event runs: the page counts
        # down to `ends_at` against the server's clock (`server_time`, added to every answer).
        clock=(
            RoundClock(
                ends_at=section.clock_ends_at.isoformat(timespec="seconds"),
                minutes=section.clock_minutes,
            )
            if section.clock_ends_at is not None and event.status == Event.Status.RUNNING
            else None
        ),
        calls_open=call is not None,
        # The table's open call: why, and whether the table may take it back (a dispute's
        # call waits for the director).
        call=None
        if call is None
        else TabletCall(reason=call.get_reason_display(), cancellable=call.board_number is None),
        fields=tuple(entry_field_document(f) for f in rules.entry_fields()),
    )


def entry_field_view(field: Any) -> dict[str, Any]:
    """An engine `EntryField` as plain data for the tablet page's pickers."""
    return entry_field_document(field).to_dict()
