"""Bid Whist (Fosdick's and Andrews's rules, docs/games/bidwhist.md).

Cards: 54, the standard deck plus a Big and a Little Joker; 12 to each player one at a time
from the dealer's left, the last 6 form the kitty. On a pre-dealt board the kitty is part of
the board.

Auction: one round, starting left of the dealer; each player bids once or passes. A bid is a
number 3..7 (books over six) and uptown, downtown or no-trump. A bid must outrank the last;
no-trump outranks uptown and downtown of the same number, which are equal to each other (so
"4 downtown" over "4 uptown" is not allowed). The rules do not say what happens when all four
pass; option `all_pass` is ``redeal`` (default; at duplicate the board is recorded as passed
out and scores 0) or ``dealer_must_bid``.

Play: the declarer names trumps (suit bids) or uptown/downtown ranking (no-trump bids), takes
the kitty and discards six cards, which are the declaring side's first book, then leads.
Uptown ranks A K Q ... 2, downtown A 2 3 ... K (the ace stays highest). In suit contracts the
Big and Little Joker are the two top trumps and count as trumps for following suit. At
no-trump jokers have no suit and cannot win; they may be played only when the player cannot
follow; a joker led lets the next card set the suit to follow (docs/games/bidwhist.md). Andrews
adds that the declarer must discard any jokers at no-trump (option `nt_jokers_discarded`:
``auto``, the default, follows the chosen scoring's source: on with Andrews, off with Fosdick,
whose text lets a joker be played at no-trump by a player who cannot follow; ``yes`` and
``no`` force it either way).

Books: the declaring side's books INCLUDE the kitty book, so they run 1..13, and a bid of n is
made with 6 + n books (docs/games/bidwhist.md: bid 5, "12 books (11 won in tricks plus the Kitty)").

Scoring (option `scoring`):
- ``fosdick`` (Fosdick, docs/games/bidwhist.md; the default): only the bidders score. Made: one
  point per book over six, so overtricks count (bid 5, 12 books: +6). Set: minus the bid (-5).
  No-trump hands "double the normal scoring", made or set (5 no-trump, 12 books: +12; set: -10).
- ``andrews`` (Andrews, docs/games/bidwhist.md): made scores the bid ("successful bids are rewarded
  with their point value"), doubled at no-trump; set costs the bid, doubled at no-trump. Option
  `overtricks` ``yes`` makes every book over six count instead ("a player who bids 3 but makes 4 ...
  earns 4 points"). Option `defenders_score` on: instead of the declarers losing points, the
  defenders score the value of the bid when they set it (Andrews, docs/games/bidwhist.md, the
  author's preference).
- `overtricks` is ``auto`` by default: ``yes`` for Fosdick, ``no`` for Andrews. Fosdick with
  ``overtricks=no`` or ``defenders_score`` is refused: Fosdick's text rules both out.

Bidding 7 and taking all 13 books is a Boston (Andrews, docs/games/bidwhist.md); it is
recorded on the entry (`BidWhistEntry.boston`) and shown in `describe`, and scores like any
other made bid.

Duplicate: `ns_score` is NS's points minus EW's, so EW's score is its negation. With
`defenders_score` a set contract moves the same number of points either way, so matchpoints
do not change; `side_points` shows who actually scored.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.boards import Board, Deal, dealer_for
from engine.cards import Card, CardError, Seat, Side, Suit
from engine.games.base import GameRules
from engine.games.candid import longest_suit
from engine.games.entry import (
    SEAT_CHOICES,
    SUIT_CHOICES,
    Choice,
    Entry,
    EntryError,
    EntryField,
    Score,
    check_fields,
    clip,
    expect_entry,
    high_card_points,
    int_field,
    seat_field,
)
from engine.games.options import OptionsError, OptionSpec
from engine.games.play import IllegalBidError, IllegalPlayError, PlayContext
from engine.reading import quoted
from engine.shapes import BoardShape, DDTable, Hands, Trumps

__all__ = [
    "BidKind",
    "BidWhistAuction",
    "BidWhistBid",
    "BidWhistContract",
    "BidWhistEntry",
    "BidWhistPassedOut",
    "BidWhistRules",
]


class BidKind(enum.Enum):
    """Uptown (high), downtown (low) or no-trump."""

    UPTOWN = "uptown"
    DOWNTOWN = "downtown"
    NOTRUMP = "notrump"

    @classmethod
    def from_str(cls, text: str) -> BidKind:
        key = text.strip().lower().replace("-", "").replace(" ", "").replace("_", "")
        aliases = {
            "u": "uptown",
            "up": "uptown",
            "high": "uptown",
            "d": "downtown",
            "down": "downtown",
            "low": "downtown",
            "nt": "notrump",
            "n": "notrump",
            "notrumps": "notrump",
        }
        key = aliases.get(key, key)
        for kind in cls:
            if kind.value == key:
                return kind
        raise IllegalBidError(f"{quoted(text)} is not uptown, downtown or notrump")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"BidKind.{self.name}"


@dataclass(frozen=True)
class BidWhistBid:
    """A bid: books over six (3..7) and its kind. Text: '5 uptown', '4 notrump' ('4NT')."""

    level: int
    kind: BidKind

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int):
            raise IllegalBidError("Bid Whist bids are whole numbers from 3 to 7")
        if not 3 <= self.level <= 7:
            raise IllegalBidError(f"Bid Whist bids run from 3 to 7, not {self.level}")

    @property
    def key(self) -> tuple[int, int]:
        """Auction order: by number, and no-trump above the (equal) uptown and downtown."""
        return (self.level, 1 if self.kind is BidKind.NOTRUMP else 0)

    @classmethod
    def from_str(cls, text: str) -> BidWhistBid:
        stripped = text.strip()
        digits = stripped[:1]
        if not digits.isdigit():
            raise IllegalBidError(
                f"{quoted(text)} is not a bid (write it like '5 uptown' or '4NT')"
            )
        return cls(int(digits), BidKind.from_str(stripped[1:]))

    def __str__(self) -> str:
        return f"{self.level} {self.kind}"

    def __repr__(self) -> str:
        return f"BidWhistBid.from_str({str(self)!r})"


class BidWhistAuction:
    """One round of bidding from the dealer's left; `call(None)` passes."""

    def __init__(self, dealer: Seat, *, dealer_must_bid: bool = False) -> None:
        self.dealer = dealer
        self.dealer_must_bid = dealer_must_bid
        self.calls: list[tuple[Seat, BidWhistBid | None]] = []

    @property
    def to_call(self) -> Seat | None:
        return None if self.is_over else self.dealer.next(1 + len(self.calls))

    @property
    def is_over(self) -> bool:
        return len(self.calls) == 4

    @property
    def highest(self) -> tuple[Seat, BidWhistBid] | None:
        best: tuple[Seat, BidWhistBid] | None = None
        for seat, bid in self.calls:
            if bid is not None:
                best = (seat, bid)
        return best

    @property
    def redeal(self) -> bool:
        """True when all four passed (only possible without `dealer_must_bid`)."""
        return self.is_over and self.highest is None

    def legal_bids(self) -> list[BidWhistBid]:
        if self.is_over:
            return []
        floor = self.highest[1].key if self.highest else (0, 0)
        return [
            bid
            for level in range(3, 8)
            for bid in (BidWhistBid(level, k) for k in BidKind)
            if bid.key > floor
        ]

    def call(self, bid: BidWhistBid | str | None) -> None:
        seat = self.to_call
        if seat is None:
            raise IllegalBidError("the auction is over: every player has had a turn")
        if isinstance(bid, str):
            bid = None if bid.strip().lower() in ("pass", "p", "") else BidWhistBid.from_str(bid)
        if bid is None:
            if self.dealer_must_bid and seat is self.dealer and self.highest is None:
                raise IllegalBidError("everybody else passed: the dealer must bid")
        elif self.highest is not None and bid.key <= self.highest[1].key:
            raise IllegalBidError(
                f"{bid} does not outrank {self.highest[1]} (no-trump outranks uptown and "
                f"downtown of the same number; uptown and downtown are equal)"
            )
        self.calls.append((seat, bid))


@dataclass(frozen=True)
class BidWhistEntry(Entry):
    """A Bid Whist result: declarer, bid, kind, trumps or ranking, books incl. the kitty book."""

    declarer: Seat
    bid: int
    kind: BidKind
    trumps: Suit | None
    ranking: BidKind | None
    books: int

    @property
    def target(self) -> int:
        return 6 + self.bid

    @property
    def made(self) -> bool:
        return self.books >= self.target

    @property
    def boston(self) -> bool:
        """Bid 7 and took all 13 books (Andrews, docs/games/bidwhist.md)."""
        return self.bid == 7 and self.books == 13


@dataclass(frozen=True)
class BidWhistPassedOut(Entry):
    """All four passed; at duplicate the board scores 0 for both sides."""


@dataclass(frozen=True)
class BidWhistContract:
    """What the play needs: the declarer, the bid's kind and trumps/ranking, the six discards."""

    declarer: Seat
    kind: BidKind
    trumps: Suit | None = None
    ranking: BidKind | None = None
    discards: tuple[Card, ...] = ()

    @property
    def downtown(self) -> bool:
        return self.kind is BidKind.DOWNTOWN or self.ranking is BidKind.DOWNTOWN


def _article(kind: BidKind) -> str:
    return "an" if kind is BidKind.UPTOWN else "a"


class BidWhistRules(GameRules):
    """Bid Whist with Fosdick's or Andrews's scoring."""

    shape = BoardShape(
        "bidwhist",
        "Bid Whist",
        (Hands(12, tuple(Seat)),),
        jokers=True,
        kitty=6,
        trumps=Trumps.AUCTION,
        dd_table=DDTable.CONTRACT_TYPES,
    )
    aliases = ("bid",)
    check_uses_table = True
    count_word = "book"
    option_specs = (
        OptionSpec(
            "scoring",
            "choice",
            "fosdick",
            ("fosdick", "andrews"),
            "how bids score: Fosdick's rules or Andrews' rules",
            ("Fosdick", "Andrews"),
        ),
        OptionSpec(
            "overtricks",
            "choice",
            "auto",
            ("auto", "yes", "no"),
            "count every book over six (as the scoring says: yes for Fosdick, no for Andrews)",
            ("As the scoring says", "Yes", "No"),
        ),
        OptionSpec(
            "defenders_score",
            "bool",
            False,
            (),
            "Andrews: defenders score the bid when they set it, declarers lose nothing",
        ),
        OptionSpec(
            "all_pass",
            "choice",
            "redeal",
            ("redeal", "dealer_must_bid"),
            "what happens when all four pass",
            ("The hand is dealt again", "The dealer must bid"),
        ),
        OptionSpec(
            "nt_jokers_discarded",
            "choice",
            "auto",
            ("auto", "yes", "no"),
            "at no-trump the declarer must discard any jokers (as the scoring says: yes for "
            "Andrews, no for Fosdick)",
            ("As the scoring says", "Yes", "No"),
        ),
    )

    def _check_options(self) -> None:
        if self.option("scoring") == "fosdick":
            if self.option("overtricks") == "no":
                raise OptionsError(
                    "Fosdick scoring counts every book over six: overtricks=no "
                    "needs scoring=andrews"
                )
            if self.option("defenders_score"):
                raise OptionsError(
                    "in Fosdick scoring defenders never score: "
                    "defenders_score needs scoring=andrews"
                )

    @property
    def nt_jokers_discarded(self) -> bool:
        setting = self.option("nt_jokers_discarded")
        if setting == "auto":
            return bool(self.option("scoring") == "andrews")
        return bool(setting == "yes")

    @property
    def counts_overtricks(self) -> bool:
        setting = self.option("overtricks")
        if setting == "auto":
            return bool(self.option("scoring") == "fosdick")
        return bool(setting == "yes")

    # ---- dealing and auction ---------------------------------------------------------------

    def deal_board(self, number: int, rng: random.Random) -> Board:
        dealer = dealer_for(number)
        hands, kitty = self.deal_round(
            self.shape.deck(), dealer, self.hands.seats, self.hand_size, rng
        )
        return Board(number, self.name, dealer, Deal(hands), None, kitty)

    def auction(self, board: Board) -> BidWhistAuction:
        return BidWhistAuction(
            board.dealer, dealer_must_bid=self.option("all_pass") == "dealer_must_bid"
        )

    # ---- play ------------------------------------------------------------------------------

    def contract(
        self, entry: BidWhistEntry, discards: Iterable[Card | str] = ()
    ) -> BidWhistContract:
        cards = tuple(c if isinstance(c, Card) else Card.from_str(c) for c in discards)
        return BidWhistContract(entry.declarer, entry.kind, entry.trumps, entry.ranking, cards)

    def _contract(self, contract: object) -> BidWhistContract:
        if isinstance(contract, BidWhistEntry):
            raise IllegalPlayError(
                "a Bid Whist play needs the declarer's six discards: "
                "use rules.contract(entry, discards)"
            )
        if not isinstance(contract, BidWhistContract):
            raise IllegalPlayError("a Bid Whist play needs its contract (BidWhistContract)")
        return contract

    def play_context(self, board: Board, contract: object = None) -> PlayContext:
        c = self._contract(contract)
        trumps = c.trumps if c.kind is not BidKind.NOTRUMP else None
        if c.kind is not BidKind.NOTRUMP and trumps is None:
            raise IllegalPlayError(f"a {c.kind} contract needs its trump suit")
        return PlayContext(
            trumps=trumps, leader=c.declarer, seats=tuple(Seat), downtown=c.downtown, jokers=True
        )

    def starting_hands(self, board: Board, contract: object = None) -> dict[Seat, tuple[Card, ...]]:
        c = self._contract(contract)
        pool = [*board.deal.hand(c.declarer), *board.kitty]
        if len(c.discards) != 6 or len(set(c.discards)) != 6:
            raise IllegalPlayError("the declarer discards exactly six different cards")
        for card in c.discards:
            if card not in pool:
                raise IllegalPlayError(f"the declarer cannot discard {card}: not in hand or kitty")
        if c.kind is BidKind.NOTRUMP and self.nt_jokers_discarded:
            kept = [card for card in pool if card.is_joker and card not in c.discards]
            if kept:
                raise IllegalPlayError(
                    f"at no-trump the declarer must discard the {kept[0].pretty()}"
                )
        hands = {seat: board.deal.hand(seat) for seat in Seat}
        hands[c.declarer] = tuple(card for card in pool if card not in c.discards)
        return hands

    def books(self, play_tricks: Mapping[Side, int], declarer: Seat) -> int:
        """The declaring side's books: its tricks plus the kitty book."""
        return play_tricks[declarer.side] + 1

    # ---- results ---------------------------------------------------------------------------

    def parse_entry(self, board: Board, data: Mapping[str, object]) -> Entry:
        self.check_board(board)
        if isinstance(data, Mapping) and data.get("passed_out"):
            check_fields(self.title, data, ["passed_out"])
            if self.option("all_pass") == "dealer_must_bid":
                raise EntryError(
                    "the dealer must bid when the others pass: a board "
                    "cannot be passed out with these settings"
                )
            return BidWhistPassedOut()
        check_fields(
            self.title,
            data,
            ["declarer", "bid", "kind", "books"],
            ["trumps", "ranking", "passed_out"],
        )
        declarer = seat_field(data, "declarer")
        bid = int_field(data, "bid", "the bid")
        if not 3 <= bid <= 7:
            raise EntryError(f"Bid Whist bids run from 3 to 7, not {bid}")
        try:
            kind = BidKind.from_str(str(data["kind"]))
        except IllegalBidError:
            raise EntryError(
                f"the kind of bid is uptown, downtown or notrump, not {quoted(data['kind'])}"
            ) from None
        trumps: Suit | None = None
        ranking: BidKind | None = None
        if kind is BidKind.NOTRUMP:
            if data.get("trumps") is not None:
                raise EntryError(
                    "a no-trump bid has no trump suit: give the ranking "
                    "(uptown or downtown) instead"
                )
            if data.get("ranking") is None:
                raise EntryError("a no-trump bid is played uptown or downtown: give the ranking")
            try:
                ranking = BidKind.from_str(str(data["ranking"]))
            except IllegalBidError:
                ranking = None
            if ranking not in (BidKind.UPTOWN, BidKind.DOWNTOWN):
                raise EntryError(
                    f"the ranking is uptown or downtown, not {quoted(data['ranking'])}"
                )
        else:
            if data.get("ranking") is not None:
                raise EntryError(f"{_article(kind)} {kind} bid names its trump suit, not a ranking")
            if data.get("trumps") is None:
                raise EntryError(
                    f"{_article(kind)} {kind} bid names its trump suit: give trumps C, D, H or S"
                )
            try:
                trumps = Suit.from_str(str(data["trumps"]))
            except CardError:
                raise EntryError(f"trumps are C, D, H or S, not {quoted(data['trumps'])}") from None
        books = int_field(data, "books", "the books")
        if not 1 <= books <= 13:
            raise EntryError(
                f"the declaring side's books run from 1 (the kitty book) to 13, not {books}"
            )
        return BidWhistEntry(declarer, bid, kind, trumps, ranking, books)

    def declarer_points(self, entry: BidWhistEntry) -> tuple[int, int]:
        """(declaring side's points, defending side's points) per the scoring options."""
        factor = 2 if entry.kind is BidKind.NOTRUMP else 1
        if entry.made:
            value = entry.books - 6 if self.counts_overtricks else entry.bid
            return (value * factor, 0)
        if self.option("defenders_score"):
            return (0, entry.bid * factor)
        return (-entry.bid * factor, 0)

    def side_points(self, board: Board, entry: Entry) -> dict[Side, Score]:
        if isinstance(entry, BidWhistPassedOut):
            return {Side.NS: 0, Side.EW: 0}
        entry = expect_entry(entry, BidWhistEntry, self.title)
        ours, theirs = self.declarer_points(entry)
        side = entry.declarer.side
        return {side: ours, side.other: theirs}

    def ns_score(self, board: Board, entry: Entry) -> Score:
        points = self.side_points(board, entry)
        return points[Side.NS] - points[Side.EW]

    def sweep_side(self, entry: Entry) -> Side | None:
        if isinstance(entry, BidWhistEntry) and entry.boston:
            return entry.declarer.side
        return None

    def most_in_a_hand(self) -> int:
        """7 no-trump made with all 13 books or set: 14 points under every scoring."""
        made = BidWhistEntry(Seat.N, 7, BidKind.NOTRUMP, None, BidKind.UPTOWN, 13)
        set_ = BidWhistEntry(Seat.N, 7, BidKind.NOTRUMP, None, BidKind.UPTOWN, 1)
        return max(abs(points) for e in (made, set_) for points in self.declarer_points(e))

    def entry_fields(self) -> tuple[EntryField, ...]:
        played = (("passed_out", (False,)),)
        rankings = (Choice("uptown", "Uptown", "up"), Choice("downtown", "Downtown", "down"))
        fields = [
            EntryField("declarer", "choice", "Declarer", "By", SEAT_CHOICES, only_when=played),
            EntryField("bid", "int", "Bid", "Bid", minimum=3, maximum=7, only_when=played),
            EntryField(
                "kind",
                "choice",
                "Kind",
                "Kind",
                (*rankings, Choice("notrump", "No-trump", "NT")),
                only_when=played,
            ),
            EntryField(
                "trumps",
                "choice",
                "Trumps",
                "Tr",
                SUIT_CHOICES,
                only_when=(*played, ("kind", ("uptown", "downtown"))),
            ),
            EntryField(
                "ranking",
                "choice",
                "No-trump ranking",
                "Rank",
                rankings,
                only_when=(*played, ("kind", ("notrump",))),
            ),
            EntryField(
                "books",
                "int",
                "Books",
                "Books",
                minimum=1,
                maximum=13,
                only_when=played,
                help="the declaring side's books, the kitty book included",
            ),
        ]
        if self.option("all_pass") == "redeal":
            fields.insert(
                0,
                EntryField("passed_out", "flag", "All passed", "Pass", help="scores 0 to both"),
            )
        return tuple(fields)

    def ns_tricks(self, board: Board, entry: Entry) -> int | None:
        """Tricks in play (the kitty book is not a trick): 12 in all."""
        if isinstance(entry, BidWhistPassedOut):
            return None
        entry = expect_entry(entry, BidWhistEntry, self.title)
        tricks = entry.books - 1
        return tricks if entry.declarer.side is Side.NS else 12 - tricks

    def ns_count(self, entry: Entry, ns_tricks: int) -> int:
        """NS's books: their tricks, plus the kitty book when NS declared (players enter the
        declaring side's books, kitty included, so messages speak of books too)."""
        declared = isinstance(entry, BidWhistEntry) and entry.declarer.side is Side.NS
        return ns_tricks + 1 if declared else ns_tricks

    def dd_ns_tricks(self, board: Board, entry: Entry, analysis: Mapping[str, Any]) -> int | None:
        """From the stored double-dummy table (the analysis keeps it for Bid Whist:
        `check_uses_table`); None while it is not there yet."""
        if not isinstance(entry, BidWhistEntry):
            return None
        row = (analysis.get("table") or {}).get(str(entry.declarer)) or {}
        contract = (
            f"notrump {entry.ranking}"
            if entry.kind is BidKind.NOTRUMP
            else f"{entry.kind} {entry.trumps}"
        )
        books = row.get(contract)
        if not isinstance(books, int):
            return None
        return books - 1 if entry.declarer.side is Side.NS else 12 - (books - 1)

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        ns = sum(high_card_points(board.deal.hand(seat)) for seat in Side.NS.seats)
        side = Side.NS if ns >= 20 else Side.EW
        points = {seat: high_card_points(board.deal.hand(seat)) for seat in side.seats}
        declarer = max(side.seats, key=lambda seat: (points[seat], rng.random()))
        bid = clip(3 + (max(ns, 40 - ns) - 20) / 5 + rng.gauss(0, 0.7), 3, 7)
        kind = rng.choices(["uptown", "downtown", "notrump"], weights=[5, 3, 2])[0]
        books = clip(rng.gauss(6 + bid + 0.4, 1.3), 1, 13)
        entry: dict[str, object] = {
            "declarer": str(declarer),
            "bid": bid,
            "kind": kind,
            "books": books,
        }
        if kind == "notrump":
            entry["ranking"] = rng.choice(["uptown", "downtown"])
        else:
            entry["trumps"] = longest_suit(board, side.seats)
        return entry

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        if isinstance(entry, BidWhistPassedOut):
            return {"passed_out": True}
        entry = expect_entry(entry, BidWhistEntry, self.title)
        out: dict[str, object] = {
            "declarer": str(entry.declarer),
            "bid": entry.bid,
            "kind": str(entry.kind),
        }
        if entry.trumps is not None:
            out["trumps"] = str(entry.trumps)
        if entry.ranking is not None:
            out["ranking"] = str(entry.ranking)
        out["books"] = entry.books
        return out

    def describe(self, entry: Entry) -> str:
        if isinstance(entry, BidWhistPassedOut):
            return "passed out"
        entry = expect_entry(entry, BidWhistEntry, self.title)
        if entry.kind is BidKind.NOTRUMP:
            what = f"{entry.bid} no-trump ({entry.ranking})"
        else:
            assert entry.trumps is not None
            what = f"{entry.bid} {entry.kind} {entry.trumps.symbol}"
        boston = ", Boston" if entry.boston else ""
        return f"{what} by {entry.declarer}, {entry.books} books{boston}"

    def describe_short(self, entry: Entry) -> str:
        if isinstance(entry, BidWhistPassedOut):
            return "pass"
        entry = expect_entry(entry, BidWhistEntry, self.title)
        if entry.kind is BidKind.NOTRUMP:
            what = f"{entry.bid}NT{'↓' if entry.ranking is BidKind.DOWNTOWN else '↑'}"
        else:
            assert entry.trumps is not None
            what = (
                f"{entry.bid}{'↓' if entry.kind is BidKind.DOWNTOWN else '↑'}{entry.trumps.symbol}"
            )
        return f"{what} {entry.declarer} {entry.books}"
