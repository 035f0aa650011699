"""`python manage.py standings EVENT_ID [--json]`: score the event now and print the standings."""

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from engine.scoring.document import StandingsDocument
from tournaments.events.models import Event
from tournaments.events.services.scoring import standings_refresh
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "Compute an event's standings now (no worker needed) and print them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("--json", action="store_true", help="print the standings document")

    def handle(self, *args: Any, **options: Any) -> None:
        if not Event.objects.filter(pk=options["event_id"]).exists():
            raise CommandError(f"There is no event {options['event_id']}.")
        standings = standings_refresh(event_id=options["event_id"], force=True)
        assert standings is not None
        if options["json"]:
            self.stdout.write(json.dumps(standings.data, indent=2))
            return
        document = StandingsDocument.from_dict(standings.data)
        for section in document.sections:
            for field in section.fields:
                self.stdout.write(f"\n{field.title}")
                for row in field.rows:
                    total = row.total.display if row.total else ""
                    if row.percentage:
                        share = row.percentage.display + "%"
                    else:
                        share = row.versus_average.display if row.versus_average else ""
                    self.stdout.write(
                        f"{row.rank:>4}  {row.direction:>2} {row.pair:<3} {row.names:<36} "
                        f"{total:>8} {share:>8}"
                    )
