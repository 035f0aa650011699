"""`python manage.py drive ...`: run a progressive whist drive from the command line.

Subcommands: `create FILE` (a JSON file: club, name, optional date, settings, players),
`start ID [--seed N]`, `show ID` (the hand being played: who sits where), `enter ID TABLE
RESULT` (RESULT: NS's tricks, or the game's fields as JSON), `next ID`, `correct ID HAND TABLE
RESULT [--reason WHY]`, `arrive ID NAME` (a late arrival), `leave ID PLAYER` (a player going
home), `finish ID`, `totals ID` (totals and prizes), `links ID` (each table's
tablet link, at CLUBWHIST_BASE_URL, default http://127.0.0.1:8000), `cards ID FILE` (every
player's totals from their score card, a CSV file: player number, total, first half, hands of
10+ tricks; a header line is skipped) and `print ID WHAT
[-o FILE] [--paper a4|letter]` (score-cards, table-cards or prizes, as a PDF). The same services as
the pages; a refusal ends in one line (`_oneline`).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state
from tournaments.drives.selectors.room import drive_links
from tournaments.drives.services import cards as drive_cards
from tournaments.drives.services import comings as drive_comings
from tournaments.drives.services import drives as drive_services
from tournaments.drives.services import paper as drive_paper
from tournaments.kernel.clubs import club_get_or_create
from tournaments.management.commands._oneline import OneLineCommand


def _drive(number: int) -> Drive:
    drive = Drive.objects.filter(pk=number).first()
    if drive is None:
        raise CommandError(f"There is no drive {number}: `manage.py drive list` shows them.")
    return drive


def _result(text: str) -> dict[str, Any]:
    """NS's tricks ("9"), or the game's fields as JSON ('{"ns_tricks": 9}')."""
    if text.strip().isdigit():
        return {"ns_tricks": int(text)}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise CommandError(
            f"A result is NS's tricks (9) or the game's fields as JSON ({{\"ns_tricks\": 9}}), "
            f"not {text!r}"
        ) from None
    if not isinstance(value, dict):
        raise CommandError(f"A result's JSON is an object, not {text!r}")
    return value


def _cards(path: Path) -> dict[int, dict[str, Any]]:
    """Each line: player number, total[, first half[, hands of 10+ tricks]]."""
    cards: dict[int, dict[str, Any]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle), start=1):
            cells = [cell.strip() for cell in row]
            if not any(cells) or (number == 1 and not cells[0].isdigit()):
                continue  # a blank line, or the header
            if not cells[0].isdigit() or len(cells) < 2:
                raise CommandError(
                    f"{path}, line {number}: player number, total[, first half[, hands of 10+]]"
                )
            cards[int(cells[0])] = {
                "total": cells[1],
                "first_half": cells[2] if len(cells) > 2 else None,
                "ten_plus": cells[3] if len(cells) > 3 and cells[3] else None,
            }
    return cards


class Command(OneLineCommand):
    help = "Run a progressive whist drive: create, start, show, enter, next, correct, totals."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("list", help="the drives, newest first")
        create = sub.add_parser("create", help="a drive from a JSON file")
        create.add_argument("file", type=Path)
        for name in ("show", "next", "finish", "totals", "publish", "links"):
            sub.add_parser(name).add_argument("drive", type=int)
        start = sub.add_parser("start", help="draw the first seating")
        start.add_argument("drive", type=int)
        start.add_argument("--seed", type=int, default=None)
        enter = sub.add_parser("enter", help="a table's result for the hand being played")
        enter.add_argument("drive", type=int)
        enter.add_argument("table", type=int)
        enter.add_argument("result")
        correct = sub.add_parser("correct", help="change a table's result of any hand")
        correct.add_argument("drive", type=int)
        correct.add_argument("hand", type=int)
        correct.add_argument("table", type=int)
        correct.add_argument("result")
        correct.add_argument("--reason", default="")
        arrive = sub.add_parser("arrive", help="a late arrival joins the running drive")
        arrive.add_argument("drive", type=int)
        arrive.add_argument("name")
        leave = sub.add_parser("leave", help="a player goes home: their card is closed")
        leave.add_argument("drive", type=int)
        leave.add_argument("player", type=int)
        cards = sub.add_parser("cards", help="every player's totals from their score card (CSV)")
        cards.add_argument("drive", type=int)
        cards.add_argument("file", type=Path)
        paper = sub.add_parser("print", help="score cards, table cards or the prize sheet (PDF)")
        paper.add_argument("drive", type=int)
        paper.add_argument("what", choices=sorted(drive_paper.DOCUMENTS))
        paper.add_argument("-o", "--output", type=Path, help="default drive-ID-WHAT.pdf")
        paper.add_argument("--paper", choices=["a4", "letter"], help="default: the club's")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "list":
            for drive in Drive.objects.select_related("club")[:50]:
                self.stdout.write(f"{drive.pk}\t{drive.date}\t{drive.status}\t{drive.name}")
            return
        if action == "create":
            self._create(options["file"])
            return
        drive = _drive(options["drive"])
        if action == "links":
            links = drive_links(drive, settings.BASE_URL or "http://127.0.0.1:8000")
            if not links:
                raise CommandError(
                    f"Drive {drive.pk} has no table links yet: they are made when it starts."
                )
            for link in links:
                self.stdout.write(f"table {link.table}\t{link.url}")
            return
        if action == "cards":
            drive_cards.cards_enter(drive=drive, cards=_cards(options["file"]))
            drive.refresh_from_db()
            self._totals(drive)
            return
        if action == "print":
            what = options["what"]
            pdf = drive_paper.drive_pdf(drive=drive, what=what, paper=options["paper"])
            out = options["output"] or Path(f"drive-{drive.pk}-{what}.pdf")
            out.write_bytes(pdf)
            self.stdout.write(f"{drive_paper.DOCUMENTS[what]} of drive {drive.pk}: {out}")
            return
        if action == "start":
            drive_services.drive_start(drive=drive, seed=options["seed"])
        elif action == "enter":
            drive_services.result_enter(
                drive=drive, table=options["table"], entry=_result(options["result"])
            )
        elif action == "next":
            drive_services.hand_next(drive=drive)
        elif action == "correct":
            said = drive_services.result_correct(
                drive=drive,
                hand=options["hand"],
                table=options["table"],
                entry=_result(options["result"]),
                reason=options["reason"],
            )
            self.stdout.write(f"Corrected: {said}.")
        elif action == "arrive":
            player = drive_comings.player_arrive(drive=drive, name=options["name"])
            self.stdout.write(f"{player.name} is player {player.number}.")
        elif action == "leave":
            said = drive_comings.player_leave(drive=drive, number=options["player"])
            self.stdout.write(f"Player {options['player']} {said}.")
        elif action == "finish":
            drive_services.drive_finish(drive=drive)
        elif action == "publish":
            drive_services.drive_publish(drive=drive)
        drive.refresh_from_db()
        if action == "totals":
            self._totals(drive)
        else:
            self._show(drive)

    def _create(self, path: Path) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise CommandError(f"{path}: the file is a JSON object (club, name, settings, players)")
        unknown = sorted(set(data) - {"club", "name", "date", "settings", "players"})
        if unknown:
            raise CommandError(
                f"{path}: no field {unknown[0]!r} (club, name, date, settings, players)"
            )
        date = dt.date.fromisoformat(data["date"]) if data.get("date") else None
        drive = drive_services.drive_create(
            club=club_get_or_create(name=str(data.get("club") or "My whist club")),
            name=str(data.get("name") or "Whist drive"),
            date=date,
            settings=data.get("settings") or {},
            players=[str(name) for name in data.get("players") or []],
        )
        self.stdout.write(
            f"Drive {drive.pk} created: {drive.name}, {drive.players.count()} players."
        )

    def _show(self, drive: Drive) -> None:
        state = drive_state(drive)
        hand = state.current
        if hand is None:
            self.stdout.write(
                f"Drive {drive.pk} ({drive.status}): not started; {len(state.names)} players."
            )
            return
        total = state.settings.hands if state.settings else "?"
        self.stdout.write(f"Drive {drive.pk}, hand {hand.hand} of {total}, trumps {hand.trumps}:")
        for table in hand.tables:
            seats = ", ".join(f"{s.seat} {s.name} ({s.role})" for s in table.seats)
            done = f" -- {table.text}" if table.done else ""
            self.stdout.write(f"  table {table.number}: {seats}{done}")
        if hand.sitting_out:
            self.stdout.write("  sitting out: " + ", ".join(s.name for s in hand.sitting_out))

    def _totals(self, drive: Drive) -> None:
        state = drive_state(drive)
        self.stdout.write(f"Drive {drive.pk}: totals after {state.hands_played} hands")
        for line in state.lines:
            self.stdout.write(
                f"{line.place:>3}  {line.name:<30} {line.total:>6}  (first half {line.first_half})"
            )
        for award in state.awards:
            self.stdout.write(f"{award.title}: {award.text}")
