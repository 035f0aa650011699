"""Deals and boards: the pre-dealt hands that travel from table to table.

A `Board` carries everything a table needs to play it and everything a director needs to
check a result: the number (which fixes the dealer), the variant, the four hands, the fixed
trump suit for whist drives, and the variant's extra parts (the Bid Whist kitty, the card
turned to set trumps, the Open Whist column layout). What a board of each game holds is the
game's `BoardShape` (`engine.shapes`), which the board reads by the game's name.

>>> dealer_for(6), trump_rotation(5), trump_rotation(5, no_trump_every=5)
(Seat.E, Suit.HEARTS, None)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from engine import EngineError
from engine.cards import Card, CardError, Seat, Suit, sort_cards
from engine.pbn_text import BoardFields, board_lines, parse
from engine.reading import quoted
from engine.shapes import DEFAULT_ROTATION, BoardShape, Trumps, TurnedCard, shape_of

__all__ = [
    "DEFAULT_ROTATION",
    "Board",
    "BoardError",
    "Deal",
    "dealer_for",
    "trump_rotation",
]


class BoardError(EngineError):
    """A deal or board that cannot exist: a card twice, a wrong hand size, a bad number."""


def dealer_for(number: int) -> Seat:
    """Board 1 is dealt by North, 2 by East, 3 by South, 4 by West, then again from North."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise BoardError(f"board numbers start at 1, not {quoted(number)}")
    return (Seat.N, Seat.E, Seat.S, Seat.W)[(number - 1) % 4]


def trump_rotation(
    number: int,
    order: Sequence[Suit | None] = DEFAULT_ROTATION,
    no_trump_every: int | None = None,
) -> Suit | None:
    """The fixed trump of board `number` at a whist drive (None = no-trumps).

    With `no_trump_every=k`, boards k, 2k, 3k ... are played without trumps and the other
    boards go through `order` without skipping a suit (docs/games/classic.md: "every fifth
    hand is played without trumps"), so k=5 with the default order gives H D S C NT H D S C NT ...
    """
    dealer_for(number)  # validates the number
    if not order:
        raise BoardError("a trump rotation needs at least one suit")
    if no_trump_every is not None and no_trump_every != 0:
        if no_trump_every < 2:
            raise BoardError("no-trumps can come at most every second board")
        if number % no_trump_every == 0:
            return None
        index = number - 1 - (number - 1) // no_trump_every
    else:
        index = number - 1
    return order[index % len(order)]


def _read_cards(text: str) -> tuple[Card, ...]:
    text = text.strip()
    if text in ("", "-"):
        return ()
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and len(text) > 3:
        # The compact form without separators: every card is exactly two characters.
        parts = [text[i : i + 2] for i in range(0, len(text), 2)]
    return tuple(Card.from_str(part) for part in parts)


@dataclass(frozen=True)
class Deal:
    """The hands, seat by seat, each in the order its cards were dealt.

    A seat with no cards (West in three-player Open Whist) has an empty hand. The text form
    lists every seat: 'N:SA,HK,... E:... S:... W:-'.
    """

    hands: Mapping[Seat, tuple[Card, ...]]

    def __post_init__(self) -> None:
        hands: dict[Seat, tuple[Card, ...]] = {}
        for seat in Seat:
            cards = self.hands.get(seat, ())
            if not all(isinstance(card, Card) for card in cards):
                raise BoardError(f"{seat.full_name}'s hand holds something that is not a card")
            hands[seat] = tuple(cards)
        unknown = set(self.hands) - set(Seat)
        if unknown:
            raise BoardError(f"{sorted(map(str, unknown))} are not seats")
        seen: dict[Card, Seat] = {}
        for seat, cards in hands.items():
            for card in cards:
                if card in seen:
                    where = (
                        f"twice in {seat.full_name}'s hand"
                        if seen[card] is seat
                        else f"in both {seen[card].full_name}'s and {seat.full_name}'s hands"
                    )
                    raise BoardError(f"{card} is dealt {where}")
                seen[card] = seat
        object.__setattr__(self, "hands", MappingProxyType(hands))

    def __hash__(self) -> int:
        return hash(tuple(self.hands[seat] for seat in Seat))

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return self.hands[seat]

    def cards(self) -> Iterator[Card]:
        for seat in Seat:
            yield from self.hands[seat]

    def seat_of(self, card: Card) -> Seat | None:
        for seat in Seat:
            if card in self.hands[seat]:
                return seat
        return None

    @classmethod
    def from_str(cls, text: str) -> Deal:
        hands: dict[Seat, tuple[Card, ...]] = {}
        for chunk in text.split():
            if ":" not in chunk:
                raise BoardError(f"{quoted(chunk)} should be a seat and its cards, like N:SA,HK")
            seat_text, _, cards_text = chunk.partition(":")
            try:
                seat = Seat.from_str(seat_text)
                cards = _read_cards(cards_text)
            except CardError as exc:
                raise BoardError(str(exc)) from None
            if seat in hands:
                raise BoardError(f"{seat.full_name}'s hand is given twice")
            hands[seat] = cards
        return cls(hands)

    def __str__(self) -> str:
        return " ".join(f"{seat}:{','.join(map(str, self.hands[seat])) or '-'}" for seat in Seat)

    def __repr__(self) -> str:
        return f"Deal.from_str({str(self)!r})"


@dataclass(frozen=True)
class Board:
    """One pre-dealt board.

    `trumps` is the fixed trump suit (None = no-trumps) for the games whose board fixes it
    (classic whist, Open Whist); the auction games (Bid Whist, Candid Whist) choose trumps at
    the table and keep None here. `turned_card` is the card that set trumps when trumps were
    turned rather than fixed by rotation. Hands are kept sorted, so equal boards compare equal,
    except in the games that lay the hands out in columns in dealt order (`columns`).
    """

    number: int
    variant: str
    dealer: Seat
    deal: Deal
    trumps: Suit | None = None
    kitty: tuple[Card, ...] = ()
    turned_card: Card | None = None
    hand_size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dealer_for(self.number)
        try:
            shape = shape_of(self.variant)
        except EngineError as exc:
            raise BoardError(str(exc)) from None
        if not isinstance(self.dealer, Seat):
            raise BoardError(f"the dealer must be a seat, not {quoted(self.dealer)}")
        if self.trumps is not None and not isinstance(self.trumps, Suit):
            raise BoardError(f"trumps must be a suit or None, not {quoted(self.trumps)}")
        kitty = tuple(self.kitty)
        if not shape.keeps_dealt_order:
            hands = {seat: sort_cards(self.deal.hand(seat)) for seat in Seat}
            object.__setattr__(self, "deal", Deal(hands))
            kitty = sort_cards(kitty)
        object.__setattr__(self, "kitty", kitty)
        object.__setattr__(self, "hand_size", self._check_shape(shape))
        self._check_extras(shape)

    @property
    def shape(self) -> BoardShape:
        """What a board of this game holds (`engine.shapes`)."""
        return shape_of(self.variant)

    def _check_shape(self, shape: BoardShape) -> int:
        sizes = {seat: len(self.deal.hand(seat)) for seat in Seat}
        playing = [seat for seat in Seat if sizes[seat]]
        hands = shape.hands_for(len(playing))
        if hands is not None and len(playing) != 4 and tuple(playing) != hands.seats:
            words = {3: "three", 2: "two"}.get(len(playing), str(len(playing)))
            seats = [seat.full_name for seat in hands.seats]
            raise BoardError(
                f"{words}-player {shape.title} is dealt to {', '.join(seats[:-1])} and {seats[-1]}"
            )
        if hands is None:
            hands = shape.hands_for(4) or shape.deals[0]
            if len(playing) != len(hands.seats):
                missing = ", ".join(s.full_name for s in hands.seats if not sizes[s])
                raise BoardError(f"board {self.number}: {missing} has no cards")
        expected_size = hands.size
        for seat in playing:
            if sizes[seat] != expected_size:
                raise BoardError(
                    f"board {self.number}: {seat.full_name} holds {sizes[seat]} cards, "
                    f"not {expected_size}"
                )
        if self.dealer not in playing:
            raise BoardError(
                f"board {self.number}: the dealer {self.dealer.full_name} has no cards"
            )
        if len(self.kitty) != shape.kitty:
            raise BoardError(
                f"board {self.number}: the kitty holds {len(self.kitty)} cards, not {shape.kitty}"
            )
        loose: tuple[Card, ...] = ()
        if self.turned_card is not None and hands.turned is TurnedCard.LOOSE:
            loose = (self.turned_card,)  # left over after the deal, it belongs to no player
        cards = [*self.deal.cards(), *self.kitty, *loose]
        deck = shape.deck()
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise BoardError(f"board {self.number}: {card} is dealt twice")
            seen.add(card)
        missing_cards = [str(card) for card in deck if card not in seen]
        in_deck = frozenset(deck)  # a set: every board read checks 52 cards against the deck
        extra = [str(card) for card in cards if card not in in_deck]
        if extra:
            raise BoardError(f"board {self.number}: {', '.join(extra)} is not in the deck")
        if missing_cards:
            raise BoardError(f"board {self.number}: {', '.join(missing_cards)} not dealt")
        return expected_size

    def _check_extras(self, shape: BoardShape) -> None:
        n = self.number
        if shape.trumps is Trumps.AUCTION:
            if self.trumps is not None:
                raise BoardError(f"board {n}: {self.variant} chooses trumps in the auction")
            if self.turned_card is not None:
                raise BoardError(f"board {n}: {self.variant} does not turn a trump card")
            return
        hands = shape.hands_for(len(self.seats))
        turned = TurnedCard.NONE if hands is None else hands.turned
        card = self.turned_card
        if card is None:
            if turned is TurnedCard.LOOSE:
                raise BoardError(
                    f"board {n}: {self._players_title(shape)} needs its turned trump card"
                )
            return
        if card.suit is None:
            raise BoardError(f"board {n}: a joker cannot be the turned trump card")
        if turned is TurnedCard.DEALERS and card not in self.deal.hand(self.dealer):
            raise BoardError(f"board {n}: the turned card {card} must be the dealer's card")
        if turned is not TurnedCard.LOOSE and self.trumps is not card.suit:
            raise BoardError(
                f"board {n}: the turned card {card} makes {card.suit} trumps, "
                f"not {self.trumps or 'no-trumps'}"
            )
        if turned is TurnedCard.FIRST_OF_LAYOUT:
            first = self.deal.hand(self.dealer)[0]
            if card != first:
                raise BoardError(
                    f"board {n}: the trump card must be the first card of the dealer's "
                    f"layout ({first}), not {card}"
                )

    def _players_title(self, shape: BoardShape) -> str:
        words = {3: "three", 2: "two"}.get(len(self.seats))
        return f"{words}-player {shape.title}" if words else shape.title

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats that hold cards, clockwise from North."""
        return tuple(seat for seat in Seat if self.deal.hand(seat))

    @property
    def columns(self) -> Mapping[Seat, tuple[tuple[Card, ...], ...]]:
        """The column layout (Open Whist): each seat's columns left to right, each bottom card
        first; empty for the games whose hands are held as usual.

        docs/games/openwhist.md: each player turns the cards up one at a time, without
        rearranging them, into columns of 1, 2, 3, 4, 3 (17 cards: 1, 2, 3, 4, 5, 2). We fill
        the columns left to right in dealt order; the last card placed in a column is its
        exposed top card.
        """
        shape = self.shape
        if not shape.keeps_dealt_order:
            return MappingProxyType({})
        layout: dict[Seat, tuple[tuple[Card, ...], ...]] = {}
        for seat in self.seats:
            hand = self.deal.hand(seat)
            cols: list[tuple[Card, ...]] = []
            start = 0
            for size in shape.column_sizes(len(hand)):
                cols.append(hand[start : start + size])
                start += size
            layout[seat] = tuple(cols)
        return MappingProxyType(layout)

    @classmethod
    def from_fields(cls, fields: BoardFields) -> Board:
        """The board a PBN game describes (`engine.pbn_text`)."""
        return cls(
            fields.number,
            fields.variant,
            fields.dealer,
            Deal(fields.hands),
            fields.trumps,
            fields.kitty,
            fields.turned_card,
        )

    @classmethod
    def from_str(cls, text: str) -> Board:
        """Read one board from its PBN text (see `engine.pbn`)."""
        boards = parse(text, variant="classic", make=cls.from_fields)
        if len(boards) != 1:
            raise BoardError(f"expected one board, the text holds {len(boards)}")
        return boards[0]

    def __str__(self) -> str:
        return "\n".join(board_lines(self))
