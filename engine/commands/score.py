"""`python -m engine score TRAVELLERS.csv`: score a session from a CSV of traveller lines.

The CSV has a header `board,ns,ew,ns_score`; `ns_score` is a whole number, a decimal or a
fraction (`12.5`, `25/2`, read exactly), or an artificial code (`A+`, `A`, `A-`, `NP`, or a
split such as `A+/A-` for NS/EW). Errors name the file line.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.commands._common import read_movement_file
from engine.movements import Movement, build
from engine.reading import exact_number, quoted, whole_number
from engine.scoring import (
    METHODS,
    ScoringError,
    SessionScore,
    TravellerLine,
    format_points,
    parse_artificial,
    score_session,
)

NAME = "score"
#: The longest traveller file read (a big session's travellers are a few tens of KB).
MAX_FILE_CHARS = 5 * 1024 * 1024
HELP = "score a session from a CSV of traveller lines (board,ns,ew,ns_score)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("travellers", type=Path, help="CSV file: board,ns,ew,ns_score")
    parser.add_argument("--scale", choices=("ebu", "acbl"), default="ebu")
    parser.add_argument("--method", choices=METHODS, default="mp")
    parser.add_argument("--expected", type=int, help="results expected on every board (Neuberg)")
    parser.add_argument(
        "--one-winner", action="store_true", help="rank every pair in one field (Howell)"
    )
    parser.add_argument(
        "--movement",
        metavar="KIND:k=v,...|FILE",
        help=(
            "check every line against a movement and take its fields and expected plays from it:"
            " a built-in one such as 'mitchell:tables=7,boards_per_round=3', or a .csv/.asc file"
        ),
    )
    parser.add_argument(
        "--boards-per-round", type=int, default=3, help="for a --movement file (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


def movement_from_arg(text: str, boards_per_round: int = 3) -> Movement:
    """A movement named on the command line: a file (.csv/.asc) or KIND:key=value,..."""
    if Path(text).suffix.lower() in {".csv", ".asc"}:
        return read_movement_file(text, boards_per_round)
    kind, _, params_text = text.partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params_text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ScoringError(f"--movement: {quoted(item)} is not key=value")
        number = whole_number(value)
        params[key.strip()] = number if number is not None else value.strip()
    return build(kind.strip(), **params)


def _score_value(text: str, line_no: int) -> int | Fraction:
    value = exact_number(text)
    if value is None:
        raise ScoringError(f"line {line_no}: {quoted(text)} is not a score or an artificial code")
    return int(value) if value.denominator == 1 else value


def loads_travellers(text: str) -> list[TravellerLine]:
    """Read traveller lines from CSV text; errors name the line."""
    if len(text) > MAX_FILE_CHARS:
        raise ScoringError(
            f"the traveller file is over {MAX_FILE_CHARS // (1024 * 1024)} MB: "
            "that is not one session's travellers"
        )
    reader = csv.reader(io.StringIO(text))
    try:
        rows = [(reader.line_num, row) for row in reader if any(c.strip() for c in row)]
    except csv.Error as exc:
        raise ScoringError(f"line {reader.line_num}: not CSV ({exc})") from None
    if not rows:
        raise ScoringError("the traveller file is empty")
    header_no, header = rows[0]
    if [c.strip().lower() for c in header] != ["board", "ns", "ew", "ns_score"]:
        raise ScoringError(f"line {header_no}: the header must be board,ns,ew,ns_score")
    lines = []
    for no, row in rows[1:]:
        if len(row) != 4:
            raise ScoringError(f"line {no}: expected 4 fields, found {len(row)}")
        board_text, ns_text, ew_text, score = (c.strip() for c in row)
        numbers = []
        for name, cell in (("board", board_text), ("NS pair", ns_text), ("EW pair", ew_text)):
            number = whole_number(cell)
            if number is None:
                raise ScoringError(f"line {no}: {name} {quoted(cell)} is not a whole number")
            numbers.append(number)
        board, ns, ew = numbers
        if score[:1].upper() in ("A", "N"):
            try:
                codes = parse_artificial(score)
            except ScoringError as exc:
                raise type(exc)(f"line {no}: {exc}") from None
            lines.append(TravellerLine(board, ns, ew, None, codes, no))
        else:
            points = _score_value(score, no)
            lines.append(TravellerLine(board, ns, ew, points, None, no))
    return lines


def _exact(value: Fraction | None) -> Any:
    if value is None:
        return None
    return {"exact": str(value), "display": format_points(value)}


def session_json(session: SessionScore) -> dict[str, Any]:
    return {
        "method": session.method,
        "scale": session.scale,
        "lines": [
            {
                "board": s.line.board,
                "ns": s.line.ns,
                "ew": s.line.ew,
                "ns_score": (
                    str(s.line.ns_score)
                    if s.line.ns_score is not None
                    else "/".join(s.line.artificial or ())
                ),
                "ns_points": _exact(s.ns_points),
                "ew_points": _exact(s.ew_points),
                "top": _exact(s.top),
            }
            for s in session.lines
        ],
        "standings": [
            {
                "pair": st.pair,
                "direction": st.direction,
                "field": st.field,
                "total": _exact(st.total),
                "max_total": _exact(st.max_total),
                "percentage": _exact(st.percentage),
                "versus_average": _exact(st.versus_average),
                "rank": st.rank,
                "boards_played": st.boards_played,
            }
            for st in session.standings
        ],
    }


def run(args: argparse.Namespace) -> int:
    lines = loads_travellers(args.travellers.read_text(encoding="utf-8"))
    movement = movement_from_arg(args.movement, args.boards_per_round) if args.movement else None
    session = score_session(
        lines,
        method=args.method,
        scale=args.scale,
        expected=args.expected,
        movement=movement,
        field_of=(lambda line, side: "ALL") if args.one_winner and movement is None else None,
    )
    if args.json:
        print(json.dumps(session_json(session), indent=1))
        return 0
    for field in session.fields:
        print(f"field {field}")
        for st in session.for_field(field):
            pct = f" {format_points(st.percentage)}%" if st.percentage is not None else ""
            print(f"  {st.rank:>4} pair {st.pair:>3} {format_points(st.total):>9}{pct}")
    return 0
