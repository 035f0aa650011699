"""`python manage.py members ...`: a club's member register from the command line.

    members import FILE --club SLUG [--yes]   the preview, line by line; stores with --yes
    members export --club SLUG [-o FILE]      the register as CSV (standard output by default)
    members list --club SLUG [--json]         every member, active or not
    members link --club SLUG [--dry-run]      link every unlinked name to its member
    members merge --club SLUG --keep ID --drop ID [--yes]   DROP's history moved onto KEEP
    members erase --club SLUG --id N [--yes]  the member forgotten (cannot be undone)
    members data --club SLUG --id N [-o FILE] everything the club holds about one member

The CSV is the pages' (docs/directors/members.md): a header naming `name` and any of `number`,
`email`, `active`, `public_name`. Nothing is stored, merged or erased without --yes: without it
the command says what it would do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments.kernel import member_privacy as privacy
from tournaments.kernel import members as register
from tournaments.kernel.member_links import names_link
from tournaments.kernel.models import Club, Member
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
        merging = sub.add_parser("merge", help="merge the record --drop into --keep")
        merging.add_argument("--keep", required=True, type=int, help="the kept member's id")
        merging.add_argument("--drop", required=True, type=int, help="the merged member's id")
        erasing = sub.add_parser("erase", help="forget a member (cannot be undone)")
        erasing.add_argument("--id", required=True, type=int, help="the member's id")
        for each in (merging, erasing):
            each.add_argument("--yes", action="store_true", help="do it (else: what it would do)")
        data = sub.add_parser("data", help="one member's data as JSON")
        data.add_argument("--id", required=True, type=int, help="the member's id")
        data.add_argument("-o", "--output", help="the file to write (default: stdout)")
        for each in (importing, exporting, listing, linking, merging, erasing, data):
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
        elif action == "merge":
            keep, drop = self._member(club, options["keep"]), self._member(club, options["drop"])
            self._merge(keep, drop, store=options["yes"])
        elif action == "erase":
            self._erase(self._member(club, options["id"]), store=options["yes"])
        elif action == "data":
            self._data(self._member(club, options["id"]), options["output"])
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

    def _member(self, club: Club, pk: int) -> Member:
        member = Member.objects.filter(club=club, pk=pk).first()
        if member is None:
            raise CommandError(f"{club.name}'s register has no member {pk}.")
        return member

    def _merge(self, keep: Member, drop: Member, *, store: bool) -> None:
        preview = privacy.merge_preview(keep=keep, drop=drop)
        self.stdout.write(
            f"{drop.name} (id {drop.pk}) into {keep.name} (id {keep.pk}): {preview.text} "
            f"({preview.places} place(s)), {preview.audit_lines} line(s) of the register's trail."
        )
        for key, value in preview.fills.items():
            self.stdout.write(f"{keep.name} takes the {key} {value}.")
        if not store:
            self.stdout.write("Nothing was changed: run again with --yes to merge.")
            return
        privacy.member_merge(keep=keep, drop=drop)
        self.stdout.write(f"Merged: {drop.name}'s record is now part of {keep.name}'s.")

    def _erase(self, member: Member, *, store: bool) -> None:
        preview = privacy.erase_preview(member)
        self.stdout.write(
            f"{member.name} (id {member.pk}) played {preview['text']}: their name, number and "
            "email go; their history stays under \u201cformer member\u201d. It cannot be undone."
        )
        if not store:
            self.stdout.write("Nothing was changed: run again with --yes to forget the member.")
            return
        done = privacy.member_erase(member=member)
        self.stdout.write(
            f"Forgotten: the register now calls them {done.member.name}; "
            f"{sum(done.rows.values())} row(s) changed in {done.evenings} evening(s), "
            f"{done.files} stored document(s) deleted."
        )

    def _data(self, member: Member, output: str | None) -> None:
        text = json.dumps(privacy.member_data(member), ensure_ascii=False, indent=2)
        if output:
            Path(output).write_text(text + "\n", encoding="utf-8")
            self.stdout.write(f"Member {member.pk}'s data written to {output}.")
        else:
            self.stdout.write(text)

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
