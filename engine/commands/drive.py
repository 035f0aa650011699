"""`python -m engine drive --players N`: a progressive drive's seating plan, or a rehearsal.

Without `--play` it prints the first hand's seating (drawn with `--seed`); with `--play R` it
plays the whole drive with believable results drawn from seed R (each table's hand dealt and
judged by the game's rules, as the simulator does), printing every hand's seating and results,
the final table and the prizes: a director can see how a form and a short-table rule behave
before the evening. `--print KIND --out FILE` also writes the drive's paper as a PDF: score
cards (with the first hand's seating pre-printed), table cards, or (with `--play`) the prize
sheet of the rehearsal.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from engine.commands._common import CommandError
from engine.commands.print import write_atomically
from engine.drives import FORMS, Drive, DriveSettings, HandRecord, Seating, move_form
from engine.drives.prizes import show

NAME = "drive"
HELP = "print a progressive whist drive's seating plan, or play one through (--play)"

#: The paper `--print` writes.
DOCUMENTS = ("score-cards", "table-cards", "prize-sheet")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, help="how many players")
    parser.add_argument("--hands", type=int, default=24, help="hands in the drive (default 24)")
    parser.add_argument("--form", default="progressive", choices=sorted(FORMS), help="move form")
    parser.add_argument(
        "--form-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting of the form, e.g. losers=up or movers=losers (repeat for more)",
    )
    parser.add_argument("--ends", default="wrap", choices=("wrap", "stay"), help="table ends")
    parser.add_argument(
        "--short-table", default="sit_out", choices=("sit_out", "dummy"), help="players left over"
    )
    parser.add_argument("--settings", help="a JSON file of drive settings (replaces the above)")
    parser.add_argument("--seed", type=int, help="draw the first seating from this seed")
    parser.add_argument("--play", type=int, metavar="R", help="play it through, results seed R")
    parser.add_argument(
        "--print", dest="document", choices=DOCUMENTS, help="also write this paper as a PDF"
    )
    parser.add_argument("--out", metavar="FILE.pdf", help="where --print writes the PDF")
    parser.add_argument("--paper", default="a4", help="a4 (the default) or letter")


def _settings(args: argparse.Namespace) -> DriveSettings:
    if args.settings:
        data = json.loads(Path(args.settings).read_text(encoding="utf-8"))
        return DriveSettings.from_dict(data)
    if args.players is None:
        raise CommandError("say how many players: --players N (or give --settings FILE)")
    params = {}
    for item in args.form_option:
        key, equals, value = item.partition("=")
        if not equals:
            raise CommandError(f"--form-option {item!r} must be written KEY=VALUE")
        params[key.strip()] = value.strip()
    return DriveSettings(
        players=args.players,
        hands=args.hands,
        move=move_form(args.form, **params),
        ends=args.ends,
        short_table=args.short_table,
    )


def _check_print(args: argparse.Namespace) -> None:
    """Refuse a --print that cannot be done before anything is drawn or played."""
    if args.document is None:
        if args.out:
            raise CommandError("--out needs --print KIND (" + ", ".join(DOCUMENTS) + ")")
        return
    if not args.out:
        raise CommandError(f"--print {args.document} needs --out FILE.pdf")
    if args.document == "prize-sheet" and args.play is None:
        raise CommandError("--print prize-sheet needs results: add --play R to play it through")


def _write(
    args: argparse.Namespace, drive: Drive, first: Seating, records: list[HandRecord]
) -> None:
    """Write the --print document. engine.printing (and reportlab) is imported here, as in
    the print command, so a seating plan does not pay for loading it."""
    from engine.printing.drives import drive_table_cards_pdf, prize_sheet_pdf, score_cards_pdf

    settings = drive.settings
    if args.document == "score-cards":
        data = score_cards_pdf(settings, seatings=[first], paper=args.paper)
    elif args.document == "table-cards":
        data = drive_table_cards_pdf(settings, paper=args.paper)
    else:
        awards = drive.prizes(records, seed=args.play)
        data = prize_sheet_pdf(settings, awards, drive.standings(records), paper=args.paper)
    write_atomically(Path(args.out), data)


def run(args: argparse.Namespace) -> int:
    _check_print(args)
    drive = Drive(_settings(args))
    settings = drive.settings
    seating = drive.first_seating(seed=args.seed)
    out = len(seating.sitting_out)
    print(
        f"{settings.players} players, {settings.tables} tables"
        + (f", {out} sitting out each hand" if out else "")
        + (", one table with a dummy" if settings.has_dummy else "")
    )
    print(settings.move.describe())
    if args.play is None:
        print(f"hand 1, trumps {drive.trumps_text(1)}")
        print("\n".join(seating.lines()))
        if args.document:
            _write(args, drive, seating, [])
        return 0
    first = seating
    rng = random.Random(args.play)
    rules, records = settings.game_rules.rules, []
    for hand in range(1, settings.hands + 1):
        print(f"hand {hand}, trumps {drive.trumps_text(hand)}")
        print("\n".join(seating.lines()))
        results = {
            t: rules.plausible_entry(rules.deal_board(hand, rng), rng)
            for t in range(1, len(seating.tables) + 1)
        }
        record = drive.record_hand(seating, results)
        records.append(record)
        print("  " + _results(drive, record))
        if hand < settings.hands:
            seating = drive.next_seating(seating, record)
    print("final:")
    for line in drive.standings(records):
        half = f" (first half {show(line.first_half)})" if settings.break_after else ""
        role = settings.role_label(line.role)
        print(f"  player {line.player} ({role}): {show(line.total)}{half}")
    print("prizes:")
    for award in drive.prizes(records, seed=args.play):
        print(f"  {award.title}: {award.text}")
    if args.document:
        _write(args, drive, first, records)
    return 0


def _results(drive: Drive, record: HandRecord) -> str:
    rules = drive.settings.game_rules.rules
    return "; ".join(
        f"table {t}: {rules.describe(score.entry) if score.entry else ''}"
        for t, score in enumerate(record.scores, start=1)
    )
