"""`python manage.py export EVENT_ID --format FORMAT -o FILE`: the event's results as a file
for other programs (docs/directors/results.md); FORMAT is usebio, pbn, csv, xlsx,
travellers-csv, travellers-xlsx, score-cards-csv, score-cards-xlsx or json.
Written beside FILE and renamed over it only when complete."""

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from engine.exports import ExportError
from tournaments.events.models import Event
from tournaments.files import exports as export_services
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "Export an event's results as USEBIO 1.2, PBN with results, or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("--format", required=True, help=", ".join(export_services.FORMATS))
        parser.add_argument("-o", "--output", required=True, help="the file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.select_related("club").filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event_id']}.")
        out = Path(options["output"])
        if not out.parent.is_dir():
            raise CommandError(f"There is no folder {out.parent} to write {out.name} in.")
        try:
            made = export_services.event_export(event, options["format"])
        except ExportError as exc:
            raise CommandError(str(exc)) from None
        handle, temporary = tempfile.mkstemp(dir=out.parent, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as fp:
                fp.write(made.content())
            os.replace(temporary, out)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.stdout.write(f"Wrote {out} ({options['format']}).")
