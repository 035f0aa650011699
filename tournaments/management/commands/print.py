"""`python manage.py print EVENT_ID KIND -o OUT.pdf [--paper a4|letter]`: an event's document
as a PDF, drawn from the database as it is now (names, absences, tablet links, par, results).

KIND is one of the print page's documents (curtain-cards, hand-records, board-slips,
duplication-sheet, travellers, table-cards, pair-cards, results-sheet) or `pack` for all of
them in one PDF. The file is written beside OUT and renamed over it only when complete, so a
refusal never leaves half a file. Tablet links in the QR codes use CLUBWHIST_BASE_URL
(default http://127.0.0.1:8000).
"""

import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from tournaments.events.models import Event
from tournaments.events.services import printing as print_services
from tournaments.kernel.models import Club
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "Print an event's curtain cards, hand records, travellers, guide cards... as a PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("kind", help=", ".join([*print_services.KINDS, "pack"]))
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")
        parser.add_argument(
            "--paper", choices=Club.Paper.values, help="default: the club's paper setting"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        event = (
            Event.objects.select_related("club")
            .prefetch_related("sections")
            .filter(pk=options["event_id"])
            .first()
        )
        if event is None:
            raise CommandError(f"There is no event {options['event_id']}.")
        kind = options["kind"]
        if kind != "pack" and kind not in print_services.KINDS:
            kinds = ", ".join([*print_services.KINDS, "pack"])
            raise CommandError(f"There is no document {kind!r}; choose one of {kinds}.")
        base_url = settings.BASE_URL or "http://127.0.0.1:8000"
        try:
            if kind == "pack":
                pdf = print_services.print_pack_now(
                    event, base_url=base_url, paper=options["paper"]
                )
            else:
                pdf = print_services.document_pdf(
                    event, kind, base_url=base_url, paper=options["paper"]
                )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        out = Path(options["output"])
        if not out.parent.is_dir():
            raise CommandError(f"There is no folder {out.parent} to write {out.name} in.")
        handle, temporary = tempfile.mkstemp(dir=out.parent or ".", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as fp:
                fp.write(pdf)
            os.replace(temporary, out)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.stdout.write(f"Wrote {out} ({len(pdf) // 1024} KB).")
