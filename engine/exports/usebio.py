"""USEBIO 1.2 results XML (usebio.org), written as version 1.2 files are and read back whole.

USEBIO is the bridge results format national bodies and results sites accept. `dumps_usebio`
writes one `EVENT` from a record and its standings document; `loads_usebio` reads an event
back into an `EventRecord`.

What is written (standard USEBIO 1.2 elements only, so a validating reader accepts it):

    USEBIO Version="1.2"
      CLUB > CLUB_NAME
      EVENT EVENT_TYPE="PAIRS"
        PROGRAM_NAME (clubwhist), EVENT_DESCRIPTION, DATE (DD/MM/YYYY), BOARD_SCORING_METHOD,
        BOARDS_PLAYED, WINNER_TYPE (1 or 2)
        PARTICIPANTS > PAIR*
          PAIR_NUMBER, DIRECTION (NS/EW; two winners only), PLAYER* > PLAYER_NAME (the
          record's players; else two when the names split in two on " & ", else one),
          PLACE ("2=" for a tie), TOTAL_SCORE, PERCENTAGE (methods with one)
        BOARD* > BOARD_NUMBER, TRAVELLER_LINE*
          NS_PAIR_NUMBER, EW_PAIR_NUMBER, CONTRACT (the game's short result), PLAYED_BY and
          TRICKS (games with a declarer: the declaring side's tricks in play), SCORE (the NS
          score, or the artificial code such as A+/A-), NS_MATCH_POINTS, EW_MATCH_POINTS
          (the points of the scoring method: matchpoints, IMPs or total points)
        HANDSET > BOARD* > BOARD_NUMBER, HAND* (DIRECTION North..West, SPADES, HEARTS,
          DIAMONDS, CLUBS: ranks AKQJT98765432, as PBN writes a suit)

EVENT_TYPE is PAIRS and BOARD_SCORING_METHOD says how boards are scored, as USEBIO 1.2 files
write it: MATCH_POINTS (mp), BUTLER_IMPS (butler), CROSS_IMPS (cross-imps), AGGREGATE (total
points). The element names and values follow the published writers of 1.2 files; the EBU's
own DTD could not be found, so tests/engine/data/usebio-1.2-practice.dtd is ours (see it).

Whist extras: what USEBIO cannot carry is one processing instruction per element,
`<?clubwhist {json}?>`. A DTD does not constrain processing instructions, so the document
stays valid, and other readers skip them. The JSON is ASCII with `>` escaped as \\u003e, so
no text can end the instruction early or put a character XML forbids in it:

- EVENT: variant, options, scoring (mp, cross-imps, butler, total), scale (ebu, acbl),
  section, movement ({"kind", "params"}, when known), fouled (the boards marked fouled)
- PAIR: names and players (exactly as entered), absent (true for a pair that never came)
- TRAVELLER_LINE: entry (`GameRules.entry_to_dict` form), round, table (when known), score
  (a fouled board's line as recorded: its SCORE is A, the Average it scores)
- HANDSET > BOARD: deal (the board as `engine.pbn` writes it: jokers, kitty, columns)

Text: every character XML 1.0 forbids (C0 controls but tab, newline and return; lone
surrogates; U+FFFE, U+FFFF) is written as U+FFFD, so the document is always well formed.

Reading: a file holds one EVENT (several are refused: export one event a file). Its results
are read where the writer put them: flat, PARTICIPANTS and BOARD directly under EVENT (as
written here, and by club scorers such as Compscore, whose PAIRs carry TOTAL_SCORE and PLACE),
or nested, EVENT > SESSION > SECTION > PARTICIPANTS and BOARD (SECTION_ID names the section).
An event of several sections or sessions is refused, naming them: a clubwhist event is one
section of one session, so each is exported to a file of its own and imported into its own
event. Deals come from a HANDSET (under EVENT or beside the results) or from the HAND elements
some writers put in each BOARD beside its lines.

With the extras a file written here comes back whole; a file of an earlier clubwhist
(EVENT_TYPE MP_PAIRS, BUTLER_PAIRS or CROSS_IMP and WHIST_* elements: WHIST_VARIANT,
WHIST_OPTIONS, WHIST_SCORING, WHIST_SCALE, WHIST_SECTION, WHIST_MOVEMENT, WHIST_ABSENT,
WHIST_ENTRY, WHIST_ROUND, WHIST_TABLE, WHIST_DEAL) reads as before. A file from another program
is read as score-only lines: every TRAVELLER_LINE needs its pair numbers and SCORE (a number,
or an artificial code A+, A, A-, NP, or a split like A+/A-), entries are None, the game is
classic whist, and the method comes from BOARD_SCORING_METHOD under EVENT_TYPE PAIRS
(MATCH_POINTS when absent), or from an older EVENT_TYPE. Hands come from WHIST_DEAL or, if
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
from typing import Any, cast
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

#: USEBIO 1.2 describes a pairs event as EVENT_TYPE "PAIRS" with the way boards are scored in
#: BOARD_SCORING_METHOD; total points is what USEBIO calls AGGREGATE.
EVENT_TYPE = "PAIRS"
BOARD_SCORING_METHODS = {
    "mp": "MATCH_POINTS",
    "butler": "BUTLER_IMPS",
    "cross-imps": "CROSS_IMPS",
    "total": "AGGREGATE",
}
_METHOD_OF_SCORING = {
    "MATCH_POINTS": "mp",
    "BUTLER_IMPS": "butler",
    "BUTLER": "butler",
    "CROSS_IMPS": "cross-imps",
    "AGGREGATE": "total",
}
# The event types of USEBIO 1.0/1.1 and of clubwhist before 1.2 was followed: still read.
_METHOD_OF_OLD_TYPE = {
    "MP_PAIRS": "mp",
    "BUTLER_PAIRS": "butler",
    "CROSS_IMP": "cross-imps",
    "CROSS_IMPS": "cross-imps",
    "CROSS_IMP_PAIRS": "cross-imps",
}
#: The processing-instruction target that carries the whist extras (see the module docstring).
PI_TARGET = "clubwhist"
# What XML 1.0 allows in a document (its production Char): everything else is replaced.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SUITS = (
    ("SPADES", Suit.SPADES),
    ("HEARTS", Suit.HEARTS),
    ("DIAMONDS", Suit.DIAMONDS),
    ("CLUBS", Suit.CLUBS),
)


def xml_text(value: object) -> str:
    """`value` as text XML 1.0 can hold: each character the standard forbids (C0 controls
    but tab, newline and return; lone surrogates; U+FFFE, U+FFFF) becomes U+FFFD, so no name
    ever makes the document ill-formed. Names are refused such characters where they come in;
    this is the last guard."""
    return _NOT_XML.sub("\ufffd", str(value))


def _add(parent: ET.Element, tag: str, text: object | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = xml_text(text)
    return element


def _extras(parent: ET.Element, data: Mapping[str, Any]) -> None:
    """The whist extras of `parent` as one `<?clubwhist {json}?>` processing instruction.

    A DTD's content models do not constrain processing instructions, so the document stays
    valid USEBIO and other readers skip it. The JSON is ASCII-only with `>` escaped, so it can
    hold neither "?>" nor a character XML forbids, whatever the names say."""
    if not data:
        return
    body = json.dumps(dict(data), separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    parent.append(ET.ProcessingInstruction(PI_TARGET, body.replace(">", "\\u003e")))


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
    # A PLAYER per player: as the record lists them, else the names when they split cleanly
    # in two, else (a name that itself holds " & ") one PLAYER, never extra players. The
    # names and players exactly as entered go in the extras, which clubwhist reads first.
    players = pair.names.split(" & ")
    if pair.players:
        players = list(pair.players)
    elif len(players) != 2:
        players = [pair.names]
    for name in players:
        if name.strip():
            _add(_add(element, "PLAYER"), "PLAYER_NAME", name.strip())
    if row is not None:
        _add(element, "PLACE", row.rank)
        if row.total is not None:
            _add(element, "TOTAL_SCORE", row.total.display)
        if row.percentage is not None:
            _add(element, "PERCENTAGE", row.percentage.display)
    extras: dict[str, Any] = {"names": pair.names} if pair.names else {}
    if pair.players:
        extras["players"] = list(pair.players)
    if pair.absent:
        extras["absent"] = True
    _extras(element, extras)


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
    recorded = result.artificial if result.artificial else result.ns_score
    fouled = result.board in record.fouled
    # A fouled board scores Average (A) to both sides: what other readers are told; the
    # result as recorded goes in the extras with the table result.
    _add(element, "SCORE", "A" if fouled else recorded)
    if line is not None and line.ns_points is not None and line.ew_points is not None:
        _add(element, "NS_MATCH_POINTS", line.ns_points.display)
        _add(element, "EW_MATCH_POINTS", line.ew_points.display)
    extras: dict[str, Any] = {"score": str(recorded)} if fouled else {}
    if result.entry is not None:
        extras["entry"] = dict(result.entry)
    if result.round is not None:
        extras["round"] = result.round
    if result.table is not None:
        extras["table"] = result.table
    _extras(element, extras)


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
    _extras(element, {"deal": pbn.dumps([board], header=False).strip()})


def _event_extras(record: EventRecord) -> dict[str, Any]:
    extras: dict[str, Any] = {
        "variant": record.rules().name,
        "options": dict(record.options),
        "scoring": record.method,
        "scale": record.scale,
        "section": record.section,
    }
    if record.fouled:
        extras["fouled"] = sorted(record.fouled)
    if record.movement is not None:
        extras["movement"] = {"kind": record.movement.kind, "params": dict(record.movement.params)}
    return extras


def dumps_usebio(record: EventRecord, document: StandingsDocument) -> str:
    """USEBIO 1.2 XML text (UTF-8 declared, indented) of `record` with `document`'s standings."""
    section = next(
        (s for s in document.sections if s.name == record.section),
        document.sections[0] if len(document.sections) == 1 else None,
    )
    if section is None:
        raise ExportError(f"the standings have no section {quoted(record.section)}")
    if record.method not in BOARD_SCORING_METHODS:
        raise ExportError(f"unknown scoring method {quoted(record.method)}")
    root = ET.Element("USEBIO", {"Version": "1.2"})
    _add(_add(root, "CLUB"), "CLUB_NAME", record.club)
    event = _add(root, "EVENT")
    event.set("EVENT_TYPE", EVENT_TYPE)
    _extras(event, _event_extras(record))
    _add(event, "PROGRAM_NAME", "clubwhist")
    _add(event, "EVENT_DESCRIPTION", record.title)
    date = _usebio_date(record.date)
    if date is not None:
        _add(event, "DATE", date)
    _add(event, "BOARD_SCORING_METHOD", BOARD_SCORING_METHODS[record.method])
    _add(event, "BOARDS_PLAYED", len({r.board for r in record.results}))
    _add(event, "WINNER_TYPE", 1 if record.one_winner else 2)
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
        return ET.fromstring(text, parser=ET.XMLParser(target=ET.TreeBuilder(insert_pis=True)))
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


def _read_extras(parent: ET.Element, where: str) -> dict[str, Any]:
    """The `<?clubwhist {json}?>` extras of `parent` (empty when there are none)."""
    for child in parent:
        if cast(object, child.tag) is ET.PI and child.text is not None:
            target, _, body = child.text.partition(" ")
            if target == PI_TARGET:
                return _json(body.strip(), f"<?{PI_TARGET}?>", where)
    return {}


def _extra_text(extras: Mapping[str, Any], key: str, where: str) -> str | None:
    """A text extra (None when absent), whole numbers given as text for `_number`."""
    value = extras.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ExportError(f"{where}: the {PI_TARGET} extra {key!r} is not a text or number")
    return str(value)


def _extra_object(extras: Mapping[str, Any], key: str, where: str) -> dict[str, Any] | None:
    value = extras.get(key)
    if value is not None and not isinstance(value, dict):
        raise ExportError(f"{where}: the {PI_TARGET} extra {key!r} must be a JSON object")
    return value


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
        extras = _read_extras(element, where)
        listed = [(_text(p, "PLAYER_NAME") or "") for p in element.findall("PLAYER")]
        names = _extra_text(extras, "names", where)
        if names is None:
            names = " & ".join(name for name in listed if name)
        players = tuple(name for name in listed if name)
        if extras:  # written by clubwhist: the players exactly as the record had them
            found = extras.get("players", [])
            if not isinstance(found, list) or not all(isinstance(p, str) for p in found):
                raise ExportError(
                    f"{where}: the {PI_TARGET} extra 'players' is not a list of names"
                )
            players = tuple(found)
        absent = extras.get("absent") is True
        pairs.append(
            PairRecord(
                number,
                None if one_winner else direction,
                names,
                absent or (_text(element, "WHIST_ABSENT") or "").lower() == "yes",
                players,
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
            extras = _read_extras(element, where)
            recorded = _extra_text(extras, "score", where)  # a fouled board's line as played
            score, artificial = _score(recorded or _need(element, "SCORE", where), where)
            entry = _extra_object(extras, "entry", where)
            entry_text = _text(element, "WHIST_ENTRY")  # files written before 1.2 was followed
            if entry is None and entry_text is not None:
                entry = _json(entry_text, "WHIST_ENTRY", where)
            round_text = _extra_text(extras, "round", where) or _text(element, "WHIST_ROUND")
            table_text = _extra_text(extras, "table", where) or _text(element, "WHIST_TABLE")
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


def _boards(handset: ET.Element | None, holder: ET.Element, variant: str) -> list[Board]:
    """The deals: the HANDSET's boards, else the HAND elements some writers put in each
    traveller's BOARD beside its lines."""
    boards: list[Board] = []
    if handset is not None:
        elements = handset.findall("BOARD")
    else:
        elements = [board for board in holder.findall("BOARD") if board.find("HAND") is not None]
    what = "HANDSET" if handset is not None else "BOARD"
    for index, element in enumerate(elements, 1):
        where = f"{what}: BOARD {index}"
        number = _number(_need(element, "BOARD_NUMBER", where), "BOARD_NUMBER", where)
        where = f"{what}: board {number}"
        text = _extra_text(_read_extras(element, where), "deal", where)
        text = text or _text(element, "WHIST_DEAL")
        if text is None:
            hands: dict[Seat, str] = {}
            for hand in element.findall("HAND"):
                try:
                    seat = Seat.from_str(_need(hand, "DIRECTION", where))
                except EngineError as exc:
                    raise ExportError(f"{where}: HAND DIRECTION: {exc}") from None
                hands[seat] = ".".join(_text(hand, name) or "" for name, _suit in _SUITS)
            if len(hands) != 4:
                raise ExportError(f"{where}: a deal needs four HAND elements or a WHIST_DEAL")
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


def _method_of(event: ET.Element) -> str:
    """The scoring method USEBIO names: EVENT_TYPE PAIRS with its BOARD_SCORING_METHOD
    (MATCH_POINTS when absent, as writers leave it for matchpoints), or an older type."""
    event_type = (event.get("EVENT_TYPE") or _text(event, "EVENT_TYPE") or "").upper()
    if event_type == EVENT_TYPE:
        scoring = (_text(event, "BOARD_SCORING_METHOD") or "MATCH_POINTS").upper()
        method = _METHOD_OF_SCORING.get(scoring)
        if method is None:
            raise ExportError(
                f"EVENT: BOARD_SCORING_METHOD {quoted(scoring)} is not one clubwhist can score "
                f"(it scores {', '.join(_METHOD_OF_SCORING)})"
            )
        return method
    method = _METHOD_OF_OLD_TYPE.get(event_type)
    if method is None:
        raise ExportError(
            f"EVENT: EVENT_TYPE {quoted(event_type)} is not a pairs event clubwhist can score"
        )
    return method


def _handset(event: ET.Element, holder: ET.Element) -> ET.Element | None:
    """The HANDSET: beside the results (nested files) or under EVENT."""
    found = holder.find("HANDSET")
    return event.find("HANDSET") if found is None else found


def _count_boards(event: ET.Element, holder: ET.Element, most: int) -> None:
    """ExportError when the event lists more than `most` boards, as hand records or as
    travellers: counted on the XML tree (the C parser's quick work) before any board is read,
    the slow part, so a file of thousands is refused at once."""
    handset = _handset(event, holder)
    counts = (
        len(holder.findall("BOARD")),
        0 if handset is None else len(handset.findall("BOARD")),
    )
    if max(counts) > most:
        raise ExportError(
            f"the file has {max(counts)} boards; an event plays at most {most}: export one "
            "session's results a file"
        )


def _holding(element: ET.Element) -> bool:
    """Whether `element` itself holds an event's pairs or travellers."""
    return element.find("PARTICIPANTS") is not None or element.find("BOARD") is not None


def _results_of(event: ET.Element) -> tuple[ET.Element, str | None]:
    """The element that holds the event's PARTICIPANTS and BOARDs, and the section's name
    where the file names one (SECTION_ID).

    Writers lay an event out two ways, both read: flat, PARTICIPANTS and BOARD directly under
    EVENT (as clubwhist and several club scorers write, Compscore's Butler files among them),
    or nested, EVENT > SESSION > SECTION > PARTICIPANTS and BOARD (a SECTION straight under
    EVENT, or a SESSION holding them itself, read too). A clubwhist event is one section of
    one session, so a file with several is refused, naming them, rather than one read and the
    others silently left out."""
    found: list[tuple[ET.Element, str, str | None]] = []
    if _holding(event):
        found.append((event, "EVENT", None))
    for s_index, session in enumerate(event.findall("SESSION"), 1):
        session_id = session.get("SESSION_ID") or _text(session, "SESSION_ID") or str(s_index)
        if _holding(session):
            found.append((session, f"SESSION {session_id}", None))
        for c_index, section in enumerate(session.findall("SECTION"), 1):
            name = section.get("SECTION_ID") or _text(section, "SECTION_ID")
            if _holding(section):
                where = f"SESSION {session_id} > SECTION {name or c_index}"
                found.append((section, where, name))
    for c_index, section in enumerate(event.findall("SECTION"), 1):
        name = section.get("SECTION_ID") or _text(section, "SECTION_ID")
        if _holding(section):
            found.append((section, f"SECTION {name or c_index}", name))
    if not found:
        raise ExportError(
            "USEBIO: the EVENT has no PARTICIPANTS and no BOARD, neither directly nor in a "
            "SESSION > SECTION: the file has no results to import"
        )
    if len(found) > 1:
        places = "; ".join(where for _element, where, _name in found)
        raise ExportError(
            f"USEBIO: the EVENT holds {len(found)} sets of results ({places}), and a "
            "clubwhist event is one section of one session: export each section (or session) "
            "to a file of its own from the scoring program, and import each into its own event"
        )
    element, _where, name = found[0]
    return element, (name.strip() or None) if name else None


def loads_usebio(text: str, *, most_boards: int | None = None) -> EventRecord:
    """The first event of USEBIO XML `text` as a record (see the module docstring for what is
    read); ExportError, naming the element and board, for anything that cannot be read. With
    `most_boards`, a file of more boards is refused before any of them is read."""
    root = _parse(text)
    if root.tag != "USEBIO":
        raise ExportError(f"USEBIO: the root element is {root.tag}, not USEBIO")
    events = root.findall("EVENT")
    if not events:
        raise ExportError("USEBIO: there is no EVENT")
    if len(events) > 1:
        raise ExportError(
            f"USEBIO: the file holds {len(events)} events, and an import makes one: export "
            "each event to a file of its own from the scoring program"
        )
    event = events[0]
    holder, section_name = _results_of(event)
    if most_boards is not None:
        _count_boards(event, holder, most_boards)
    club = root.find("CLUB")
    extras = _read_extras(event, "EVENT")
    method = _extra_text(extras, "scoring", "EVENT") or _text(event, "WHIST_SCORING")
    method = method or _method_of(event)
    winners = _text(event, "WINNER_TYPE") or "2"
    if winners not in ("1", "2"):
        raise ExportError(f"EVENT: WINNER_TYPE {quoted(winners)} is not 1 or 2")
    one_winner = winners == "1"
    variant = _extra_text(extras, "variant", "EVENT") or _text(event, "WHIST_VARIANT")
    variant = (variant or "classic").lower()
    try:
        shape_of(variant)  # the canonical name of a known game
    except EngineError:
        raise ExportError(f"EVENT: the game {quoted(variant)} is not one clubwhist knows") from None
    options = _extra_object(extras, "options", "EVENT")
    if options is None:
        options_text = _text(event, "WHIST_OPTIONS")
        options = {} if options_text is None else _json(options_text, "WHIST_OPTIONS", "EVENT")
    data = _extra_object(extras, "movement", "EVENT")
    movement_text = _text(event, "WHIST_MOVEMENT")
    if data is None and movement_text is not None:
        data = _json(movement_text, "WHIST_MOVEMENT", "EVENT")
    movement = None
    if data is not None:
        if not isinstance(data.get("kind"), str) or not isinstance(data.get("params", {}), dict):
            raise ExportError("EVENT: the movement needs a kind and params")
        movement = MovementSpec(data["kind"], data.get("params", {}))
    scale = _extra_text(extras, "scale", "EVENT") or _text(event, "WHIST_SCALE") or "ebu"
    section = _extra_text(extras, "section", "EVENT") or _text(event, "WHIST_SECTION")
    section = section or section_name or "A"
    fouled = extras.get("fouled", [])
    if not isinstance(fouled, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in fouled
    ):
        raise ExportError(f"EVENT: the {PI_TARGET} extra 'fouled' is not a list of board numbers")
    pairs = _pairs(holder, one_winner)
    results = _results(holder, pairs, one_winner)
    record = EventRecord(
        title=_text(event, "EVENT_DESCRIPTION") or "",
        date=_iso(_text(event, "DATE")),
        club="" if club is None else (_text(club, "CLUB_NAME") or ""),
        variant=variant,
        options=options,
        method=method,
        scale=scale,
        one_winner=one_winner,
        movement=movement,
        section=section,
        boards=tuple(_boards(_handset(event, holder), holder, variant)),
        pairs=tuple(pairs),
        results=tuple(results),
        fouled=frozenset(fouled),
    )
    score_record(record)  # every check, so a record is returned whole or not at all
    return record
