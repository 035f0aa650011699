"""Custom movements from files: the ASC text format and a plain CSV.

ASC (version 1.0, by Peter Smulders and Hans van Staveren; REFERENCE.md, "Movement files"):
a header line `pairs tables rounds boardgroups individual`, then one line per round holding,
for tables 1..tables in order, `NS EW group`. Separators are any mix of spaces, tabs and the
characters `- , : ;`; groups are numbers from 1 or capital letters from A; `0 0 0` is an
empty table; `#` starts a comment; blank lines are comments. Individual movements (last header
field 1) are refused: clubwhist scores pairs.

CSV: a header `round,table,ns,ew,set`, then one row per table and round. Pair 0 is the
phantom (the other pair sits out); `0,0` with a set is an empty table and is skipped; a table
written `R` (or `relay`) puts that set on the relay/bye stand for the round.

One or two winners: pass `one_winner`, or let the importer decide. A number seated NS and EW
in the same round can only mean separate NS and EW numbering (a two-winner Mitchell); a pair
seen in both directions on different rounds means one field; a pair always in one direction
means two fields. Tables holding the same set in every round are read as sharing by design;
any other double use of a set is reported like every other broken invariant.

Sizes are checked as the file is read, before anything is built: the text at most
`MAX_FILE_CHARS`, tables, rounds and boards a round within the built-in movements' limits
(`engine.movements.registry`), sets at most one per table and round, pair numbers at most
two per table. A file beyond them is a mistake (or an attack that would take minutes and
gigabytes to check), and is refused saying which limit.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict

from engine.movements.model import (
    PHANTOM,
    Meeting,
    Movement,
    MovementFileError,
    PairSlot,
)
from engine.movements.registry import MAX_BOARDS_PER_ROUND, MAX_ROUNDS, MAX_TABLES
from engine.movements.validate import validate
from engine.reading import quoted, whole_number

_SEPARATORS = re.compile(r"[\s,:;\-]+")

#: The longest movement file read: a 120-table, 60-round CSV is about 120 KB.
MAX_FILE_CHARS = 1024 * 1024
#: The highest board set and pair number a file may name (see the module docstring).
MAX_SETS = MAX_TABLES * 2
MAX_PAIR = MAX_TABLES * 2


def _group(token: str, line_no: int) -> int:
    number = whole_number(token)
    if number is not None:
        return number
    if len(token) == 1 and "A" <= token <= "Z":
        return ord(token) - ord("A") + 1
    raise MovementFileError(
        f"line {line_no}: {quoted(token)} is not a board group (1, 2... or A, B...)"
    )


def _number(token: str, what: str, line_no: int) -> int:
    number = whole_number(token)
    if number is None:
        raise MovementFileError(f"line {line_no}: {what} {quoted(token)} is not a whole number")
    return number


def _within(value: int, limit: int, what: str, line_no: int) -> int:
    if value > limit:
        raise MovementFileError(
            f"line {line_no}: {what} {value} is over the limit of {limit} "
            "(the largest movement clubwhist runs)"
        )
    return value


def _check_size(text: str, boards_per_round: int) -> None:
    if len(text) > MAX_FILE_CHARS:
        raise MovementFileError(
            f"the movement file is over {MAX_FILE_CHARS // 1024} KB: that is not a movement"
        )
    if not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementFileError(
            f"boards a round must be from 1 to {MAX_BOARDS_PER_ROUND} (got {boards_per_round})"
        )


def loads_asc(text: str, *, boards_per_round: int = 3, one_winner: bool | None = None) -> Movement:
    """Read an ASC movement; errors name the line. See the module docstring for the format."""
    _check_size(text, boards_per_round)
    lines = [
        (no, raw.split("#", 1)[0].strip()) for no, raw in enumerate(text.splitlines(), start=1)
    ]
    lines = [(no, body) for no, body in lines if body]
    if not lines:
        raise MovementFileError("the movement file is empty")
    header_no, header = lines[0]
    fields = [t for t in _SEPARATORS.split(header) if t]
    if len(fields) != 5:
        raise MovementFileError(
            f"line {header_no}: the header needs 5 numbers "
            "(pairs tables rounds boardgroups individual)"
        )
    pairs, tables, rounds, groups, individual = (
        _number(t, "header field", header_no) for t in fields
    )
    _within(pairs, MAX_PAIR, "pairs", header_no)
    _within(tables, MAX_TABLES, "tables", header_no)
    _within(rounds, MAX_ROUNDS, "rounds", header_no)
    _within(groups, MAX_SETS, "board groups", header_no)
    if individual != 0:
        raise MovementFileError(f"line {header_no}: individual movements are not supported")
    body = lines[1:]
    if len(body) != rounds:
        raise MovementFileError(
            f"line {header_no}: the header says {rounds} rounds but {len(body)} round lines follow"
        )
    meetings: list[tuple[int, Meeting]] = []
    for r, (no, line) in enumerate(body, start=1):
        tokens = [t for t in _SEPARATORS.split(line) if t]
        if len(tokens) != 3 * tables:
            raise MovementFileError(
                f"line {no}: round {r} needs NS EW group for {tables} tables "
                f"({3 * tables} entries), found {len(tokens)}"
            )
        for t in range(tables):
            ns = _number(tokens[3 * t], "pair", no)
            ew = _number(tokens[3 * t + 1], "pair", no)
            group = _group(tokens[3 * t + 2], no)
            if ns == ew == PHANTOM:
                continue
            for p in (ns, ew):
                if p > pairs:
                    raise MovementFileError(
                        f"line {no}: pair {p} at table {t + 1}, but the header says {pairs} pairs"
                    )
            if not 1 <= group <= groups:
                raise MovementFileError(
                    f"line {no}: board group {tokens[3 * t + 2]} at table {t + 1} is outside "
                    f"the {groups} groups of the header"
                )
            meetings.append((no, Meeting(r, t + 1, ns, ew, group)))
    if not meetings:
        # Every cell "0 0 0": a movement in which nobody plays, which no event can run (and
        # whose CSV would be a header alone, which the CSV reader refuses the same way).
        raise MovementFileError("the movement file has no meetings")
    return _assemble("asc", meetings, (), tables, rounds, groups, boards_per_round, one_winner)


def loads_csv(text: str, *, boards_per_round: int = 3, one_winner: bool | None = None) -> Movement:
    """Read a `round,table,ns,ew,set` CSV movement; errors name the line."""
    _check_size(text, boards_per_round)
    reader = csv.reader(io.StringIO(text))
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        raise MovementFileError(f"line {reader.line_num}: not CSV ({exc})") from None
    rows = [(no, row) for no, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise MovementFileError("the movement file is empty")
    header_no, header = rows[0]
    wanted = ["round", "table", "ns", "ew", "set"]
    if [cell.strip().lower() for cell in header] != wanted:
        raise MovementFileError(f"line {header_no}: the header must be {','.join(wanted)}")
    meetings: list[tuple[int, Meeting]] = []
    relay: list[tuple[int, int]] = []
    for no, row in rows[1:]:
        if len(row) != 5:
            raise MovementFileError(f"line {no}: expected 5 fields, found {len(row)}")
        cells = [cell.strip() for cell in row]
        r = _within(_number(cells[0], "round", no), MAX_ROUNDS, "round", no)
        ns = _within(_number(cells[2], "NS pair", no), MAX_PAIR, "pair number", no)
        ew = _within(_number(cells[3], "EW pair", no), MAX_PAIR, "pair number", no)
        board_set = _within(_number(cells[4], "set", no), MAX_SETS, "set", no)
        if r < 1 or board_set < 1:
            raise MovementFileError(f"line {no}: rounds and sets count from 1")
        if cells[1].lower() in ("r", "relay"):
            if ns or ew:
                raise MovementFileError(f"line {no}: nobody plays at the relay stand")
            relay.append((r, board_set))
            continue
        table = _within(_number(cells[1], "table", no), MAX_TABLES, "table", no)
        if table < 1:
            raise MovementFileError(f"line {no}: tables count from 1")
        if ns == ew == PHANTOM:
            continue
        meetings.append((no, Meeting(r, table, ns, ew, board_set)))
    if not meetings:
        raise MovementFileError("the movement file has no meetings")
    tables = max(m.table for _, m in meetings)
    rounds = max(m.round for _, m in meetings)
    sets = max([m.set for _, m in meetings] + [s for _, s in relay])
    return _assemble(
        "csv", meetings, tuple(relay), tables, rounds, sets, boards_per_round, one_winner
    )


def _assemble(
    source: str,
    numbered: list[tuple[int, Meeting]],
    relay: tuple[tuple[int, int], ...],
    tables: int,
    rounds: int,
    sets: int,
    boards_per_round: int,
    one_winner: bool | None,
) -> Movement:
    if boards_per_round < 1:
        raise MovementFileError("a round needs at least one board")
    meetings = [m for _, m in numbered]
    directions: dict[int, set[str]] = defaultdict(set)
    both_in_a_round = False
    seen_in_round: dict[int, set[tuple[str, int]]] = defaultdict(set)
    for m in meetings:
        for seat, p in (("NS", m.ns), ("EW", m.ew)):
            if p == PHANTOM:
                continue
            directions[p].add(seat)
            other = "EW" if seat == "NS" else "NS"
            if (other, p) in seen_in_round[m.round]:
                both_in_a_round = True
            seen_in_round[m.round].add((seat, p))
    if one_winner is None:
        one_winner = not both_in_a_round and any(len(d) > 1 for d in directions.values())
    if one_winner:
        pairs = tuple(PairSlot(p, None) for p in sorted(directions))
    else:
        pairs = tuple(
            PairSlot(p, seat)
            for seat in ("NS", "EW")
            for p in sorted(directions)
            if seat in directions[p]
        )
    shared = _consistent_shares(meetings, rounds)
    movement = Movement(
        kind=f"custom-{source}",
        tables=tables,
        rounds=rounds,
        sets=sets,
        boards_per_round=boards_per_round,
        meetings=tuple(sorted(meetings)),
        relay_sets=relay,
        one_winner=one_winner,
        pairs=pairs,
        shared_tables=shared,
        description=f"custom movement ({source}), {tables} tables, {rounds} rounds",
    )
    report = validate(movement)
    if not report.ok:
        line_of = {(m.round, m.table): no for no, m in numbered}
        first = report.problems[0]
        match = re.match(r"round (\d+) table (\d+)", first)
        where = ""
        if match:
            no = line_of.get((int(match.group(1)), int(match.group(2))))
            where = f"line {no}: " if no is not None else ""
        more = (
            f" (and {len(report.problems) - 1} more problems)" if len(report.problems) > 1 else ""
        )
        raise MovementFileError(f"{where}{first}{more}")
    return movement


def _consistent_shares(meetings: list[Meeting], rounds: int) -> tuple[tuple[int, ...], ...]:
    """Two tables holding the same set in every round share by design."""
    together: dict[tuple[int, int], int] = defaultdict(int)
    by_round: dict[tuple[int, int], list[int]] = defaultdict(list)
    for m in meetings:
        by_round[(m.round, m.set)].append(m.table)
    for tables in by_round.values():
        if len(tables) == 2:
            a, b = sorted(tables)
            together[(a, b)] += 1
    return tuple(pair for pair, count in sorted(together.items()) if count == rounds)


def dumps_csv(movement: Movement) -> str:
    """Write a movement in the CSV form `loads_csv` reads (relay stand rows as table R)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "table", "ns", "ew", "set"])
    rows: list[tuple[int, int, str, int, int, int]] = []
    for m in movement.meetings:
        rows.append((m.round, m.table, str(m.table), m.ns, m.ew, m.set))
    for r, s in movement.relay_sets:
        rows.append((r, movement.tables + 1, "R", 0, 0, s))
    for r, _, table, ns, ew, s in sorted(rows):
        writer.writerow([r, table, ns, ew, s])
    return out.getvalue()
