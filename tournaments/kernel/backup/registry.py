"""The formats' parts of the backup, each registered by its format: the kernel imports none.

A format's part (`BackupPart`) says its document's marker and version, the tables of what its
document carries of its models (`schema`), and how its documents are written, read, restored,
imported into a club and carried in a whole installation's backup. `register` adds it to the
kernel's tables; the whole backup, the restore of any document and a director's import
(`driver`) then go through every part registered, in the order registered. A club's block may
carry a format's rows too (the events' players): that format registers a `ClubPart`. A whole
backup's club block carries more (the member register, the seasons:
`register_backup_club_part`); rows that name the formats' evenings are written once the
evenings are in (`register_after_restore`).

The parts are registered as Django starts (`tournaments.apps` calls
`tournaments.files.backup.register_formats`, which lists them): a fourth format writes its
part in its own package and adds it to that list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.contrib.auth.models import User as AuthUser

from tournaments.kernel.backup.report import Imported, RestoreReport, report_order
from tournaments.kernel.backup.schema import (
    ADDED_LATER,
    FIELDS,
    IMPLIED,
    OMITTED,
    OMITTED_MODELS,
    READABLE_VERSIONS,
    VERSIONS,
    Model,
)
from tournaments.kernel.models import Club


@dataclass(frozen=True)
class Tables:
    """What a format's document carries of each of its models, in `schema`'s terms."""

    fields: Mapping[Model, tuple[str, ...]]
    implied: Mapping[Model, Mapping[str, str]]
    added_later: Mapping[Model, Mapping[str, Any]] = field(default_factory=dict)
    omitted: Mapping[Model, Mapping[str, str]] = field(default_factory=dict)
    omitted_models: Mapping[Model, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Picked:
    """What a format puts in a backup: its blocks by key, in the backup's order ("leagues",
    "tournaments"), the clubs they belong to, the usernames they name."""

    blocks: dict[str, list[Any]]
    clubs: list[Club]
    usernames: set[str]


class InBackup(Protocol):
    """A format's documents of a backup, checked: what of them is here already, whom they
    name, and writing them under the clubs just made."""

    def here(self) -> list[str]: ...

    def usernames(self) -> set[str]: ...

    def parsed_documents(self) -> list[Any]:
        """The checked documents (`documents.ParsedDocument`), whose links to the club's
        members the driver checks against the backup's registers before anything is
        written."""
        ...

    def write(
        self, clubs: Mapping[str, Club], users: Mapping[str, AuthUser], report: RestoreReport
    ) -> None: ...


class ClubPart(Protocol):
    """A format's rows in a club's block (the events' players), by the block's `key`."""

    key: str

    def check(self, club: Club, where: str) -> None: ...

    def dump(self, club: Club) -> list[Any]: ...

    def parse(self, data: dict[str, Any], where: str) -> list[Any]: ...

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]: ...


@dataclass(frozen=True)
class BackupPart:
    """A format's part of the backup."""

    marker: str  # the document's format marker: "clubwhist-drive"
    version: int  # the version its documents are written in
    readable: frozenset[int]  # the versions its reader takes
    kind: str  # "drive": what one of its documents holds, as an import's `Imported.kind`
    whose: str  # "a whist drive's": a refusal's words for its JSON
    importable: str  # "a whist drive": what the import page takes, in the director's words
    tables: Tables
    #: (kind, the label of a line naming them all, or None: a line each) a report says
    report_kinds: tuple[tuple[str, str | None], ...]
    #: The backup's blocks of it, picked: from the clubs chosen (or, with `whole`, all of
    #: them) and the documents' owners chosen by name (`backup_document(drives=[...])`).
    pick: Callable[[list[Club], Iterable[Any] | None, bool], Picked]
    #: The key `backup_document` takes its owners chosen by ("drives").
    chosen_by: str
    #: A backup's documents of it, checked (by the backup's version), given the clubs' slugs.
    read: Callable[[dict[str, Any], set[str]], InBackup]
    #: One of its documents restored (`manage.py restore FILE`), into its own club.
    restore: Callable[..., RestoreReport]
    #: One of its documents imported by a director into `club`, people kept as text.
    import_document: Callable[..., Imported]
    #: Its rows in a club's block, if it keeps any there (the events' players).
    club_part: ClubPart | None = None


class AfterRestore(Protocol):
    """What a package does once every format's documents of a whole backup are written, for
    each club restored (`rows`: the club block's rows by key, as its `ClubPart`s parsed them):
    the seasons write their competitions' chosen evenings then, under the ids the evenings
    got (the report says them), and compute their tables again."""

    def __call__(
        self, *, club: Club, rows: Mapping[str, list[Any]], report: RestoreReport
    ) -> None: ...


_PARTS: dict[str, BackupPart] = {}
_CLUB_PARTS: dict[str, ClubPart] = {}
#: Rows a club's block carries in a whole backup only (the member register: an event's JSON,
#: handed to another club, carries no member's email), by key.
_BACKUP_CLUB_PARTS: dict[str, ClubPart] = {}
_AFTER_RESTORE: list[AfterRestore] = []


def register(part: BackupPart) -> None:
    """Add a format's part to the kernel's tables; registering the same part again changes
    nothing, another part under a marker taken is a mistake."""
    known = _PARTS.get(part.marker)
    if known is not None:
        assert known == part, f"two backup parts for {part.marker!r}"
        return
    _PARTS[part.marker] = part
    VERSIONS[part.marker] = part.version
    READABLE_VERSIONS[part.marker] = part.readable
    FIELDS.update(part.tables.fields)
    IMPLIED.update({model: dict(said) for model, said in part.tables.implied.items()})
    ADDED_LATER.update({model: dict(said) for model, said in part.tables.added_later.items()})
    OMITTED.update({model: dict(said) for model, said in part.tables.omitted.items()})
    OMITTED_MODELS.update(part.tables.omitted_models)
    report_order(part.report_kinds)
    if part.club_part is not None:
        _CLUB_PARTS[part.club_part.key] = part.club_part


def parts() -> list[BackupPart]:
    """The parts registered, in the order registered."""
    return list(_PARTS.values())


def part_for(marker: Any) -> BackupPart | None:
    return _PARTS.get(marker) if isinstance(marker, str) else None


def club_parts(*, backup: bool = False) -> list[ClubPart]:
    """The parts of a club's block: in every document, and with `backup` those a whole
    backup's block carries besides."""
    return list(_CLUB_PARTS.values()) + (list(_BACKUP_CLUB_PARTS.values()) if backup else [])


def register_backup_club_part(part: ClubPart) -> None:
    """Rows a club's block carries in a whole backup only (the kernel's member register)."""
    _BACKUP_CLUB_PARTS[part.key] = part


def register_after_restore(hook: AfterRestore) -> None:
    """A step of a whole backup's restore once every format's documents are written (the
    seasons'); registering the same step again changes nothing."""
    if hook not in _AFTER_RESTORE:
        _AFTER_RESTORE.append(hook)


def after_restore() -> list[AfterRestore]:
    """The steps after a whole backup's documents are written, in the order registered."""
    return list(_AFTER_RESTORE)


def importable_by_marker() -> dict[str, str]:
    """What a director's import takes, by format marker, in the director's words."""
    return {part.marker: part.importable for part in parts()}
