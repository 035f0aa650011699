"""The PBN text of whist boards, below `Board`: games read into fields, boards written as tags.

`engine.pbn` (loads, dumps) and `Board.from_str` / `str(board)` build on this module; it knows
boards only as fields (`BoardFields`) and as anything with a board's attributes (`BoardLike`),
so `engine.boards` can use it without a circle. What each game's board holds (a kitty, jokers,
a column layout, fixed trumps) it reads from the game's shape (`engine.shapes`).


PBN (tistis.nl/pbn) holds a bridge deal: `Board`, `Dealer`, `Vulnerable` and `Deal`, each hand
written spades.hearts.diamonds.clubs with ranks AKQJT98765432, hands clockwise from the seat
named first. Whist needs more, so clubwhist writes these extension tags (PBN lets a program
add its own tags, and other programs skip tags they do not know):

| tag | value | example |
| --- | --- | --- |
| `WhistVariant` | `classic`, `bidwhist`, `candid` or `openwhist` | `[WhistVariant "bidwhist"]` |
| `WhistTrumps` | the board's fixed trumps: `C`, `D`, `H`, `S` or `NT` | `[WhistTrumps "H"]` |
| `WhistTurnedCard` | the card turned to set trumps | `[WhistTurnedCard "D7"]` |
| `WhistKitty` | the Bid Whist kitty's suited cards, as a PBN hand | `[WhistKitty "K5.Q..82"]` |
| `WhistJokers` | where each joker is: a seat or `K` (kitty) | `[WhistJokers "BJ:E LJ:K"]` |
| `WhistColumns` | Open Whist layout per seat (see below) | `[WhistColumns "N:D7/SA,H2/..."]` |

`WhistColumns` lists each seat's columns left to right, separated by `/`, each column from
the bottom card (dealt first) to the exposed top card, cards separated by commas.

Reading accepts what real files contain: `%` lines, `;` and `{...}` comments, several games
separated by blank lines, `#` for "same as the previous game", tags it does not know and their
section data (Auction, Play, tables). Without `WhistVariant` a board is read as the `variant`
argument (default classic); a classic board without `WhistTrumps` takes its turned card's
suit, or else the caller's `untagged` trumps (`engine.pbn.loads_for_game`: the event's own
rotation, or a refusal when the event turns a card) or the default rotation
(docs/games/classic.md: H D S C by board number). Anything
malformed raises `PBNError` naming the line and what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

from engine import EngineError
from engine.cards import Card, CardError, Rank, Seat, Suit
from engine.reading import quoted, whole_number
from engine.shapes import DEFAULT_ROTATION, BoardShape, Trumps, TurnedCard, shape_of

__all__ = [
    "HEADER",
    "BoardFields",
    "BoardLike",
    "PBNError",
    "UntaggedTrumps",
    "board_lines",
    "deal_count",
    "parse",
]

HEADER = "% PBN 2.1\n% Whist boards written by clubwhist\n"

B = TypeVar("B")


class PBNError(EngineError):
    """A PBN file that cannot be read; the message names the line and what is wrong."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_DEAL_TAG = re.compile(r'\[\s*Deal\s+"')
_JOKERS = {"BJ": Card.BIG_JOKER, "LJ": Card.LITTLE_JOKER}


class BoardFields(NamedTuple):
    """One board as a PBN game gives it, before `Board` checks it."""

    number: int
    variant: str
    dealer: Seat
    hands: dict[Seat, tuple[Card, ...]]
    trumps: Suit | None
    kitty: tuple[Card, ...]
    turned_card: Card | None


class DealLike(Protocol):
    def hand(self, seat: Seat) -> tuple[Card, ...]: ...

    def seat_of(self, card: Card) -> Seat | None: ...


class BoardLike(Protocol):
    """What writing a board reads: `engine.boards.Board` has all of it."""

    @property
    def number(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def dealer(self) -> Seat: ...
    @property
    def deal(self) -> DealLike: ...
    @property
    def trumps(self) -> Suit | None: ...
    @property
    def kitty(self) -> tuple[Card, ...]: ...
    @property
    def turned_card(self) -> Card | None: ...
    @property
    def columns(self) -> Mapping[Seat, tuple[tuple[Card, ...], ...]]: ...


@dataclass
class _Game:
    first_line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)


# ---- reading -------------------------------------------------------------------------------


def pbn_lines(text: str) -> list[str]:
    """The file's lines, ended by LF, CR LF or CR only: `str.splitlines` would also break a
    line at U+2028, NEL and the like, which may stand inside a quoted name."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _strip_comments(text: str) -> Iterator[tuple[int, str, bool]]:
    """Each line's visible text with comments removed, and whether it counts as blank; one
    line at a time, so a reader that stops early (`parse`'s `most`) reads no further."""
    in_brace = False
    brace_start = 0
    for number, raw in enumerate(pbn_lines(text), start=1):
        if not in_brace and raw.startswith("%"):
            yield number, "", False
            continue
        blank = not in_brace and raw.strip() == ""
        visible: list[str] = []
        in_string = False
        i = 0
        while i < len(raw):
            char = raw[i]
            if in_brace:
                if char == "}":
                    in_brace = False
            elif in_string:
                visible.append(char)
                if char == "\\" and i + 1 < len(raw):
                    visible.append(raw[i + 1])
                    i += 1
                elif char == '"':
                    in_string = False
            elif char == "{":
                in_brace, brace_start = True, number
            elif char == ";":
                break
            else:
                visible.append(char)
                if char == '"':
                    in_string = True
            i += 1
        yield number, "".join(visible), blank
    if in_brace:
        raise PBNError("a { comment is never closed", brace_start)


def _games(text: str) -> Iterator[_Game]:
    """The file's games, one at a time (see `_strip_comments`)."""
    current: _Game | None = None
    for number, visible, blank in _strip_comments(text):
        if blank:
            if current is not None:
                yield current
                current = None
            continue
        line = visible.strip()
        if not line:
            continue
        if not line.startswith("["):
            if current is None:
                raise PBNError(f"text outside any tag: {quoted(line)}", number)
            continue  # section data of a tag (Auction, Play, a table): not needed here
        pos = 0
        while pos < len(line):
            match = _TAG.match(line, pos)
            if match is None:
                raise PBNError(
                    f'malformed tag {quoted(line[pos : pos + 40])} (write tags as [Name "value"])',
                    number,
                )
            name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            if current is None:
                current = _Game(number)
            if name in current.tags:
                raise PBNError(f"the {name} tag appears twice in one game", number)
            current.tags[name] = (value, number)
            pos = match.end()
            while pos < len(line) and line[pos].isspace():
                pos += 1
    if current is not None:
        yield current


def _parse_hand(text: str, line: int, what: str) -> list[Card]:
    if text == "-":
        return []
    groups = text.split(".")
    if len(groups) != 4:
        raise PBNError(f"{what} {quoted(text)} has {len(groups)} suits, not 4 (S.H.D.C)", line)
    cards: list[Card] = []
    for suit, group in zip(_PBN_SUITS, groups, strict=True):
        group = group.upper().replace("10", "T")
        for char in group:
            try:
                rank = Rank.from_str(char)
            except CardError:
                raise PBNError(
                    f"{what} {quoted(text)}: {quoted(char)} is not a rank", line
                ) from None
            card = Card(suit, int(rank))
            if card in cards:
                raise PBNError(f"{what} {quoted(text)} holds {card} twice", line)
            cards.append(card)
    return cards


def _parse_deal(value: str, line: int) -> dict[Seat, list[Card]]:
    first, colon, rest = value.strip().partition(":")
    if not colon:
        raise PBNError(f"Deal {quoted(value)} must start with a seat and a colon, like N:", line)
    try:
        seat = Seat.from_str(first)
    except CardError:
        raise PBNError(
            f"Deal starts with {quoted(first)}, which is not N, E, S or W", line
        ) from None
    parts = rest.split()
    if len(parts) != 4:
        raise PBNError(f"Deal has {len(parts)} hands, not 4", line)
    hands: dict[Seat, list[Card]] = {}
    seen: dict[Card, Seat] = {}
    for i, part in enumerate(parts):
        current = seat.next(i)
        cards = _parse_hand(part, line, f"{current.full_name}'s hand")
        for card in cards:
            if card in seen:
                raise PBNError(
                    f"Deal gives {card} to both {seen[card].full_name} and {current.full_name}",
                    line,
                )
            seen[card] = current
        hands[current] = cards
    return hands


def _card(value: str, line: int, tag: str) -> Card:
    try:
        return Card.from_str(value)
    except CardError as exc:
        raise PBNError(f"{tag}: {exc}", line) from None


def _resolve(game: _Game, previous: dict[str, str]) -> dict[str, tuple[str, int]]:
    tags: dict[str, tuple[str, int]] = {}
    for name, (value, line) in game.tags.items():
        if value == "#":
            if name not in previous:
                if name in {"Board", "Dealer", "Deal"} or name.startswith("Whist"):
                    raise PBNError(
                        f"{name} is '#' (same as before) but no earlier game has it", line
                    )
                continue  # a tag we do not read (Site, Event...): real files do this
            value = previous[name]
        tags[name] = (value, line)
    return tags


UntaggedTrumps = Callable[[int], Suit | None]
"""untagged(board number): the trumps of a fixed-trumps board whose game gives neither
`WhistTrumps` nor a turned card (an EngineError refuses the board)."""


def _fields(
    tags: dict[str, tuple[str, int]],
    game: _Game,
    default_variant: str,
    untagged: UntaggedTrumps | None = None,
) -> tuple[BoardFields, int]:
    """The board fields of one game, and the line of its Deal (for the board's own errors)."""
    deal_value, deal_line = tags["Deal"]
    if "Board" not in tags:
        raise PBNError("this game has a Deal but no Board number", deal_line)
    board_value, board_line = tags["Board"]
    number = whole_number(board_value)
    if number is None or number < 1:
        raise PBNError(f"Board {quoted(board_value)} is not a board number", board_line)
    variant_value, variant_line = tags.get("WhistVariant", (default_variant, game.first_line))
    variant = variant_value.strip().lower()
    shape = _known_shape(variant)
    if shape is None:
        raise PBNError(f"unknown WhistVariant {quoted(variant_value)}", variant_line)
    if "Dealer" in tags:
        dealer_value, dealer_line = tags["Dealer"]
        try:
            dealer = Seat.from_str(dealer_value)
        except CardError:
            raise PBNError(
                f"Dealer {quoted(dealer_value)} is not N, E, S or W", dealer_line
            ) from None
    else:
        dealer = (Seat.N, Seat.E, Seat.S, Seat.W)[(number - 1) % 4]
    hands = _parse_deal(deal_value, deal_line)
    kitty: list[Card] = []
    if "WhistKitty" in tags:
        value, line = tags["WhistKitty"]
        kitty = _parse_hand(value, line, "WhistKitty")
    if "WhistJokers" in tags:
        value, line = tags["WhistJokers"]
        for item in value.split():
            name, _, where = item.partition(":")
            joker = _JOKERS.get(name.upper())
            if joker is None:
                raise PBNError(f"WhistJokers: {quoted(name)} is not BJ or LJ", line)
            if where.upper() == "K":
                kitty.append(joker)
                continue
            try:
                hands[Seat.from_str(where)].append(joker)
            except CardError:
                raise PBNError(f"WhistJokers: {quoted(where)} is not a seat or K", line) from None
    turned: Card | None = None
    if "WhistTurnedCard" in tags:
        value, line = tags["WhistTurnedCard"]
        turned = _card(value, line, "WhistTurnedCard")
    dealt: dict[Seat, tuple[Card, ...]] = {seat: tuple(cards) for seat, cards in hands.items()}
    if shape.keeps_dealt_order:
        if "WhistColumns" not in tags:
            raise PBNError(
                f"an {shape.title} board needs its WhistColumns layout (the order its cards "
                "were dealt in columns), which this file does not give: it was written for "
                f"another game, or by a program that does not know {shape.title}. Let "
                "clubwhist deal the boards, or import the boards file of another clubwhist "
                f"event of {shape.title}",
                deal_line,
            )
        dealt = _columns(tags["WhistColumns"], dealt, shape)
        dealt_as = shape.hands_for(len([hand for hand in dealt.values() if hand]))
        first = dealt_as is not None and dealt_as.turned is TurnedCard.FIRST_OF_LAYOUT
        if turned is None and "WhistTrumps" not in tags and first and dealt[dealer]:
            # docs/games/openwhist.md: the single card at the left of the dealer's layout
            # sets trumps.
            turned = dealt[dealer][0]
    trumps: Suit | None = None
    if "WhistTrumps" in tags:
        value, line = tags["WhistTrumps"]
        if value.strip().upper() in ("NT", "N", "NONE"):
            trumps = None
        else:
            try:
                trumps = Suit.from_str(value)
            except CardError:
                raise PBNError(
                    f"WhistTrumps {quoted(value)} is not C, D, H, S or NT", line
                ) from None
    elif shape.trumps is Trumps.BOARD and turned is not None:
        trumps = turned.suit
    elif shape.trumps is Trumps.BOARD and untagged is not None:
        try:
            trumps = untagged(number)
        except EngineError as exc:
            raise PBNError(str(exc), deal_line) from None
    elif shape.trumps is Trumps.BOARD:
        trumps = DEFAULT_ROTATION[(number - 1) % 4]
    fields = BoardFields(number, variant, dealer, dealt, trumps, tuple(kitty), turned)
    return fields, deal_line


def _known_shape(variant: str) -> BoardShape | None:
    try:
        return shape_of(variant)
    except EngineError:
        return None


def _columns(
    tag: tuple[str, int], hands: dict[Seat, tuple[Card, ...]], shape: BoardShape
) -> dict[Seat, tuple[Card, ...]]:
    value, line = tag
    ordered: dict[Seat, tuple[Card, ...]] = dict.fromkeys(Seat, ())
    for chunk in value.split():
        seat_text, colon, layout = chunk.partition(":")
        try:
            seat = Seat.from_str(seat_text)
        except CardError:
            raise PBNError(f"WhistColumns: {quoted(seat_text)} is not a seat", line) from None
        if not colon:
            raise PBNError(
                f"WhistColumns: write each seat as N:col/col/...; got {quoted(chunk)}", line
            )
        columns = layout.split("/")
        cards = [_card(text, line, "WhistColumns") for col in columns for text in col.split(",")]
        if set(cards) != set(hands[seat]) or len(cards) != len(hands[seat]):
            raise PBNError(
                f"WhistColumns: {seat.full_name}'s columns do not hold the cards of the Deal", line
            )
        try:
            expected = shape.column_sizes(len(cards))
        except EngineError as exc:
            raise PBNError(f"WhistColumns: {exc}", line) from None
        sizes = tuple(len(col.split(",")) for col in columns)
        if sizes != expected:
            raise PBNError(
                f"WhistColumns: {seat.full_name}'s columns hold {sizes}, not {expected} cards",
                line,
            )
        ordered[seat] = tuple(cards)
    for seat in Seat:
        if hands[seat] and not ordered[seat]:
            raise PBNError(f"WhistColumns has no layout for {seat.full_name}", line)
    return ordered


def deal_count(text: str) -> int:
    """How many boards `text` can hold at most, counted without reading it: its Deal tags (a
    game is a board only with one). One pass of a regular expression, so a caller can refuse
    a file of 40,000 boards at once; a Deal inside a comment counts too, and one a comment
    splits (`[De{...}al`) does not, which is why `parse` also stops at `most`."""
    return len(_DEAL_TAG.findall(text))


def parse(
    text: str,
    *,
    variant: str,
    make: Callable[[BoardFields], B],
    untagged: UntaggedTrumps | None = None,
    most: int | None = None,
) -> list[B]:
    """The boards in PBN `text`, each built by `make` from its fields (games without a Deal,
    headers and notes, are skipped); an error `make` raises is reported at the Deal's line.
    `untagged` gives the trumps of a fixed-trumps board the file gives none (default: the
    rotation H D S C by board number). With `most`, a file with more boards is refused as
    soon as the one past it is found: the rest of the file is never read."""
    try:
        shape_of(variant)
    except EngineError as exc:
        raise PBNError(str(exc)) from None
    boards: list[B] = []
    previous: dict[str, str] = {}
    for game in _games(text.removeprefix("\ufeff")):
        tags = _resolve(game, previous)
        previous.update({name: value for name, (value, _line) in tags.items()})
        if "Deal" not in tags:
            if "Board" in tags:
                raise PBNError("this game has a Board number but no Deal", tags["Board"][1])
            continue
        if most is not None and len(boards) >= most:
            raise PBNError(f"the file has more than {most} boards", tags["Deal"][1])
        fields, deal_line = _fields(tags, game, variant, untagged)
        try:
            boards.append(make(fields))
        except EngineError as exc:
            raise PBNError(str(exc), deal_line) from None
    return boards


# ---- writing -------------------------------------------------------------------------------


def _hand_text(cards: Iterable[Card]) -> str:
    groups = []
    for suit in _PBN_SUITS:
        ranks = sorted((c.rank for c in cards if c.suit is suit), reverse=True)
        groups.append("".join(Rank(r).char for r in ranks))
    return ".".join(groups)


def board_lines(board: BoardLike) -> list[str]:
    """The PBN tags of one board, one a line, with the whist tags its game's shape needs."""
    shape = shape_of(board.variant)
    seats = [board.dealer.next(i) for i in range(4)]
    hands = " ".join(
        _hand_text(board.deal.hand(seat)) if board.deal.hand(seat) else "-" for seat in seats
    )
    lines = [
        f'[Board "{board.number}"]',
        f'[Dealer "{board.dealer}"]',
        '[Vulnerable "None"]',
        f'[Deal "{board.dealer}:{hands}"]',
        f'[WhistVariant "{board.variant}"]',
    ]
    if shape.trumps is Trumps.BOARD:
        lines.append(f'[WhistTrumps "{board.trumps or "NT"}"]')
    if board.turned_card is not None:
        lines.append(f'[WhistTurnedCard "{board.turned_card}"]')
    if shape.kitty:
        lines.append(f'[WhistKitty "{_hand_text(board.kitty)}"]')
    if shape.jokers:
        places = [f"{name}:K" for name, joker in _JOKERS.items() if joker in board.kitty]
        for name, joker in _JOKERS.items():
            seat = board.deal.seat_of(joker)
            if seat is not None:
                places.append(f"{name}:{seat}")
        lines.append(f'[WhistJokers "{" ".join(sorted(places))}"]')
    if shape.keeps_dealt_order:
        layout = " ".join(
            f"{seat}:" + "/".join(",".join(map(str, col)) for col in columns)
            for seat, columns in board.columns.items()
        )
        lines.append(f'[WhistColumns "{layout}"]')
    return lines
