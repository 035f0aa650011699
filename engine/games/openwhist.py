"""Open Whist (Sid Sackson, GAMES Magazine 1985; docs/games/openwhist.md).

Whist with every card face up. Each player lays the hand out "one at a time ... without
rearranging them" in overlapping columns; only the fully exposed card at the top of each
column may be played, and a player must follow suit if an exposed card allows it (the rules'
example: East "has no exposed spades and can play any of his five exposed cards").

Forms (option `players`):
- 4 (default): 13 cards each in columns of 1, 2, 3, 4, 3. "The single card at the left of the
  dealer's hand sets the trump": the dealer's first column. Partners N-S and E-W; one point
  per trick over six.
- 2: the same four hands, each player running two of them; scored as 4.
- 3: North, East and South get 17 cards each in columns of 1, 2, 3, 4, 5, 2; "the last card is
  dealt face up to set trump but belongs to no player" (`Board.turned_card`). Each plays for
  himself: "one point for each trick over five". The dealer rotates N, E, S by board number
  (our choice: the rules do not cover duplicate with three).

We fill the columns left to right in dealt order, the last card placed in a column being its
exposed top (`Board.columns`). The player at the dealer's left leads first.

Option `fixed_trumps` replaces the turned card by the whist-drive rotation (`rotation`,
`no_trump_every`, as in classic whist) for clubs that prefer fixed trumps.

Scoring (option `scoring`): ``odd_tricks`` (default, the rules' "one point for each trick
over six") or ``tricks``. As in classic whist, `ns_score` in ``odd_tricks`` is NS's points
minus EW's and in ``tricks`` NS's tricks. Three-player results are per seat
(`seat_points`); there `ns_score` is North's points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.boards import Board, BoardError, Deal, dealer_for, trump_rotation
from engine.cards import Card, Seat, Side, Suit
from engine.games.base import GameRules
from engine.games.classic import (
    dd_board_ns_tricks,
    ns_tricks_fields,
    parse_rotation,
    plausible_ns_tricks,
    trick_entry,
)
from engine.games.entry import (
    Entry,
    EntryError,
    EntryField,
    Score,
    check_fields,
    expect_entry,
    high_card_points,
    int_field,
    tricks_field,
)
from engine.games.options import OptionsError, OptionSpec
from engine.games.play import Play, PlayContext
from engine.shapes import BoardShape, Hands, TurnedCard

__all__ = ["OpenWhistEntry", "OpenWhistRules", "OpenWhistThreeEntry", "three_player_dealer"]

THREE_SEATS = (Seat.N, Seat.E, Seat.S)


def three_player_dealer(number: int) -> Seat:
    if number < 1:
        raise BoardError(f"board numbers start at 1, not {number}")
    return THREE_SEATS[(number - 1) % 3]


@dataclass(frozen=True)
class OpenWhistEntry(Entry):
    """Four- or two-player Open Whist: the tricks NS won."""

    ns_tricks: int

    @property
    def ew_tricks(self) -> int:
        return 13 - self.ns_tricks


@dataclass(frozen=True)
class OpenWhistThreeEntry(Entry):
    """Three-player Open Whist: the tricks each of North, East and South won (17 in all)."""

    north: int
    east: int
    south: int

    def tricks(self) -> dict[Seat, int]:
        return {Seat.N: self.north, Seat.E: self.east, Seat.S: self.south}


class OpenWhistRules(GameRules):
    """Open Whist in its 4-, 3- and 2-player forms."""

    shape = BoardShape(
        "openwhist",
        "Open Whist",
        (
            Hands(13, tuple(Seat), turned=TurnedCard.FIRST_OF_LAYOUT, columns=(1, 2, 3, 4, 3)),
            Hands(17, THREE_SEATS, turned=TurnedCard.LOOSE, columns=(1, 2, 3, 4, 5, 2)),
        ),
    )
    aliases = ("open",)
    option_specs = (
        OptionSpec(
            "players",
            "int",
            4,
            (2, 3, 4),
            "2, 3 or 4 players",
            ("2 players", "3 players", "4 players"),
        ),
        OptionSpec("fixed_trumps", "bool", False, (), "trumps by rotation, not the turned card"),
        OptionSpec("rotation", "text", "HDSC", (), "trump order when fixed (N = no-trumps)"),
        OptionSpec("no_trump_every", "int", 0, (), "no-trumps every k-th board when fixed"),
        OptionSpec(
            "scoring",
            "choice",
            "odd_tricks",
            ("odd_tricks", "tricks"),
            "score tricks over six (five for 3 players), or every trick",
            ("Odd tricks", "Every trick"),
        ),
    )

    def _check_options(self) -> None:
        self.rotation = parse_rotation(str(self.option("rotation")))
        every = int(self.option("no_trump_every"))
        if every < 0 or every == 1:
            raise OptionsError("option no_trump_every is 0 (never) or at least 2")

    @property
    def three_players(self) -> bool:
        return int(self.option("players")) == 3

    @property
    def hands(self) -> Hands:
        hands = self.shape.hands_for(3 if self.three_players else 4)
        assert hands is not None
        return hands

    def not_for_pairs(self) -> str | None:
        if self.three_players:
            return (
                "Three-player Open Whist is played every player for himself, not in pairs; "
                "a duplicate event needs the 4- or 2-player form."
            )
        return None

    def check_board(self, board: Board) -> None:
        """Also: a three-player board's trumps are its turned card's suit, unless this event
        fixes trumps by rotation (the board alone cannot tell, so the rules check it)."""
        super().check_board(board)
        turned = board.turned_card
        if (
            self.three_players
            and not self.option("fixed_trumps")
            and turned is not None
            and board.trumps is not turned.suit
        ):
            named = "no-trumps" if board.trumps is None else board.trumps.letter
            raise EntryError(
                f"board {board.number} names trumps {named}, but its turned card {turned} "
                f"sets {turned.suit.letter if turned.suit else '?'}: three-player Open Whist "
                "takes trumps from the turned card unless the option fixed_trumps is on"
            )

    def deal_board(self, number: int, rng: random.Random) -> Board:
        fixed: Suit | None = None
        if self.option("fixed_trumps"):
            fixed = trump_rotation(
                number, self.rotation, int(self.option("no_trump_every")) or None
            )
        if self.three_players:
            dealer = three_player_dealer(number)
            hands, rest = self.deal_round(
                self.shape.deck(), dealer, self.hands.seats, self.hand_size, rng
            )
            turned: Card | None = rest[0]
        else:
            dealer = dealer_for(number)
            hands, _ = self.deal_round(
                self.shape.deck(), dealer, self.hands.seats, self.hand_size, rng
            )
            turned = None if self.option("fixed_trumps") else hands[dealer][0]
        trumps = fixed if self.option("fixed_trumps") or turned is None else turned.suit
        return Board(number, self.name, dealer, Deal(hands), trumps, (), turned)

    def play_context(self, board: Board, contract: object = None) -> PlayContext:
        seats = board.seats
        leader = seats[(seats.index(board.dealer) + 1) % len(seats)]
        return PlayContext(trumps=board.trumps, leader=leader, seats=seats)

    def available(self, play: Play, seat: Seat) -> tuple[Card, ...]:
        """Only the exposed card of each column (docs/games/openwhist.md)."""
        left = set(play.hands[seat])
        tops = []
        for column in play.board.columns[seat]:
            remaining = [card for card in column if card in left]
            if remaining:
                tops.append(remaining[-1])
        return tuple(tops)

    def parse_entry(self, board: Board, data: Mapping[str, object]) -> Entry:
        self.check_board(board)
        if not self.three_players:
            return OpenWhistEntry(trick_entry(self.title, data, 13))
        check_fields(self.title, data, ["tricks"])
        raw = data["tricks"]
        if not isinstance(raw, Mapping):
            raise EntryError('three-player tricks are given per seat: {"N": 6, "E": 5, "S": 6}')
        check_fields("three-player Open Whist tricks", raw, ["N", "E", "S"])
        counts = [int_field(raw, key, f"{key}'s tricks") for key in ("N", "E", "S")]
        for seat, count in zip(THREE_SEATS, counts, strict=True):
            if not 0 <= count <= 17:
                raise EntryError(f"{seat.full_name}'s tricks run from 0 to 17, not {count}")
        if sum(counts) != 17:
            raise EntryError(f"the three players' tricks must add up to 17, not {sum(counts)}")
        return OpenWhistThreeEntry(*counts)

    def seat_points(self, board: Board, entry: Entry) -> dict[Seat, int]:
        """Three players: one point per trick over five (or every trick with scoring=tricks)."""
        entry = expect_entry(entry, OpenWhistThreeEntry, "three-player Open Whist")
        odd = self.option("scoring") == "odd_tricks"
        return {seat: max(n - 5, 0) if odd else n for seat, n in entry.tricks().items()}

    def side_points(self, board: Board, entry: Entry) -> dict[Side, Score]:
        if isinstance(entry, OpenWhistThreeEntry):
            raise EntryError("three-player Open Whist is scored per player, not per side")
        entry = expect_entry(entry, OpenWhistEntry, self.title)
        tricks = {Side.NS: entry.ns_tricks, Side.EW: entry.ew_tricks}
        if self.option("scoring") == "odd_tricks":
            return {side: max(n - 6, 0) for side, n in tricks.items()}
        return dict(tricks)

    def ns_score(self, board: Board, entry: Entry) -> Score:
        if isinstance(entry, OpenWhistThreeEntry):
            return self.seat_points(board, entry)[Seat.N]
        points = self.side_points(board, entry)
        if self.option("scoring") == "odd_tricks":
            return points[Side.NS] - points[Side.EW]
        return points[Side.NS]

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        if isinstance(entry, OpenWhistThreeEntry):
            return {"tricks": {str(seat): n for seat, n in entry.tricks().items()}}
        entry = expect_entry(entry, OpenWhistEntry, self.title)
        return {"ns_tricks": entry.ns_tricks}

    def entry_fields(self) -> tuple[EntryField, ...]:
        if not self.three_players:
            return ns_tricks_fields(13)
        return tuple(
            tricks_field(
                f"tricks.{seat}",
                f"{seat.full_name}'s tricks",
                str(seat),
                17,
                "each player's own tricks; the three add up to 17",
            )
            for seat in THREE_SEATS
        )

    def describe(self, entry: Entry) -> str:
        if isinstance(entry, OpenWhistThreeEntry):
            return ", ".join(f"{seat} {n}" for seat, n in entry.tricks().items()) + " tricks"
        entry = expect_entry(entry, OpenWhistEntry, self.title)
        return f"NS {entry.ns_tricks}, EW {entry.ew_tricks} tricks"

    def describe_short(self, entry: Entry) -> str:
        if isinstance(entry, OpenWhistThreeEntry):
            return "-".join(str(n) for n in entry.tricks().values())
        entry = expect_entry(entry, OpenWhistEntry, self.title)
        return f"{entry.ns_tricks}-{entry.ew_tricks}"

    def ns_tricks(self, board: Board, entry: Entry) -> int | None:
        if isinstance(entry, OpenWhistThreeEntry):
            return None
        return expect_entry(entry, OpenWhistEntry, self.title).ns_tricks

    def dd_ns_tricks(self, board: Board, entry: Entry, analysis: Mapping[str, Any]) -> int | None:
        return None if self.three_players else dd_board_ns_tricks(analysis)

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        if not self.three_players:
            return plausible_ns_tricks(board, rng)
        # Share the 17 tricks by strength with some noise; the largest remainders round up.
        weights = {
            seat: max(0.5, high_card_points(board.deal.hand(seat)) + rng.gauss(0, 3))
            for seat in THREE_SEATS
        }
        total = sum(weights.values())
        shares = {seat: 17 * weight / total for seat, weight in weights.items()}
        counts = {seat: int(share) for seat, share in shares.items()}
        for seat in sorted(THREE_SEATS, key=lambda s: counts[s] - shares[s])[
            : 17 - sum(counts.values())
        ]:
            counts[seat] += 1
        return {"tricks": {str(seat): n for seat, n in counts.items()}}
