r"""PBN 2.1 with results: the hand records plus every traveller line, read back whole.

`dumps_with_results(record)` writes PBN 2.1's export format (docs/reference/file-formats.md,
"PBN with results"), so any PBN reader reads every game: per board the 15 mandatory tags in
their order (Event, Site, Date, Board, West, North, East, South, Dealer, Vulnerable, Deal,
Scoring, Declarer, Contract, Result; the players, contract and result are empty strings, as a
game here is a board played at every table), then every other tag sorted by name: the whist
tags `engine.pbn` writes, `WhistFouled`, the board's results as a `ScoreTable`, and par where
an analysis is stored. `loads_with_results(text)` reads the lot back into an `EventRecord`;
`score_record` then gives the same standings. `dumps_hand_records` writes hand records
(import format) with Event, Site, Date and par.

The first game also holds the event: `WhistSection`, `WhistVariant`, `WhistOptions` (JSON),
`WhistScoring` (mp, cross-imps, butler, total), `WhistScale`, `WhistWinners` (1 or 2),
`WhistMovement` (JSON), and the pairs as a `WhistPairsTable`
(`PairId\2R;Direction;Absent;WhistNames;WhistPlayers`): `WhistNames` the two players separated
by ';' (or a partnership's one name), each `%XX`-escaped so the cell holds no space,
`WhistPlayers` a JSON list only when `WhistNames` could not give the players back exactly.
Names are never split at " & ". Files of earlier versions have PBN's `Names` column (the
names as they are) instead, and still read.

JSON here is written quote-free, so no reader cuts it or leaves `\"` in it: see "values other
readers take whole" below, where it is coded.

`ScoreTable "Round;Table;PairId_NS;PairId_EW;Score_NS;MP_NS;MP_EW;WhistArtificial;WhistEntry"`:
PBN's Contract, Declarer and Result columns do not fit whist games (no contract in classic
whist, books and kitty in Bid Whist), so `WhistEntry` holds the table result as compact JSON in
`GameRules.entry_to_dict` form (`-` when only the score is known; quote-free, no space) and
`WhistArtificial` an artificial score (`A+/A-`, `A`, `NP`). The points columns are named for
the method (`MP_`, `IMP_`, `WhistPoints_`); they are written for people and other programs and
ignored on reading (the standings are always derived again). A fouled board's rows keep their
entries; `WhistFouled` marks the board, which then scores Average (`EventRecord.fouled`).

Par, for bridge-shaped games (one deal of four hands of 13, no kitty, no jokers, no column
layout: the game's double-dummy table is bridge's): `DoubleDummyTricks`, `OptimumResultTable`,
`OptimumScore` (in the game's points) and `ParContract` where par is a contract. ParContract is
PBN's, so its level is bridge's, the tricks less six: Candid Whist's "10D by N" (ten tricks,
as the app says it) is `NS 4D`; `WhistPar` beside it holds par in the app's own words. Other
games keep their table in `WhistOptimumResultTable` (a Bid Whist contract type written
`uptown-C`, one token) and par in `WhistPar`. Par is not read back.

Reading is lenient where real files vary (tags in any order, `#` for "as before", unknown
tags and sections, `;` and `{}` comments, the columns of a ScoreTable in any order, a
ScoreTable without the whist columns read as score-only lines, `WhistPairs` of earlier
versions) and strict where a result would change: a row with too few or too many columns, a
pair or score that is not a number, an entry that the game refuses, all raise `ExportError`
naming the line and the board, and no partial record is returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
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
from engine.pbn_text import deal_count, pbn_lines
from engine.reading import exact_number, quoted, whole_number
from engine.scoring import parse_artificial
from engine.scoring.document import BoardLine
from engine.shapes import shape_of

__all__ = ["dumps_hand_records", "dumps_with_results", "loads_with_results"]

_POINT_COLUMNS = {
    "mp": ("MP_NS", "MP_EW"),
    "cross-imps": ("IMP_NS", "IMP_EW"),
    "butler": ("IMP_NS", "IMP_EW"),
    "total": ("WhistPoints_NS", "WhistPoints_EW"),
}
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_PBN_DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})")


# ---- writing ------------------------------------------------------------------------------

#: PBN 2.1's Mandatory Tag Set, in the order export format writes it (section 3.4).
MANDATORY_TAGS = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
#: The Scoring tag per method: PBN's basic systems and modifiers (section 3.4.12); total
#: points is not among PBN's examples, whose list is open ended.
SCORING = {"mp": "MP", "cross-imps": "IMP;Cross2", "butler": "IMP;Butler", "total": "Total"}
_BRIDGE_STRAINS = ("NT", "S", "H", "D", "C")
_DD_SEATS = ("N", "S", "E", "W")
_PAR_CONTRACT = re.compile(r"(\d+)(NT|[CDHS]) by ([NESW])")
_ONE_TAG = re.compile(r'\[([A-Za-z0-9_]+) "')


def _quote(value: str) -> str:
    """A PBN string: backslashes and double quotes escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


# ---- values other readers take whole -------------------------------------------------------
#
# PBN 2.1 writes a `"` inside a tag value or a quoted table cell as `\"` and a backslash as
# `\\`, but readers do not all undo that: endplay ends a tag value at the first `"]` (so
# JSON holding `\"]` was cut short) and leaves `\"` as it is, and the readers of tables split
# a row at every space, quotes or not. So what clubwhist writes for its own data never needs
# a double quote or a backslash, and never holds a space inside a table cell:
#
# - JSON (`WhistOptions`, `WhistMovement`, `WhistPar`, a ScoreTable's `WhistEntry`, a pair's
#   `WhistPlayers`) is written quote-free: JSON with every string between single quotes, and
#   in a string the characters `%`, `'`, `"`, `\` and any that do not print written as `%XX`,
#   the bytes of their UTF-8 (a space too inside a table cell): `{'kind':'mitchell'}`,
#   `'7 uptown C by N'`; in a cell `['Zoë%20%22Z%22','Åsa']` (letters print and stay).
#   Reading turns each `'...'` back into a JSON string. A value holding `"` is JSON as
#   earlier versions wrote it (no JSON with a string can be without `"`, and the quote-free
#   form never has one), so files written before still read.
# - A pair's names (`WhistNames`) are written as the players' names separated by `;`, each
#   with `%`, `;`, `"`, `\`, spaces and characters that do not print written `%XX`:
#   `"Ann%20Smith;Bob%20Jones"`. Earlier versions wrote PBN's own `Names` column, the names as
#   they are; a file with that column still reads as it did.
#
# The cells stay quoted, as PBN requires of a cell holding `;` or `{` (which otherwise start a
# comment); a reader that splits at spaces then gets each cell whole, quotes included.

_JSON_SPECIALS = "%'\"\\"
_NAME_SPECIALS = '%;"\\ '
_ESCAPED = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_QUOTE_FREE_STRING = re.compile(r"'([^']*)'")


def _escape(text: str, specials: str) -> str:
    """`text` with `specials` and every character that does not print as `%XX` (UTF-8)."""
    return "".join(
        char
        if char.isprintable() and char not in specials
        else "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
        for char in text
    )


def _unescape_percent(text: str) -> str:
    """`_escape` undone; a `%` not followed by two hex digits stays as it is."""
    try:
        return _ESCAPED.sub(
            lambda m: bytes.fromhex(m.group(0).replace("%", "")).decode("utf-8", "surrogatepass"),
            text,
        )
    except UnicodeDecodeError:
        raise ExportError(f"{quoted(text[:40])} has a %XX escape that is not UTF-8") from None


def _compact(data: Any, *, cell: bool = False) -> str:
    """`data` as quote-free JSON (above): sorted keys, no space between items, strings between
    single quotes; in a table cell (`cell`) a space in a string is written `%20` as well."""
    specials = _JSON_SPECIALS + (" " if cell else "")
    if isinstance(data, str):
        return "'" + _escape(data, specials) + "'"
    if isinstance(data, Mapping):
        # keys as json.dumps makes them: 1 -> "1", True -> "true"
        items = sorted((k if isinstance(k, str) else json.dumps(k), v) for k, v in data.items())
        pairs = (f"{_compact(k, cell=cell)}:{_compact(v, cell=cell)}" for k, v in items)
        return "{" + ",".join(pairs) + "}"
    if isinstance(data, list | tuple):
        return "[" + ",".join(_compact(item, cell=cell) for item in data) + "]"
    return json.dumps(data)


def _json_text(value: str) -> str:
    """Plain JSON from a value written by `_compact` or, holding `"`, by an earlier version."""
    if '"' in value:
        return value
    return _QUOTE_FREE_STRING.sub(lambda m: json.dumps(_unescape_percent(m.group(1))), value)


def _pbn_date(date: str) -> str:
    if not date:
        return "????.??.??"
    match = _ISO_DATE.fullmatch(date.strip())
    if match is None:
        raise ExportError(f"the date {quoted(date)} is not an ISO date (YYYY-MM-DD)")
    return ".".join(match.groups())


def _table(name: str, columns: list[str], rows: list[list[str]]) -> list[str]:
    """A PBN table: the column names (`Name\\2R`: a minimum width, right aligned) and one
    line per row, each element padded to its column's width as export format requires."""
    widths: list[tuple[int, str]] = []
    for column in columns:
        match = re.search(r"\\(\d+)([LR]?)$", column)
        widths.append((int(match.group(1)), match.group(2) or "L") if match else (0, "L"))
    lines = [_tag(name, ";".join(columns)).replace("\\\\", "\\")]
    for row in rows:
        cells = [
            cell.rjust(width) if align == "R" else cell.ljust(width)
            for cell, (width, align) in zip(row, widths, strict=True)
        ]
        lines.append(" ".join(cells).rstrip())
    return lines


def _bridge_shaped(variant: str) -> bool:
    """A board PBN's par tags describe: four hands of 13 from the 52 cards, dealt one way,
    no kitty, no jokers, no column layout (the game's double-dummy table is then bridge's)."""
    shape = shape_of(variant)
    return (
        len(shape.deals) == 1
        and shape.deals[0].size == 13
        and len(shape.deals[0].seats) == 4
        and not shape.jokers
        and not shape.kitty
        and not shape.keeps_dealt_order
    )


def _strain_table(analysis: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The stored table's cells for PBN's declarers and strains (others left out)."""
    table = analysis.get("table")
    cells: dict[str, dict[str, int]] = {}
    for seat in _DD_SEATS:
        strains = table.get(seat) if isinstance(table, Mapping) else None
        if not isinstance(strains, Mapping):
            continue
        for strain in _BRIDGE_STRAINS:
            tricks = strains.get(strain)
            if isinstance(tricks, int) and not isinstance(tricks, bool) and 0 <= tricks <= 13:
                cells.setdefault(seat, {})[strain] = tricks
    return cells


def _par_tags(variant: str, analysis: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """The double-dummy table and par of a board as PBN tags (bridge-shaped games) or as our
    own (`WhistOptimumResultTable`, `WhistPar`: Bid Whist's contract types, Open Whist)."""
    if not analysis or analysis.get("error"):
        return {}
    tags: dict[str, list[str]] = {}
    par = analysis.get("par") if isinstance(analysis.get("par"), Mapping) else None
    if _bridge_shaped(variant):
        cells = _strain_table(analysis)
        if sum(len(strains) for strains in cells.values()) == 20:
            digits = "".join(f"{cells[s][d]:x}" for s in _DD_SEATS for d in _BRIDGE_STRAINS)
            tags["DoubleDummyTricks"] = [_tag("DoubleDummyTricks", digits)]
        rows = [[s, d, str(n)] for s, strains in cells.items() for d, n in strains.items()]
        if rows:
            tags["OptimumResultTable"] = _table(
                "OptimumResultTable", ["Declarer", "Denomination\\2R", "Result\\2R"], rows
            )
        if par is not None and isinstance(par.get("ns_score"), int):
            tags["OptimumScore"] = [_tag("OptimumScore", f"NS {par['ns_score']}")]
            contracts: list[str] = []
            for text in par.get("contracts") or ():
                match = _PAR_CONTRACT.fullmatch(str(text))
                if match is None:
                    contracts = []
                    break
                tricks, strain, seat = match.groups()
                side = "NS" if seat in "NS" else "EW"
                contracts.append(f"{side} {int(tricks) - 6}{strain}")
            if contracts:
                tags["ParContract"] = [_tag("ParContract", ";".join(dict.fromkeys(contracts)))]
        if par is not None:
            # The par as the app states it ("10D by N": tricks, Candid Whist's own words),
            # beside PBN's ParContract ("NS 4D": a bridge level, the tricks less six).
            tags["WhistPar"] = [_tag("WhistPar", _compact(dict(par)))]
        return tags
    table = analysis.get("table")
    rows = []
    if isinstance(table, Mapping):
        for declarer, strains in table.items():
            if not isinstance(strains, Mapping):
                continue  # Bid Whist's "approximate" list of cells
            for strain, tricks in strains.items():
                if isinstance(tricks, int) and not isinstance(tricks, bool):
                    # "uptown C" -> uptown-C: one token for readers that split at spaces
                    rows.append([str(declarer), "-".join(str(strain).split()), str(tricks)])
    if rows:
        tags["WhistOptimumResultTable"] = _table(
            "WhistOptimumResultTable", ["Declarer", "Denomination", "Result"], rows
        )
    if par is not None:
        tags["WhistPar"] = [_tag("WhistPar", _compact(dict(par)))]
    return tags


def _names_cells(pair: PairRecord) -> tuple[str, str]:
    """The pair's `WhistNames` (the players separated by ';', each escaped, or a
    partnership's one name: see "values other readers take whole") and, only when that
    cannot give back the players and names exactly, `WhistPlayers`."""
    if pair.players:
        standard = ";".join(_escape(player, _NAME_SPECIALS) for player in pair.players)
    else:
        standard = _escape(pair.names, _NAME_SPECIALS)
    if _read_names(standard or None, None, escaped=True) == (pair.names, pair.players):
        return (_quote(standard) if standard else "-"), "-"
    names = _escape(pair.names, _NAME_SPECIALS)
    return (_quote(names) if names else "-"), _quote(_compact(list(pair.players), cell=True))


def _event_tags(record: EventRecord) -> dict[str, list[str]]:
    tags = {
        "WhistSection": [_tag("WhistSection", record.section)],
        "WhistOptions": [_tag("WhistOptions", _compact(dict(record.options)))],
        "WhistScoring": [_tag("WhistScoring", record.method)],
        "WhistScale": [_tag("WhistScale", record.scale)],
        "WhistWinners": [_tag("WhistWinners", "1" if record.one_winner else "2")],
    }
    if record.movement is not None:
        movement = {"kind": record.movement.kind, "params": dict(record.movement.params)}
        tags["WhistMovement"] = [_tag("WhistMovement", _compact(movement))]
    rows = []
    for pair in record.pairs:
        names, players = _names_cells(pair)
        direction = pair.direction or "-"
        rows.append([str(pair.number), direction, "yes" if pair.absent else "-", names, players])
    columns = ["PairId\\2R", "Direction", "Absent", "WhistNames", "WhistPlayers"]
    tags["WhistPairsTable"] = _table("WhistPairsTable", columns, rows)
    return tags


def _score_table(
    record: EventRecord, number: int, lines: Mapping[tuple[int, int], BoardLine]
) -> list[str]:
    ns_points, ew_points = _POINT_COLUMNS[record.method]
    columns = ["Round", "Table", "PairId_NS", "PairId_EW", "Score_NS", ns_points, ew_points]
    columns += ["WhistArtificial", "WhistEntry"]
    rows = []
    for result in record.results:
        if result.board != number:
            continue
        line = lines.get((result.ns, result.ew))
        rows.append(
            [
                "-" if result.round is None else str(result.round),
                "-" if result.table is None else str(result.table),
                str(result.ns),
                str(result.ew),
                "-" if result.ns_score is None else str(result.ns_score),
                "-" if line is None or line.ns_points is None else line.ns_points.display,
                "-" if line is None or line.ew_points is None else line.ew_points.display,
                "-" if result.artificial is None else result.artificial,
                "-" if result.entry is None else _quote(_compact(dict(result.entry), cell=True)),
            ]
        )
    return _table("ScoreTable", columns, rows)


def _board_tags(board: Board) -> dict[str, list[str]]:
    """The tags `engine.pbn` writes for a board (the deal and the whist tags), by name."""
    found: dict[str, list[str]] = {}
    for line in pbn.dumps([board], header=False).strip().splitlines():
        match = _ONE_TAG.match(line)
        if match is None:
            raise ExportError(f"board {board.number}: unexpected PBN line {quoted(line)}")
        found[match.group(1)] = [line]
    return found


def _game(tags: Mapping[str, list[str]]) -> str:
    """A PBN game as export format has it: the 15 mandatory tags in their order, then the rest
    (whist tags, par, tables with their rows) sorted by name, as PBN 2.1 section 3.4 says."""
    lines = [line for name in MANDATORY_TAGS for line in tags.get(name, ())]
    for name in sorted(set(tags) - set(MANDATORY_TAGS)):
        lines.extend(tags[name])
    return "\n".join(lines) + "\n"


HEADER = "% PBN 2.1\n% EXPORT\n% Charset: UTF-8\n% Creator: clubwhist (whist boards and results)\n"


def dumps_with_results(
    record: EventRecord, analyses: Mapping[int, Mapping[str, Any]] | None = None
) -> str:
    """PBN 2.1 export format of `record`: one game per board, its deal, results and par.

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
    common = {
        "Event": [_tag("Event", record.title)],
        "Site": [_tag("Site", record.club)],
        "Date": [_tag("Date", _pbn_date(record.date))],
        # One game holds a board's every table, so no one player, contract or result is its
        # own: "inappropriate" values are empty strings (PBN 2.1 section 3.4).
        **{name: [_tag(name, "")] for name in ("West", "North", "East", "South")},
        "Scoring": [_tag("Scoring", SCORING[record.method])],
        **{name: [_tag(name, "")] for name in ("Declarer", "Contract", "Result")},
    }
    games: list[str] = []
    for index, board in enumerate(boards):
        tags = {**common, **_board_tags(board)}
        if index == 0:
            tags.update(_event_tags(record))
        if board.number in record.fouled:
            tags["WhistFouled"] = [_tag("WhistFouled", "yes")]
        by_pair = {(bl.ns, bl.ew): bl for bl in section.boards.get(str(board.number), ())}
        if any(result.board == board.number for result in record.results):
            tags["ScoreTable"] = _score_table(record, board.number, by_pair)
        tags.update(_par_tags(board.variant, (analyses or {}).get(board.number)))
        games.append(_game(tags))
    if not boards:
        # No deal to describe: the game carries the event alone, without Board and Deal
        # (which readers take as a board to read).
        tags = {**common, **_event_tags(record)}
        tags["WhistVariant"] = [_tag("WhistVariant", record.variant)]
        games.append(_game(tags))
    return HEADER + "\n" + "\n".join(games)


def dumps_hand_records(
    boards: Iterable[Board],
    *,
    title: str = "",
    club: str = "",
    date: str = "",
    analyses: Mapping[int, Mapping[str, Any]] | None = None,
) -> str:
    """The hand records in PBN import format (for dealing machines and analysis programs):
    per board Event, Site and Date, the deal and whist tags as `engine.pbn` writes them, and
    the double-dummy table and par where `analyses` has them (see `dumps_with_results`)."""
    games = []
    for board in sorted(boards, key=lambda b: b.number):
        tags = {
            "Event": [_tag("Event", title)],
            "Site": [_tag("Site", club)],
            "Date": [_tag("Date", _pbn_date(date))],
            **_board_tags(board),
        }
        tags.update(_par_tags(board.variant, (analyses or {}).get(board.number)))
        games.append(_game(tags))
    head = "% PBN 2.1\n% Charset: UTF-8\n% Creator: clubwhist (whist hand records)\n"
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
    for number, line in enumerate(pbn_lines(text), start=1):
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
        data = json.loads(_json_text(value))
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


def _read_names(
    names: str | None, players: str | None, *, escaped: bool
) -> tuple[str, tuple[str, ...]]:
    """A pair's (names, players) from its names cell and `WhistPlayers`: the players as
    `WhistPlayers` lists them, else "first;second" (names joined by " & "), else a
    partnership name with no players. `escaped`: the cell is `WhistNames` (each name
    `%XX`-escaped), not the `Names` of earlier versions (the names as they are)."""

    def plain(text: str) -> str:
        return _unescape_percent(text) if escaped else text

    if players is not None:
        try:
            listed = json.loads(_json_text(players))
        except (ValueError, RecursionError):
            listed = None
        if not isinstance(listed, list) or not all(isinstance(p, str) for p in listed):
            raise ExportError(f"WhistPlayers {quoted(players[:40])} is not a JSON list of names")
        return plain(names or ""), tuple(listed)
    if names is not None and ";" in names:
        split = tuple(plain(name) for name in names.split(";"))
        return " & ".join(p for p in split if p), split
    return plain(names or ""), ()


def _pairs(tag: _Tag, one_winner: bool) -> list[PairRecord]:
    columns = _columns(tag)
    if "PairId" not in columns:
        raise ExportError(f"line {tag.line}: {tag.name} has no PairId column")
    pairs = []
    for where, row in _table_rows(tag, None):
        direction = row.get("Direction")
        if direction is not None and direction.upper() not in ("NS", "EW"):
            raise ExportError(f"{where}: {tag.name} direction {quoted(direction)} is not NS or EW")
        try:
            escaped = "WhistNames" in row
            cell = row.get("WhistNames") if escaped else row.get("Names")
            names, players = _read_names(cell, row.get("WhistPlayers"), escaped=escaped)
        except ExportError as exc:
            raise ExportError(f"{where}: {exc}") from None
        pairs.append(
            PairRecord(
                _int(row["PairId"], "PairId", where),
                None if one_winner or direction is None else direction.upper(),
                names,
                (row.get("Absent") or "").lower() == "yes",
                players,
            )
        )
    return pairs


def _iso_date(value: str) -> str:
    match = _PBN_DATE.fullmatch(value.strip())
    return "-".join(match.groups()) if match else ""


def loads_with_results(text: str, *, most_boards: int | None = None) -> EventRecord:
    """The event in PBN `text` written by `dumps_with_results` (or another program's PBN with
    a ScoreTable: see the module docstring). ExportError for anything that cannot be read.
    With `most_boards`, a file of more boards is refused before it is read: its Deal tags
    counted first (`deal_count`), and the deals' reader stopping past the limit."""
    text = text.removeprefix("\ufeff")
    if most_boards is not None and (found := deal_count(text)) > most_boards:
        raise ExportError(
            f"the file has {found} boards; an event plays at most {most_boards}: export one "
            "session's results a file"
        )
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
        boards: list[Board] = pbn.loads(text, variant=variant, most=most_boards)
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
    fouled: set[int] = set()
    previous: str | None = None
    for game in games:
        board_number: str | None = None
        for tag in game:
            if tag.name == "Board":
                board_number = previous if tag.value == "#" else tag.value.strip()
        previous = board_number or previous
        for tag in game:
            if tag.name not in ("ScoreTable", "WhistFouled"):
                continue
            number = None if board_number is None else whole_number(board_number)
            if number is None:
                raise ExportError(f"line {tag.line}: a {tag.name} in a game without a Board")
            if tag.name == "ScoreTable":
                results.extend(_results(tag, number))
            elif tag.value.strip().lower() == "yes":
                fouled.add(number)
    # WhistPairs: the table's name before PBN's rule (tables end in "Table") was followed.
    pairs_tag = event.get("WhistPairsTable", event.get("WhistPairs"))
    if pairs_tag is not None:
        pairs = _pairs(pairs_tag, one_winner)
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
        fouled=frozenset(fouled),
    )
    score_record(record)  # every check, so a record is returned whole or not at all
    return record
