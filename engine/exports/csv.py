"""CSV exports for spreadsheets: the standings and the travellers, one row per pair or line.

Written with the standard library's `csv` module (commas, double quotes where needed, CRLF
line ends as spreadsheets expect). The headings are fixed and spelled as below, so a sheet or
a script that reads them keeps working as the app changes; figures are the rounded display
text of the standings document (two decimals), never floats.

`standings_csv(document)`, one row per ranked pair, field by field:

| column | what |
| --- | --- |
| section | the section's name |
| field | NS, EW (two winners) or ALL (one winner) |
| rank | "1", "2=" for a tie |
| pair | the pair number |
| direction | NS or EW; empty in a one-winner field |
| names | the players, "Ann & Bob" |
| score | the pair's total in the method's unit (matchpoints, IMPs, points) |
| max | matchpoints available (0 for methods without a maximum) |
| percentage | empty for methods without one (IMPs, totals) |
| boards | boards played |
| adjustments | penalties and the like, included in the score |
| versus_average | total scoring only: the pair against its direction's average |

then one column per session figure of the game (Candid Whist: `bags`, `bag_penalty`), named
by the keys of the document's `session_columns`; games without them add none; and, for an
event with handicapped standings (a season covers its date), `handicap` (the pair's, signed)
and `handicapped_percentage`.

`travellers_csv(record, document)`, one row per traveller line, by board then as recorded:

| column | what |
| --- | --- |
| section | the section's name |
| board, round, table | where it was played (round and table empty when unknown) |
| ns_pair, ew_pair | the pair numbers |
| *the game's entry fields* | one column per `rules.entry_fields()` key, in that order |
| result | the result in a few characters (`rules.describe_short`) |
| ns_score | NS's score, or NS's artificial code (A+, A, A-, NP) |
| ew_score | EW's score (minus NS's, as on a bridge traveller), or EW's artificial code |
| ns_points, ew_points | what each side earned on the board (matchpoints, IMPs, points) |

`score_cards_csv(record, document)`, each pair's personal score card: every traveller line
twice, once from each side, by pair (NS before EW in a two-winner field), then round and board:

| column | what |
| --- | --- |
| section | the section's name |
| pair, direction | the pair's number, and NS or EW as it sat on that board |
| names | the players, "Ann & Bob" |
| round, table, board | where it was played (round and table empty when unknown) |
| against | the opponents' pair number |
| result | the result in a few characters (`rules.describe_short`) |
| score | the pair's own score (NS's, or minus NS's for East-West), or its artificial code |
| points | what the pair earned on the board (matchpoints, IMPs, points) |

Entry fields are the game's own (classic whist: `ns_tricks`; Bid Whist: `declarer`, `bid`,
`kind`, `trumps`, `ranking`, `books`...); a flag field reads `yes` or is empty, a field that
does not apply is empty.

Formula injection: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (and some
do after a tab or carriage return) as a formula, so a player called `=HYPERLINK(...)` would be
a link in the treasurer's sheet. As OWASP recommends, every text cell that begins with one of
those characters is written with a single quote before it (`'=HYPERLINK(...)`). Numbers are
not text: a score such as `-140` or `-3.50` stays a number (`safe_cell`), so sheets still add
them up. Every CSV clubwhist writes goes through `safe_cell` (the audit trail's too).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from engine import EngineError
from engine.exports.record import EventRecord, ExportError
from engine.scoring.document import BoardLine, Points, SectionStandings, StandingsDocument
from engine.scoring.model import format_points

__all__ = [
    "HANDICAP_COLUMNS",
    "SCORE_CARD_COLUMNS",
    "STANDINGS_COLUMNS",
    "TRAVELLER_COLUMNS",
    "safe_cell",
    "safe_row",
    "score_cards_csv",
    "standings_csv",
    "travellers_csv",
]

STANDINGS_COLUMNS = (
    "section",
    "field",
    "rank",
    "pair",
    "direction",
    "names",
    "score",
    "max",
    "percentage",
    "boards",
    "adjustments",
    "versus_average",
)
TRAVELLER_COLUMNS_BEFORE = ("section", "board", "round", "table", "ns_pair", "ew_pair")
TRAVELLER_COLUMNS_AFTER = ("result", "ns_score", "ew_score", "ns_points", "ew_points")
#: The fixed traveller columns; the game's entry fields go between the two halves.
TRAVELLER_COLUMNS = TRAVELLER_COLUMNS_BEFORE + TRAVELLER_COLUMNS_AFTER
#: A pair's score card, one row per board it played (`score_cards_csv`).
SCORE_CARD_COLUMNS = (
    "section", "pair", "direction", "names", "round", "table", "board", "against", "result",
    "score", "points",
)  # fmt: skip


#: The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV
#: Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A plain number as this module writes it: an optional sign, digits, optional decimals.
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_cell(value: object) -> object:
    """`value` as a CSV cell that no spreadsheet runs as a formula: text beginning with one
    of `FORMULA_STARTS` gets a single quote before it; a number (an int, or text that is a
    plain number like "-140" or "-3.50") is left alone, so it stays a number.

    >>> safe_cell("=1+2"), safe_cell("-140"), safe_cell(-3), safe_cell("A-")
    ("'=1+2", '-140', -3, 'A-')
    >>> safe_cell("-A"), safe_cell("@SUM(A1)"), safe_cell("Ann & Bob")
    ("'-A", "'@SUM(A1)", 'Ann & Bob')
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value


def safe_row(values: Iterable[object]) -> list[object]:
    """A row of cells, each through `safe_cell`."""
    return [safe_cell(value) for value in values]


def _text(points: Points | None) -> str:
    return "" if points is None else points.display


def _write(header: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(header))
    writer.writeheader()
    for row in rows:
        writer.writerow(
            {key: "" if value is None else safe_cell(value) for key, value in row.items()}
        )
    return out.getvalue()


def standings_csv(
    document: StandingsDocument,
    handicaps: Mapping[tuple[str, str], tuple[Fraction, Fraction]] | None = None,
) -> str:
    """The standings as CSV text (see the module docstring for the columns).

    `handicaps`, when the event has handicapped standings: (section, pair key) -> (the pair's
    handicap, its handicapped percentage); two more columns, `handicap` and
    `handicapped_percentage`, empty for a pair not in the handicapped table (one that
    withdrew)."""
    session_keys: list[str] = []
    for section in document.sections:
        for key, _heading in section.session_columns:
            if key not in session_keys and key not in STANDINGS_COLUMNS:
                session_keys.append(key)
    rows: list[dict[str, object]] = []
    for section in document.sections:
        for standings in section.fields:
            for row in standings.rows:
                rows.append(
                    {
                        "section": section.name,
                        "field": standings.name,
                        "rank": row.rank,
                        "pair": row.pair,
                        "direction": row.direction,
                        "names": row.names,
                        "score": _text(row.total),
                        "max": _text(row.max),
                        "percentage": _text(row.percentage),
                        "boards": row.boards,
                        "adjustments": _text(row.adjustments),
                        "versus_average": _text(row.versus_average),
                        **{key: row.session.get(key) for key in session_keys},
                    }
                )
                if handicaps is not None:
                    figures = handicaps.get((section.name, row.key))
                    rows[-1]["handicap"] = _signed(figures[0]) if figures else None
                    rows[-1]["handicapped_percentage"] = (
                        format_points(figures[1]) if figures else None
                    )
    extra = HANDICAP_COLUMNS if handicaps is not None else ()
    return _write((*STANDINGS_COLUMNS, *session_keys, *extra), rows)


#: The standings CSV's last two columns, for an event with handicapped standings.
HANDICAP_COLUMNS = ("handicap", "handicapped_percentage")


def _signed(value: Fraction) -> str:
    text = format_points(value)
    return f"+{text}" if value > 0 else text


def _section_for(record: EventRecord, document: StandingsDocument) -> SectionStandings:
    for section in document.sections:
        if section.name == record.section:
            return section
    if len(document.sections) == 1:
        return document.sections[0]
    raise ExportError(f"the standings have no section {record.section!r}")


def _lookup(entry: Mapping[str, object], key: str) -> object:
    """A field of an entry; a dotted key ("tricks.N") names a key inside a nested object."""
    value: object = entry
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _cell(value: object) -> object:
    if value is True:
        return "yes"
    if value is False:
        return ""
    return value


def travellers_csv(record: EventRecord, document: StandingsDocument) -> str:
    """Every traveller line of `record` with the points `document` gives it, as CSV text
    (see the module docstring for the columns)."""
    fields = [field.key for field in record.rules().entry_fields()]
    rows = _traveller_rows(record, document)
    return _write((*TRAVELLER_COLUMNS_BEFORE, *fields, *TRAVELLER_COLUMNS_AFTER), rows)


def score_cards_csv(record: EventRecord, document: StandingsDocument) -> str:
    """Each pair's score card (see the module docstring for the columns): the travellers'
    lines, each once from North-South's side and once from East-West's, so a pair finds its
    evening in one block of rows, as on the card it kept at the table."""
    names = {pair.key: pair.names for pair in record.pairs}
    cards: list[tuple[tuple[int, int, int, int], dict[str, object]]] = []
    for line in _traveller_rows(record, document):
        for side, other in (("ns", "ew"), ("ew", "ns")):
            number = int(str(line[f"{side}_pair"]))
            direction = side.upper()
            field = 0 if record.one_winner or direction == "NS" else 1
            row: dict[str, object] = {
                "section": line["section"],
                "pair": number,
                "direction": direction,
                "names": names.get(record.pair_side_key(number, direction), ""),
                "round": line["round"],
                "table": line["table"],
                "board": line["board"],
                "against": line[f"{other}_pair"],
                "result": line["result"],
                "score": line[f"{side}_score"],
                "points": line[f"{side}_points"],
            }
            order = (field, number, _sort_number(line["round"]), int(str(line["board"])))
            cards.append((order, row))
    cards.sort(key=lambda card: card[0])
    return _write(SCORE_CARD_COLUMNS, (row for _, row in cards))


def _sort_number(value: object) -> int:
    """A round or table for sorting: unknown (None) before the first."""
    return -1 if value is None else int(str(value))


def _traveller_rows(record: EventRecord, document: StandingsDocument) -> list[dict[str, object]]:
    """The travellers' rows, by board then as recorded, keyed by their columns."""
    rules = record.rules()
    fields = [field.key for field in rules.entry_fields()]
    clash = set(fields) & set(TRAVELLER_COLUMNS)
    if clash:  # pragma: no cover - a game defining such a field would break the sheet
        raise ExportError(f"entry fields {sorted(clash)} clash with the traveller columns")
    section = _section_for(record, document)
    points: dict[tuple[int, int, int], BoardLine] = {
        (int(number), line.ns, line.ew): line
        for number, lines in section.boards.items()
        for line in lines
    }
    entries = {}
    for index, result in enumerate(record.results):
        board = record.board(result.board)
        if result.entry is not None and board is not None:
            try:
                entries[index] = rules.describe_short(rules.parse_entry(board, result.entry))
            except EngineError as exc:
                raise ExportError(f"{result.where()}: {exc}") from None
    order = sorted(range(len(record.results)), key=lambda i: record.results[i].board)
    rows: list[dict[str, object]] = []
    for index in order:
        result = record.results[index]
        line = points.get((result.board, result.ns, result.ew))
        if line is None:
            raise ExportError(f"{result.where()}: this line is not in the standings")
        codes = result.codes
        row: dict[str, object] = {
            "section": section.name,
            "board": result.board,
            "round": result.round,
            "table": result.table,
            "ns_pair": result.ns,
            "ew_pair": result.ew,
            **{key: _cell(_lookup(result.entry or {}, key)) for key in fields},
            "result": entries.get(index, ""),
            "ns_score": codes[0] if codes else str(result.ns_score),
            "ew_score": codes[1] if codes else str(-(result.ns_score or 0)),
            "ns_points": _text(line.ns_points),
            "ew_points": _text(line.ew_points),
        }
        rows.append(row)
    return rows
