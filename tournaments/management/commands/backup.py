"""`python manage.py backup [-o FILE] [--club SLUG ...] [--event ID ...] [--drive ID ...]
[--tournament ID ...]`: clubs, their events, whist drives, leagues and Bid Whist tournaments
(each whole, as its JSON download has it), users and directorships in one JSON file,
gzip-compressed when FILE ends in .gz; written beside FILE and renamed over it only when
complete. See docs/operations/backup.md."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from tournaments.drives.models import Drive
from tournaments.events.models import Event
from tournaments.files import backup
from tournaments.kernel.models import Club
from tournaments.management.commands._oneline import OneLineCommand
from tournaments.teams.models import Tournament


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


class Command(OneLineCommand):
    help = (
        "Back up clubs, their events, drives, leagues and tournaments, users and directorships "
        "as one JSON file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "-o",
            "--output",
            help="the file to write; .gz compresses it (default: "
            "clubwhist-backup-YYYY-MM-DD-HHMM.json.gz in this folder)",
        )
        parser.add_argument(
            "--club", action="append", default=[], metavar="SLUG", help="only this club"
        )
        parser.add_argument(
            "--event", nargs="+", type=int, default=[], metavar="ID", help="only these events"
        )
        parser.add_argument(
            "--drive", nargs="+", type=int, default=[], metavar="ID", help="only these drives"
        )
        parser.add_argument(
            "--tournament",
            nargs="+",
            type=int,
            default=[],
            metavar="ID",
            help="only these team tournaments (each with its league)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        clubs = []
        for slug in options["club"]:
            club = Club.objects.filter(slug=slug).first()
            if club is None:
                known = ", ".join(Club.objects.values_list("slug", flat=True)) or "none"
                raise CommandError(f"There is no club {slug!r} (clubs here: {known}).")
            clubs.append(club)
        events = []
        for pk in options["event"]:
            event = Event.objects.select_related("club").filter(pk=pk).first()
            if event is None:
                raise CommandError(f"There is no event {pk}.")
            events.append(event)
        drives = []
        for pk in options["drive"]:
            drive = Drive.objects.select_related("club").filter(pk=pk).first()
            if drive is None:
                raise CommandError(f"There is no drive {pk}.")
            drives.append(drive)
        tournaments = []
        for pk in options["tournament"]:
            tournament = Tournament.objects.select_related("club", "league").filter(pk=pk).first()
            if tournament is None:
                raise CommandError(f"There is no tournament {pk}.")
            tournaments.append(tournament)
        stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M")
        out = Path(options["output"] or f"clubwhist-backup-{stamp}.json.gz")
        if not out.parent.is_dir():
            raise CommandError(f"There is no folder {out.parent} to write {out.name} in.")
        whole = not clubs and not events and not drives and not tournaments
        with backup.consistent_read():
            document = backup.backup_document(
                clubs=None if whole else clubs,
                events=None if whole else events,
                drives=None if whole else drives,
                tournaments=None if whole else tournaments,
            )
        size = backup.write_file(out, document)
        results = sum(len(s["results"]) for e in document["events"] for s in e["sections"])
        what = "the whole database" if whole else "the chosen clubs, events, drives, tournaments"
        self.stdout.write(
            f"Wrote {out} ({what}): {plural(len(document['clubs']), 'club')}, "
            f"{plural(len(document['events']), 'event')} with "
            f"{plural(results, 'result')}, {plural(len(document['drives']), 'drive')}, "
            f"{plural(len(document['leagues']), 'league')}, "
            f"{plural(len(document['tournaments']), 'tournament')}, "
            f"{plural(len(document['users']), 'user')}; "
            f"{size / 1024:,.0f} KB{', gzip-compressed' if out.name.endswith('.gz') else ''}."
        )
