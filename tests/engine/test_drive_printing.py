"""A drive's paper read back with pypdf: score cards, table cards and the prize sheet.

The expected text is written here from the drive's rules, not from engine.printing: hand h's
trumps follow hearts, diamonds, spades, clubs; a card lists every hand with a half-time row
after the break; a table card sends its losers to the neighbouring tables of the ring.
"""

from __future__ import annotations

import doctest
import math
import random
import re
from fractions import Fraction
from io import BytesIO

import pytest
from pypdf import PdfReader

import engine.printing.drives
from engine.cards import Side
from engine.cli import main
from engine.drives import (
    Drive,
    DriveSettings,
    PlayerTotal,
    Prize,
    Role,
    award_prizes,
    partner_drive,
    semi_partner,
)
from engine.drives.moves import move_tables
from engine.printing import PrintError
from engine.printing.drives import (
    drive_table_cards_pdf,
    prize_sheet_pdf,
    score_cards_layout,
    score_cards_pdf,
)
from engine.printing.toolkit import PAPERS

TITLE = "Tuesday whist drive"
ORDER = ["♥ hearts", "♦ diamonds", "♠ spades", "♣ clubs"]
LONG = "Maximilian Alexander Fitzgerald-Worthington of Little Snoring"  # 60 characters
ODD = ["Zoë Lefèvre", "Ann & Bob's Café", "Ørjan Æsir-Åström"]


def pages(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(BytesIO(pdf)).pages]


def flat(text: str) -> str:
    """Whitespace as single spaces: a wrapped line reads as one."""
    return re.sub(r"\s+", " ", text)


def cards_of(pdf: bytes) -> dict[int, str]:
    """Each score card's text by the player number printed on it."""
    text = "\n".join(pages(pdf))
    found = {}
    for chunk in text.split(TITLE)[1:]:
        number = re.search(r"No\. (\d+)", chunk)
        assert number, chunk[:80]
        found[int(number.group(1))] = chunk
    return found


def trumps(hand: int) -> str:
    return ORDER[(hand - 1) % 4]


def played(settings: DriveSettings, seed: int = 5) -> tuple[Drive, list, list]:
    """A drive played through with made-up tricks: the seatings and the scored hands."""
    drive = Drive(settings)
    rng = random.Random(seed)
    seating = drive.first_seating(seed=seed)
    seatings, records = [seating], []
    for hand in range(1, settings.hands + 1):
        results = {t: {"ns_tricks": rng.randint(1, 12)} for t in range(1, settings.tables + 1)}
        record = drive.record_hand(seating, results)
        records.append(record)
        if hand < settings.hands:
            seating = drive.next_seating(seating, record)
            seatings.append(seating)
    return drive, seatings, records


# ---- score cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("hands", [12, 20, 24])
def test_a_score_card_lists_every_hand_with_its_trumps_and_the_half_time_box(hands):
    settings = DriveSettings(players=8, hands=hands)
    cards = cards_of(score_cards_pdf(settings, title=TITLE, date="26 November 2026"))
    assert sorted(cards) == list(range(1, 9))
    lines = cards[3].splitlines()
    assert "26 November 2026" in cards[3]
    assert "Hand Trumps Table Partner Tricks Score Total" in lines
    rows = [line for line in lines if re.match(r"\d+ [♥♦♠♣]", line)]
    assert rows == [f"{h} {trumps(h)}" for h in range(1, hands + 1)]
    # The half-time row comes straight after the break, the final row after the last hand.
    half = lines.index("Half-time")
    assert lines[half - 1] == f"{hands // 2} {trumps(hands // 2)}"
    assert lines[half + 1] == f"{hands // 2 + 1} {trumps(hands // 2 + 1)}"
    assert lines[lines.index("Final") - 1] == f"{hands} {trumps(hands)}"


def test_without_a_break_there_is_no_half_time_row():
    cards = cards_of(score_cards_pdf(DriveSettings(players=4, hands=12, half_time=0), title=TITLE))
    assert "Half-time" not in cards[1] and "Final" in cards[1]
    assert "break after" not in cards[1]


def test_scoring_every_trick_needs_no_separate_score_column():
    settings = DriveSettings(players=4, hands=6, scoring="tricks")
    card = cards_of(score_cards_pdf(settings, title=TITLE))[1]
    assert "Hand Trumps Table Partner Tricks Total" in card.splitlines()
    assert "every trick your side takes" in flat(card)


def test_no_trump_hands_print_as_no_trumps():
    settings = DriveSettings(players=4, hands=10, no_trump_every=5)
    card = cards_of(score_cards_pdf(settings, title=TITLE))[1]
    assert "5 NT no trumps" in card.splitlines() and "10 NT no trumps" in card.splitlines()
    assert "6 ♥ hearts" in card.splitlines()


def test_an_auction_game_leaves_the_trumps_to_be_written_in():
    settings = DriveSettings(players=4, hands=4, game="candid", sit_out_score="average")
    card = cards_of(score_cards_pdf(settings, title=TITLE))[1]
    assert not any(word in card for word in ("hearts", "spades", "♥"))
    assert [line for line in card.splitlines() if re.fullmatch(r"\d+", line)] == [
        "1",
        "2",
        "3",
        "4",
    ]


def test_names_and_blank_lines():
    names = {1: "Ann Smith", 2: LONG, 3: ODD[0], 4: ODD[1], 5: ODD[2]}
    settings = DriveSettings(players=6, hands=12)
    cards = cards_of(score_cards_pdf(settings, names, title=TITLE))
    for number, name in names.items():
        assert name in flat(cards[number]), number
    assert "…" not in "".join(cards.values())  # the 60-character name wrapped, not cut
    # Player 6 has no name: the card has the line to write it on, and no one else's name.
    assert "Name" in cards[6].splitlines()[1]
    assert not any(name in cards[6] for name in names.values())
    # A list names players from 1.
    listed = cards_of(score_cards_pdf(settings, ["Ann", "", "Cy"], title=TITLE))
    assert "No. 1 Ann" in listed[1] and "No. 3 Cy" in listed[3] and "Name" in listed[2]


def test_the_known_seatings_are_pre_printed_and_the_rest_left_blank():
    settings = DriveSettings(players=9, hands=12, roles=("Lady", "Gent"))
    _, seatings, _ = played(settings)
    pdf = score_cards_pdf(settings, title=TITLE, seatings=seatings[:2])
    cards = cards_of(pdf)
    for player in range(1, 10):
        lines = cards[player].splitlines()
        role = settings.role_label(seatings[0].role(player))
        assert f"Role: {role}" in lines[2]
        for hand in (1, 2):
            seating = seatings[hand - 1]
            place = seating.place(player)
            row = next(line for line in lines if line.startswith(f"{hand} {trumps(hand)}"))
            if place is None:
                assert row == f"{hand} {trumps(hand)} out — — 1", row
            else:
                partner = seating.partner(player)
                assert row == f"{hand} {trumps(hand)} {place.table} {place.seat} {partner}"
        assert f"3 {trumps(3)}" in lines  # hand 3 is not seated yet: nothing but the trumps


def test_a_dummy_partner_is_named_on_the_card():
    settings = DriveSettings(players=7, hands=4, short_table="dummy")
    seating = Drive(settings).placed_seating([(1, 2, 3, 4), (5, 6, 0, 7)])
    card = cards_of(score_cards_pdf(settings, title=TITLE, seatings=[seating]))[5]
    assert f"1 {trumps(1)} 2 N dummy" in card.splitlines()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("hands", "per_page"), [(12, 4), (20, 2), (24, 2)])
@pytest.mark.parametrize("players", [4, 13, 100])
def test_score_card_pages(paper, hands, per_page, players):
    settings = DriveSettings(players=players, hands=hands)
    grid = score_cards_layout(settings, paper=paper)
    assert grid.per_page == per_page
    pdf = score_cards_pdf(settings, paper=paper, title=TITLE)
    reader = PdfReader(BytesIO(pdf))
    assert len(reader.pages) == math.ceil(players / per_page)
    width, height = PAPERS[paper]
    box = reader.pages[0].mediabox
    expected = (height, width) if per_page == 2 else (width, height)
    assert (round(float(box.width)), round(float(box.height))) == tuple(map(round, expected))
    assert sorted(cards_of(pdf)) == list(range(1, players + 1))


def test_one_card_can_be_printed_again_on_its_own():
    settings = DriveSettings(players=100, hands=24)
    pdf = score_cards_pdf(settings, {57: "Zoë Lefèvre"}, title=TITLE, players=[57])
    assert len(pages(pdf)) == 1
    assert list(cards_of(pdf)) == [57] and "Zoë Lefèvre" in cards_of(pdf)[57]


def test_score_card_refusals_say_what_to_do():
    settings = DriveSettings(players=8, hands=4)
    with pytest.raises(PrintError, match="players are 1 to 8, not 9"):
        score_cards_pdf(settings, players=[9])
    with pytest.raises(PrintError, match="unknown paper"):
        score_cards_pdf(settings, paper="A5")
    _, seatings, _ = played(DriveSettings(players=8, hands=4))
    with pytest.raises(PrintError, match="hand 1's seating first"):
        score_cards_pdf(settings, seatings=seatings[1:])
    with pytest.raises(PrintError, match="a list of names"):
        score_cards_pdf(settings, "Ann")


# ---- table cards ---------------------------------------------------------------------------


def table_chunks(pdf: bytes) -> dict[int, str]:
    text = "\n".join(pages(pdf))
    return {
        int(chunk.split()[0]): chunk
        for chunk in re.split(r"^Table (?=\d+\s)", text, flags=re.M)[1:]
    }


@pytest.mark.parametrize("hands", [12, 20, 24])
def test_table_cards_carry_the_trump_schedule(hands):
    settings = DriveSettings(players=12, hands=hands)
    cards = table_chunks(drive_table_cards_pdf(settings, title=TITLE))
    assert sorted(cards) == [1, 2, 3]
    lines = cards[2].splitlines()
    numbers = [n for line in lines if line.startswith("Hand ") for n in line.split()[1:]]
    symbols = [s for line in lines if line.startswith("Trumps ") for s in line.split()[1:]]
    assert numbers == [str(h) for h in range(1, hands + 1)]
    assert symbols == [trumps(h).split()[0] for h in range(1, hands + 1)]
    # The halves are on lines of their own.
    assert f"Hand {' '.join(str(h) for h in range(1, hands // 2 + 1))}" in lines


def test_a_table_card_sends_the_losers_to_the_neighbouring_tables():
    settings = DriveSettings(players=20, hands=24, roles=("Lady", "Gent"))
    cards = table_chunks(drive_table_cards_pdf(settings, title=TITLE))
    assert len(cards) == 5
    for table, up, down in [(1, 2, 5), (3, 4, 2), (5, 1, 4)]:
        text = flat(cards[table])
        assert "After each hand Lady Gent" in text
        assert "Winners stay, sit North stay, sit West" in text
        assert f"Losers up to table {up}, sit East down to table {down}, sit South" in text
        assert "Up from table 5 is table 1; down from table 1 is table 5." in text
        assert "nobody sits out" in text


def test_table_cards_follow_the_engine_with_ends_that_stay():
    """A partner drive with the winners moving up and the ends not joined: the top table's
    winners stay ("king's table") and its losers go down to table 1."""
    settings = DriveSettings(players=16, hands=12, move=partner_drive(), ends="stay")
    cards = table_chunks(drive_table_cards_pdf(settings))
    assert "Winners up to table 2, sit North up to table 2, sit South" in flat(cards[1])
    assert "Losers stay, sit East stay, sit West" in flat(cards[1])
    top = flat(cards[4])
    assert "Winners stay, sit East stay, sit West" in top
    assert "Losers down to table 1, sit North down to table 1, sit South" in top
    # The engine agrees: its own move of every table, won by North-South.
    moved = move_tables(
        [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)],
        [Side.NS] * 4,
        settings.move,
        "stay",
    )
    # The top table keeps its winners (13, 15) and takes table 3's (9, 11); its losers (14,
    # 16) go to table 1 and sit with table 1's losers, who stay.
    assert set(moved[3]) == {9, 11, 13, 15}
    assert set(moved[0]) == {2, 4, 14, 16}


def test_table_cards_say_what_the_players_left_over_do():
    sit = flat(table_chunks(drive_table_cards_pdf(DriveSettings(players=14, hands=12)))[1])
    assert "2 players sit out each hand and score 1 (as 7 tricks)" in sit
    dummy = DriveSettings(players=11, hands=12, short_table="dummy")
    assert "dummy hand" in flat(table_chunks(drive_table_cards_pdf(dummy))[1])
    average = DriveSettings(players=13, hands=12, sit_out_score="average")
    assert "average of that hand's players" in flat(table_chunks(drive_table_cards_pdf(average))[1])


def test_a_semi_partner_card_keeps_the_winners_together():
    settings = DriveSettings(players=12, hands=12, move=semi_partner())
    text = flat(table_chunks(drive_table_cards_pdf(settings))[1])
    assert "Winners stay together; losers: A up a table, B down a table." in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("players", "tables"), [(4, 1), (13, 3), (100, 25)])
def test_table_card_pages(paper, players, tables):
    pdf = drive_table_cards_pdf(DriveSettings(players=players, hands=24), paper=paper)
    reader = PdfReader(BytesIO(pdf))
    assert len(reader.pages) == math.ceil(tables / 2)
    assert sorted(table_chunks(pdf)) == list(range(1, tables + 1))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == tuple(map(round, PAPERS[paper]))
    one = drive_table_cards_pdf(DriveSettings(players=players, hands=24), [tables], paper=paper)
    assert list(table_chunks(one)) == [tables]
    with pytest.raises(PrintError, match=f"tables 1 to {tables}, not {tables + 1}"):
        drive_table_cards_pdf(DriveSettings(players=players, hands=24), [tables + 1])


# ---- the prize sheet -----------------------------------------------------------------------


def line(player, role, points, big=()):
    """A final line from a player's points hand by hand (first half: hands 1 and 2)."""
    total = sum(points, start=0)
    first = sum(points[:2], start=0)
    return PlayerTotal(
        player, role, total, first, total - first, len(big), len(points), 0, 0,
        tuple(points), tuple(h in big for h in range(1, len(points) + 1)),
    )  # fmt: skip


def test_the_prize_sheet_names_each_winner_and_how_ties_were_decided():
    settings = DriveSettings(
        players=6,
        hands=4,
        roles=("Lady", "Gent"),
        prizes=(Prize("highest"), Prize("highest", role="B"), Prize("first_half"), Prize("booby")),
    )
    names = {1: "Ann & Bob's Café", 2: "Zoë Lefèvre", 3: LONG, 4: "Dan", 5: "Eve", 6: "Ørjan"}
    lines = [
        line(1, Role.A, [3, 1, 2, 4]),  # 10, tied with 3 and 5; count-back on hand 4
        line(3, Role.A, [1, 2, 4, 3]),
        line(5, Role.B, [2, 4, 1, 3]),
        line(2, Role.B, [0, 1, 2, 3]),
        line(4, Role.A, [0, 0, 1, Fraction(3, 2)]),
        line(6, Role.B, [1, 1, 1, 1]),
    ]
    lines.sort(key=lambda item: (-item.total, item.player))
    awards = award_prizes(settings, lines, names=names)
    assert "count-back" in awards[0].text  # the data does make a tie
    pdf = prize_sheet_pdf(settings, awards, lines, names=names, title=TITLE, date="26 Nov 2026")
    text = flat("\n".join(pages(pdf)))
    for award in awards:
        who = ", ".join(f"{names[p]} (no. {p})" for p in award.winners)
        assert f"{award.number}. {award.title}: {who}" in text
        assert award.text in text
    assert "Ranking: Lady" in text and "Ranking: Gent" in text
    assert text.index("Ranking: Lady") < text.index(LONG, text.index("Ranking: Lady"))
    # Each player's line: rank, number, name, halves, total.
    assert "1= 1 Ann & Bob's Café 4 6 10" in text
    assert f"1= 3 {LONG} 3 7 10" in text
    assert "3 4 Dan 0 2.50 2.50" in text
    assert "1 5 Eve 6 4 10" in text  # first among the Gents
    assert "…" not in text


def test_the_prize_sheet_from_a_played_drive():
    settings = DriveSettings(players=13, hands=12)
    drive, _, records = played(settings, seed=8)
    lines = drive.standings(records)
    awards = drive.prizes(records, seed=1)
    pdf = prize_sheet_pdf(settings, awards, lines, title=TITLE)
    text = flat("\n".join(pages(pdf)))
    assert "Ranking:" not in text and "Ranking" in text  # neutral roles, no role prizes
    for award in awards:
        assert award.text in text
    assert len(lines) == 13
    for item in lines:
        assert re.search(
            rf"\b{item.player} {item.first_half} {item.second_half} {item.total} {item.ten_plus}\b",
            text,
        ), item.player


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_hundred_players_rank_over_pages_with_the_heading_repeated(paper):
    settings = DriveSettings(players=100, hands=24)
    drive, _, records = played(settings, seed=2)
    pdf = prize_sheet_pdf(
        settings, drive.prizes(records, seed=1), drive.standings(records), paper=paper
    )
    texts = pages(pdf)
    assert len(texts) >= 3
    assert all("Rank No. Name" in page for page in texts[1:])
    numbers = re.findall(r"^\d+=? (\d+) ", "\n".join(texts), flags=re.M)
    assert sorted(map(int, numbers)) == list(range(1, 101))


# ---- the command line ----------------------------------------------------------------------


def test_the_drive_command_prints_the_paper(tmp_path, capsys):
    cards = tmp_path / "cards.pdf"
    assert main(["drive", "--players", "9", "--hands", "6", "--seed", "1", "--print",
                 "score-cards", "--out", str(cards)]) == 0  # fmt: skip
    first = Drive(DriveSettings(players=9, hands=6)).first_seating(seed=1)
    printed = cards_of_any(cards.read_bytes())
    assert sorted(printed) == list(range(1, 10))
    place = first.place(1)
    expected = "out — — 1" if place is None else f"{place.table} {place.seat} {first.partner(1)}"
    assert f"1 {trumps(1)} {expected}" in printed[1]

    tables = tmp_path / "tables.pdf"
    assert main(["drive", "--players", "9", "--print", "table-cards", "--out", str(tables),
                 "--paper", "letter"]) == 0  # fmt: skip
    reader = PdfReader(BytesIO(tables.read_bytes()))
    assert len(reader.pages) == 1 and round(float(reader.pages[0].mediabox.width)) == 612

    sheet = tmp_path / "prizes.pdf"
    args = ["drive", "--players", "10", "--hands", "4", "--seed", "3", "--play", "7"]
    assert main([*args, "--print", "prize-sheet", "--out", str(sheet)]) == 0
    out = capsys.readouterr().out
    texts = [line.split(": ", 1)[1] for line in out[out.index("prizes:") :].splitlines()[1:]]
    assert texts and all(text in flat("\n".join(pages(sheet.read_bytes()))) for text in texts)


def test_the_drive_command_refuses_a_print_it_cannot_do(tmp_path, capsys):
    out = tmp_path / "prizes.pdf"
    assert main(["drive", "--players", "9", "--print", "prize-sheet", "--out", str(out)]) == 1
    assert "add --play R" in capsys.readouterr().err
    assert main(["drive", "--players", "9", "--print", "table-cards"]) == 1
    assert "needs --out FILE.pdf" in capsys.readouterr().err
    assert not out.exists()


def cards_of_any(pdf: bytes) -> dict[int, str]:
    """Score cards printed with the default title."""
    text = "\n".join(pages(pdf))
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"No\. (\d+).*?Final", text, re.S)}


def test_a_partner_drive_card_says_what_the_odd_player_and_the_sitting_out_pair_do():
    text = flat(
        table_chunks(drive_table_cards_pdf(DriveSettings(players=13, move=partner_drive())))[1]
    )
    assert "One player partners a dummy hand all evening" in text
    assert "One pair sits out each hand and each of them scores 1 (as 7 tricks)" in text


def test_scoring_every_trick_puts_a_sitting_out_players_tricks_in_the_one_column():
    settings = DriveSettings(players=5, hands=4, scoring="tricks")
    seating = Drive(settings).placed_seating([(1, 2, 3, 4)], [5])
    card = cards_of(score_cards_pdf(settings, title=TITLE, seatings=[seating]))[5]
    assert f"1 {trumps(1)} out — 7" in card.splitlines()
    assert "Sitting out scores 7 (as 7 tricks)." in flat(card)


def test_the_module_examples_hold():
    result = doctest.testmod(engine.printing.drives)
    assert result.attempted > 0 and result.failed == 0
