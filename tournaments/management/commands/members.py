"""`python manage.py members ...`: a club's member register from the command line.

    members import FILE --club SLUG [--yes]   the preview, line by line; stores with --yes
    members export --club SLUG [-o FILE]      the register as CSV (standard output by default)
    members list --club SLUG [--json]         every member, active or not
    members link --club SLUG [--dry-run]      link every unlinked name to its member

The CSV is the pages' (docs/directors/members.md): a header naming `name` and any of `number`,
`email`, `active`, `public_name`. Nothing is stored without --yes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments.kernel import members as register
from tournaments.kernel.member_links import names_link
from tournaments.kernel.models import Club
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "Import, export and list a club's member register."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        importing = sub.add_parser("import", help="a CSV file: the preview; --yes stores it")
        importing.add_argument("file")
        importing.add_argument("--yes", action="store_true", help="store the new members")
        exporting = sub.add_parser("export", help="the register as CSV")
        exporting.add_argument("-o", "--output", help="the file to write (default: stdout)")
        listing = sub.add_parser("list", help="every member")
        listing.add_argument("--json", action="store_true")
        linking = sub.add_parser(
            "link", help="link every unlinked name of every format to the member of that name"
        )
        linking.add_argument("--dry-run", action="store_true", help="report only, change nothing")
        for each in (importing, exporting, listing, linking):
            each.add_argument("--club", required=True, help="the club's slug")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"No club has the slug {options['club']!r}.")
        action = options["action"]
        if action == "import":
            self._import(club, Path(options["file"]), store=options["yes"])
        elif action == "export":
            self._export(club, options["output"])
        elif action == "link":
            self._link(club, dry_run=options["dry_run"])
        else:
            self._list(club, as_json=options["json"])

    def _import(self, club: Club, path: Path, *, store: bool) -> None:
        data = path.read_bytes()
        preview = register.members_import_preview(club=club, text=data)
        for row in preview.rows:
            said = {"new": "new", "existing": "already in the register", "refused": "refused"}
            reason = f": {row.reason}" if row.reason else ""
            self.stdout.write(
                f"line {row.line}  {row.name or '(no name)'}  {said[row.status]}{reason}"
            )
        self.stdout.write(
            f"{len(preview.new)} new, {len(preview.existing)} already in the register, "
            f"{len(preview.refused)} refused."
        )
        if not store:
            self.stdout.write("Nothing was stored: run again with --yes to add the new members.")
            return
        done = register.members_import_confirm(
            club=club, text=data, lines=[row.line for row in preview.new]
        )
        for row in done.not_stored:
            self.stdout.write(f"line {row.line}  {row.name}  not added: {row.reason}")
        self.stdout.write(f"{len(done.stored)} member(s) added to {club.name}'s register.")

    def _export(self, club: Club, output: str | None) -> None:
        text = register.members_export(club)
        if output:
            Path(output).write_text(text, encoding="utf-8", newline="")
            self.stdout.write(f"{club.name}'s register written to {output}.")
        else:
            self.stdout.write(text, ending="")

    def _list(self, club: Club, *, as_json: bool) -> None:
        members = register.members_of(club)
        if as_json:
            rows = [
                {
                    "name": m.name, "number": m.number, "email": m.email, "active": m.active,
                    "public_name": m.public_name, "shown_name": m.shown_name(),
                }
                for m in members
            ]  # fmt: skip
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        for m in members:
            state = "" if m.active else "  (inactive)"
            self.stdout.write(f"{m.number or '-':>8}  {m.name}{state}")

    def _link(self, club: Club, *, dry_run: bool) -> None:
        report = names_link(club=club, dry_run=dry_run)
        verb = "would link" if dry_run else "linked"
        for hit in report.linked:
            self.stdout.write(
                f"{verb}  {hit.name} (member {hit.member.pk})  {hit.places} place(s): "
                + "; ".join(hit.evenings)
            )
        for miss in report.unmatched:
            self.stdout.write(f"no member  {miss.name}: " + "; ".join(miss.evenings))
        self.stdout.write(f"{club.name}: {report.summary()}")
        if dry_run:
            self.stdout.write("Nothing was changed: run again without --dry-run to link.")
