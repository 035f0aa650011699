"""What a drive's three documents share: players' names, trumps and scoring in words.

What any format's paper could use (dates, names that shrink, write-in lines, tables as blocks)
is in `engine.printing.common`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Seat, Suit
from engine.drives import DriveSettings
from engine.drives.prizes import show
from engine.printing.toolkit import MM, PrintError

__all__ = [
    "PAD",
    "SEAT_WORDS",
    "SUIT_WORDS",
    "Names",
    "names_by_number",
    "player_name",
    "scores_tricks",
    "sit_out_points",
    "sit_out_words",
    "trumps_words",
]

Names = Mapping[int, str] | Sequence[str] | None
"""Players' names: a mapping from player number, or a list whose first name is player 1's.
A missing or empty name leaves the card's name line blank to write on."""

PAD = 4 * MM
SUIT_WORDS = {
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.SPADES: "spades",
    Suit.CLUBS: "clubs",
}
SEAT_WORDS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def names_by_number(names: Names) -> dict[int, str]:
    if names is None:
        return {}
    if isinstance(names, Mapping):
        return {int(k): str(v).strip() for k, v in names.items() if str(v).strip()}
    if isinstance(names, str):
        raise PrintError("names: a list of names or a mapping from player number, not one string")
    return {number: str(name).strip() for number, name in enumerate(names, 1) if str(name).strip()}


def trumps_words(settings: DriveSettings, hand: int) -> str:
    """A hand's trumps as a card prints them: symbol and word ('♥ hearts', 'NT no trumps'),
    empty for a game whose trumps are bid for at each table."""
    if settings.game_rules.has_auction:
        return ""
    suit = settings.trump(hand)
    if suit is None:
        return "NT no trumps"
    return f"{suit.symbol} {SUIT_WORDS[suit]}"


def player_name(names: Mapping[int, str], player: int) -> str:
    return names.get(player) or f"player {player}"


def scores_tricks(settings: DriveSettings) -> bool:
    """Whether a hand scores the tricks taken, so one column serves for tricks and score."""
    game = settings.game_rules
    if not game.takes_tricks:
        return False
    return all(game.points_for_tricks(k) == k for k in range(game.tricks + 1))


def sit_out_points(settings: DriveSettings) -> str:
    """A sitting-out player's score when it is fixed; empty when it is the hand's average,
    known only once every table has played."""
    if settings.sit_out_score == "average":
        return ""
    return show(settings.game_rules.points_for_tricks(settings.sit_out_tricks))


def sit_out_words(settings: DriveSettings) -> str:
    points = sit_out_points(settings)
    if not points:
        return "the average of that hand's players"
    return f"{points} (as {settings.sit_out_tricks} tricks)"
