"""Random small endings of every clubwhist game, in the solver's generic terms."""

from __future__ import annotations

import random

from engine.dd import NO_SUIT, Position

KINDS = ("classic", "bid_suit", "bid_no_trump", "open4", "open3", "three_hands")


def _split_into_stacks(rng: random.Random, hand: list[tuple[int, int]]) -> tuple:
    cards = hand[:]
    rng.shuffle(cards)
    stacks = []
    while cards:
        take = rng.randint(1, min(3, len(cards)))
        stacks.append(tuple(cards[:take]))
        cards = cards[take:]
    return tuple(stacks)


def random_ending(rng: random.Random, kind: str, size: int) -> Position:
    seats = 3 if kind in ("open3", "three_hands") else 4
    trump: int | None = rng.choice((None, 0, 1, 2, 3))
    deck = [(s, r) for s in range(4) for r in range(13)]
    jokers_follow = False
    if kind == "bid_suit":
        trump = rng.randrange(4)
        deck += [(trump, 13), (trump, 14)]  # Little and Big Joker on top of the trumps
    elif kind == "bid_no_trump":
        trump = None
        deck += [(NO_SUIT, 0), (NO_SUIT, 1)]
        jokers_follow = rng.random() < 0.5
    # few suits make for more following, ruffing and squeezing
    suits = rng.sample(range(4), rng.randint(2, 4))
    deck = [c for c in deck if c[0] in suits or c[0] == NO_SUIT or c[0] == trump]
    if kind == "bid_no_trump":
        # make jokers likely to be dealt
        deck = [(NO_SUIT, 0), (NO_SUIT, 1), *rng.sample(deck[:-2], len(deck) - 2)]
        chosen = deck[:2] + rng.sample(deck[2:], size * seats - 2)
        rng.shuffle(chosen)
    else:
        chosen = rng.sample(deck, size * seats)
    hands = [sorted(chosen[i * size : (i + 1) * size]) for i in range(seats)]
    columns = None
    if kind in ("open4", "open3"):
        columns = tuple(_split_into_stacks(rng, h) for h in hands)
    return Position(
        hands=tuple(tuple(h) for h in hands),
        trump=trump,
        leader=rng.randrange(seats),
        jokers_follow=jokers_follow,
        columns=columns,
    )
