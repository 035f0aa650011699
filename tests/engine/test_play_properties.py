"""Property tests: any random legal play of any game finishes cleanly with one winner a trick."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Seat, Suit
from engine.dealing import deal_boards
from engine.games import find_variant
from engine.games.bidwhist import BidKind, BidWhistEntry
from engine.games.candid import CandidEntry

from .helpers import ALL_VARIANT_OPTIONS


def _contract(rules, board, rng):
    if rules.name == "candid":
        strain = rng.choice([*Suit, None])
        return CandidEntry(rng.choice(list(Seat)), 7, strain, 7)
    if rules.name == "bidwhist":
        declarer = rng.choice(list(Seat))
        kind = rng.choice(list(BidKind))
        trumps = None if kind is BidKind.NOTRUMP else rng.choice(list(Suit))
        ranking = rng.choice([BidKind.UPTOWN, BidKind.DOWNTOWN]) if trumps is None else None
        entry = BidWhistEntry(declarer, 3, kind, trumps, ranking, 9)
        pool = [*board.deal.hand(declarer), *board.kitty]
        rng.shuffle(pool)
        # At no-trump the jokers have to go; discard them first, then anything.
        pool.sort(key=lambda c: not (c.is_joker and kind is BidKind.NOTRUMP))
        return rules.contract(entry, pool[:6])
    return None


def _oracle_winner(trick, trumps):
    """Plain whist: highest trump, else highest card of the first card's suit (no jokers)."""
    led = trick[0][1].suit
    trumped = [(seat, card) for seat, card in trick if trumps is not None and card.suit is trumps]
    pool = trumped or [(seat, card) for seat, card in trick if card.suit is led]
    return max(pool, key=lambda item: item[1].rank)[0]


@settings(max_examples=40, deadline=None)
@given(
    choice=st.sampled_from(ALL_VARIANT_OPTIONS),
    seed=st.integers(min_value=0, max_value=10**6),
    number=st.integers(min_value=1, max_value=32),
)
def test_any_random_legal_play_ends_with_every_card_played(choice, seed, number):
    variant, options = choice
    rules = find_variant(variant)(options)
    board = deal_boards(variant, [number], seed=seed, options=options)[0]
    rng = random.Random(seed)
    play = rules.new_play(board, _contract(rules, board, rng))
    starting = {seat: list(play.hands[seat]) for seat in board.seats}
    while not play.is_over:
        legal = play.legal_plays()
        assert legal, "a player with cards always has a legal play"
        assert set(legal) <= set(play.hands[play.to_play])
        play.play(rng.choice(legal))
    assert all(not play.hands[seat] for seat in board.seats)
    assert len(play.tricks) == rules.hand_size
    assert sum(play.won.values()) == rules.hand_size
    played = sorted(str(card) for trick in play.tricks for _seat, card in trick.cards)
    assert played == sorted(str(card) for hand in starting.values() for card in hand)
    for trick in play.tricks:
        seats = [seat for seat, _card in trick.cards]
        assert len(seats) == len(set(seats)) == len(board.seats)
        assert trick.winner in seats
        if variant != "bidwhist":
            assert trick.winner is _oracle_winner(trick.cards, play.context.trumps)
        else:
            winning = dict(trick.cards)[trick.winner]
            if play.context.trumps is None:
                assert not winning.is_joker, "a joker never wins at no-trump"
    # The replay of the same cards reproduces the same tricks.
    again = rules.replay(
        board, [card for _seat, card in play.history], _contract(rules, board, random.Random(seed))
    )
    assert again.tricks == play.tricks
