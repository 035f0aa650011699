"""Candid Whist (S. B. Easwaran, docs/games/candid.md).

Announcement: from the dealer's left, clockwise, each player announces the high-card points
in the hand (A 4, K 3, Q 2, J 1); computed here from the deal (`announcements`).

Auction: the player with the lowest HCP opens; if several tie, the one whose partnership has
the lower combined HCP; if still tied, the one closest to the dealer's left (`opener`). Bids
are 7..13 tricks (the number of tricks itself, no book of six) in a strain, strains ranking
C < D < H < S < NT; each bid must be more tricks, or as many in a higher strain. A player may
pass; three passes after a bid end the auction and the last bidder declares; four passes
without a bid mean a redeal. The rules do not say whether a player who passed may bid later;
as in bridge we let them (a pass is not final).

Play: the player to the left of the declarer leads; follow suit; highest trump, else highest
of the suit led. No dummy.

Scoring (Spades style): made = 10 x bid, plus 1 point per overtrick ("bag"); set = -10 x bid.
Declarer N bids 8 hearts and NS take 10: NS +82. Bags accumulate over the session per pair and
every 10th bag costs 100 points. A per-board duplicate score must compare boards on their own,
so `ns_score` holds the board score only (bags counted as their 1 point each) and the session
penalty is worked out separately by `bag_penalties`, from a pair's results in play order
(options `bags_per_penalty` 10 and `bag_penalty` 100). At duplicate an all-pass board cannot be
redealt; it is recorded as passed out and scores 0 (`{"passed_out": true}`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.boards import Board, Deal, dealer_for
from engine.cards import CardError, Seat, Side, Suit
from engine.games.base import GameRules
from engine.games.entry import (
    SEAT_CHOICES,
    SUIT_CHOICES,
    Choice,
    Entry,
    EntryError,
    EntryField,
    Score,
    SessionTally,
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
    "BagTally",
    "CandidAuction",
    "CandidBid",
    "CandidEntry",
    "CandidPassedOut",
    "CandidRules",
    "announcements",
    "bag_penalties",
    "hcp",
    "longest_suit",
    "opener",
    "strain_from_str",
    "strain_str",
]


def strain_from_str(text: str) -> Suit | None:
    """'C', 'D', 'H', 'S' or 'NT' (None)."""
    key = text.strip().upper().replace("-", "").replace(" ", "")
    if key in ("NT", "N", "NOTRUMP", "NOTRUMPS"):
        return None
    return Suit.from_str(key)


def strain_str(strain: Suit | None) -> str:
    return "NT" if strain is None else strain.letter


def _strain_rank(strain: Suit | None) -> int:
    return 4 if strain is None else strain.index


def hcp(board: Board, seat: Seat) -> int:
    return high_card_points(board.deal.hand(seat))


def announcements(board: Board) -> list[tuple[Seat, int]]:
    """The HCP announcements in the order they are made: from the dealer's left, clockwise."""
    return [(board.dealer.next(i), hcp(board, board.dealer.next(i))) for i in range(1, 5)]


def opener(board: Board) -> Seat:
    """Lowest HCP; ties: lower partnership total; then the one nearest the dealer's left."""
    points = dict(announcements(board))

    def key(item: tuple[int, Seat]) -> tuple[int, int, int]:
        distance, seat = item
        return (points[seat], points[seat] + points[seat.partner], distance)

    order = [(i, board.dealer.next(i)) for i in range(1, 5)]
    return min(order, key=key)[1]


@dataclass(frozen=True)
class CandidBid:
    """A bid of 7..13 tricks in a strain (None = no-trumps). Text: '8H', '9NT'."""

    level: int
    strain: Suit | None

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int):
            raise IllegalBidError("Candid Whist bids are whole numbers from 7 to 13")
        if not 7 <= self.level <= 13:
            raise IllegalBidError(f"Candid Whist bids run from 7 to 13 tricks, not {self.level}")

    @property
    def key(self) -> tuple[int, int]:
        return (self.level, _strain_rank(self.strain))

    @classmethod
    def from_str(cls, text: str) -> CandidBid:
        stripped = text.strip()
        digits = "".join(ch for ch in stripped if ch.isdigit())
        rest = stripped[len(digits) :] if stripped.startswith(digits) else ""
        if not digits or not rest:
            raise IllegalBidError(f"{quoted(text)} is not a bid (write it like 8H or 9NT)")
        try:
            strain = strain_from_str(rest)
        except CardError:
            raise IllegalBidError(f"{quoted(text)}: the strain is C, D, H, S or NT") from None
        return cls(int(digits), strain)

    def __str__(self) -> str:
        return f"{self.level}{strain_str(self.strain)}"

    def __repr__(self) -> str:
        return f"CandidBid.from_str({str(self)!r})"


class CandidAuction:
    """The auction, starting with `opener`; `call(None)` passes."""

    def __init__(self, first: Seat) -> None:
        self.first = first
        self.calls: list[tuple[Seat, CandidBid | None]] = []

    @property
    def highest(self) -> tuple[Seat, CandidBid] | None:
        best: tuple[Seat, CandidBid] | None = None
        for seat, bid in self.calls:
            if bid is not None:
                best = (seat, bid)
        return best

    @property
    def is_over(self) -> bool:
        if self.highest is None:
            return len(self.calls) == 4
        trailing = 0
        for _seat, bid in reversed(self.calls):
            if bid is not None:
                break
            trailing += 1
        return trailing >= 3

    @property
    def redeal(self) -> bool:
        return self.is_over and self.highest is None

    @property
    def to_call(self) -> Seat | None:
        return None if self.is_over else self.first.next(len(self.calls))

    def call(self, bid: CandidBid | str | None) -> None:
        if self.to_call is None:
            raise IllegalBidError("the auction is over")
        if isinstance(bid, str):
            bid = None if bid.strip().lower() in ("pass", "p", "") else CandidBid.from_str(bid)
        if bid is not None and self.highest is not None and bid.key <= self.highest[1].key:
            raise IllegalBidError(
                f"{bid} is not higher than {self.highest[1]}: bid more tricks, or as many "
                "in a higher strain (C < D < H < S < NT)"
            )
        self.calls.append((self.to_call, bid))


@dataclass(frozen=True)
class CandidEntry(Entry):
    """A Candid Whist result: declarer, bid, strain (None = NT), tricks won by the declarers."""

    declarer: Seat
    bid: int
    strain: Suit | None
    tricks: int

    @property
    def made(self) -> bool:
        return self.tricks >= self.bid

    @property
    def bags(self) -> int:
        return self.tricks - self.bid if self.made else 0


@dataclass(frozen=True)
class CandidPassedOut(Entry):
    """All four passed; at duplicate the board scores 0."""


@dataclass(frozen=True)
class BagTally:
    """A pair's bags over a session: per board, running total, and the penalties incurred."""

    per_board: tuple[int, ...]
    running: tuple[int, ...]
    penalties: tuple[int, ...]  # the (negative) penalty charged on each board
    total_bags: int
    total_penalty: int


def bag_penalties(
    results: Iterable[tuple[Entry, Side] | int],
    *,
    bags_per_penalty: int = 10,
    penalty: int = 100,
) -> BagTally:
    """A pair's bags and bag penalties over a session, its results given in play order.

    Each result is (entry, the pair's side on that board) or a plain number of bags. A pair
    earns bags only when its side declared and made; every time its running total reaches a
    multiple of `bags_per_penalty` it is charged `penalty` (docs/games/candid.md: "when a
    partnership collects 10 bags, it immediately receives a penalty of 100 points").
    """
    if bags_per_penalty < 1:
        raise EntryError("bags_per_penalty must be at least 1")
    per_board: list[int] = []
    for result in results:
        if isinstance(result, int):
            if result < 0:
                raise EntryError(f"a board cannot bring {result} bags")
            per_board.append(result)
            continue
        entry, side = result
        if isinstance(entry, CandidEntry) and entry.declarer.side is side:
            per_board.append(entry.bags)
        else:
            per_board.append(0)
    running: list[int] = []
    charges: list[int] = []
    total = 0
    for bags in per_board:
        before = total // bags_per_penalty
        total += bags
        running.append(total)
        charges.append(-penalty * (total // bags_per_penalty - before))
    return BagTally(tuple(per_board), tuple(running), tuple(charges), total, sum(charges))


class CandidRules(GameRules):
    """Candid Whist: HCP announcements, an auction of 7..13 tricks, Spades-style scoring."""

    shape = BoardShape(
        "candid",
        "Candid Whist",
        (Hands(13, tuple(Seat)),),
        trumps=Trumps.AUCTION,
        dd_table=DDTable.STRAINS,
    )
    aliases = ("candidwhist",)
    par_uses_table = True
    session_columns = (("bags", "Bags"), ("bag_penalty", "Bag penalty"))
    option_specs = (
        OptionSpec("bags_per_penalty", "int", 10, (), "bags that cost a penalty"),
        OptionSpec("bag_penalty", "int", 100, (), "points a pair loses per that many bags"),
    )

    def _check_options(self) -> None:
        if int(self.option("bags_per_penalty")) < 1:
            raise OptionsError("option bags_per_penalty must be at least 1")

    def deal_board(self, number: int, rng: random.Random) -> Board:
        dealer = dealer_for(number)
        hands, _ = self.deal_round(self.shape.deck(), dealer, self.hands.seats, self.hand_size, rng)
        return Board(number, self.name, dealer, Deal(hands))

    def seat_note(self, board: Board, seat: Seat) -> str:
        """Every player announces the hand's high-card points (docs/games/candid.md)."""
        return f"{hcp(board, seat)} HCP"

    def auction(self, board: Board) -> CandidAuction:
        return CandidAuction(opener(board))

    def play_context(self, board: Board, contract: object = None) -> PlayContext:
        if isinstance(contract, CandidBid):
            raise IllegalPlayError("a Candid Whist play needs the declarer as well as the bid")
        if not isinstance(contract, CandidEntry):
            raise IllegalPlayError("a Candid Whist play needs its contract (a CandidEntry)")
        return PlayContext(
            trumps=contract.strain, leader=contract.declarer.next(), seats=tuple(Seat)
        )

    def parse_entry(self, board: Board, data: Mapping[str, object]) -> Entry:
        self.check_board(board)
        if isinstance(data, Mapping) and data.get("passed_out"):
            check_fields(self.title, data, ["passed_out"])
            return CandidPassedOut()
        check_fields(self.title, data, ["declarer", "bid", "strain", "tricks"], ["passed_out"])
        declarer = seat_field(data, "declarer")
        bid = int_field(data, "bid", "the bid")
        if not 7 <= bid <= 13:
            raise EntryError(f"Candid Whist bids run from 7 to 13 tricks, not {bid}")
        try:
            strain = strain_from_str(str(data["strain"]))
        except CardError:
            raise EntryError(
                f"the strain is C, D, H, S or NT, not {quoted(data['strain'])}"
            ) from None
        tricks = int_field(data, "tricks", "the tricks")
        if not 0 <= tricks <= 13:
            raise EntryError(f"the declaring side's tricks run from 0 to 13, not {tricks}")
        return CandidEntry(declarer, bid, strain, tricks)

    def declarer_score(self, entry: CandidEntry) -> int:
        """10 x bid plus one per bag when made; -10 x bid when set (docs/games/candid.md)."""
        return 10 * entry.bid + entry.bags if entry.made else -10 * entry.bid

    def ns_score(self, board: Board, entry: Entry) -> Score:
        if isinstance(entry, CandidPassedOut):
            return 0
        entry = expect_entry(entry, CandidEntry, self.title)
        score = self.declarer_score(entry)
        return score if entry.declarer.side is Side.NS else -score

    def side_points(self, board: Board, entry: Entry) -> dict[Side, Score]:
        if isinstance(entry, CandidPassedOut):
            return {Side.NS: 0, Side.EW: 0}
        entry = expect_entry(entry, CandidEntry, self.title)
        side = entry.declarer.side
        return {side: self.declarer_score(entry), side.other: 0}

    def session_bags(self, results: Iterable[tuple[Entry, Side] | int]) -> BagTally:
        """`bag_penalties` with this game's options."""
        return bag_penalties(
            results,
            bags_per_penalty=int(self.option("bags_per_penalty")),
            penalty=int(self.option("bag_penalty")),
        )

    def session_tally(self, played: Sequence[tuple[Entry, Side]]) -> SessionTally:
        """Bags and their penalties: a session aggregate that never changes a board's
        matchpoints, only the total-score method's totals (as an adjustment) and what the
        standings show."""
        tally = self.session_bags(played)
        return SessionTally(
            tally.total_penalty, {"bags": tally.total_bags, "bag_penalty": tally.total_penalty}
        )

    def entry_fields(self) -> tuple[EntryField, ...]:
        played = (("passed_out", (False,)),)
        return (
            EntryField("passed_out", "flag", "All passed", "Pass", help="four passes: scores 0"),
            EntryField("declarer", "choice", "Declarer", "By", SEAT_CHOICES, only_when=played),
            EntryField("bid", "int", "Bid", "Bid", minimum=7, maximum=13, only_when=played),
            EntryField(
                "strain",
                "choice",
                "Strain",
                "Str",
                (*SUIT_CHOICES, Choice("NT", "No-trumps", "NT")),
                only_when=played,
            ),
            EntryField(
                "tricks",
                "int",
                "Tricks",
                "Tricks",
                minimum=0,
                maximum=13,
                only_when=played,
                help="tricks won by the declaring side",
            ),
        )

    def ns_tricks(self, board: Board, entry: Entry) -> int | None:
        if isinstance(entry, CandidPassedOut):
            return None
        entry = expect_entry(entry, CandidEntry, self.title)
        return entry.tricks if entry.declarer.side is Side.NS else 13 - entry.tricks

    def dd_ns_tricks(self, board: Board, entry: Entry, analysis: Mapping[str, Any]) -> int | None:
        """From the stored table: the declarer's side's tricks in the strain played."""
        if not isinstance(entry, CandidEntry):
            return None
        row = (analysis.get("table") or {}).get(str(entry.declarer)) or {}
        tricks = row.get(strain_str(entry.strain))
        if not isinstance(tricks, int):
            return None
        return tricks if entry.declarer.side is Side.NS else 13 - tricks

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        ns = hcp(board, Seat.N) + hcp(board, Seat.S)
        side = Side.NS if ns >= 20 else Side.EW
        declarer = max(side.seats, key=lambda seat: (hcp(board, seat), rng.random()))
        bid = clip(7 + (max(ns, 40 - ns) - 20) / 5 + rng.gauss(0, 0.6), 7, 10)
        longest = longest_suit(board, side.seats)
        strain = rng.choice([longest, longest, "NT"])
        tricks = clip(rng.gauss(bid + 0.3, 1.2), 0, 13)
        return {"declarer": str(declarer), "bid": bid, "strain": strain, "tricks": tricks}

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        if isinstance(entry, CandidPassedOut):
            return {"passed_out": True}
        entry = expect_entry(entry, CandidEntry, self.title)
        return {
            "declarer": str(entry.declarer),
            "bid": entry.bid,
            "strain": strain_str(entry.strain),
            "tricks": entry.tricks,
        }

    def describe(self, entry: Entry) -> str:
        if isinstance(entry, CandidPassedOut):
            return "passed out"
        entry = expect_entry(entry, CandidEntry, self.title)
        strain = "NT" if entry.strain is None else entry.strain.symbol
        return f"{entry.bid}{strain} by {entry.declarer}, {entry.tricks} tricks"

    def describe_short(self, entry: Entry) -> str:
        if isinstance(entry, CandidPassedOut):
            return "pass"
        entry = expect_entry(entry, CandidEntry, self.title)
        strain = "NT" if entry.strain is None else entry.strain.symbol
        return f"{entry.bid}{strain} {entry.declarer} {entry.tricks}"


def longest_suit(board: Board, seats: Iterable[Seat]) -> str:
    """The suit (its letter) in which `seats` hold the most cards together; a tie goes to the
    letter first in the alphabet, so the choice is repeatable."""
    counts: dict[str, int] = {}
    for seat in seats:
        for card in board.deal.hand(seat):
            if card.suit is not None:
                counts[str(card.suit)] = counts.get(str(card.suit), 0) + 1
    return max(sorted(counts), key=lambda suit: counts[suit])
