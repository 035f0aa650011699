"""The typed documents the screens and the API send: the tablet state, the room, the movement
advice and the public results, each a tree of frozen dataclasses.

The JSON of each is `to_dict()`, key for key what the pages and clients have always read; the
API's output serializers are generated from these classes (`tournaments.events.api.documents`), so a
field is named once and the OpenAPI schema, `static/js/table.js` (checked by a test) and the
selectors that build the documents cannot drift apart. The standings themselves are the
engine's `StandingsDocument`, already typed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.movements import advise
from engine.publishing import FrequencyRow
from engine.scoring.document import Points, StandingRow, StandingsDocument
from tournaments.kernel.documents import Document, EntryFieldView

# ---- the tablet state (`events.selectors.tablets.tablet_state`, read by static/js/table.js)


@dataclass(frozen=True)
class TabletEvent(Document):
    id: int
    name: str
    game: str  # the game's title, as players read it
    status: str
    advance: str  # "table" (each table moves on by itself) or "director"


@dataclass(frozen=True)
class TabletPair(Document):
    number: int
    label: str
    names: str
    absent: bool  # the phantom, or a pair away this round (not come yet, or left)
    left: bool = False  # away this round after playing earlier: "your opponents have left"


@dataclass(frozen=True)
class TabletResult(Document):
    id: int
    key: str  # the idempotency key the tablet made for it
    entry: dict[str, Any] | None  # the game's entry; None for an artificial score
    describe: str
    short: str
    ns_score: int | None
    ew_score: int | None
    unusual: bool  # only that it looks unusual: the reason names other tables' results


@dataclass(frozen=True)
class TabletBoard(Document):
    number: int
    dealer: str
    trumps: str
    state: str  # "to enter", "waiting", "confirmed" or "disputed"
    result: TabletResult | None


@dataclass(frozen=True)
class SeatMove(Document):
    table: int
    seat: str
    #: Next round the pair sits out at a table nobody plays at (not set up): `then_table`
    #: and `then_seat` say where it plays the round after (None when that was its last).
    idle: bool = False
    then_table: int | None = None
    then_seat: str | None = None


@dataclass(frozen=True)
class BoardsLater(Document):
    """Boards not played next round: where and when they are played again."""

    round: int
    table: int


@dataclass(frozen=True)
class NextPlaces(Document):
    ns: SeatMove | None
    ew: SeatMove | None
    boards_to: int | None
    boards_later: BoardsLater | None
    last_round: bool


@dataclass(frozen=True)
class TabletRound(Document):
    round: int
    sit_out: bool
    ns: TabletPair | None
    ew: TabletPair | None
    boards: tuple[TabletBoard, ...]
    done: bool
    next: NextPlaces


@dataclass(frozen=True)
class RoundClock(Document):
    """The director's round clock: the page counts down to `ends_at` (ISO 8601)."""

    ends_at: str
    minutes: int


@dataclass(frozen=True)
class TabletCall(Document):
    """The table's open call: why, and whether the table may take it back."""

    reason: str
    cancellable: bool


@dataclass(frozen=True)
class TabletState(Document):
    """Everything a table's tablet shows (what the tablet cache keeps, as `to_dict()`)."""

    event: TabletEvent
    table: int
    rounds: int
    finished: bool
    accepting: bool
    waiting_for_tables: tuple[int, ...]
    waiting_for_director: bool
    current: TabletRound
    previous: TabletRound | None
    clock: RoundClock | None
    calls_open: bool
    call: TabletCall | None
    fields: tuple[EntryFieldView, ...]


@dataclass(frozen=True)
class TabletAnswer(TabletState):
    """The state as the API sends it: with the server's time of the answer (ISO 8601), so a
    tablet whose own clock is wrong still counts the round clock down right."""

    server_time: str


# ---- the room (`events.selectors.room.room_document`)


@dataclass(frozen=True)
class RoomTable(Document):
    table: int
    round: int | None  # None once the table has played every round
    ns: int
    ew: int
    boards: tuple[int, int]  # the first and last board of the round
    entered: int
    confirmed: int
    disputed: int
    missing: int
    sit_out: bool
    state: str  # "attention", "done", "waiting-next", "waiting" or "playing"
    director_called: bool


@dataclass(frozen=True)
class Room(Document):
    results_in: int
    results_expected: int
    tables: tuple[RoomTable, ...]


# ---- the movement advice -----------------------------------------------------------------


@dataclass(frozen=True)
class MovementAdvice(Document):
    """One movement the director could run (the engine's `Suggestion`, as sent)."""

    kind: str
    params: dict[str, Any]  # what builds it again: the movement kind's own parameters
    tables: int
    rounds: int
    boards_per_round: int
    boards_per_pair: int
    total_boards: int
    winners: int
    sit_out: bool
    description: str
    #: The tables at which boards are played: one fewer than `tables` where the sit-out
    #: keeps one table all evening.
    tables_in_play: int


@dataclass(frozen=True)
class Advice(Document):
    suggestions: tuple[MovementAdvice, ...]


def advice(pairs: int, boards: int) -> Advice:
    """The movements that fit `pairs` pairs and about `boards` boards, best first."""
    sent = [f.name for f in fields(MovementAdvice)]
    return Advice(
        tuple(
            MovementAdvice(**{name: getattr(s, name) for name in sent} | {"params": dict(s.params)})
            for s in advise(pairs, boards)
        )
    )


# ---- the standings ------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveStandings(StandingsDocument):
    """The standings document as the director's API sends it, with whether newer results are
    still being scored (`behind`: the document then lags by a moment)."""

    behind: bool

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "behind": self.behind}


# ---- the public documents (`events.selectors.public`)


@dataclass(frozen=True)
class ClubEvent(Document):
    id: int
    name: str
    date: str  # ISO 8601
    game: str
    status: str
    live: bool  # followed live: not published yet


@dataclass(frozen=True)
class ClubEvents(Document):
    club: str
    events: tuple[ClubEvent, ...]


@dataclass(frozen=True)
class PublicStandings(Document):
    """The standings document with only the boards this reader may see, and the version."""

    version: int
    document: StandingsDocument | None  # None until the first standings are stored


@dataclass(frozen=True)
class PublicBoard(Document):
    """A board: its deal as PBN, par when known, and the frequency of every result."""

    board: int
    pbn: str
    par: str | None
    analysis: dict[str, Any] | None  # the double-dummy analysis; its shape is the game's
    frequencies: tuple[FrequencyRow, ...]


@dataclass(frozen=True)
class PairCardLine(Document):
    """One board of a pair's score card, from the pair's side."""

    board: int
    round: int | None
    table: int | None
    seat: str
    opponents: int
    result: str
    score: int | None
    points: Points | None
    top: Points | None
    versus_par: int | None
    running_percentage: Points | None


@dataclass(frozen=True)
class PublicPair(Document):
    pair: StandingRow
    boards: tuple[PairCardLine, ...]
