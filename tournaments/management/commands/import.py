"""`python manage.py import FILE [--club SLUG] [--json]`: a USEBIO 1.2 or PBN-with-results
file as a new, closed event, rescored here, or the clubwhist JSON of an event, a drive or a
team tournament restored whole, as the import page takes them; prints what was made
(`{"event": ID}`, `{"drive": ID}` or `{"tournament": ID}` with --json). Nothing is created
when any part of the file is refused."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments.files import exports as export_services
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = (
        "Import a USEBIO or PBN-with-results file as a new finished event, or an event's, a "
        "drive's or a tournament's clubwhist JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--club", help="the club's slug (needed when there are several)")
        parser.add_argument("--json", action="store_true", help='print {"event": ID}')

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path} cannot be read as a text file: {exc}") from None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"There is no club {options['club']!r}.")
        elif Club.objects.count() > 1:
            raise CommandError(
                "There are several clubs: say which with --club SLUG ("
                + ", ".join(Club.objects.values_list("slug", flat=True))
                + ")."
            )
        else:
            club = Club.objects.first() or club_get_or_create(name="My whist club")
        try:
            made = export_services.file_import(text=text, club=club)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if options["json"]:
            self.stdout.write(json.dumps({made.kind: made.item.pk}))
        else:
            self.stdout.write(
                f"Imported {path.name} as {made.kind} {made.item.pk}: {made.item.name}."
            )
