"""Printed documents, read back with pypdf: every board, hand, line, table and pair is there,
on the number of pages the layout promises, for the four games and three-player Open Whist.

The expected text is written here independently of engine.printing: a suit prints as its
symbol and its ranks high to low ('♥ A K 10 7', the ten in full), a void as '♥ —'.
"""

from __future__ import annotations

import math
import random
import re
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from engine.cards import Seat, Suit
from engine.dealing import deal_boards
from engine.games import find_variant, rules_for, variant_names
from engine.games.candid import hcp
from engine.movements import PHANTOM, build, howell, mitchell
from engine.printing import (
    PrintError,
    board_slips,
    curtain_cards,
    duplication_sheet,
    hand_records,
    pair_cards,
    print_pack,
    results_sheet,
    table_cards,
    travellers,
)
from engine.printing.curtain import curtain_grid
from engine.printing.guides import pair_cards_layout, table_cards_layout
from engine.printing.records import hand_records_grid
from engine.printing.toolkit import FONT_DIR, PAPERS
from engine.printing.travellers import travellers_layout
from engine.scoring import TravellerLine, score_session
from engine.scoring.document import StandingsDocument, section_standings

ROOT = Path(__file__).resolve().parents[2]

# Every game at its defaults, and three-player Open Whist (the one other board shape).
GAMES = [*((name, {}) for name in variant_names()), ("openwhist", {"players": 3})]
GAME_IDS = [*variant_names(), "openwhist3"]

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANKS = {14: "A", 13: "K", 12: "Q", 11: "J"}


# ---- reading PDFs back ---------------------------------------------------------------------


def read(pdf: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(BytesIO(pdf))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def page_count(pdf: bytes) -> int:
    return len(PdfReader(BytesIO(pdf)).pages)


def suit_text(cards, suit: Suit) -> str:
    """How a hand's suit is printed: '♥ A K 10 7', or '♥ —' for a void."""
    ranks = sorted((c.rank for c in cards if c.suit is suit), reverse=True)
    return f"{suit.symbol} " + (" ".join(RANKS.get(r, str(r)) for r in ranks) or "—")


def hand_text(cards) -> str:
    """A hand by suit as it reads back: the four suit lines one under the other."""
    return "\n".join(suit_text(cards, suit) for suit in SUITS)


def full_hand(cards) -> str:
    """The jokers' line (Bid Whist, big first) over the suit lines."""
    jokers = sorted((c for c in cards if c.is_joker), key=lambda c: -c.rank)
    names = ", ".join(card_text(c) for c in jokers)
    return (names + "\n" if names else "") + hand_text(cards)


def card_text(card) -> str:
    if card.is_joker:
        return "Big Joker" if card.rank == 16 else "Little Joker"
    return card.suit.symbol + RANKS.get(card.rank, str(card.rank))


def game(variant, options, numbers=range(1, 5)):
    rules = rules_for(variant, options)
    return deal_boards(variant, list(numbers), seed=11, options=options), rules


def card_segments(text: str) -> dict[tuple[str, str], str]:
    """Curtain cards by (board, what): each card's text, up to the next card's header."""
    headers = list(
        re.finditer(r"^Board (\d+) (North|East|South|West|Kitty|Trump card)$", text, re.M)
    )
    out = {}
    for here, after in zip(headers, [*headers[1:], None], strict=True):
        end = after.start() if after else len(text)
        out[(here.group(1), here.group(2))] = text[here.end() : end]
    return out


# ---- curtain cards -------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=GAME_IDS)
def test_curtain_cards_hold_every_hand_of_every_board(variant, options):
    boards, rules = game(variant, options)
    _, text = read(curtain_cards(boards, rules))
    cards = card_segments(text)
    for board in boards:
        for seat in board.seats:
            body = cards[(str(board.number), seat.full_name)]
            assert f"Dealer {board.dealer.full_name}" in body
            assert full_hand(board.deal.hand(seat)) in body
            if not rules.has_auction:
                assert f"Trumps: {rules.trumps_text(board)}" in body
            else:
                assert "Trumps" not in body
        if board.kitty:
            assert full_hand(board.kitty) in cards[(str(board.number), "Kitty")]
    expected_cards = sum(len(b.seats) for b in boards) + sum(bool(b.kitty) for b in boards)
    expected_cards += sum(b.hand_size == 17 for b in boards)  # the turned card's own card
    assert len(cards) == expected_cards


def test_bid_whist_jokers_are_named_on_the_card_that_holds_them():
    boards, rules = game("bidwhist", {}, range(1, 9))
    _, text = read(curtain_cards(boards, rules))
    cards = card_segments(text)
    for board in boards:
        holders = {c: s.full_name for s in board.seats for c in board.deal.hand(s)}
        holders.update(dict.fromkeys(board.kitty, "Kitty"))
        for joker, name in (("BJ", "Big Joker"), ("LJ", "Little Joker")):
            card = next(c for c in holders if str(c) == joker)
            assert name in cards[(str(board.number), holders[card])]
    assert text.count("Big Joker") == text.count("Little Joker") == len(boards)


def test_open_whist_cards_lay_out_each_column_bottom_card_first():
    for options in ({}, {"players": 2}, {"players": 3}):
        boards, rules = game("openwhist", options, range(1, 4))
        _, text = read(curtain_cards(boards, rules))
        cards = card_segments(text)
        for board in boards:
            for seat, columns in board.columns.items():
                body = cards[(str(board.number), seat.full_name)]
                for i, column in enumerate(columns, start=1):
                    assert "\n".join([str(i), *map(card_text, column)]) in body


def test_three_player_open_whist_turned_card_has_a_card_of_its_own():
    boards, rules = game("openwhist", {"players": 3}, range(1, 4))
    _, text = read(curtain_cards(boards, rules))
    cards = card_segments(text)
    for board in boards:
        assert board.seats == (Seat.N, Seat.E, Seat.S)
        body = cards[(str(board.number), "Trump card")]
        assert card_text(board.turned_card) in body
        assert "belongs to no player" in body
        assert (str(board.number), "West") not in cards


def test_candid_cards_print_the_hcp_each_player_announces():
    boards, rules = game("candid", {})
    _, text = read(curtain_cards(boards, rules))
    cards = card_segments(text)
    for board in boards:
        for seat in board.seats:
            assert f"Announce {hcp(board, seat)} HCP" in cards[(str(board.number), seat.full_name)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_curtain_card_pages_follow_the_grid(paper):
    classic, rules = game("classic", {}, range(1, 8))
    grid = curtain_grid(PAPERS[paper], classic)
    assert grid.per_page == 8  # two across, four down on both papers
    pdf = curtain_cards(classic, rules, paper=paper)
    assert page_count(pdf) == math.ceil(4 * 7 / 8)
    bid, bid_rules = game("bidwhist", {}, range(1, 8))
    assert page_count(curtain_cards(bid, bid_rules, paper=paper)) == math.ceil(5 * 7 / 8)
    ow, ow_rules = game("openwhist", {"players": 3}, range(1, 8))
    grid = curtain_grid(PAPERS[paper], ow)
    assert grid.per_page == 6  # the column layouts need taller cards
    assert page_count(curtain_cards(ow, ow_rules, paper=paper)) == math.ceil(4 * 7 / 6)


# ---- hand records, board slips, duplication ------------------------------------------------


def analysis_for(board, variant):
    """A stored analysis in `BoardAnalysis.to_dict()` shape for each kind of game."""
    if not find_variant(variant).has_auction and board.hand_size == 13:
        tricks = {"trumps": "H", "leader": "E", "ns": 7, "ew": 6}
        return {
            "board": board.number,
            "tricks": tricks,
            "table": None,
            "par": {"contracts": ["H, E leads"], "ns_score": 1, "tricks": {}, "approximate": False},
            "error": None,
        }
    if variant == "openwhist":
        tricks = {"trumps": "S", "leader": "E", "tricks": {"N": 3, "E": 8, "S": 6}}
        par = {"contracts": ["S, E leads"], "ns_score": None, "tricks": {}, "approximate": False}
        return {"board": board.number, "tricks": tricks, "table": None, "par": par, "error": None}
    if variant == "candid":
        table = {s: {"C": 9, "D": 8, "H": 5, "S": 6, "NT": 7} for s in "NESW"}
        par = {"contracts": ["9C by N"], "ns_score": 90, "tricks": {}, "approximate": False}
        return {"board": board.number, "tricks": None, "table": table, "par": par, "error": None}
    kinds = [f"{k} {s}" for k in ("uptown", "downtown") for s in "CDHS"]
    kinds += ["notrump uptown", "notrump downtown"]
    table = {s: {k: 4 + i % 5 for i, k in enumerate(kinds)} for s in "NESW"}
    table["approximate"] = ["N uptown S"]
    par = {"contracts": ["4 uptown S by N"], "ns_score": 4, "tricks": {}, "approximate": False}
    return {"board": board.number, "tricks": None, "table": table, "par": par, "error": None}


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=GAME_IDS)
def test_hand_records_show_every_hand_and_the_analysis(variant, options):
    boards, rules = game(variant, options)
    analyses = {b.number: analysis_for(b, variant) for b in boards[:-1]}
    last = boards[-1].number
    analyses[last] = {"board": last, "tricks": None, "table": None, "par": None, "error": "cut"}
    _, text = read(hand_records(boards, rules, analyses=analyses))
    for board in boards:
        assert f"Board {board.number} · Dealer {board.dealer.full_name}" in text
        for seat in board.seats:
            assert hand_text(board.deal.hand(seat)) in text
        if board.kitty:
            assert "Kitty\n" + full_hand(board.kitty) in text
    assert text.count("Par: ") == len(boards) - 1
    assert "Analysis: cut" in text
    if variant == "candid":
        assert "Par: 9♣ by N; NS +90" in text  # suit symbols, not letters
        assert "N 9 8 5 6 7" in text  # declarer x strain: C D H S NT
    if variant == "bidwhist":
        # a row per trump suit and no-trump; each seat's uptown and downtown books
        assert "N up N dn E up E dn S up S dn W up W dn" in text
        assert "♣ 4 8 4 8 4 8 4 8\n" in text
        assert "♠ 7~ 6 7 6 7 6 7 6\nNT 7 8 7 8 7 8 7 8" in text  # ~: approximate
        assert "Par: 4 uptown ♠ by N; NS +4" in text
    if variant == "classic":
        assert "Tricks at ♥ 7 6" in text  # NS, EW
    if options.get("players") == 3:
        assert "Tricks at ♠ 3 8 6" in text  # N, E, S


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hand_record_and_slip_pages_follow_their_grids(paper):
    boards, rules = game("classic", {}, range(1, 14))
    analyses = {b.number: analysis_for(b, "classic") for b in boards}
    grid = hand_records_grid(boards, rules, analyses=analyses, paper=paper)
    assert grid.columns == 2
    pdf = hand_records(boards, rules, analyses=analyses, paper=paper)
    assert page_count(pdf) == math.ceil(13 / grid.per_page)
    slips = hand_records_grid(boards, rules, paper=paper, slips=True)
    assert slips.cut_marks
    assert page_count(board_slips(boards, rules, paper=paper)) == math.ceil(13 / slips.per_page)


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=GAME_IDS)
def test_board_slips_show_every_hand(variant, options):
    boards, rules = game(variant, options)
    _, text = read(board_slips(boards, rules))
    for board in boards:
        assert f"Board {board.number} · Dealer" in text
        for seat in board.seats:
            assert hand_text(board.deal.hand(seat)) in text


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=GAME_IDS)
def test_duplication_sheet_has_a_line_per_board_per_hand(variant, options):
    boards, rules = game(variant, options, range(1, 9))
    _, text = read(duplication_sheet(boards, rules))
    lines = text.splitlines()
    for board in boards:
        assert any(line.startswith(f"{board.number} North ") for line in lines)
        for seat in board.seats:
            cards = board.deal.hand(seat)
            line = f"{seat.full_name} " + " ".join(suit_text(cards, s) for s in SUITS)
            assert line in text
            if board.columns:
                order = " / ".join(" ".join(map(card_text, col)) for col in board.columns[seat])
                assert order in text
        if board.kitty:
            assert "Kitty " + " ".join(suit_text(board.kitty, s) for s in SUITS) in text


def test_duplication_sheet_keeps_a_board_on_one_page():
    boards, rules = game("bidwhist", {}, range(1, 37))
    reader, _ = read(duplication_sheet(boards, rules))
    assert len(reader.pages) > 1
    for page in reader.pages:
        lines = page.extract_text().splitlines()
        body = [line for line in lines if re.match(r"^(\d+ )?(North|East|South|West|Kitty) ", line)]
        assert re.match(r"^\d+ North ", body[0])
        assert body[-1].startswith("Kitty ")


# ---- travellers ----------------------------------------------------------------------------


def expected_rows(movement, board):
    board_set = movement.set_of_board(board)
    return [
        f"{m.round} {m.table} {m.ns} {m.ew}"
        for m in movement.meetings
        if m.set == board_set and PHANTOM not in (m.ns, m.ew)
    ]


def traveller_segments(text):
    parts = re.split(r"^Board (\d+)\b", text, flags=re.M)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


MOVEMENTS = {
    "mitchell": lambda: mitchell(5, boards_per_round=2),
    "mitchell-phantom-arrow": lambda: mitchell(
        5, boards_per_round=2, phantom=True, arrow_switch=[5]
    ),
    "skip": lambda: build("skip-mitchell", tables=6, boards_per_round=2),
    "relay": lambda: build("relay-mitchell", tables=4, boards_per_round=2),
    "howell": lambda: howell(4, boards_per_round=2),
}


@pytest.mark.parametrize("kind", sorted(MOVEMENTS))
def test_travellers_hold_every_meeting_of_every_board(kind):
    movement = MOVEMENTS[kind]()
    boards, rules = game("classic", {}, range(1, movement.board_count() + 1))
    _, text = read(travellers(boards, rules, movement))
    found = traveller_segments(text)
    assert sorted(found) == [b.number for b in boards]
    for board in boards:
        rows = [line for line in found[board.number].splitlines() if re.fullmatch(r"[\d ]+", line)]
        assert rows == expected_rows(movement, board.number)
    if movement.arrow_switch_rounds:
        assert "arrow switch" in text


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=GAME_IDS)
def test_traveller_columns_come_from_the_games_entry_fields(variant, options):
    movement = mitchell(3, boards_per_round=1)
    boards, rules = game(variant, options, range(1, 4))
    _, text = read(travellers(boards, rules, movement))
    shorts = " ".join(f.short for f in rules.entry_fields())
    # NS's tricks are the whole result of classic and four-player Open Whist: EW is derived.
    derived = " EW" if variant == "classic" or (variant, options) == ("openwhist", {}) else ""
    heading = f"Round Table NS pair EW pair {shorts}{derived} NS score EW score NS MP EW MP"
    assert text.count(heading) == 3
    for f in rules.entry_fields():
        assert f.label in text or f.label == f.short


def test_travellers_name_the_pairs_when_names_are_given():
    movement = mitchell(3, boards_per_round=1)
    boards, rules = game("classic", {}, range(1, 4))
    names = {
        f"{p.direction}{p.number}": f"Zoë & Ștefan {p.direction}{p.number}" for p in movement.pairs
    }
    _, text = read(travellers(boards, rules, movement, names=names))
    for key, who in names.items():
        assert who in text, key


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_traveller_pages_follow_the_layout(paper):
    movement = mitchell(7, boards_per_round=3)
    boards, rules = game("classic", {}, range(1, 22))
    grid = travellers_layout(boards, rules, movement, paper=paper)
    assert grid.per_page == 3
    assert page_count(travellers(boards, rules, movement, paper=paper)) == 7
    big = mitchell(15, boards_per_round=2)
    boards, rules = game("classic", {}, range(1, 31))
    grid = travellers_layout(boards, rules, big, paper=paper)
    assert page_count(travellers(boards, rules, big, paper=paper)) == math.ceil(30 / grid.per_page)


def test_travellers_refuse_boards_the_movement_does_not_play():
    movement = mitchell(3, boards_per_round=2)
    boards, rules = game("classic", {}, range(1, 6))
    with pytest.raises(PrintError, match="board 6 is missing"):
        travellers(boards, rules, movement)
    boards, rules = game("classic", {}, range(1, 9))
    with pytest.raises(PrintError, match="boards 7-8 are not played"):
        travellers(boards, rules, movement)


# ---- guide cards ---------------------------------------------------------------------------


def boards_text(movement, board_set):
    b = movement.boards_for_set(board_set)
    return f"{b[0]}-{b[-1]}" if len(b) > 1 else str(b[0])


@pytest.mark.parametrize("kind", sorted(MOVEMENTS))
def test_table_cards_give_every_round_of_every_table(kind):
    movement = MOVEMENTS[kind]()
    _, text = read(table_cards(movement))
    parts = re.split(r"^Table (\d+)$", text, flags=re.M)
    found = {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}
    # A table nobody plays at all evening (the phantom's, when it is stationary) has no card.
    assert sorted(found) == list(movement.tables_in_play)
    for m in movement.meetings:
        if m.table in movement.idle_tables:
            continue
        switched = "*" if m.round in movement.arrow_switch_rounds else ""
        ns = "sit out" if m.ns == PHANTOM else m.ns
        ew = "sit out" if m.ew == PHANTOM else m.ew
        row = f"{m.round}{switched} {ns} {ew} {boards_text(movement, m.set)} "
        assert row in found[m.table], (m, found[m.table])
    if movement.relay_sets:
        relay = text.split("Relay stand", 1)[1]
        for r, s in movement.relay_sets:
            assert f"{r} {boards_text(movement, s)} " in relay
    assert "http" not in text


def test_table_cards_carry_a_qr_code_only_when_given_a_link():
    movement = mitchell(3, boards_per_round=2)
    links = {t: f"https://club.example/e/7/t/{t}" for t in (1, 2, 3)}
    plain = table_cards(movement)
    linked = table_cards(movement, links=links)
    _, text = read(linked)
    flat = text.replace("\n", "")
    for url in links.values():
        assert url in flat
    assert len(linked) > len(plain) + 3000  # three codes of a few hundred squares each


@pytest.mark.parametrize("kind", sorted(MOVEMENTS))
def test_pair_cards_give_every_pair_its_rounds(kind):
    movement = MOVEMENTS[kind]()
    _, text = read(pair_cards(movement, names={"NS1": "Zoë Ångström & Ana Núñez"}))
    titles = re.findall(r"^((?:NS |EW )?[Pp]air \d+)$", text, re.M)
    expected = []
    for slot in movement.pairs:
        if movement.one_winner:
            expected.append(f"Pair {slot.number}")
        else:
            expected.append(f"{slot.direction} pair {slot.number}")
    assert sorted(titles) == sorted(expected)
    for slot in movement.pairs:
        direction = None if movement.one_winner else slot.direction
        for g in movement.guide_for_pair(slot.number, direction):
            if g.opponents == PHANTOM:
                # The sit-out table is not set up where it is idle all evening: a dash.
                table = "—" if g.table in movement.idle_tables else str(g.table)
                row = f"{g.round} {table} — sit out —"
            else:
                star = "*" if g.round in movement.arrow_switch_rounds else ""
                boards = boards_text(movement, g.set)
                row = f"{g.round} {g.table} {g.seat}{star} {g.opponents} {boards}"
            assert row in text
    if not movement.one_winner:
        assert "Zoë Ångström & Ana Núñez" in text


def test_arrow_switch_puts_the_ns_pair_in_ew_on_the_switched_round():
    movement = mitchell(5, boards_per_round=2, arrow_switch=[5])
    _, text = read(pair_cards(movement))
    card = text.split("Pair 1\n", 1)[1].split("Pair 2\n", 1)[0]
    usual, switched = movement.meeting(4, 1), movement.meeting(5, 1)
    assert usual.ns == 1 and switched.ew == 1  # the NS pair holds the EW cards in round 5
    assert f"\n4 1 NS {usual.ew} " in card
    assert f"\n5 1 EW* {switched.ns} " in card


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_guide_card_pages_follow_their_grids(paper):
    for movement in (mitchell(7), howell(6), build("relay-mitchell", tables=6)):
        grid = table_cards_layout(movement, paper=paper)
        cards = movement.tables + bool(movement.relay_sets)
        assert page_count(table_cards(movement, paper=paper)) == math.ceil(cards / grid.per_page)
        grid = pair_cards_layout(movement, paper=paper)
        pairs = len(movement.pairs)
        assert page_count(pair_cards(movement, paper=paper)) == math.ceil(pairs / grid.per_page)


# ---- results -------------------------------------------------------------------------------


def scored_event(variant="classic", options=None, tables=4, one_winner=False):
    movement = (
        howell(tables, boards_per_round=2)
        if one_winner
        else mitchell(tables + 1, boards_per_round=2)
    )
    boards, rules = game(variant, options or {}, range(1, movement.board_count() + 1))
    rng = random.Random(3)
    lines = []
    for m in movement.meetings:
        for number in movement.boards_for_set(m.set):
            board = boards[number - 1]
            entry = rules.parse_entry(board, rules.plausible_entry(board, rng))
            lines.append(TravellerLine(number, m.ns, m.ew, rules.ns_score(board, entry)))
    score = score_session(lines, movement=movement)
    names = {}
    for slot in movement.pairs:
        key = str(slot.number) if movement.one_winner else f"{slot.direction}{slot.number}"
        names[key] = f"Łucja Żak & Renée Ørsted {key}"
    section = section_standings("A", score, one_winner=movement.one_winner, names=names)
    document = StandingsDocument(9, 2, "mp", "ebu", "2026-11-23T22:00", (section,))
    return document, boards, rules, movement, names


@pytest.mark.parametrize("one_winner", [False, True])
def test_results_sheet_ranks_every_pair_and_scores_every_board(one_winner):
    document, boards, rules, _, _ = scored_event(one_winner=one_winner)
    analyses = {b.number: analysis_for(b, "classic") for b in boards}
    _, text = read(results_sheet(document, boards, rules, analyses=analyses, title="Club night"))
    assert text.count("Club night") == 1
    section = document.sections[0]
    for field in section.fields:
        for row in field.rows:
            score = f"{row.total.display} {row.percentage.display}"
            assert f"{row.rank} {row.pair} {row.names} {score} {row.boards}" in text
    for number, lines in section.boards.items():
        segment = text.split(f"Board {number} · Dealer", 1)[1].split("Board ", 1)[0]
        for line in lines:
            points = f"{line.ns_points.display} {line.ew_points.display}"
            assert f"{line.ns} {line.ew} {line.ns_score} {points}" in segment
    assert text.count("Par: ") == len(boards)
    for board in boards:
        for seat in board.seats:
            assert hand_text(board.deal.hand(seat)) in text


def test_results_sheet_shows_tied_ranks_with_an_equals_sign():
    lines = [TravellerLine(1, p, p, 7) for p in (1, 2, 3)]
    score = score_session(lines)
    section = section_standings("A", score, one_winner=False)
    document = StandingsDocument(1, 1, "mp", "ebu", "2026-11-23T20:00", (section,))
    boards, rules = game("classic", {}, [1])
    _, text = read(results_sheet(document, boards, rules))
    assert "1= 1" in text and "1= 3" in text


# ---- the pack, paper and fonts -------------------------------------------------------------


def test_print_pack_holds_every_part_and_reports_progress():
    document, boards, rules, movement, names = scored_event(tables=2)
    calls = []
    pdf = print_pack(
        boards,
        rules,
        movement,
        document=document,
        names=names,
        links={1: "https://club.example/t/1"},
        title="Club night",
        progress=lambda done, total, label: calls.append((done, total, label)),
    )
    labels = [
        "curtain cards",
        "hand records",
        "board slips",
        "duplication sheet",
        "travellers",
        "table cards",
        "pair cards",
        "results sheet",
    ]
    assert calls == [(i, 8, label) for i, label in enumerate(labels, start=1)]
    reader = PdfReader(BytesIO(pdf))
    titles = [item.title for item in reader.outline]
    assert [t.lower() for t in titles] == [
        "curtain cards",
        "hand records",
        "board slips",
        "duplication sheet",
        "travellers",
        "table cards",
        "pair cards",
        "results",
    ]
    parts = [
        curtain_cards(boards, rules),
        hand_records(boards, rules),
        board_slips(boards, rules),
        duplication_sheet(boards, rules),
        travellers(boards, rules, movement, names=names),
        table_cards(movement, links={1: "https://club.example/t/1"}),
        pair_cards(movement, names=names),
        results_sheet(document, boards, rules, title="Club night"),
    ]
    assert len(reader.pages) == sum(page_count(part) for part in parts)
    bare = print_pack(boards, rules, movement)
    assert [item.title for item in PdfReader(BytesIO(bare)).outline] == titles[:-1]


@pytest.mark.parametrize(("paper", "size"), [("a4", (595.28, 841.89)), ("letter", (612, 792))])
def test_pages_have_the_paper_size_asked_for(paper, size):
    boards, rules = game("classic", {}, [1])
    reader = PdfReader(BytesIO(curtain_cards(boards, rules, paper=paper)))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == tuple(map(round, size))


def test_an_unknown_paper_is_refused_clearly():
    boards, rules = game("classic", {}, [1])
    with pytest.raises(PrintError, match="unknown paper 'a5': use 'a4' or 'letter'") as caught:
        curtain_cards(boards, rules, paper="a5")
    assert isinstance(caught.value, ValueError)
    with pytest.raises(PrintError):
        table_cards(mitchell(3), paper="legal")


def test_the_same_input_prints_the_same_bytes():
    boards, rules = game("bidwhist", {})
    assert hand_records(boards, rules) == hand_records(boards, rules)


def test_pdfs_embed_the_shipped_dejavu_fonts_and_no_other():
    boards, rules = game("classic", {}, [1])
    pdf = curtain_cards(boards, rules)
    fonts = {name.split(b"+")[-1] for name in re.findall(rb"/BaseFont /([\w+-]+)", pdf)}
    assert fonts == {b"DejaVuSans", b"DejaVuSans-Bold"}
    assert pdf.count(b"/FontFile2") == 2  # both embedded (as subsets), nothing from the system


def test_the_fonts_and_their_licence_ship_with_the_package():
    assert (FONT_DIR / "DejaVuSans.ttf").stat().st_size > 500_000
    assert (FONT_DIR / "DejaVuSans-Bold.ttf").stat().st_size > 500_000
    licence = (FONT_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "fonts-dejavu-core" in licence and "Bitstream" in licence
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'engine = ["printing/fonts/*.ttf", "printing/fonts/LICENSE"]' in pyproject


def test_only_engine_printing_imports_reportlab():
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        if "printing" in path.relative_to(ROOT / "engine").parts:
            continue
        if re.search(r"^\s*(from|import) reportlab", path.read_text(encoding="utf-8"), re.M):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_layouts_can_be_measured_in_a_fresh_process_before_any_pdf():
    probe = (
        "from engine.dealing import deal_boards; from engine.games import rules_for; "
        "from engine.printing.records import hand_records_grid; "
        "b = deal_boards('classic', [1, 2], seed=1); "
        "print(hand_records_grid(b, rules_for('classic')).columns)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "2"


def test_results_sheet_prints_each_tables_result_and_a_time_people_read():
    document, boards, rules, _, _ = scored_event(one_winner=False)
    section = document.sections[0]
    contracts = {
        (int(number), line.ns): f"NS {7 + line.ns % 3}"
        for number, lines in section.boards.items()
        for line in lines
    }
    pdf = results_sheet(
        document, boards, rules, contracts=contracts, printed="24 November 2026, 21:43"
    )
    _, text = read(pdf)
    assert "24 November 2026, 21:43" in text and document.computed_at not in text
    for number, lines in section.boards.items():
        segment = text.split(f"Board {number} · Dealer", 1)[1].split("Board ", 1)[0]
        assert "Result" in segment
        for line in lines:
            assert (
                f"{line.ns} {line.ew} {contracts[(int(number), line.ns)]} {line.ns_score}"
                in segment
            )
    # without a time given, the document's own in words: no raw ISO stamp
    _, plain = read(results_sheet(document, boards, rules))
    assert "T" not in plain.split("results version", 1)[1].split("\n", 1)[0]


def test_travellers_print_long_names_whole_on_two_lines():
    rules = rules_for("classic", {"scoring": "tricks"})
    movement = build("mitchell", tables=3, boards_per_round=2)
    boards = deal_boards("classic", range(1, 7), seed=3)
    long = "Cyril Greenhalgh-Worthington & Dorothy Pike-Montgomery"
    names = {f"{side}{n}": long for side in ("NS", "EW") for n in (1, 2, 3)}
    _, text = read(travellers(boards, rules, movement, names=names))
    assert "…" not in text
    assert text.count("Cyril Greenhalgh-Worthington &") == text.count("Dorothy Pike-Montgomery")
    assert text.count("Dorothy Pike-Montgomery") == 6 * 3 * 2  # every line, both pairs


@pytest.mark.parametrize("tables", [4, 5, 6])
def test_table_cards_say_in_full_where_resting_boards_go(tables):
    """A Howell's sets rest some rounds: the card says when and where they come back, beside
    the table's QR code, without cutting it short."""
    movement = build("howell", tables=tables)
    links = dict.fromkeys(range(1, tables + 1), f"http://192.168.1.50:8000/t/{'x' * 32}/")
    _, text = read(table_cards(movement, links=links))
    assert re.search(r"rest, round \d+: table \d+", text)
    assert "…" not in text
