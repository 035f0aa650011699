"""The play of the cards, the same in every game: follow suit, trumps, who wins the trick,
with hooks for the exceptions (Open Whist: only the exposed column tops may be played; Bid
Whist: jokers above the trumps, and no suit at no-trump)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import EngineError
from engine.boards import Board
from engine.cards import BIG_JOKER_RANK, Card, CardError, Seat, Side, Suit

__all__ = [
    "IllegalBidError",
    "IllegalPlayError",
    "Play",
    "PlayContext",
    "Trick",
    "TrickTaking",
    "joker_rank_name",
    "suit_name",
]


class IllegalPlayError(EngineError):
    """A card played against the rules (not held, not exposed, or failing to follow suit)."""


class IllegalBidError(EngineError):
    """A call the auction does not allow at that point."""


@dataclass(frozen=True)
class PlayContext:
    """What the play of the cards needs to know once the contract is settled.

    `trumps` None is no-trumps. `downtown` reverses the rank order below the ace (Bid
    Whist: A, 2, 3 ... K). `jokers` says whether jokers take part: in a suit contract they
    are the two top trumps, at no-trumps they have no suit and cannot win
    (docs/games/bidwhist.md).
    """

    trumps: Suit | None
    leader: Seat
    seats: tuple[Seat, ...]
    downtown: bool = False
    jokers: bool = False


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won it."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat


class TrickTaking:
    """Trick-taking as every game plays it; `GameRules` inherits it and a game overrides the
    hooks (`available`, `effective_suit`, `strength`) where its cards behave differently."""

    def effective_suit(self, card: Card, context: PlayContext) -> Suit | None:
        """The suit a card counts as: a joker belongs to trumps, or to no suit at no-trumps."""
        if card.suit is None:
            return context.trumps
        return card.suit

    def strength(self, card: Card, context: PlayContext) -> int:
        """Higher wins within a suit. Downtown (docs/games/bidwhist.md): A, 2, 3 ... K;
        jokers on top."""
        if card.suit is None:
            return card.rank if context.trumps is not None else 0
        if context.downtown and card.rank != 14:
            return 15 - card.rank
        return card.rank

    def rank_order(self, context: PlayContext) -> tuple[int, ...]:
        """Ranks of a plain suit from highest to lowest for this contract."""
        ranks = range(2, 15)
        return tuple(sorted(ranks, key=lambda r: -self.strength(Card(Suit.SPADES, r), context)))

    def led_suit(self, trick: Sequence[tuple[Seat, Card]], context: PlayContext) -> Suit | None:
        """The suit to follow: a joker led at no-trumps lets the next card set it
        (docs/games/bidwhist.md)."""
        for _seat, card in trick:
            suit = self.effective_suit(card, context)
            if suit is not None:
                return suit
        return None

    def trick_winner(self, trick: Sequence[tuple[Seat, Card]], context: PlayContext) -> Seat:
        if not trick:
            raise IllegalPlayError("an empty trick has no winner")
        led = self.led_suit(trick, context)
        best: tuple[int, int] | None = None
        winner = trick[0][0]
        for seat, card in trick:
            suit = self.effective_suit(card, context)
            if suit is None:
                continue  # a joker at no-trumps never wins
            if context.trumps is not None and suit is context.trumps:
                key = (2, self.strength(card, context))
            elif suit is led:
                key = (1, self.strength(card, context))
            else:
                continue
            if best is None or key > best:
                best, winner = key, seat
        return winner

    def available(self, play: Play, seat: Seat) -> tuple[Card, ...]:
        """The cards `seat` may choose from before the follow-suit rule: the whole hand."""
        return tuple(play.hands[seat])

    def legal_plays(self, play: Play) -> tuple[Card, ...]:
        if play.is_over:
            return ()
        seat = play.to_play
        cards = self.available(play, seat)
        led = self.led_suit(play.current, play.context)
        if led is None:
            return cards
        following = tuple(c for c in cards if self.effective_suit(c, play.context) is led)
        return following or cards

    def why_illegal(self, play: Play, seat: Seat, card: Card) -> str | None:
        if card not in play.hands[seat]:
            return "that card is not in the hand"
        if card in self.legal_plays(play):
            return None
        if card not in self.available(play, seat):
            return "only the top card of a column may be played"
        led = self.led_suit(play.current, play.context)
        name = suit_name(led)
        if led is not None and led is play.context.trumps and play.context.jokers:
            name += " (trumps, jokers included)"
        return f"must follow {name}"


class Play:
    """The play of one board in progress: the hands left, the trick on the table, the tricks won.

    Build one with `GameRules.new_play`; feed it cards with `play`. It refuses any card the
    rules forbid, so a finished `Play` is a legal play of the whole board.
    """

    def __init__(
        self,
        rules: TrickTaking,
        board: Board,
        context: PlayContext,
        hands: Mapping[Seat, Sequence[Card]],
    ) -> None:
        self.rules = rules
        self.board = board
        self.context = context
        self.hands: dict[Seat, list[Card]] = {seat: list(hands.get(seat, ())) for seat in Seat}
        self.current: list[tuple[Seat, Card]] = []
        self.tricks: list[Trick] = []
        self.to_play: Seat = context.leader
        self.won: dict[Seat, int] = dict.fromkeys(context.seats, 0)
        self.history: list[tuple[Seat, Card]] = []

    @property
    def is_over(self) -> bool:
        return all(not self.hands[seat] for seat in self.context.seats) and not self.current

    @property
    def leader(self) -> Seat:
        return self.current[0][0] if self.current else self.to_play

    def legal_plays(self) -> tuple[Card, ...]:
        return self.rules.legal_plays(self)

    def side_tricks(self) -> dict[Side, int]:
        result = {Side.NS: 0, Side.EW: 0}
        for seat, count in self.won.items():
            result[seat.side] += count
        return result

    def play(self, card: Card | str) -> Trick | None:
        """Play `card` for the seat to play; returns the trick if this card completed it."""
        if isinstance(card, str):
            try:
                card = Card.from_str(card)
            except CardError as exc:
                raise IllegalPlayError(str(exc)) from None
        seat = self.to_play
        if self.is_over:
            raise IllegalPlayError(f"all the cards have been played; {card} is one too many")
        reason = self.rules.why_illegal(self, seat, card)
        if reason is not None:
            raise IllegalPlayError(f"{seat.full_name} cannot play {card}: {reason}")
        self.hands[seat].remove(card)
        self.current.append((seat, card))
        self.history.append((seat, card))
        seats = self.context.seats
        if len(self.current) < len(seats):
            self.to_play = seats[(seats.index(seat) + 1) % len(seats)]
            return None
        winner = self.rules.trick_winner(self.current, self.context)
        trick = Trick(self.current[0][0], tuple(self.current), winner)
        self.tricks.append(trick)
        self.won[winner] += 1
        self.current = []
        self.to_play = winner
        return trick


def joker_rank_name(card: Card) -> str:
    return "Big Joker" if card.rank == BIG_JOKER_RANK else "Little Joker"


def suit_name(suit: Suit | None) -> str:
    if suit is None:
        return "no-trumps"
    return {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[suit.value]
