"""The pure-Python double-dummy solver: the fallback when the C core is not built, and the
independent reference the tests check the C core against on small endings.

It is written plainly on purpose (full minimax over every legal card, memoised at trick
boundaries on the exact remaining hands) so that it is easy to check by reading; it shares no
search code with ``_core.c``. It is far too slow for full 13-card deals (minutes to hours):
clubwhist warns loudly when it has to use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from engine.dd.position import NO_SUIT, Card, Position, code_card

Hands = tuple[frozenset[Card], ...]


def legal_plays(position: Position, hands: Hands, seat: int, trick: tuple[Card, ...]) -> list[Card]:
    """The cards ``seat`` may play to a trick that already holds ``trick`` (in play order)."""
    hand = hands[seat]
    if position.columns is None:
        playable = set(hand)
    else:
        playable = set()
        for stack in position.columns[seat]:
            for card in reversed(stack):
                if card in hand:
                    playable.add(card)
                    break
    led = next((c[0] for c in trick if c[0] != NO_SUIT), None)
    if led is not None:
        follow = {c for c in playable if c[0] == led}
        if follow:
            if position.jokers_follow:
                follow |= {c for c in playable if c[0] == NO_SUIT}
            return sorted(follow)
    return sorted(playable)


def spare_moves(
    position: Position, hands: Hands, seat: int, trick: tuple[Card, ...], tricks_left: int
) -> list[tuple[Card, frozenset[Card]]]:
    """Legal plays with spare cards (``Position.tricks``): (card, cards put aside with it).

    A hand holding more cards than the tricks left (``tricks_left`` counts the one in
    progress) may play off-suit while holding the suit led by putting all its cards of that
    suit aside for good, if it can spare that many. That is the declarer choosing the Bid
    Whist discards as the play goes, which makes the value a bound on every fixed choice.
    """
    plays = [(card, frozenset[Card]()) for card in legal_plays(position, hands, seat, trick)]
    hand = hands[seat]
    led = next((c[0] for c in trick if c[0] != NO_SUIT), None)
    if led is None:
        return plays
    suit = frozenset(c for c in hand if c[0] == led)
    if suit and len(suit) <= len(hand) - tricks_left:
        plays += [(card, suit) for card in sorted(hand - suit)]
    return plays


def trick_winner(position: Position, trick: tuple[Card, ...]) -> int:
    """Index in ``trick`` of the winning card: highest trump, else highest of the suit led;
    no-suit cards never win (if only they were played, the first one keeps the trick)."""
    led = next((c[0] for c in trick if c[0] != NO_SUIT), None)
    if led is None:
        return 0

    def strength(card: Card) -> int:
        if card[0] == NO_SUIT:
            return -1
        if position.trump is not None and card[0] == position.trump:
            return 100 + card[1]
        if card[0] == led:
            return card[1]
        return -1

    return max(range(len(trick)), key=lambda i: strength(trick[i]))


class PySolver:
    """Solves one position's deal for any leader; results are memoised per side.

    It has the C core's methods so callers need not tell them apart; it counts no search
    nodes, so `nodes` stays 0 and `max_nodes` is accepted and ignored."""

    nodes = 0

    def __init__(self, position: Position) -> None:
        self.position = position

    def deal(self, hands: Sequence[Sequence[int]]) -> None:
        """New hands (card codes, as `Position.core_args` gives them) for the same game."""
        self.position = replace(
            self.position, hands=tuple(tuple(sorted(code_card(c) for c in h)) for h in hands)
        )

    def at_least(self, leader: int, for_seat: int, target: int, max_nodes: int = 0) -> bool:
        return self.solve(leader, for_seat) >= target

    def solve(self, leader: int, for_seat: int | None = None, max_nodes: int = 0) -> int:
        pos = self.position
        seat_of_interest = leader if for_seat is None else for_seat
        side = pos.side_of(seat_of_interest)
        n = pos.seats

        @cache
        def from_trick_start(hands: Hands, lead: int, left: int) -> int:
            if not left:
                return 0
            return in_trick(hands, lead, (), left)

        def in_trick(hands: Hands, seat: int, trick: tuple[Card, ...], left: int) -> int:
            results = []
            for card, aside in spare_moves(pos, hands, seat, trick, left):
                after = tuple(h - aside - {card} if i == seat else h for i, h in enumerate(hands))
                played = (*trick, card)
                if len(played) == n:
                    first = (seat + 1) % n  # the leader of this trick
                    winner = (first + trick_winner(pos, played)) % n
                    won = 1 if winner in side else 0
                    value = won + from_trick_start(after, winner, left - 1)
                else:
                    value = in_trick(after, (seat + 1) % n, played, left)
                results.append(value)
            return max(results) if seat in side else min(results)

        start = tuple(frozenset(h) for h in pos.hands)
        return from_trick_start(start, leader, pos.hand_size)
