"""Portable Bridge Notation 2.1 for whist boards, read and written like the json module.

The format, with clubwhist's whist extension tags, is described in `engine.pbn_text`, which
reads and writes it; this module turns what it reads into checked `Board`s. A board reads its
game's shape from the registry the games enter when `engine.games` is imported, so this module
imports the games: reading a file then works in a program that imports nothing else.

>>> from engine.dealing import deal_boards
>>> boards = deal_boards("bidwhist", [1, 2], seed=3)
>>> loads(dumps(boards)) == boards
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

import engine.games  # noqa: F401  (enters every game's board shape; see the docstring)
from engine import EngineError
from engine.boards import Board, BoardError
from engine.cards import Suit
from engine.games.base import GameRules
from engine.pbn_text import HEADER, BoardFields, PBNError, board_lines, deal_count, parse
from engine.shapes import BoardShape, Trumps, shape_names, shape_of

__all__ = ["PBNError", "deal_count", "dump", "dumps", "load", "loads", "loads_for_game"]


def loads(text: str, *, variant: str = "classic", most: int | None = None) -> list[Board]:
    """The boards in PBN `text`; games without a Deal (headers, notes) are skipped. Without a
    `WhistVariant` tag a board is read as `variant`. With `most`, a file of more boards is
    refused once the board past it is found, unread beyond (`engine.pbn_text.parse`)."""
    return parse(text, variant=variant, make=Board.from_fields, most=most)


def _as_dealt(rules: GameRules, number: int) -> Board:
    """Board `number` as `rules` would deal it: its trumps and whether a card is turned for
    them depend on the board number and the options only, never on the cards."""
    return rules.deal_board(number, random.Random(number))


def _turning_option(rules: GameRules) -> str:
    """The option that makes `rules` turn a card for trumps, in words, for a refusal."""
    for spec in rules.option_specs:
        if rules.option(spec.key) == spec.default:
            continue
        try:
            plain = type(rules)({**rules.options, spec.key: spec.default})
        except EngineError:
            continue
        if _as_dealt(plain, 1).turned_card is None:
            words = dict(spec.choice_labels()).get(rules.option(spec.key), rules.option(spec.key))
            return f"option {spec.key} ({words})"
    return "its options"


def loads_for_game(text: str, rules: GameRules, *, most: int | None = None) -> list[Board]:
    """The boards in PBN `text` for an event of `rules`'s game and options.

    Boards without `WhistVariant` are read as the event's game (a dealing program's 52-card
    bridge deal is a Candid Whist deal as it stands). A fixed-trumps board the file gives no
    trumps takes those these rules give its number (the event's rotation). When these options
    set trumps by a turned card, a board whose turned card the file does not give is refused,
    naming the option: a plain deal cannot say which card was turned (its hands are sorted),
    and rotation trumps would silently change the game. `most` as in `loads`.
    """

    def untagged(number: int) -> Suit | None:
        dealt = _as_dealt(rules, number)
        if dealt.turned_card is not None:
            raise PBNError(
                f"board {number} has no turned card ([WhistTurnedCard]), but this event's "
                f"{_turning_option(rules)} takes trumps from it: import a file that gives each "
                "board's turned card, or set trumps by the board number"
            )
        return dealt.trumps

    def make(fields: BoardFields) -> Board:
        try:
            return Board.from_fields(fields)
        except EngineError as exc:
            raise BoardError(_another_deck(fields) or str(exc)) from None

    boards = parse(text, variant=rules.name, make=make, untagged=untagged, most=most)
    for board in boards:
        refusal = _another_game(board, rules)
        if refusal is not None:
            raise PBNError(refusal)
    for board in boards:
        if board.turned_card is not None:
            continue
        try:
            rules.check_board(board)
        except EngineError:
            continue  # a board these rules refuse for its trumps: the caller says why
        if _as_dealt(rules, board.number).turned_card is not None:
            raise PBNError(
                f"board {board.number} gives its trumps but no turned card "
                f"([WhistTurnedCard]), and this event's {_turning_option(rules)} takes "
                "trumps from it: import a file that gives each board's turned card"
            )
    return boards


def _what_to_import(title: str) -> str:
    """The way out of a refusal of a file for the wrong game: the same words everywhere."""
    return (
        "Let clubwhist deal the boards (they are dealt when the event is made), or import a "
        f"PBN file written for {title}, such as the boards file of another clubwhist event of "
        "this game. Nothing was imported"
    )


def _a(title: str) -> str:
    """`title` with its article: "a Bid Whist", "an Open Whist"."""
    return ("an " if title[:1].upper() in "AEIOU" else "a ") + title


def _dealt_as(shape: BoardShape) -> str:
    """How a game deals, in words: "4 hands of 12 and a kitty of 6 from 54 cards ..."."""
    dealt = " or ".join(f"{len(hands.seats)} hands of {hands.size}" for hands in shape.deals) + (
        f" and a kitty of {shape.kitty}" if shape.kitty else ""
    )
    deck = "54 cards with the two jokers" if shape.jokers else "52 cards"
    return f"{dealt} from {deck}"


def _another_deck(fields: BoardFields) -> str | None:
    """What to say when a board read as this event's game (the file names no game) cannot be
    one: "North holds 13 cards, not 12" or "West has no cards" say what is wrong with the
    board, not that the file was dealt for another game, nor what to do. A bridge deal (four
    hands of 13, no kitty: what dealing programs write) offered to Bid Whist or three-handed
    Open Whist is named as such; another game's deal by its hands; fixed trumps offered to a
    game whose auction chooses them by the trumps. None: the fault is elsewhere."""
    shape = shape_of(fields.variant)
    sizes = sorted(len(cards) for cards in fields.hands.values() if cards)
    if sizes == [13, 13, 13, 13] and not fields.kitty:
        if any(len(hands.seats) == 4 and hands.size == 13 for hands in shape.deals) and not (
            shape.kitty or shape.jokers
        ):
            return _fixed_trumps(fields, shape)  # a bridge deal is this game's deal
        return (
            f"board {fields.number} is a bridge deal (four hands of 13, as dealing programs "
            f"write them), and {shape.title} deals {_dealt_as(shape)}: a file of bridge deals "
            f"cannot become this event's boards. {_what_to_import(shape.title)}"
        )
    if _fits(shape, sizes, len(fields.kitty)):
        return _fixed_trumps(fields, shape)
    other = next(
        (
            shape_of(name)
            for name in shape_names()
            if name != fields.variant and _fits(shape_of(name), sizes, len(fields.kitty))
        ),
        None,
    )
    if other is None:
        return None  # no game's deal either (a card missing, one twice): the board's own fault
    held = " and ".join(f"{count} hands of {size}" for size, count in Counter(sizes).items())
    kitty = f" and a kitty of {len(fields.kitty)}" if fields.kitty else ""
    return (
        f"board {fields.number}'s deal is {_a(other.title)} deal ({held}{kitty}), and "
        f"{shape.title} deals {_dealt_as(shape)}: the file was dealt for another game and does "
        f"not say so ([WhistVariant]). {_what_to_import(shape.title)}"
    )


def _fits(shape: BoardShape, sizes: list[int], kitty: int) -> bool:
    """Whether hands of `sizes` and a kitty of `kitty` cards are one of `shape`'s deals (a hand
    may hold one card more: the loose card some deals give the dealer)."""
    return kitty == shape.kitty and any(
        len(hands.seats) == len(sizes)
        and all(size in (hands.size, hands.size + 1) for size in sizes)
        for hands in shape.deals
    )


def _fixed_trumps(fields: BoardFields, shape: BoardShape) -> str | None:
    """The refusal of fixed trumps for a game whose auction chooses them, else None."""
    if fields.trumps is None or shape.trumps is not Trumps.AUCTION:
        return None
    return (
        f"board {fields.number} fixes trumps ({fields.trumps.letter}), as classic and Open "
        f"Whist boards do, and {shape.title} chooses trumps in the auction: the file was "
        f"written for another game. {_what_to_import(shape.title)}"
    )


def _another_game(board: Board, rules: GameRules) -> str | None:
    """What to say when a board the file names another game for, or deals for other options
    (another number of players), is offered to this event; None when it is this event's."""
    if not rules.dealt_for(board):
        theirs = shape_of(board.variant).title
        return (
            f"board {board.number} is {_a(theirs)} board (the file says "
            f'[WhistVariant "{board.variant}"]), and this event plays {rules.title}: a board '
            f"dealt for one game cannot be played as another. {_what_to_import(rules.title)}"
        )
    if board.hand_size != rules.hand_size:
        return (
            f"board {board.number} has {board.hand_size} cards a hand, and this event's "
            f"{rules.title} options play {rules.hand_size} (another number of players): import "
            "a file dealt for these options, such as the boards file of an event with the same "
            "options, or change the event's options to fit the file. Nothing was imported"
        )
    return None


def load(fp: TextIO, *, variant: str = "classic") -> list[Board]:
    return loads(fp.read(), variant=variant)


def dumps(boards: Iterable[Board], *, header: bool = True) -> str:
    """PBN text for `boards`, one game per board, games separated by a blank line."""
    chunks = [HEADER] if header else []
    chunks.extend("\n".join(board_lines(board)) + "\n" for board in boards)
    return "\n".join(chunks)


def dump(boards: Iterable[Board], fp: TextIO, *, header: bool = True) -> None:
    fp.write(dumps(boards, header=header))
