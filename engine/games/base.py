"""The rules of a game: `GameRules`, the base class each game's module subclasses once.

A subclass declares its board shape (`shape`, `engine.shapes`: deck, hands, kitty, turned
card, seats), its other names (`aliases`), its options, how a board is dealt, how trumps and
the rank order are settled for the play, and how a table result is read, checked and scored.
The options (`engine.games.options`), the entries (`engine.games.entry`) and the play of the
cards (`engine.games.play`) live in modules of their own.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from engine.boards import Board
from engine.cards import Card, Seat, Side
from engine.games.entry import (
    Entry,
    EntryError,
    EntryField,
    Score,
    SessionTally,
    counted,
)
from engine.games.options import OptionsError, OptionSpec
from engine.games.play import IllegalPlayError, Play, PlayContext, TrickTaking, suit_name
from engine.reading import quoted
from engine.shapes import BoardShape, Hands, Trumps

__all__ = ["GameRules"]


class GameRules(TrickTaking):
    """Base class of the games' rules; one subclass per module in `engine.games`.

    A subclass declares its `shape`; its `name`, `title` and `has_auction` are read from it.
    """

    #: What a board of this game holds (deck, hands, kitty, turned card, seats), declared once.
    shape: ClassVar[BoardShape]
    #: Other names the game is found by (`engine.games.find_variant`), as typed by people.
    aliases: ClassVar[tuple[str, ...]] = ()
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: Trumps (or the rank order) are chosen in an auction rather than fixed by the board.
    has_auction: ClassVar[bool] = False
    #: Par is read off the full double-dummy table (every declarer and strain); the other games
    #: ask the solver only what par needs, and leave the table to the hand records.
    par_uses_table: ClassVar[bool] = False
    #: The "are you sure?" check (`unlikely`) compares a result with double dummy in its
    #: contract, read off the stored table: the analysis keeps the table for these games even
    #: when par does not need it (auction games whose contract varies from table to table).
    check_uses_table: ClassVar[bool] = False
    #: What the players count and enter, for messages about a result: "trick", or "book"
    #: where the game counts books (Bid Whist: the declaring side's tricks plus the kitty).
    count_word: ClassVar[str] = "trick"
    #: The per-pair session figures `session_tally` fills in, as (key, heading), in order.
    session_columns: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        shape = cls.__dict__.get("shape")
        if isinstance(shape, BoardShape):
            cls.name = shape.game
            cls.title = shape.title
            cls.has_auction = shape.trumps is Trumps.AUCTION

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        given = dict(options or {})
        specs = {spec.key: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise OptionsError(
                f"{self.title} has no option {quoted(unknown[0])} (its options: {known})"
            )
        full = {key: spec.coerce(given.get(key, spec.default)) for key, spec in specs.items()}
        self.options: Mapping[str, object] = MappingProxyType(full)
        self._check_options()

    def __repr__(self) -> str:
        changed = {
            spec.key: self.options[spec.key]
            for spec in self.option_specs
            if self.options[spec.key] != spec.default
        }
        return f"{type(self).__name__}({changed!r})" if changed else f"{type(self).__name__}()"

    def _check_options(self) -> None:
        """Cross-checks between options; raise OptionsError."""

    def option(self, key: str) -> Any:
        return self.options[key]

    @property
    def hands(self) -> Hands:
        """How a board is dealt under these options: four hands unless an option says
        otherwise (three-player Open Whist)."""
        hands = self.shape.hands_for(4)
        assert hands is not None, f"{self.title} deals four hands only with an option"
        return hands

    @property
    def hand_size(self) -> int:
        return self.hands.size

    def not_for_pairs(self) -> str | None:
        """Why these settings cannot make a duplicate pairs event (played by two sides of two,
        scored NS against EW), or None when they can."""
        return None

    # ---- dealing -------------------------------------------------------------------------

    def deal_board(self, number: int, rng: random.Random) -> Board:
        """A freshly shuffled board `number` of this game, with these options."""
        raise NotImplementedError

    @staticmethod
    def deal_round(
        deck: Sequence[Card], dealer: Seat, seats: Sequence[Seat], per_hand: int, rng: random.Random
    ) -> tuple[dict[Seat, tuple[Card, ...]], tuple[Card, ...]]:
        """Shuffle and deal one card at a time clockwise from the dealer's left
        (docs/games/classic.md, docs/games/openwhist.md).

        Returns the hands in dealt order and the cards left over (kitty, turned card).
        """
        cards = list(deck)
        rng.shuffle(cards)
        order = [seats[(seats.index(dealer) + 1 + i) % len(seats)] for i in range(len(seats))]
        hands: dict[Seat, list[Card]] = {seat: [] for seat in seats}
        dealt = per_hand * len(seats)
        for i, card in enumerate(cards[:dealt]):
            hands[order[i % len(order)]].append(card)
        return {seat: tuple(cards_) for seat, cards_ in hands.items()}, tuple(cards[dealt:])

    # ---- play ----------------------------------------------------------------------------

    def play_context(self, board: Board, contract: object = None) -> PlayContext:
        raise NotImplementedError

    def starting_hands(self, board: Board, contract: object = None) -> dict[Seat, tuple[Card, ...]]:
        return {seat: board.deal.hand(seat) for seat in board.seats}

    def new_play(self, board: Board, contract: object = None) -> Play:
        self.check_board(board)
        context = self.play_context(board, contract)
        return Play(self, board, context, self.starting_hands(board, contract))

    def replay(self, board: Board, plays: Iterable[Card | str], contract: object = None) -> Play:
        """Replay a play record; IllegalPlayError names the first card that breaks the rules."""
        play = self.new_play(board, contract)
        for index, card in enumerate(plays, start=1):
            trick_no = len(play.tricks) + 1
            try:
                play.play(card)
            except IllegalPlayError as exc:
                raise IllegalPlayError(f"card {index} (trick {trick_no}): {exc}") from None
        return play

    # ---- results -------------------------------------------------------------------------

    def dealt_for(self, board: Board) -> bool:
        """Whether the board was dealt for this game: the board's own game, not a choice
        made by a game's name (readers of files ask this to say which game a board is)."""
        return self.name == board.variant

    def check_board(self, board: Board) -> None:
        """EntryError if the board was not dealt for this game (or these options)."""
        if not self.dealt_for(board):
            raise EntryError(f"board {board.number} is a {board.variant} board, not {self.title}")
        if board.hand_size != self.hand_size:
            raise EntryError(
                f"board {board.number} has {board.hand_size} cards a hand; these {self.title} "
                f"settings play {self.hand_size}"
            )

    def parse_entry(self, board: Board, data: Mapping[str, object]) -> Entry:
        raise NotImplementedError

    def ns_score(self, board: Board, entry: Entry) -> Score:
        raise NotImplementedError

    def side_points(self, board: Board, entry: Entry) -> dict[Side, Score]:
        """Each side's own points on the board; by default EW's are the negation of NS's."""
        score = self.ns_score(board, entry)
        return {Side.NS: score, Side.EW: -score}

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        raise NotImplementedError

    def entry_fields(self) -> tuple[EntryField, ...]:
        """What a person enters for one board under these options (see `EntryField`)."""
        raise NotImplementedError

    def describe(self, entry: Entry) -> str:
        """The result in words, for screens: '8♥ by N, 10 tricks'."""
        raise NotImplementedError

    def describe_short(self, entry: Entry) -> str:
        """The result in a few characters, for a traveller cell or a frequency table."""
        raise NotImplementedError

    def trumps_text(self, board: Board) -> str:
        """What a player is told about trumps before the play (fixed games: the board's)."""
        if self.has_auction:
            return "chosen in the auction"
        if board.trumps is None:
            return "none (no-trumps)"
        return suit_name(board.trumps)

    def seat_note(self, board: Board, seat: Seat) -> str:
        """What a seat is told about its hand besides the cards, for a curtain card or a hand
        record (Candid Whist: the HCP every player announces); empty in most games."""
        return ""

    def ns_tricks(self, board: Board, entry: Entry) -> int | None:
        """The tricks NS took in this result (None where it does not say: all passed, or a
        game scored per player)."""
        return None

    def dd_ns_tricks(self, board: Board, entry: Entry, analysis: Mapping[str, Any]) -> int | None:
        """The tricks double dummy gives NS in this result's contract, from a stored analysis
        (`BoardAnalysis.to_dict()`); None when the analysis does not cover that contract."""
        return None

    def unlikely(
        self,
        board: Board,
        entry: Entry,
        *,
        analysis: Mapping[str, Any] | None = None,
        others: Sequence[Entry] = (),
    ) -> str | None:
        """Why a result looks like a slip of the finger, or None: more than two tricks away
        from double dummy in its contract, or, once three other results are on the board,
        further outside all of them than they are spread (at least two tricks)."""
        ns = self.ns_tricks(board, entry)
        if ns is None:
            return None
        ns = self.ns_count(entry, ns)
        word = self.count_word
        if analysis:
            dd = self.dd_ns_tricks(board, entry, analysis)
            if dd is not None:
                dd = self.ns_count(entry, dd)
            if dd is not None and abs(ns - dd) > 2:
                return (
                    f"NS took {counted(ns, word)}, but double dummy gives NS {dd} in this contract"
                )
        known = []
        for other in others:
            tricks = self.ns_tricks(board, other)
            if tricks is not None:
                known.append(self.ns_count(other, tricks))
        if len(known) >= 3:
            low, high = min(known), max(known)
            margin = max(2, high - low)
            if ns > high + margin or ns < low - margin:
                return f"NS took {counted(ns, word)}; at the other tables NS took " + (
                    f"{low}" if low == high else f"{low} to {high}"
                )
        return None

    def ns_count(self, entry: Entry, ns_tricks: int) -> int:
        """NS's tricks in play as the players count them (`count_word`): the same number,
        except in games that add something to the tricks (Bid Whist's kitty book)."""
        return ns_tricks

    def session_tally(self, played: Sequence[tuple[Entry, Side]]) -> SessionTally | None:
        """A pair's session figures from its results in play order (entry, its side on that
        board); None for games whose sessions are just the sum of their boards."""
        return None

    def sweep_side(self, entry: Entry) -> Side | None:
        """The side that bid every trick and took them all in this result (Bid Whist's Boston),
        which a team event counts apart; None when nobody did, and in games without such a bid."""
        return None

    def most_in_a_hand(self) -> int | None:
        """The most one hand can move a side's score under these options, so that a score
        sheet's final score can be checked; None where the rules cannot say."""
        return None

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        """A believable result for rehearsals, demos and load tests: biased by the cards, so
        the side with more high cards tends to take more tricks, declare and bid higher."""
        raise NotImplementedError
