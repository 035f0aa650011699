"""`python manage.py restore FILE [--dry-run]`: a backup (`manage.py backup`), one event's JSON
or one drive's JSON into this database, all of it or nothing; refused, naming them, when its
clubs, events or drives are already here. `--dry-run` does the whole restore, checks included,
and rolls it back."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments.files import backup
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "Restore a backup (or one event's or drive's JSON) into this database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            help="a file written by `manage.py backup` (.json or .gz), or an event's or a "
            "drive's JSON",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="check everything and say what would be restored; change nothing",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"There is no file {path}.")
        try:
            report = backup.restore(backup.read_file(path), dry_run=options["dry_run"])
        except backup.RestoreRefused as exc:
            raise CommandError(f"{path.name} was not restored (nothing changed): {exc}") from None
        for line in report.lines():
            self.stdout.write(line)
