"""What an event export carries and an import gives back: one plain, typed record.

Every exporter (CSV, PBN with results, USEBIO) writes an `EventRecord` and every importer
reads one back, so the formats never need the tournaments app's models and a file written
by clubwhist can be checked by rescoring it: `score_record` scores a record from scratch
with the engine (`score_session` and `section_standings`, the same path the app's rescore
takes), and a round trip is right when the standings it gives are unchanged.

The record holds the facts, not the figures: boards, pairs and each traveller line's table
result (the game's entry, as `GameRules.entry_to_dict` writes it) with its NS score or its
artificial score. Matchpoints, ranks and percentages are always derived again, so an import
can never smuggle in standings that do not follow from its results.

>>> from engine.dealing import deal_boards
>>> boards = tuple(deal_boards("classic", [1, 2], seed=1))
>>> record = EventRecord(
...     title="Club night", date="2026-11-23", club="Riverside", variant="classic",
...     boards=boards,
...     pairs=(PairRecord(1, "NS", "Ann & Bob"), PairRecord(2, "NS", "Cy & Di"),
...            PairRecord(1, "EW", "Ed & Flo"), PairRecord(2, "EW", "Gus & Hal")),
...     results=(ResultRecord(1, 1, 1, {"ns_tricks": 8}, 2),
...              ResultRecord(1, 2, 2, {"ns_tricks": 6}, -1)),
... )
>>> rows = score_record(record).sections[0].fields[0].rows
>>> [(row.names, row.rank, row.percentage.display) for row in rows]
[('Ann & Bob', '1', '100.00'), ('Cy & Di', '2', '0.00')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine import EngineError
from engine.boards import Board
from engine.cards import Side
from engine.games import Entry, GameRules, rules_for
from engine.games.entry import SessionTally
from engine.movements import Movement, build
from engine.reading import quoted
from engine.scoring import (
    METHODS,
    TravellerLine,
    one_winner,
    pair_key,
    parse_artificial,
    score_session,
    two_winner,
)
from engine.scoring.document import StandingsDocument, section_standings
from engine.shapes import shape_of

__all__ = [
    "EventRecord",
    "ExportError",
    "MovementSpec",
    "PairRecord",
    "ResultRecord",
    "check_record",
    "score_record",
]

SCALES = ("ebu", "acbl")


class ExportError(EngineError):
    """An export that cannot be written or an import that cannot be read; the message says
    which element, tag or line and which board."""


@dataclass(frozen=True)
class MovementSpec:
    """The movement as `engine.movements.build` takes it (`kind`, keyword `params`).

    Carried so that a rescore expects as many results per board as the movement does
    (Neuberg factoring of a board short of results depends on it).
    """

    kind: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class PairRecord:
    """A pair of the event: its number, direction ("NS"/"EW"; None in a one-winner field),
    its players as one string ("Ann Smith & Bob Jones") and whether it never came (a phantom,
    left out of the ranking when it has no result).

    `players` holds each player's name as entered, when the source knows them one by one (the
    app does; a file from another program may give only a partnership name): an import names
    the players from it, never by splitting `names`, which a name holding " & " would break.
    """

    number: int
    direction: str | None
    names: str = ""
    absent: bool = False
    players: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.number, bool) or not isinstance(self.number, int) or self.number < 1:
            raise ExportError(f"pair number {quoted(self.number)} is not a whole number from 1")
        if self.direction not in ("NS", "EW", None):
            raise ExportError(
                f"pair {self.number}: direction {quoted(self.direction)} is not NS or EW"
            )

    @property
    def key(self) -> str:
        """The pair's name across the session ("3", "NS3"), as `pair_key` spells it."""
        return pair_key(self.number, self.direction)


@dataclass(frozen=True)
class ResultRecord:
    """One traveller line: board, pairs, the game's entry (or None when only the score is
    known, as in a file from a bridge program), and the NS score or an artificial score code
    ("A+/A-", "A", "NP"), never both. `round` and `table` are kept when the source knows them.
    """

    board: int
    ns: int
    ew: int
    entry: Mapping[str, object] | None
    ns_score: int | Fraction | None
    artificial: str | None = None
    round: int | None = None
    table: int | None = None

    def __post_init__(self) -> None:
        if (self.ns_score is None) == (self.artificial is None):
            raise ExportError(
                f"{self.where()}: give either a score or an artificial score, not both or neither"
            )
        if self.ns_score is not None and (
            isinstance(self.ns_score, bool) or not isinstance(self.ns_score, int | Fraction)
        ):
            raise ExportError(f"{self.where()}: the score {quoted(self.ns_score)} is not a number")
        for name, value in (("board", self.board), ("NS pair", self.ns), ("EW pair", self.ew)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ExportError(f"{self.where()}: the {name} is not a whole number from 1")

    def where(self) -> str:
        return f"board {self.board}, NS {self.ns} v EW {self.ew}"

    @property
    def codes(self) -> tuple[str, str] | None:
        """The artificial score per side, ('A+', 'A-'), or None for a played result."""
        return None if self.artificial is None else parse_artificial(self.artificial)


@dataclass(frozen=True, kw_only=True)
class EventRecord:
    """One section of an event with everything needed to score it again.

    `date` is ISO (YYYY-MM-DD, or "" when unknown). `method` is one of the engine's scoring
    methods (`engine.scoring.METHODS`: mp, cross-imps, butler, total) and `scale` ebu or
    acbl. `one_winner` says whether all pairs form one field (Howell, arrow switch); then pair
    directions are None. `boards` may be empty when the source has no hand records.

    `fouled` lists the boards the director marked fouled: their results are kept as played
    (their entries still count for session figures such as Candid Whist bags, as in the app)
    but score Average to both sides, as `tournaments.events.services.scoring` scores them.
    """

    title: str
    date: str
    club: str
    variant: str
    options: Mapping[str, object] = field(default_factory=dict)
    method: str = "mp"
    scale: str = "ebu"
    one_winner: bool = False
    movement: MovementSpec | None = None
    section: str = "A"
    boards: tuple[Board, ...] = ()
    pairs: tuple[PairRecord, ...] = ()
    results: tuple[ResultRecord, ...] = ()
    fouled: frozenset[int] = frozenset()

    def rules(self) -> GameRules:
        """The game's rules with the record's options; ExportError when they are not valid."""
        try:
            return rules_for(self.variant, self.options)
        except EngineError as exc:
            raise ExportError(
                f"the game {quoted(self.variant)} with these options: {exc}"
            ) from None

    def board(self, number: int) -> Board | None:
        return next((b for b in self.boards if b.number == number), None)

    def pair_side_key(self, number: int, side: str) -> str:
        """The key of the pair sitting `side` ("NS"/"EW") on a line, in this record's fields."""
        return pair_key(number, None if self.one_winner else side)

    def build_movement(self) -> Movement | None:
        if self.movement is None:
            return None
        try:
            return build(self.movement.kind, **dict(self.movement.params))
        except EngineError as exc:
            raise ExportError(f"movement {self.movement.kind}: {exc}") from None


def _parsed_entries(record: EventRecord, rules: GameRules) -> dict[int, Entry]:
    """Each result's entry read by the game's rules (by index in `record.results`), checked
    against its board and its recorded score: an import must not carry a score that its
    own table result contradicts."""
    parsed: dict[int, Entry] = {}
    for index, result in enumerate(record.results):
        if result.entry is None:
            continue
        board = record.board(result.board)
        if board is None:
            raise ExportError(f"{result.where()}: a game result on a board with no deal")
        try:
            entry = rules.parse_entry(board, result.entry)
            expected = rules.ns_score(board, entry)
        except EngineError as exc:
            raise ExportError(f"{result.where()}: {exc}") from None
        if result.ns_score is not None and Fraction(result.ns_score) != Fraction(expected):
            raise ExportError(
                f"{result.where()}: the score {result.ns_score} does not match the result "
                f"entered ({rules.describe_short(entry)} scores {expected})"
            )
        parsed[index] = entry
    return parsed


def check_record(record: EventRecord) -> dict[int, Entry]:
    """ExportError for anything in `record` the engine cannot score: unknown game, option,
    method or scale, a board of another game, a pair twice, a line naming a pair the record
    does not have, a bad artificial code, an entry the game refuses or that contradicts its
    score. Returns the parsed entries (by result index) for the caller's use."""
    rules = record.rules()
    if record.method not in METHODS:
        raise ExportError(
            f"unknown scoring method {quoted(record.method)} (use {', '.join(METHODS)})"
        )
    if record.scale not in SCALES:
        raise ExportError(f"unknown matchpoint scale {quoted(record.scale)} (use ebu or acbl)")
    seen_boards: set[int] = set()
    for board in record.boards:
        if board.number in seen_boards:
            raise ExportError(f"board {board.number} appears twice")
        seen_boards.add(board.number)
        if not rules.dealt_for(board):
            # Said in the file's words: which game the board names, which the event plays,
            # and that the two must agree (a file of one event is written for one game).
            raise ExportError(
                f"board {board.number} is dealt for {shape_of(board.variant).title} (its "
                f'[WhistVariant "{board.variant}"]), and the file\'s event plays {rules.title}: '
                "every board of an event is dealt for its game. Export the event again from "
                "the program that scored it; nothing was imported"
            )
        try:
            rules.check_board(board)
        except EngineError as exc:
            raise ExportError(f"board {board.number}: {exc}") from None
    keys: set[str] = set()
    for pair in record.pairs:
        if record.one_winner and pair.direction is not None:
            raise ExportError(f"pair {pair.key}: a one-winner field has no directions")
        if not record.one_winner and pair.direction is None:
            raise ExportError(f"pair {pair.number} needs a direction (NS or EW)")
        if pair.key in keys:
            raise ExportError(f"pair {pair.key} appears twice")
        keys.add(pair.key)
    for result in record.results:
        if keys:
            for side, number in (("NS", result.ns), ("EW", result.ew)):
                key = record.pair_side_key(number, side)
                if key not in keys:
                    raise ExportError(
                        f"{result.where()}: there is no {side} pair {number} among the pairs"
                    )
        try:
            result.codes  # noqa: B018 - parsing is the check
        except EngineError as exc:
            raise ExportError(f"{result.where()}: {exc}") from None
    movement = record.build_movement()
    if movement is not None and movement.one_winner != record.one_winner:
        fields = "one field" if movement.one_winner else "two fields"
        raise ExportError(f"movement {movement.kind} has {fields}; the record says otherwise")
    return _parsed_entries(record, rules)


def _tallies(
    record: EventRecord, rules: GameRules, entries: Mapping[int, Entry]
) -> dict[str, SessionTally]:
    """Each pair's session figures (Candid Whist bags) from its played results in play order
    (round, then board), as the app's rescore computes them."""
    if not rules.session_columns:
        return {}
    order = sorted(
        (i for i, r in enumerate(record.results) if i in entries and r.ns_score is not None),
        key=lambda i: (record.results[i].round or 0, record.results[i].board),
    )
    played: dict[str, list[tuple[Entry, Side]]] = {}
    for i in order:
        result = record.results[i]
        for number, side in ((result.ns, Side.NS), (result.ew, Side.EW)):
            key = record.pair_side_key(number, side.value)
            played.setdefault(key, []).append((entries[i], side))
    tallies = {key: rules.session_tally(results) for key, results in played.items()}
    return {key: tally for key, tally in tallies.items() if tally is not None}


def score_record(record: EventRecord, *, event: int = 0, version: int = 0) -> StandingsDocument:
    """The standings of `record`, scored from scratch by the engine.

    The same steps as the app's rescore: traveller lines to `score_session` (with the
    movement when the record names one, else the record's field rule), the game's session
    tallies as adjustments under total scoring, then `section_standings`. `computed_at` is
    the record's date, so two scorings of equal records give equal documents.
    """
    entries = check_record(record)
    rules = record.rules()
    lines = [
        TravellerLine(r.board, r.ns, r.ew, r.ns_score, r.codes, index)
        if r.board not in record.fouled
        else TravellerLine(r.board, r.ns, r.ew, None, ("A", "A"), index)
        for index, r in enumerate(record.results, start=1)
    ]
    tallies = _tallies(record, rules, entries)
    adjustments: dict[int | str, int] = {}
    if record.method == "total":
        adjustments = {key: tally.adjustment for key, tally in tallies.items() if tally.adjustment}
    movement = record.build_movement()
    try:
        score = score_session(
            lines,
            method=record.method,
            scale=record.scale,
            movement=movement,
            field_of=None
            if movement is not None
            else (one_winner if record.one_winner else two_winner),
            adjustments=adjustments or None,
        )
    except EngineError as exc:
        raise ExportError(f"the results cannot be scored: {exc}") from None
    section = section_standings(
        record.section,
        score,
        one_winner=record.one_winner,
        names={pair.key: pair.names for pair in record.pairs if not pair.absent},
        absent={pair.key for pair in record.pairs if pair.absent},
        session={key: tally.shown for key, tally in tallies.items()},
        session_columns=rules.session_columns,
    )
    return StandingsDocument(
        event=event,
        version=version,
        method=record.method,
        scale=record.scale,
        computed_at=record.date,
        sections=(section,),
    )
