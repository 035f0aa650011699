r"""PBN 2.1 with results: the hand records plus every traveller line, read back whole.

`dumps_with_results(record)` writes one PBN game per board, the deal exactly as `engine.pbn`
writes it (so any PBN reader still gets the hands, and `engine.pbn.loads` the whist boards),
followed by the board's results in a `ScoreTable` section. `loads_with_results(text)` reads
the lot back into an `EventRecord`; `score_record` then gives the same standings.

Event tags, in the first game (PBN's own tags are repeated in every game, as PBN expects):

| tag | value |
| --- | --- |
| `Event` | the event's title |
| `Site` | the club |
| `Date` | PBN's `YYYY.MM.DD` (`????.??.??` when unknown) |
| `WhistSection` | the section's name, `A` |
| `WhistVariant` | the game (also on every board): `classic`, `bidwhist`, `candid`, `openwhist` |
| `WhistOptions` | the game's options as compact JSON, `{"scoring":"tricks"}` |
| `WhistScoring` | the scoring method: `mp`, `cross-imps`, `butler` or `total` |
| `WhistScale` | the matchpoint scale: `ebu` or `acbl` |
| `WhistWinners` | `1` (one field: Howell, arrow switch) or `2` (NS and EW fields) |
| `WhistMovement` | when known: JSON `{"kind":"mitchell","params":{"tables":4}}` |
| `WhistPairs` | a table of the pairs, see below |

`WhistPairs` is a PBN table (header of columns, then one row per line, `-` for nothing):
`[WhistPairs "PairId\2R;Direction;Absent;Names"]`, rows like `3 NS - "Ann Smith & Bob Jones"`;
Direction is `-` in a one-winner field, Absent is `yes` for a pair that never came.

Per board, after the deal tags:

    [ScoreTable "Round\2R;Table\2R;PairId_NS\2R;PairId_EW\2R;WhistEntry;WhistArtificial;
                 Score_NS\4R;MP_NS\6R;MP_EW\6R"]

(one line in the file), then one row per result. PBN's Contract, Declarer and Result columns do
not fit whist games (no contract in classic whist, books and kitty in Bid Whist), so
`WhistEntry` holds the table result as compact JSON in `GameRules.entry_to_dict` form
(`"{\"ns_tricks\":8}"`, `-` when only the score is known) and `WhistArtificial` an artificial
score (`A+/A-`, `A`, `NP`; `-` for a played board, whose `Score_NS` is then the NS score). The
points columns are named for the method: `MP_NS;MP_EW` (matchpoints), `IMP_NS;IMP_EW` (cross-
IMPs, Butler) and `WhistPoints_NS;WhistPoints_EW` (total scoring); they are written for people
and other programs and ignored on reading (the standings are always derived again).

`[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]` follows when `analyses` (board
number to a stored `BoardAnalysis.to_dict()`) has a double-dummy table for the board: one row
per declarer and strain with the declaring side's tricks (Bid Whist: its contract types,
`"uptown C"`, and books). It is not read back.

Reading is lenient where real files vary (tags in any order, `#` for "as before", unknown
tags and sections, `;` and `{}` comments, the columns of a ScoreTable in any order, a
ScoreTable without the whist columns read as score-only lines) and strict where a result
would change: a row with too few or too many columns, a pair or score that is not a number,
an entry that the game refuses, all raise `ExportError` naming the line and the board, and no
partial record is returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import EngineError, pbn
from engine.boards import Board
from engine.exports.record import (
    EventRecord,
    ExportError,
    MovementSpec,
    PairRecord,
    ResultRecord,
    score_record,
)
from engine.reading import exact_number, quoted, whole_number
from engine.scoring import parse_artificial
from engine.scoring.document import BoardLine
from engine.shapes import shape_of

__all__ = ["dumps_with_results", "loads_with_results"]

_POINT_COLUMNS = {
    "mp": ("MP_NS", "MP_EW"),
    "cross-imps": ("IMP_NS", "IMP_EW"),
    "butler": ("IMP_NS", "IMP_EW"),
    "total": ("WhistPoints_NS", "WhistPoints_EW"),
}
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_PBN_DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})")


# ---- writing ------------------------------------------------------------------------------


def _quote(value: str) -> str:
    """A PBN string: backslashes and double quotes escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


def _compact(data: Mapping[str, Any]) -> str:
    return json.dumps(dict(data), separators=(",", ":"), sort_keys=True, ensure_ascii=True)


def _pbn_date(date: str) -> str:
    if not date:
        return "????.??.??"
    match = _ISO_DATE.fullmatch(date.strip())
    if match is None:
        raise ExportError(f"the date {quoted(date)} is not an ISO date (YYYY-MM-DD)")
    return ".".join(match.groups())


def _number(value: int | Fraction) -> str:
    return str(value)


def _event_lines(record: EventRecord) -> list[str]:
    lines = [
        _tag("WhistSection", record.section),
        _tag("WhistVariant", record.variant),
        _tag("WhistOptions", _compact(record.options)),
        _tag("WhistScoring", record.method),
        _tag("WhistScale", record.scale),
        _tag("WhistWinners", "1" if record.one_winner else "2"),
    ]
    if record.movement is not None:
        movement = {"kind": record.movement.kind, "params": dict(record.movement.params)}
        lines.append(_tag("WhistMovement", _compact(movement)))
    lines.append('[WhistPairs "PairId\\2R;Direction;Absent;Names"]')
    for pair in record.pairs:
        lines.append(
            f"{pair.number} {pair.direction or '-'} {'yes' if pair.absent else '-'} "
            f"{_quote(pair.names) if pair.names else '-'}"
        )
    return lines


def _score_table(
    record: EventRecord, number: int, lines: Mapping[tuple[int, int], BoardLine]
) -> list[str]:
    ns_points, ew_points = _POINT_COLUMNS[record.method]
    out = [
        "[ScoreTable "
        f'"Round\\2R;Table\\2R;PairId_NS\\2R;PairId_EW\\2R;WhistEntry;WhistArtificial;'
        f'Score_NS\\4R;{ns_points}\\6R;{ew_points}\\6R"]'
    ]
    for result in record.results:
        if result.board != number:
            continue
        line = lines.get((result.ns, result.ew))
        cells = [
            "-" if result.round is None else str(result.round),
            "-" if result.table is None else str(result.table),
            str(result.ns),
            str(result.ew),
            "-" if result.entry is None else _quote(_compact(result.entry)),
            "-" if result.artificial is None else result.artificial,
            "-" if result.ns_score is None else _number(result.ns_score),
            "-" if line is None or line.ns_points is None else line.ns_points.display,
            "-" if line is None or line.ew_points is None else line.ew_points.display,
        ]
        out.append(" ".join(cells))
    return out


def _optimum_table(analysis: Mapping[str, Any] | None) -> list[str]:
    table = (analysis or {}).get("table")
    if not isinstance(table, Mapping):
        return []
    rows = []
    for declarer, strains in table.items():
        if not isinstance(strains, Mapping):
            continue  # Bid Whist's "approximate" list of cells
        for strain, tricks in strains.items():
            if isinstance(tricks, int) and not isinstance(tricks, bool):
                denomination = strain if re.fullmatch(r"\w+", strain) else _quote(strain)
                rows.append(f"{declarer} {denomination} {tricks}")
    if not rows:
        return []
    return ['[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]', *rows]


def dumps_with_results(
    record: EventRecord, analyses: Mapping[int, Mapping[str, Any]] | None = None
) -> str:
    """PBN text of `record`: every board's deal and results, the event tags in the first game.

    The record is scored first (`score_record`) to fill the points columns; a record that
    cannot be scored, or a result on a board without a deal, raises ExportError.
    """
    document = score_record(record)
    section = document.sections[0]
    boards = sorted(record.boards, key=lambda b: b.number)
    known = {board.number for board in boards}
    for result in record.results:
        if result.board not in known:
            raise ExportError(
                f"board {result.board} has results but no deal; PBN needs the deal of every board"
            )
    common = [
        _tag("Event", record.title),
        _tag("Site", record.club),
        _tag("Date", _pbn_date(record.date)),
    ]
    games: list[str] = []
    for index, board in enumerate(boards):
        lines = list(common)
        if index == 0:
            lines.extend(_event_lines(record))
        deal = pbn.dumps([board], header=False).strip().splitlines()
        # engine.pbn writes the board's own WhistVariant; the first game already has it.
        lines.extend(d for d in deal if not (index == 0 and d.startswith("[WhistVariant ")))
        by_pair = {(bl.ns, bl.ew): bl for bl in section.boards.get(str(board.number), ())}
        if any(result.board == board.number for result in record.results):
            lines.extend(_score_table(record, board.number, by_pair))
        lines.extend(_optimum_table((analyses or {}).get(board.number)))
        games.append("\n".join(lines) + "\n")
    if not boards:
        games.append("\n".join([*common, *_event_lines(record)]) + "\n")
    head = "% PBN 2.1\n% EXPORT\n% Whist boards and results written by clubwhist\n"
    return head + "\n" + "\n".join(games)


# ---- reading ------------------------------------------------------------------------------


@dataclass
class _Tag:
    name: str
    value: str  # as written, escapes undone except in table headers (see _raw)
    raw: str
    line: int
    rows: list[tuple[int, list[str | None]]] = field(default_factory=list)


_TAG_AT = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _unescape(text: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", text)


def _scan(text: str) -> list[list[_Tag]]:
    """The games of a PBN text: each a list of tags with the section rows that follow them
    (tokens per line; a quoted token is unescaped, `-` becomes None)."""
    games: list[list[_Tag]] = []
    current: list[_Tag] = []
    in_brace = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not in_brace and line.startswith("%"):
            continue
        if not in_brace and not line.strip():
            if current:
                games.append(current)
                current = []
            continue
        tokens: list[str | None] = []
        i = 0
        while i < len(line):
            char = line[i]
            if in_brace:
                end = line.find("}", i)
                if end < 0:
                    break
                in_brace, i = False, end + 1
            elif char.isspace():
                i += 1
            elif char == ";":
                break
            elif char == "{":
                in_brace, i = True, i + 1
            elif char == "[":
                match = _TAG_AT.match(line, i)
                if match is None:
                    raise ExportError(f"line {number}: malformed tag {quoted(line[i : i + 40])}")
                raw = match.group(2)
                current.append(_Tag(match.group(1), _unescape(raw), raw, number))
                i = match.end()
            elif char == '"':
                match = re.compile(r'"((?:[^"\\]|\\.)*)"').match(line, i)
                if match is None:
                    raise ExportError(f"line {number}: a string is never closed")
                tokens.append(_unescape(match.group(1)))
                i = match.end()
            else:
                end = i
                while end < len(line) and not line[end].isspace() and line[end] not in '[{;"':
                    end += 1
                token = line[i:end]
                tokens.append(None if token == "-" else token)
                i = end
        if tokens:
            if not current:
                raise ExportError(f"line {number}: text outside any tag")
            current[-1].rows.append((number, tokens))
    if in_brace:
        raise ExportError("a { comment is never closed")
    if current:
        games.append(current)
    return games


def _columns(tag: _Tag) -> list[str]:
    """A table's column names, without their width and alignment (`Score_NS\\4R`)."""
    return [part.split("\\")[0].strip() for part in tag.raw.split(";")]


def _int(value: str | None, what: str, where: str) -> int:
    number = None if value is None else whole_number(value)
    if number is None or number < 1:
        shown = value if value is None else value[:20]
        raise ExportError(f"{where}: {what} {quoted(shown)} is not a whole number from 1")
    return number


def _optional_int(value: str | None, what: str, where: str) -> int | None:
    return None if value is None else _int(value, what, where)


def _score(value: str | None, where: str) -> int | Fraction:
    if value is None:
        raise ExportError(f"{where}: the line has neither a Score_NS nor an artificial score")
    number = exact_number(value)
    if number is None:
        raise ExportError(f"{where}: Score_NS {quoted(value)} is not a score")
    return int(number) if number.denominator == 1 else number


def _json_object(value: str, what: str, where: str) -> dict[str, Any]:
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):  # bad JSON, a number of thousands of digits, nesting
        raise ExportError(f"{where}: {what} {quoted(value)} is not JSON") from None
    if not isinstance(data, dict):
        raise ExportError(f"{where}: {what} must be a JSON object, not {quoted(value)}")
    return data


def _table_rows(tag: _Tag, board: int | None) -> list[tuple[str, dict[str, str | None]]]:
    """The rows of a table as {column: value}, each with a `line N, board B` for errors."""
    columns = _columns(tag)
    rows = []
    for number, tokens in tag.rows:
        where = f"line {number}" + (f", board {board}" if board is not None else "")
        if len(tokens) != len(columns):
            raise ExportError(
                f"{where}: {tag.name} row has {len(tokens)} columns, the header names "
                f"{len(columns)} ({';'.join(columns)})"
            )
        rows.append((where, dict(zip(columns, tokens, strict=True))))
    return rows


def _results(tag: _Tag, board: int) -> list[ResultRecord]:
    columns = _columns(tag)
    for needed in ("PairId_NS", "PairId_EW"):
        if needed not in columns:
            raise ExportError(f"line {tag.line}, board {board}: the ScoreTable has no {needed}")
    if "Score_NS" not in columns and "WhistArtificial" not in columns:
        raise ExportError(f"line {tag.line}, board {board}: the ScoreTable has no Score_NS")
    results = []
    for where, row in _table_rows(tag, board):
        ns = _int(row["PairId_NS"], "PairId_NS", where)
        ew = _int(row["PairId_EW"], "PairId_EW", where)
        artificial = row.get("WhistArtificial")
        score_text = row.get("Score_NS")
        score: int | Fraction | None = None
        if artificial is None and score_text is not None and score_text[:1].upper() in "AN":
            artificial = score_text  # another program's artificial score in the score column
        elif artificial is None:
            score = _score(score_text, where)
        if artificial is not None:
            try:
                parse_artificial(artificial)
            except EngineError as exc:
                raise ExportError(f"{where}: {exc}") from None
        entry_text = row.get("WhistEntry")
        entry = None if entry_text is None else _json_object(entry_text, "WhistEntry", where)
        results.append(
            ResultRecord(
                board,
                ns,
                ew,
                entry,
                score,
                artificial,
                round=_optional_int(row.get("Round"), "Round", where),
                table=_optional_int(row.get("Table"), "Table", where),
            )
        )
    return results


def _pairs(tag: _Tag, one_winner: bool) -> list[PairRecord]:
    columns = _columns(tag)
    if "PairId" not in columns:
        raise ExportError(f"line {tag.line}: WhistPairs has no PairId column")
    pairs = []
    for where, row in _table_rows(tag, None):
        direction = row.get("Direction")
        if direction is not None and direction.upper() not in ("NS", "EW"):
            raise ExportError(f"{where}: WhistPairs direction {quoted(direction)} is not NS or EW")
        pairs.append(
            PairRecord(
                _int(row["PairId"], "PairId", where),
                None if one_winner or direction is None else direction.upper(),
                row.get("Names") or "",
                (row.get("Absent") or "").lower() == "yes",
            )
        )
    return pairs


def _iso_date(value: str) -> str:
    match = _PBN_DATE.fullmatch(value.strip())
    return "-".join(match.groups()) if match else ""


def loads_with_results(text: str) -> EventRecord:
    """The event in PBN `text` written by `dumps_with_results` (or another program's PBN with
    a ScoreTable: see the module docstring). ExportError for anything that cannot be read."""
    text = text.removeprefix("\ufeff")
    games = _scan(text)
    event: dict[str, _Tag] = {}
    for game in games:
        for tag in game:
            if tag.name not in event and tag.value != "#":
                event[tag.name] = tag
    variant_tag = event.get("WhistVariant")
    variant = variant_tag.value.strip().lower() if variant_tag else "classic"
    try:
        shape_of(variant)  # the canonical name of a known game
    except EngineError:
        raise ExportError(
            f"line {variant_tag.line if variant_tag else 0}: unknown WhistVariant {quoted(variant)}"
        ) from None
    try:
        boards: list[Board] = pbn.loads(text, variant=variant)
    except EngineError as exc:
        raise ExportError(f"the deals: {exc}") from None

    def value(name: str, default: str) -> str:
        tag = event.get(name)
        return default if tag is None else tag.value.strip()

    winners = value("WhistWinners", "2")
    if winners not in ("1", "2"):
        raise ExportError(
            f"line {event['WhistWinners'].line}: WhistWinners is 1 or 2, not {quoted(winners)}"
        )
    one_winner = winners == "1"
    options: dict[str, Any] = {}
    if "WhistOptions" in event:
        tag = event["WhistOptions"]
        options = _json_object(tag.value, "WhistOptions", f"line {tag.line}")
    movement = None
    if "WhistMovement" in event:
        tag = event["WhistMovement"]
        data = _json_object(tag.value, "WhistMovement", f"line {tag.line}")
        if not isinstance(data.get("kind"), str) or not isinstance(data.get("params", {}), dict):
            raise ExportError(f"line {tag.line}: WhistMovement needs a kind and params")
        movement = MovementSpec(data["kind"], data.get("params", {}))

    results: list[ResultRecord] = []
    previous: str | None = None
    for game in games:
        board_number: str | None = None
        for tag in game:
            if tag.name == "Board":
                board_number = previous if tag.value == "#" else tag.value.strip()
        previous = board_number or previous
        for tag in game:
            if tag.name != "ScoreTable":
                continue
            number = None if board_number is None else whole_number(board_number)
            if number is None:
                raise ExportError(f"line {tag.line}: a ScoreTable in a game without a Board")
            results.extend(_results(tag, number))
    if "WhistPairs" in event:
        pairs = _pairs(event["WhistPairs"], one_winner)
    else:
        seen: dict[str, PairRecord] = {}
        for result in results:
            for number, side in ((result.ns, "NS"), (result.ew, "EW")):
                pair = PairRecord(number, None if one_winner else side)
                seen.setdefault(pair.key, pair)
        pairs = list(seen.values())

    record = EventRecord(
        title=value("Event", ""),
        date=_iso_date(value("Date", "")),
        club=value("Site", ""),
        variant=variant,
        options=options,
        method=value("WhistScoring", "mp"),
        scale=value("WhistScale", "ebu"),
        one_winner=one_winner,
        movement=movement,
        section=value("WhistSection", "A"),
        boards=tuple(boards),
        pairs=tuple(pairs),
        results=tuple(results),
    )
    score_record(record)  # every check, so a record is returned whole or not at all
    return record
