"""One document's club and people, and restoring or importing one document whole, whatever its
format.

Every format's document carries its club (settings, directors, and the rows a format keeps in
it: `registry.ClubPart`) and names people by username. A restore (`manage.py restore FILE`)
puts the document under the club with its web address, made as the document has it when
there is none, and links its people to accounts (`document_restore`). A director's import puts
it under the club they chose, links nobody and creates nobody: a file's names are anybody's
words, so an audit line keeps its name as text (`user_name`) and what has no column for a name
in words is the importer's, or nobody's (`document_import`, `ParsedDocument.people_as_text`).
Either way, a document on its own names the members its rows link to, and each is linked again
by name in the club it goes into (`members.links_by_name`); in a whole backup the links are
ids in the backup's register (`members`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction

from tournaments.kernel.audit import AuditRow, User, actor
from tournaments.kernel.backup.checks import check_names
from tournaments.kernel.backup.members import links_by_name, links_to_members, names_only
from tournaments.kernel.backup.registry import club_parts
from tournaments.kernel.backup.report import Restored, RestoreReport
from tournaments.kernel.backup.rows import (
    MemberRef,
    UserRef,
    as_object,
    check_username,
    load_row,
)
from tournaments.kernel.backup.schema import BACKUP_FORMAT, SCORERS, Model, RestoreRefused
from tournaments.kernel.backup.writing import (
    club_listed,
    database_refusals,
    ensure_users,
    in_backup,
    insert_rows,
    link_users,
    move_sequences_past,
)
from tournaments.kernel.models import Club


@dataclass
class ClubBlock:
    """A checked club block: the club (unsaved), its directors' usernames, and the rows the
    formats keep in it by key (the events' "players")."""

    club: Club
    directors: list[str]
    rows: dict[str, list[Any]]
    scorers: list[str] = field(default_factory=list)  # a whole backup's, version 6 on


class ParsedDocument:
    """What every format's checked document has: its club, the people its rows name, the
    links its rows make to the club's member register (`members`), and, in a whole backup,
    its place there for a refusal (`place`, set by `read_backup`)."""

    club: ClubBlock
    user_refs: list[UserRef]
    member_refs: list[MemberRef]
    place: str = "The document"

    def rows(self) -> Iterator[tuple[Model, list[Any]]]:
        """Every row by model, parents before children."""
        raise NotImplementedError

    @property
    def name(self) -> str:
        """The name of the event, drive or tournament the document holds."""
        raise NotImplementedError

    def usernames(self) -> set[str]:
        return {ref.username for ref in self.user_refs}

    def owned_by(self, importer: AuthUser | None) -> None:
        """A director's import: what the document says someone made is the importer's."""
        raise NotImplementedError

    def people_as_text(self, importer: AuthUser | None) -> list[str]:
        """No row linked to an account by a name in the file: an audit line keeps the name as
        text, a row with no column for it keeps none (its place says where it came from),
        what the document made is the importer's (`owned_by`). Returns the names, for the
        import's own audit line."""
        for ref in self.user_refs:
            if isinstance(ref.obj, AuditRow):
                ref.obj.user_name = ref.username
            setattr(ref.obj, ref.attname, None)
        self.owned_by(importer)
        return sorted(self.usernames())


@dataclass
class DocumentsInBackup:
    """A backup's documents of one format, checked (`read_backup`): what of them is here
    already (`already_here`), whom they name, and writing them under the clubs just made
    (`restore`: one checked document under its club), each said in the report under `kind`."""

    kind: str
    documents: list[Any]
    already_here: Callable[[Any], str | None]
    restore: Callable[[Any, Club, RestoreReport], Restored]

    def here(self) -> list[str]:
        return [found for found in (self.already_here(d) for d in self.documents) if found]

    def usernames(self) -> set[str]:
        return {name for parsed in self.documents for name in parsed.usernames()}

    def parsed_documents(self) -> list[Any]:
        return list(self.documents)

    def write(
        self, clubs: Mapping[str, Club], users: Mapping[str, AuthUser], report: RestoreReport
    ) -> None:
        for parsed in self.documents:
            link_users(parsed.user_refs, users)
            links_to_members(parsed.member_refs)
            club = clubs[parsed.club.club.slug]
            report.of(self.kind).append(self.restore(parsed, club, report))


def read_backup(
    listed: list[Any],
    parse: Callable[[Any], ParsedDocument],
    label: str,
    kind: str,
    slugs: set[str],
    also: Callable[[Any, str], None] | None = None,
) -> list[Any]:
    """A backup's documents of one format, each checked (`parse`), named in a refusal by
    `label` and its place ("Drive 2") and its `kind`'s name, and of a club the backup lists;
    `also` checks what else the format asks of each (given it and its place)."""
    documents = []
    for i, raw in enumerate(listed):
        where = f"{label} {i + 1}"
        parsed = in_backup(parse, raw, where, kind)
        club_listed(parsed.club.club.slug, slugs, where, parsed.name)
        if also is not None:
            also(parsed, where)
        parsed.place = f"{where} of the backup ({parsed.name!r})"
        documents.append(parsed)
    return documents


def parse_club(data: Any, fmt: str, where: str = "The club") -> ClubBlock:
    """A document's club block, checked (`fmt`: the document's marker, for its version)."""
    data = as_object(data, where)
    whole = fmt == BACKUP_FORMAT
    parts = club_parts(backup=whole)
    children = [part.key for part in parts] + ([SCORERS] if whole else [])
    club = load_row(Club, data, where, children=children, fmt=fmt)
    check_names(club, ("name",), where)
    for part in parts:
        part.check(club, where)
    if not isinstance(data["directors"], list):
        raise RestoreRefused(f"{where}: 'directors' should be a list of usernames.")
    directors = [check_username(d, where, "director") or "" for d in data["directors"]]
    # A backup written before version 6 has no scorers: the club had none carried.
    listed = data.get(SCORERS, []) if whole else []
    if not isinstance(listed, list):
        raise RestoreRefused(f"{where}: 'scorers' should be a list of usernames.")
    scorers = [check_username(s, where, "scorer") or "" for s in listed]
    rows = {part.key: part.parse(data, where) for part in parts}
    return ClubBlock(club, [d for d in directors if d], rows, [s for s in scorers if s])


def club_create(block: ClubBlock, users: Mapping[str, AuthUser]) -> Club:
    club = block.club
    if club.pk is not None and Club.objects.filter(pk=club.pk).exists():
        club.pk = None
    insert_rows(Club, [club])
    club.directors.set([users[name] for name in block.directors])
    club.scorers.set([users[name] for name in block.scorers])
    written: list[tuple[Model, list[Any]]] = [(Club, [club])]
    for part in club_parts(backup=True):
        if part.key in block.rows:
            written += part.write(club, block.rows[part.key])
    move_sequences_past(written)
    return club


def club_for(
    block: ClubBlock, users: Mapping[str, AuthUser], report: RestoreReport, *, advice: str
) -> Club:
    """The document's club: the one here with its slug, else a new one as the document has
    it. A club here of the same name under another address refuses, with `advice`."""
    existing = Club.objects.filter(slug=block.club.slug).first()
    if existing is not None:
        return existing
    if Club.objects.filter(name=block.club.name).exists():
        raise RestoreRefused(
            f"A club named {block.club.name!r} is already here under another web address than "
            f"the document's ({block.club.slug!r}): {advice}."
        )
    report.of("clubs").append(f"{block.club.name} ({block.club.slug})")
    return club_create(block, users)


def document_restore(
    parsed: ParsedDocument,
    write: Callable[[Club, RestoreReport], object],
    *,
    advice: str,
    dry_run: bool = False,
) -> RestoreReport:
    """One checked document restored, all of it or nothing: into the club with its web
    address (made as the document has it when there is none, `advice` saying what to do when
    its name is taken under another), its people linked by username and made, inactive, when
    missing; `write` puts the rows under the club and says so in the report. A dry run does
    everything, checks included, then rolls back."""
    names_only(parsed.member_refs, "a document")
    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        users = ensure_users(parsed.usernames() | set(parsed.club.directors), {}, report)
        target = club_for(parsed.club, users, report, advice=advice)
        link_users(parsed.user_refs, users)
        links_by_name(parsed.member_refs, target)
        write(target, report)
        if dry_run:
            transaction.set_rollback(True)
    return report


def document_import(
    parsed: ParsedDocument,
    write: Callable[[Club, RestoreReport, list[str]], Restored],
    *,
    club: Club,
    imported_by: User = None,
    dry_run: bool = False,
) -> tuple[Restored, RestoreReport]:
    """A director's import of one checked document into `club`, all of it or nothing: none of
    the file's club settings applied, its people kept as text (`people_as_text`); `write`
    puts the rows under the club and writes the import's own audit line, naming the people
    the file gave."""
    names_only(parsed.member_refs, "a document")
    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        named = parsed.people_as_text(actor(imported_by))
        links_by_name(parsed.member_refs, club)
        restored = write(club, report, named)
        if dry_run:
            transaction.set_rollback(True)
    return restored, report


def import_note(kind: str, original_id: int | None, named: list[str]) -> dict[str, Any]:
    """What an import's own audit line says it took: the file, the id there, the people it
    named (their names as the file gives them)."""
    return {
        "from": "clubwhist JSON",
        kind: original_id,
        **({"people named": ", ".join(named)} if named else {}),
    }
