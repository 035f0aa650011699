"""USEBIO 1.2 results XML (usebio.org), written and read back with whist extensions.

USEBIO is the bridge results format national bodies and results sites accept. `dumps_usebio`
writes one `EVENT` from a record and its standings document; `loads_usebio` reads an event
back into an `EventRecord`.

What is written (standard USEBIO elements):

    USEBIO Version="1.2"
      CLUB > CLUB_NAME
      EVENT EVENT_TYPE="..."
        EVENT_DESCRIPTION, DATE (DD/MM/YYYY), BOARDS_PLAYED, WINNER_TYPE (1 or 2)
        PARTICIPANTS > PAIR*
          PAIR_NUMBER, DIRECTION (NS/EW; two winners only), TOTAL_SCORE, PERCENTAGE (methods
          with one), PLACE ("2=" for a tie), PLAYER* > PLAYER_NAME (names split on " & ")
        BOARD* > BOARD_NUMBER, TRAVELLER_LINE*
          NS_PAIR_NUMBER, EW_PAIR_NUMBER, CONTRACT (the game's short result), PLAYED_BY and
          TRICKS (games with a declarer: the declaring side's tricks in play), SCORE (the NS
          score, or the artificial code such as A+/A-), NS_MATCH_POINTS, EW_MATCH_POINTS
          (the points of the scoring method: matchpoints, IMPs or total points)
        HANDSET > BOARD* > BOARD_NUMBER, HAND* (DIRECTION North..West, SPADES, HEARTS,
          DIAMONDS, CLUBS: ranks AKQJT98765432, as PBN writes a suit)

EVENT_TYPE: `MP_PAIRS` for matchpoints, `BUTLER_PAIRS` for Butler, `CROSS_IMP` for cross-IMPs.
USEBIO has no type for total-points pairs, so total scoring is written as `MP_PAIRS` (the type
every reader accepts) without PERCENTAGE, with each pair's points in TOTAL_SCORE and the truth
in WHIST_SCORING; clubwhist reads WHIST_SCORING first.

Whist extensions (USEBIO cannot carry these; other readers skip unknown elements):

| element | parent | holds |
| --- | --- | --- |
| WHIST_VARIANT | EVENT | the game: classic, bidwhist, candid, openwhist |
| WHIST_OPTIONS | EVENT | the game's options, compact JSON |
| WHIST_SCORING | EVENT | the scoring method: mp, cross-imps, butler, total |
| WHIST_SCALE | EVENT | the matchpoint scale: ebu or acbl |
| WHIST_SECTION | EVENT | the section's name |
| WHIST_MOVEMENT | EVENT | JSON {"kind": ..., "params": {...}} when the movement is known |
| WHIST_ABSENT | PAIR | `yes` for a pair that never came (a phantom) |
| WHIST_ENTRY | TRAVELLER_LINE | the table result as JSON (`GameRules.entry_to_dict` form) |
| WHIST_ROUND, WHIST_TABLE | TRAVELLER_LINE | where the line was played, when known |
| WHIST_DEAL | HANDSET > BOARD | the board as `engine.pbn` writes it (jokers, kitty, columns) |

Reading: the first EVENT is read. With the extensions a file written here comes back whole.
A file from another program is read as score-only lines: every TRAVELLER_LINE needs its pair
numbers and SCORE (a number, or an artificial code A+, A, A-, NP, or a split like A+/A-),
entries are None, the game is classic whist unless WHIST_VARIANT says otherwise, and the
method comes from EVENT_TYPE (attribute or child element). Hands come from WHIST_DEAL or, if
absent, the four HAND elements. Points, totals, places and percentages are never read: the
record is rescored.

Safety: the standard library's expat parser, guarded twice before any tree is built (no
`defusedxml` dependency for one reader): a quick look at the text, then a pass of expat itself
with handlers that stop at the first entity declaration or DOCTYPE internal subset, so no
spelling or layout of a declaration slips through. Entity-expansion attacks ("billion laughs",
external entities) are refused that way, while a plain `<!DOCTYPE USEBIO SYSTEM
"usebio_v1_2.dtd">` is allowed (expat never fetches it). Text that is not Unicode (a lone
surrogate) is refused too. Every problem raises `ExportError` naming the element and the
board; nothing partial is returned.
"""

from __future__ import annotations

import contextlib
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any
from xml.parsers import expat

from engine import EngineError, pbn
from engine.boards import Board
from engine.cards import Card, Rank, Seat, Suit
from engine.exports.record import (
    EventRecord,
    ExportError,
    MovementSpec,
    PairRecord,
    ResultRecord,
    score_record,
)
from engine.reading import quoted, signed_number, whole_number
from engine.scoring import parse_artificial
from engine.scoring.document import BoardLine, StandingRow, StandingsDocument
from engine.shapes import shape_of

__all__ = ["dumps_usebio", "loads_usebio"]

EVENT_TYPES = {
    "mp": "MP_PAIRS",
    "butler": "BUTLER_PAIRS",
    "cross-imps": "CROSS_IMP",
    "total": "MP_PAIRS",
}
_METHOD_OF_TYPE = {
    "MP_PAIRS": "mp",
    "BUTLER_PAIRS": "butler",
    "CROSS_IMP": "cross-imps",
    "CROSS_IMPS": "cross-imps",
    "CROSS_IMP_PAIRS": "cross-imps",
}
_SUITS = (
    ("SPADES", Suit.SPADES),
    ("HEARTS", Suit.HEARTS),
    ("DIAMONDS", Suit.DIAMONDS),
    ("CLUBS", Suit.CLUBS),
)


def _compact(data: Mapping[str, Any]) -> str:
    return json.dumps(dict(data), separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _add(parent: ET.Element, tag: str, text: object | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = str(text)
    return element


def _usebio_date(date: str) -> str | None:
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", date.strip())
    if match is None:
        return None
    year, month, day = match.groups()
    return f"{day}/{month}/{year}"


def _suit_text(cards: tuple[Card, ...], suit: Suit) -> str:
    ranks = sorted((card.rank for card in cards if card.suit is suit), reverse=True)
    return "".join(Rank(rank).char for rank in ranks)


# ---- writing ------------------------------------------------------------------------------


def _pair_element(
    parent: ET.Element, pair: PairRecord, row: StandingRow | None, one_winner: bool
) -> None:
    element = _add(parent, "PAIR")
    _add(element, "PAIR_NUMBER", pair.number)
    if not one_winner and pair.direction:
        _add(element, "DIRECTION", pair.direction)
    if row is not None:
        if row.total is not None:
            _add(element, "TOTAL_SCORE", row.total.display)
        if row.percentage is not None:
            _add(element, "PERCENTAGE", row.percentage.display)
        _add(element, "PLACE", row.rank)
    for name in (part.strip() for part in pair.names.split(" & ")):
        if name:
            _add(_add(element, "PLAYER"), "PLAYER_NAME", name)
    if pair.absent:
        _add(element, "WHIST_ABSENT", "yes")


def _line_element(
    parent: ET.Element, record: EventRecord, result: ResultRecord, line: BoardLine | None
) -> None:
    rules = record.rules()
    element = _add(parent, "TRAVELLER_LINE")
    _add(element, "NS_PAIR_NUMBER", result.ns)
    _add(element, "EW_PAIR_NUMBER", result.ew)
    board = record.board(result.board)
    if result.entry is not None and board is not None:
        try:
            entry = rules.parse_entry(board, result.entry)
        except EngineError as exc:
            raise ExportError(f"{result.where()}: {exc}") from None
        _add(element, "CONTRACT", rules.describe_short(entry))
        declarer = result.entry.get("declarer")
        ns_tricks = rules.ns_tricks(board, entry)
        if isinstance(declarer, str) and ns_tricks is not None:
            seat = Seat.from_str(declarer)
            tricks = ns_tricks if seat in (Seat.N, Seat.S) else board.hand_size - ns_tricks
            _add(element, "PLAYED_BY", seat.value)
            _add(element, "TRICKS", tricks)
    _add(element, "SCORE", result.artificial if result.artificial else result.ns_score)
    if line is not None and line.ns_points is not None and line.ew_points is not None:
        _add(element, "NS_MATCH_POINTS", line.ns_points.display)
        _add(element, "EW_MATCH_POINTS", line.ew_points.display)
    if result.entry is not None:
        _add(element, "WHIST_ENTRY", _compact(result.entry))
    if result.round is not None:
        _add(element, "WHIST_ROUND", result.round)
    if result.table is not None:
        _add(element, "WHIST_TABLE", result.table)


def _hand_element(parent: ET.Element, board: Board) -> None:
    element = _add(parent, "BOARD")
    _add(element, "BOARD_NUMBER", board.number)
    for seat in Seat:
        cards = board.deal.hand(seat)
        if not cards:
            continue
        hand = _add(element, "HAND")
        _add(hand, "DIRECTION", seat.full_name)
        for name, suit in _SUITS:
            _add(hand, name, _suit_text(cards, suit))
    _add(element, "WHIST_DEAL", pbn.dumps([board], header=False).strip())


def dumps_usebio(record: EventRecord, document: StandingsDocument) -> str:
    """USEBIO 1.2 XML text (UTF-8 declared, indented) of `record` with `document`'s standings."""
    rules = record.rules()
    section = next(
        (s for s in document.sections if s.name == record.section),
        document.sections[0] if len(document.sections) == 1 else None,
    )
    if section is None:
        raise ExportError(f"the standings have no section {quoted(record.section)}")
    root = ET.Element("USEBIO", {"Version": "1.2"})
    _add(_add(root, "CLUB"), "CLUB_NAME", record.club)
    if record.method not in EVENT_TYPES:
        raise ExportError(f"unknown scoring method {quoted(record.method)}")
    event = _add(root, "EVENT", None)
    event.set("EVENT_TYPE", EVENT_TYPES[record.method])
    _add(event, "EVENT_DESCRIPTION", record.title)
    date = _usebio_date(record.date)
    if date is not None:
        _add(event, "DATE", date)
    _add(event, "BOARDS_PLAYED", len({r.board for r in record.results}))
    _add(event, "WINNER_TYPE", 1 if record.one_winner else 2)
    _add(event, "WHIST_VARIANT", rules.name)
    _add(event, "WHIST_OPTIONS", _compact(record.options))
    _add(event, "WHIST_SCORING", record.method)
    _add(event, "WHIST_SCALE", record.scale)
    _add(event, "WHIST_SECTION", record.section)
    if record.movement is not None:
        movement = {"kind": record.movement.kind, "params": dict(record.movement.params)}
        _add(event, "WHIST_MOVEMENT", _compact(movement))
    participants = _add(event, "PARTICIPANTS")
    rows = {row.key: row for f in section.fields for row in f.rows}
    for pair in record.pairs:
        _pair_element(participants, pair, rows.get(pair.key), record.one_winner)
    for number in sorted({r.board for r in record.results}):
        board = _add(event, "BOARD")
        _add(board, "BOARD_NUMBER", number)
        lines = {(bl.ns, bl.ew): bl for bl in section.boards.get(str(number), ())}
        for result in record.results:
            if result.board == number:
                _line_element(board, record, result, lines.get((result.ns, result.ew)))
    if record.boards:
        handset = _add(event, "HANDSET")
        for deal in sorted(record.boards, key=lambda b: b.number):
            _hand_element(handset, deal)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


# ---- reading ------------------------------------------------------------------------------

_DANGEROUS = re.compile(r"<!ENTITY|<!DOCTYPE[^>]*\[", re.IGNORECASE)


_REFUSED = (
    "USEBIO: ENTITY declarations and DOCTYPE internal subsets are refused "
    "(they can be used for entity-expansion attacks)"
)


def _refuse(*_args: object) -> None:
    raise ExportError(_REFUSED)


def _refuse_internal_subset(
    _name: str, _system: str | None, _public: str | None, internal: bool
) -> None:
    if internal:
        raise ExportError(_REFUSED)


def _check_declarations(text: str) -> None:
    """Let expat read the document type and stop at the first entity declaration or internal
    subset, before anything is expanded (a declaration precedes any use of it)."""
    checker = expat.ParserCreate()
    checker.StartDoctypeDeclHandler = _refuse_internal_subset
    checker.EntityDeclHandler = _refuse
    checker.UnparsedEntityDeclHandler = _refuse
    with contextlib.suppress(expat.ExpatError):  # malformed: ElementTree says where, below
        checker.Parse(text, True)


def _parse(text: str) -> ET.Element:
    if _DANGEROUS.search(text):
        raise ExportError(_REFUSED)
    # str input: the declared encoding is moot
    text = re.sub(r"^\ufeff?\s*<\?xml[^>]*\?>", "", text)
    try:
        _check_declarations(text)
        return ET.fromstring(text)
    except ET.ParseError as exc:
        raise ExportError(f"USEBIO: the XML is not well formed ({exc})") from None
    except UnicodeError:
        raise ExportError(
            "USEBIO: the text holds characters that are not Unicode (export the file again "
            "as UTF-8)"
        ) from None


def _text(parent: ET.Element, tag: str) -> str | None:
    child = parent.find(tag)
    if child is None or child.text is None or not child.text.strip():
        return None
    return child.text.strip()


def _need(parent: ET.Element, tag: str, where: str) -> str:
    value = _text(parent, tag)
    if value is None:
        raise ExportError(f"{where}: no {tag}")
    return value


def _number(value: str, tag: str, where: str) -> int:
    number = whole_number(value)
    if number is None or number < 1:
        raise ExportError(f"{where}: {tag} {quoted(value)} is not a whole number from 1")
    return number


def _json(value: str, tag: str, where: str) -> dict[str, Any]:
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):  # bad JSON, a number of thousands of digits, nesting
        raise ExportError(f"{where}: {tag} is not JSON: {quoted(value)}") from None
    if not isinstance(data, dict):
        raise ExportError(f"{where}: {tag} must be a JSON object")
    return data


def _iso(value: str | None) -> str:
    if value is None:
        return ""
    match = re.fullmatch(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", value)
    if match:
        day, month, year = match.groups()
        return f"{year}-{int(month):02d}-{int(day):02d}"
    return value if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value) else ""


def _score(text: str, where: str) -> tuple[int | None, str | None]:
    if text[:1].upper() in ("A", "N"):
        try:
            parse_artificial(text)
        except EngineError as exc:
            raise ExportError(f"{where}: SCORE {quoted(text)}: {exc}") from None
        return None, text
    score = signed_number(text)
    if score is None:
        raise ExportError(
            f"{where}: SCORE {quoted(text)} is not a whole number or an artificial code"
        )
    return score, None


def _pairs(event: ET.Element, one_winner: bool) -> list[PairRecord]:
    pairs = []
    participants = event.find("PARTICIPANTS")
    for index, element in enumerate(
        [] if participants is None else participants.findall("PAIR"), 1
    ):
        where = f"PARTICIPANTS: PAIR {index}"
        number = _number(_need(element, "PAIR_NUMBER", where), "PAIR_NUMBER", where)
        direction = _text(element, "DIRECTION")
        if not one_winner:
            if direction is None or direction.upper() not in ("NS", "EW"):
                raise ExportError(
                    f"{where} (number {number}): DIRECTION {quoted(direction)} is not NS or EW"
                )
            direction = direction.upper()
        names = [(_text(p, "PLAYER_NAME") or "") for p in element.findall("PLAYER")]
        pairs.append(
            PairRecord(
                number,
                None if one_winner else direction,
                " & ".join(name for name in names if name),
                (_text(element, "WHIST_ABSENT") or "").lower() == "yes",
            )
        )
    return pairs


def _results(event: ET.Element, pairs: list[PairRecord], one_winner: bool) -> list[ResultRecord]:
    keys = {pair.key for pair in pairs}
    results = []
    for index, board in enumerate(event.findall("BOARD"), 1):
        number_text = _text(board, "BOARD_NUMBER")
        if number_text is None:
            raise ExportError(f"BOARD {index} (in file order) has no BOARD_NUMBER")
        number = _number(number_text, "BOARD_NUMBER", f"BOARD {index} (in file order)")
        for line_no, element in enumerate(board.findall("TRAVELLER_LINE"), 1):
            where = f"board {number}, TRAVELLER_LINE {line_no}"
            ns = _number(_need(element, "NS_PAIR_NUMBER", where), "NS_PAIR_NUMBER", where)
            ew = _number(_need(element, "EW_PAIR_NUMBER", where), "EW_PAIR_NUMBER", where)
            for side, pair in (("NS", ns), ("EW", ew)):
                key = str(pair) if one_winner else f"{side}{pair}"
                if keys and key not in keys:
                    raise ExportError(f"{where}: {side} pair {pair} is not among the PARTICIPANTS")
            score, artificial = _score(_need(element, "SCORE", where), where)
            entry_text = _text(element, "WHIST_ENTRY")
            entry = None if entry_text is None else _json(entry_text, "WHIST_ENTRY", where)
            round_text = _text(element, "WHIST_ROUND")
            table_text = _text(element, "WHIST_TABLE")
            results.append(
                ResultRecord(
                    number,
                    ns,
                    ew,
                    entry,
                    score,
                    artificial,
                    round=None if round_text is None else _number(round_text, "WHIST_ROUND", where),
                    table=None if table_text is None else _number(table_text, "WHIST_TABLE", where),
                )
            )
    return results


def _boards(event: ET.Element, variant: str) -> list[Board]:
    boards: list[Board] = []
    handset = event.find("HANDSET")
    if handset is None:
        return boards
    for index, element in enumerate(handset.findall("BOARD"), 1):
        where = f"HANDSET: BOARD {index}"
        number = _number(_need(element, "BOARD_NUMBER", where), "BOARD_NUMBER", where)
        where = f"HANDSET: board {number}"
        text = _text(element, "WHIST_DEAL")
        if text is None:
            hands: dict[Seat, str] = {}
            for hand in element.findall("HAND"):
                try:
                    seat = Seat.from_str(_need(hand, "DIRECTION", where))
                except EngineError as exc:
                    raise ExportError(f"{where}: HAND DIRECTION: {exc}") from None
                hands[seat] = ".".join(_text(hand, name) or "" for name, _suit in _SUITS)
            if len(hands) != 4:
                raise ExportError(f"{where}: the HANDSET needs four HAND elements or a WHIST_DEAL")
            deal = " ".join(hands[seat] for seat in Seat)
            text = f'[Board "{number}"]\n[Deal "N:{deal}"]'
        try:
            found = pbn.loads(text, variant=variant)
        except EngineError as exc:
            raise ExportError(f"{where}: {exc}") from None
        if len(found) != 1 or found[0].number != number:
            raise ExportError(f"{where}: the deal is not that of board {number}")
        boards.append(found[0])
    return boards


def loads_usebio(text: str) -> EventRecord:
    """The first event of USEBIO XML `text` as a record (see the module docstring for what is
    read); ExportError, naming the element and board, for anything that cannot be read."""
    root = _parse(text)
    if root.tag != "USEBIO":
        raise ExportError(f"USEBIO: the root element is {root.tag}, not USEBIO")
    event = root.find("EVENT")
    if event is None:
        raise ExportError("USEBIO: there is no EVENT")
    club = root.find("CLUB")
    event_type = event.get("EVENT_TYPE") or _text(event, "EVENT_TYPE") or ""
    method = _text(event, "WHIST_SCORING") or _METHOD_OF_TYPE.get(event_type.upper())
    if method is None:
        raise ExportError(
            f"EVENT: EVENT_TYPE {quoted(event_type)} is not a pairs event clubwhist can score"
        )
    winners = _text(event, "WINNER_TYPE") or "2"
    if winners not in ("1", "2"):
        raise ExportError(f"EVENT: WINNER_TYPE {quoted(winners)} is not 1 or 2")
    one_winner = winners == "1"
    variant = (_text(event, "WHIST_VARIANT") or "classic").lower()
    try:
        shape_of(variant)  # the canonical name of a known game
    except EngineError:
        raise ExportError(
            f"EVENT: WHIST_VARIANT {quoted(variant)} is not a game clubwhist knows"
        ) from None
    options_text = _text(event, "WHIST_OPTIONS")
    options = {} if options_text is None else _json(options_text, "WHIST_OPTIONS", "EVENT")
    movement = None
    movement_text = _text(event, "WHIST_MOVEMENT")
    if movement_text is not None:
        data = _json(movement_text, "WHIST_MOVEMENT", "EVENT")
        if not isinstance(data.get("kind"), str) or not isinstance(data.get("params", {}), dict):
            raise ExportError("EVENT: WHIST_MOVEMENT needs a kind and params")
        movement = MovementSpec(data["kind"], data.get("params", {}))
    pairs = _pairs(event, one_winner)
    results = _results(event, pairs, one_winner)
    record = EventRecord(
        title=_text(event, "EVENT_DESCRIPTION") or "",
        date=_iso(_text(event, "DATE")),
        club="" if club is None else (_text(club, "CLUB_NAME") or ""),
        variant=variant,
        options=options,
        method=method,
        scale=_text(event, "WHIST_SCALE") or "ebu",
        one_winner=one_winner,
        movement=movement,
        section=_text(event, "WHIST_SECTION") or "A",
        boards=tuple(_boards(event, variant)),
        pairs=tuple(pairs),
        results=tuple(results),
    )
    score_record(record)  # every check, so a record is returned whole or not at all
    return record
