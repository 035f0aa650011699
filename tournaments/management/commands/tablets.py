"""`python manage.py tablets EVENT_ID [--json]`: every table's tablet link, for scripts and for
printing a sheet of codes. Links are made for tables that have none (the event must have
started); the address comes from CLUBWHIST_BASE_URL (default http://127.0.0.1:8000)."""

import json
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from tournaments.events.models import Event
from tournaments.events.selectors import tablet_links
from tournaments.events.services.tablets import table_links_ensure_for
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "List each table's tablet link (made if missing): table, URL and token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("--json", action="store_true", help='print [{"table", "url", "token"}]')

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.prefetch_related("sections").filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event_id']}.")
        try:
            table_links_ensure_for(event=event)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        links = tablet_links(event, settings.BASE_URL or "http://127.0.0.1:8000")
        if options["json"]:
            rows = [{"table": link.table, "url": link.url, "token": link.token} for link in links]
            self.stdout.write(json.dumps(rows, indent=2))
            return
        for link in links:
            self.stdout.write(f"Table {link.table:>2}  {link.url}")
