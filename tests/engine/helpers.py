"""Shared test data: every variant with each of its board shapes."""

ALL_VARIANT_OPTIONS = [
    ("classic", {}),
    ("classic", {"trumps": "turned"}),
    ("classic", {"no_trump_every": 5}),
    ("bidwhist", {}),
    ("candid", {}),
    ("openwhist", {}),
    ("openwhist", {"players": 2}),
    ("openwhist", {"players": 3}),
    ("openwhist", {"fixed_trumps": True, "no_trump_every": 5}),
]


from engine.boards import Board, Deal  # noqa: E402
from engine.cards import Card, Seat, bid_whist_deck, standard_deck  # noqa: E402
from engine.games.play import Play  # noqa: E402


def cards(text):
    """'SA HK C2' -> cards."""
    return [Card.from_str(part) for part in text.split()]


def board_with(variant, given, *, number=1, kitty=(), trumps=None, turned=None, dealer=None):
    """A complete board whose named seats hold at least the given cards; the rest is filled in."""
    deck = bid_whist_deck() if variant == "bidwhist" else standard_deck()
    size = 12 if variant == "bidwhist" else 13
    hands = {seat: list(cards(given.get(seat, ""))) for seat in Seat}
    kitty_cards = list(cards(kitty)) if isinstance(kitty, str) else list(kitty)
    used = {c for hand in hands.values() for c in hand} | set(kitty_cards)
    spare = [c for c in deck if c not in used]
    for seat in Seat:
        while len(hands[seat]) < size:
            hands[seat].append(spare.pop(0))
    if variant == "bidwhist":
        while len(kitty_cards) < 6:
            kitty_cards.append(spare.pop(0))
    dealer = dealer or [Seat.N, Seat.E, Seat.S, Seat.W][(number - 1) % 4]
    deal = Deal({seat: tuple(hand) for seat, hand in hands.items()})
    return Board(number, variant, dealer, deal, trumps, tuple(kitty_cards), turned)


def play_position(rules, board, context, hands, current=()):
    """A Play set up mid-trick: `hands` by seat (text), `current` the cards already played."""
    play = Play(rules, board, context, {seat: cards(text) for seat, text in hands.items()})
    for seat, card in current:
        play.current.append((seat, Card.from_str(card)))
    seats = context.seats
    if current:
        last = current[-1][0]
        play.to_play = seats[(seats.index(last) + 1) % len(seats)]
    return play
