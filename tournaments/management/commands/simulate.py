"""`python manage.py simulate EVENT_ID [--rounds all|N] [--seed S]`: play plausible results.

For rehearsals and load tests: results go through the same services the tablets use.
"""

from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments.events.models import Event
from tournaments.events.services.simulation import event_simulate
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "Play plausible results for an event's missing meetings, through the tablets' service."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("--rounds", default="all", help="'all' or how many rounds to play")
        parser.add_argument("--seed", type=int, default=None, help="for reproducible results")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event_id']}.")
        rounds_arg = str(options["rounds"]).strip().lower()
        if rounds_arg == "all":
            rounds = None
        elif rounds_arg.isdigit() and int(rounds_arg) >= 1:
            rounds = int(rounds_arg)
        else:
            raise CommandError("--rounds takes 'all' or a whole number of rounds (1 or more).")
        try:
            made = event_simulate(event=event, rounds=rounds, seed=options["seed"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{len(made)} result(s) played for event {event.pk} ({event.name}).")
