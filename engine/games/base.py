"""The shared machinery of the four games: options, entries, the play of the cards, dealing.

Each game is one module with one `GameRules` subclass. The subclass declares its options,
how a board is dealt, how trumps and the rank order are settled for the play, and how a
table result is read, checked and scored. Trick-taking itself (follow suit, trumps, who wins)
is the same in every game and lives here, with two hooks for the exceptions: which cards a
player may choose from (Open Whist: only the exposed column tops) and the Bid Whist jokers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from engine import EngineError
from engine.boards import Board
from engine.cards import BIG_JOKER_RANK, Card, CardError, Seat, Side, Suit
from engine.reading import quoted, signed_number, whole_number

__all__ = [
    "Choice",
    "Entry",
    "EntryError",
    "EntryField",
    "GameRules",
    "IllegalBidError",
    "IllegalPlayError",
    "OptionSpec",
    "OptionsError",
    "Play",
    "PlayContext",
    "Score",
    "SessionTally",
    "Trick",
    "entry_from_values",
    "field_applies",
    "values_from_entry",
]

Score = int | Fraction


class EntryError(EngineError):
    """A table result that the rules of the game do not allow."""


class OptionsError(EngineError):
    """A game option that does not exist or has a value the option does not take."""


class IllegalPlayError(EngineError):
    """A card played against the rules (not held, not exposed, or failing to follow suit)."""


class IllegalBidError(EngineError):
    """A call the auction does not allow at that point."""


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class OptionSpec:
    """One setting of a game: its key, kind ('choice', 'bool', 'int' or 'text'), default, and
    for people a one-line `help` and plain words for each choice (`labels`)."""

    key: str
    kind: str
    default: object
    choices: tuple[object, ...] = ()
    help: str = ""
    labels: tuple[str, ...] = ()  # each choice in plain words, for people (same order)

    def choice_labels(self) -> list[tuple[object, str]]:
        """(value, words) for each choice: the words given, else the value itself."""
        return [
            (value, self.labels[i] if i < len(self.labels) else str(value))
            for i, value in enumerate(self.choices)
        ]

    def coerce(self, value: object) -> object:
        """The option's value from Python or from command-line text; OptionsError if bad."""
        key = self.key
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise OptionsError(f"option {key} is yes or no, not {quoted(value)}")
        if self.kind == "int":
            number: int
            if isinstance(value, int) and not isinstance(value, bool):
                number = value
            elif isinstance(value, str) and signed_number(value) is not None:
                number = int(value.strip())
            else:
                raise OptionsError(f"option {key} is a whole number, not {quoted(value)}")
            if self.choices and number not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionsError(f"option {key} must be one of {allowed}, not {number}")
            return number
        if self.kind == "choice":
            if isinstance(value, bool) and "yes" in self.choices:
                value = "yes" if value else "no"
            text = str(value).strip().lower() if isinstance(value, str) else value
            if text not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionsError(f"option {key} must be one of {allowed}, not {quoted(value)}")
            return text
        if self.kind == "text":
            if not isinstance(value, str):
                raise OptionsError(f"option {key} is text, not {quoted(value)}")
            return value.strip()
        raise OptionsError(
            f"option {key} has an unknown kind {quoted(self.kind)}"
        )  # pragma: no cover


class Entry:
    """Base of the per-game table results (each a frozen dataclass)."""


@dataclass(frozen=True)
class Choice:
    """One allowed value of an entry field: the value the entry holds, the words a screen
    shows, and the few characters a printed traveller column has room for."""

    value: str
    label: str
    short: str = ""

    @property
    def mark(self) -> str:
        return self.short or self.label


@dataclass(frozen=True)
class EntryField:
    """One field of a table result as a person enters it.

    Forms, tablet pickers, printed traveller columns and the API schema are all generated from
    these, so a game describes its result once. `key` is the entry's key; a dotted key
    ("tricks.N") names a key inside a nested object. `kind` is "int" (from `minimum` to
    `maximum`), "choice" (one of `choices`) or "flag" (a yes/no that is left out when no).
    `only_when` lists (other field, values) pairs: the field is asked, and allowed, only when
    every named field holds one of those values (a flag that is not given counts as False).
    `parse_entry` stays the authority; the tests check that the two agree on every value.
    """

    key: str
    kind: str
    label: str
    short: str
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    only_when: tuple[tuple[str, tuple[object, ...]], ...] = ()
    help: str = ""

    def values(self) -> tuple[object, ...]:
        """Every value the field allows, in the order a picker shows them."""
        if self.kind == "int":
            assert self.minimum is not None and self.maximum is not None
            return tuple(range(self.minimum, self.maximum + 1))
        if self.kind == "choice":
            return tuple(choice.value for choice in self.choices)
        return (False, True)

    def choice(self, value: object) -> Choice | None:
        return next((c for c in self.choices if c.value == value), None)


def _lookup(data: Mapping[str, object], key: str) -> object:
    value: object = data
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def field_applies(field: EntryField, values: Mapping[str, object]) -> bool:
    """Whether `field` is asked given the other fields' `values` (flat, keyed by field key)."""
    for other, allowed in field.only_when:
        value = values.get(other)
        if value is None or value == "":
            value = False if False in allowed or True in allowed else None
        if value not in allowed:
            return False
    return True


_YES = {"on", "1", "true", "yes", "y"}


def entry_from_values(
    fields: Sequence[EntryField], values: Mapping[str, object]
) -> dict[str, object] | None:
    """The entry a form or a picker produced, from its flat text values; None when empty.

    Fields that do not apply (a trump suit left selected after choosing no-trump) are dropped,
    whole numbers are converted and anything unreadable is passed on as typed, so that
    `parse_entry` names what is wrong in the engine's own words.
    """
    flat: dict[str, object] = {}
    for field in fields:
        raw = values.get(field.key)
        text = "" if raw is None else str(raw).strip()
        if field.kind == "flag":
            if raw is True or text.lower() in _YES:
                flat[field.key] = True
            continue
        if text == "":
            continue
        if field.kind == "int":
            number = signed_number(text)
            flat[field.key] = number if number is not None else text
        else:
            match = next((c.value for c in field.choices if c.value.lower() == text.lower()), None)
            flat[field.key] = match if match is not None else text
    if not flat:
        return None
    entry: dict[str, object] = {}
    for field in fields:
        if field.key not in flat or not field_applies(field, flat):
            continue
        *outer, last = field.key.split(".")
        target = entry
        for part in outer:
            inner = target.setdefault(part, {})
            assert isinstance(inner, dict)
            target = inner
        target[last] = flat[field.key]
    return entry or None


def values_from_entry(
    fields: Sequence[EntryField], entry: Mapping[str, object] | None
) -> dict[str, str]:
    """A stored entry as flat text values, to fill a form (the reverse of `entry_from_values`)."""
    out: dict[str, str] = {}
    for field in fields:
        value = _lookup(entry or {}, field.key)
        if value is None or value is False:
            continue
        out[field.key] = "on" if value is True else str(value)
    return out


@dataclass(frozen=True)
class SessionTally:
    """What a game adds to a pair's session beyond its board scores (Candid Whist: bags).

    `adjustment` is added to the pair's session total in points (a penalty is negative);
    `shown` holds the figures the standings show beside the score, keyed as the game's
    `session_columns` name them.
    """

    adjustment: int
    shown: Mapping[str, int]


E = TypeVar("E", bound=Entry)


@dataclass(frozen=True)
class PlayContext:
    """What the play of the cards needs to know once the contract is settled.

    `trumps` None is no-trumps. `downtown` reverses the rank order below the ace (Bid
    Whist: A, 2, 3 ... K). `jokers` says whether jokers take part: in a suit contract they
    are the two top trumps, at no-trumps they have no suit and cannot win (seed 002).
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


class Play:
    """The play of one board in progress: the hands left, the trick on the table, the tricks won.

    Build one with `GameRules.new_play`; feed it cards with `play`. It refuses any card the
    rules forbid, so a finished `Play` is a legal play of the whole board.
    """

    def __init__(
        self,
        rules: GameRules,
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


class GameRules:
    """Base class of the four games' rules; one subclass per module in `engine.games`."""

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
    def hand_size(self) -> int:
        return 13

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
        """Shuffle and deal one card at a time clockwise from the dealer's left (seeds 001, 003).

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

    def effective_suit(self, card: Card, context: PlayContext) -> Suit | None:
        """The suit a card counts as: a joker belongs to trumps, or to no suit at no-trumps."""
        if card.suit is None:
            return context.trumps
        return card.suit

    def strength(self, card: Card, context: PlayContext) -> int:
        """Higher wins within a suit. Downtown (seed 002): A, 2, 3 ... K; jokers on top."""
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
        """The suit to follow: a joker led at no-trumps lets the next card set it (seed 002)."""
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

    # ---- results -------------------------------------------------------------------------

    def check_board(self, board: Board) -> None:
        """EntryError if the board was not dealt for this game (or these options)."""
        if board.variant != self.name:
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
                    f"NS took {_count(ns, word)}, but double dummy gives NS {dd} in this contract"
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
                return f"NS took {_count(ns, word)}; at the other tables NS took " + (
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

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        """A believable result for rehearsals, demos and load tests: biased by the cards, so
        the side with more high cards tends to take more tricks, declare and bid higher."""
        raise NotImplementedError


# ---- helpers for reading entries ----------------------------------------------------------


def check_fields(
    title: str, data: Mapping[str, object], required: Iterable[str], optional: Iterable[str] = ()
) -> None:
    """EntryError for a missing or an unknown field, naming it."""
    if not isinstance(data, Mapping):
        raise EntryError(f"a {title} result must be a set of named fields, not {quoted(data)}")
    required = tuple(required)
    allowed = set(required) | set(optional)
    for key in data:
        if key not in allowed:
            raise EntryError(
                f"a {title} result has no field {quoted(key)} "
                f"(fields: {', '.join(sorted(allowed))})"
            )
    for key in required:
        if data.get(key) is None:
            raise EntryError(f"a {title} result needs the {key}")


def int_field(data: Mapping[str, object], key: str, label: str) -> int:
    value = data.get(key)
    if isinstance(value, bool):
        raise EntryError(f"{label} must be a whole number, not {quoted(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        number = whole_number(value)
        if number is not None:
            return number
    raise EntryError(f"{label} must be a whole number, not {quoted(value)}")


def seat_field(data: Mapping[str, object], key: str, label: str = "the declarer") -> Seat:
    value = data.get(key)
    if isinstance(value, Seat):
        return value
    if isinstance(value, str):
        try:
            return Seat.from_str(value)
        except CardError:
            pass
    raise EntryError(f"{label} must be N, E, S or W, not {quoted(value)}")


def expect_entry(entry: Entry, kind: type[E], title: str) -> E:
    """The entry as this game's own type; EntryError for another game's result."""
    if not isinstance(entry, kind):
        raise EntryError(f"{type(entry).__name__} is not a {title} result")
    return entry


def _count(count: int, word: str = "trick") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_HCP = {14: 4, 13: 3, 12: 2, 11: 1}


def high_card_points(cards: Iterable[Card]) -> int:
    """A 4, K 3, Q 2, J 1 (jokers count nothing): Candid Whist's announcement, and the
    simulator's sense of a hand's strength."""
    return sum(_HCP.get(card.rank, 0) for card in cards if card.suit is not None)


def clip(value: float, low: int, high: int) -> int:
    return max(low, min(high, round(value)))


SEAT_CHOICES = tuple(Choice(seat.value, seat.full_name, seat.value) for seat in Seat)
SUIT_CHOICES = tuple(
    Choice(suit.value, f"{suit.symbol} {suit_name_plural}", suit.symbol)
    for suit, suit_name_plural in (
        (Suit.CLUBS, "clubs"),
        (Suit.DIAMONDS, "diamonds"),
        (Suit.HEARTS, "hearts"),
        (Suit.SPADES, "spades"),
    )
)


def tricks_field(key: str, label: str, short: str, total: int, help: str = "") -> EntryField:
    return EntryField(key, "int", label, short, minimum=0, maximum=total, help=help)


def joker_rank_name(card: Card) -> str:
    return "Big Joker" if card.rank == BIG_JOKER_RANK else "Little Joker"


def suit_name(suit: Suit | None) -> str:
    if suit is None:
        return "no-trumps"
    return {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[suit.value]
