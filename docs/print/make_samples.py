"""Render the sample pages in docs/print/ (one page of each printed document, as PNG).

Run from the repository root: `python docs/print/make_samples.py`. Needs `pdftoppm` (Debian's
poppler-utils). The analyses are made up in the stored `BoardAnalysis.to_dict()` shape, so
the samples need no double-dummy solver.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.dealing import deal_boards
from engine.drives import Drive, DriveSettings, Prize
from engine.games import rules_for
from engine.movements import build, howell, mitchell
from engine.printing import (
    board_slips,
    curtain_cards,
    duplication_sheet,
    hand_records,
    pair_cards,
    results_sheet,
    table_cards,
    travellers,
)
from engine.printing.drives import drive_table_cards_pdf, prize_sheet_pdf, score_cards_pdf
from engine.printing.teams import (
    RoundLines,
    TableLine,
    TeamLine,
    bracket_pdf,
    round_tables_pdf,
    score_sheets_pdf,
    team_list_pdf,
)
from engine.scoring import TravellerLine, pair_key, score_session
from engine.scoring.document import StandingsDocument, section_standings
from engine.teams import Bracket, Team, TeamTournament, TournamentSettings

HERE = Path(__file__).resolve().parent
NAMES = [
    "Zoë Ångström & Ana Núñez",
    "Łucja Żak & Renée Ørsted",
    "Seán Ó Briain & Anaïs Faure",
    "Jürgen Groß & Håkon Bø",
    "Ștefan Țurcanu & Inés Peña",
    "Margaret Hughes & Tom Reilly",
    "Bernadette Kovač & Ilse Möller",
]


def names_for(movement):
    return {
        pair_key(slot.number, None if movement.one_winner else slot.direction): NAMES[i % 7]
        for i, slot in enumerate(movement.pairs)
    }


def candid_analysis(board):
    rng = random.Random(board.number)
    table = {s: {t: rng.randint(4, 9) for t in ("C", "D", "H", "S", "NT")} for s in "NESW"}
    par = {"contracts": ["8S by E"], "ns_score": -80, "tricks": {}, "approximate": False}
    return {"board": board.number, "tricks": None, "table": table, "par": par, "error": None}


def classic_analysis(board, rules):
    ns = 5 + board.number % 5
    trumps = board.trumps.letter if board.trumps else "NT"
    leader = str(board.dealer.next())
    par = {"contracts": [f"{trumps}, {leader} leads"], "ns_score": ns - 6, "tricks": {}}
    tricks = {"trumps": trumps, "leader": leader, "ns": ns, "ew": 13 - ns}
    return {"board": board.number, "tricks": tricks, "table": None, "par": par, "error": None}


def scored(boards, rules, movement):
    rng = random.Random(5)
    lines = []
    for m in movement.meetings:
        for number in movement.boards_for_set(m.set):
            board = boards[number - 1]
            entry = rules.parse_entry(board, rules.plausible_entry(board, rng))
            lines.append(TravellerLine(number, m.ns, m.ew, rules.ns_score(board, entry)))
    section = section_standings(
        "A",
        score_session(lines, movement=movement),
        one_winner=movement.one_winner,
        names=names_for(movement),
    )
    return StandingsDocument(1, 4, "mp", "ebu", "2026-11-23 22:10", (section,))


def drive_samples():
    """A 13-player drive with lady and gent prizes, played through with made-up tricks."""
    prizes = (Prize("highest"), Prize("highest", "A"), Prize("highest", "B"), Prize("first_half"))
    settings = DriveSettings(players=13, roles=("Lady", "Gent"), prizes=(*prizes, Prize("booby")))
    drive = Drive(settings)
    people = [name for pair in NAMES for name in pair.split(" & ")][:13]
    rng = random.Random(4)
    seating, seatings, records = drive.first_seating(seed=3), [], []
    for hand in range(1, settings.hands + 1):
        seatings.append(seating)
        results = {t: {"ns_tricks": rng.randint(2, 11)} for t in range(1, settings.tables + 1)}
        records.append(drive.record_hand(seating, results))
        if hand < settings.hands:
            seating = drive.next_seating(seating, records[-1])
    named = dict(enumerate(people, 1))
    title, date = "Tuesday whist drive", "26 November 2026"
    yield (
        "drive-score-cards",
        score_cards_pdf(settings, people, title=title, date=date, seatings=seatings[:1]),
    )
    yield "drive-table-cards", drive_table_cards_pdf(settings, title=title, date=date)
    awards = drive.prizes(records, seed=1, names=named)
    lines = drive.standings(records)
    yield (
        "drive-prize-sheet",
        prize_sheet_pdf(settings, awards, lines, names=people, title=title, date=date),
    )


TEAMS = [
    ("Aces", "Detroit"),
    ("Uptown Kings", "Detroit"),
    ("Queens of Spades", "Chicago"),
    ("Jacks Back", "Chicago"),
    ("Joker Boys", "Atlanta"),
    ("Book Keepers", "Atlanta"),
    ("Boston Tea Party", "Memphis"),
    ("No Trump Ladies", "Memphis"),
    ("Kitty Cats", "Cleveland"),
    ("Downtown Express", "Cleveland"),
    ("Running Books", "Houston"),
]


def team_samples():
    """An 11-team round robin (a bye each round) with a playoff of 8, half played."""
    people = [name for pair in NAMES for name in pair.split(" & ")]
    lines = {}
    for n, (name, city) in enumerate(TEAMS, 1):
        pair = (people[(2 * n - 2) % len(people)], people[(2 * n - 1) % len(people)])
        lines[n] = TeamLine(n, name, city, pair, here=n < 6, paid=n < 4)
    settings = TournamentSettings(rotation="round_robin", rounds=5)
    teams = [Team(n, name, city) for n, (name, city) in enumerate(TEAMS, 1)]
    schedule = TeamTournament(settings, teams).schedule(seed=3)
    rounds = [
        RoundLines(
            r.number,
            tuple(TableLine(p.table, lines[p.home], lines[p.away]) for p in r.tables),
            tuple(lines[b] for b in r.byes),
        )
        for r in schedule
    ]
    title, date = "Spring Bid Whist", "11 April 2026"
    rule = settings.game.text
    yield "teams-team-list", team_list_pdf(title, date, list(lines.values()))
    yield "teams-tables", round_tables_pdf(title, date, rounds, settings.rounds)
    yield "teams-score-sheet", score_sheets_pdf(title, date, 1, rounds[0].tables[:1], rule)
    bracket = Bracket.seeded([3, 1, 7, 10, 2, 5, 9, 4], third_place=True)
    for match, winner in ((1, 3), (2, 10), (3, 1), (4, 5), (5, 3)):
        bracket = bracket.record(match, winner)
    names = {n: line.name for n, line in lines.items()}
    yield "teams-bracket", bracket_pdf(title, date, bracket.rounds, names, seeds=bracket.seeds)


def samples():
    classic = rules_for("classic")
    classic_boards = deal_boards("classic", range(1, 15), seed=2026)
    bid = rules_for("bidwhist")
    bid_boards = deal_boards("bidwhist", range(1, 9), seed=2026)
    candid = rules_for("candid")
    candid_boards = deal_boards("candid", range(1, 9), seed=2026)
    three = {"players": 3}
    ow = rules_for("openwhist", three)
    ow_boards = deal_boards("openwhist", range(1, 5), seed=2026, options=three)
    seven = mitchell(7, boards_per_round=2, arrow_switch=[7])
    relay = build("relay-mitchell", tables=6, boards_per_round=2)
    links = {t: f"https://club.example/events/12/tables/{t}" for t in range(1, 7)}
    analyses = {b.number: candid_analysis(b) for b in candid_boards}
    classic_analyses = {b.number: classic_analysis(b, classic) for b in classic_boards}
    yield "curtain-cards", curtain_cards(bid_boards, bid)
    yield "curtain-cards-open-whist", curtain_cards(ow_boards, ow)
    yield "hand-records", hand_records(candid_boards, candid, analyses=analyses)
    yield "board-slips", board_slips(classic_boards, classic)
    yield "duplication-sheet", duplication_sheet(bid_boards, bid)
    yield "travellers", travellers(classic_boards, classic, seven, names=names_for(seven))
    yield "table-cards", table_cards(relay, links=links)
    yield "pair-cards", pair_cards(howell(4, boards_per_round=2), names=names_for(howell(4)))
    document = scored(classic_boards, classic, seven)
    yield (
        "results-sheet",
        results_sheet(
            document, classic_boards, classic, analyses=classic_analyses, title="Tuesday drive"
        ),
    )
    yield from drive_samples()
    yield from team_samples()


def main(documents=None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for name, pdf in documents or samples():
            source = Path(tmp) / f"{name}.pdf"
            source.write_bytes(pdf)
            target = HERE / name
            args = ["pdftoppm", "-r", "70", "-png", "-singlefile", "-f", "1", "-l", "1"]
            subprocess.run([*args, str(source), str(target)], check=True)
            size = (HERE / f"{name}.png").stat().st_size
            print(f"{name}.png {size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
