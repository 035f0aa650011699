"""What a restore did (or, in a dry run, would do), in sentences for the person who ran it.

The report knows no format: each format's restore adds what it restored under its kind
("events", "drives", "tournaments"), each restored thing saying itself (`describe`), and what
it made besides under a kind of its own ("leagues", by name). The lines follow the kinds in the
order the formats registered them (`registry.register` calls `report_order`), the clubs first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

#: The kinds a report says, in the order it says them: (kind, the label of a line naming them
#: all, or None when each one gets a line of its own, `describe()`).
_ORDER: list[tuple[str, str | None]] = [("clubs", "club(s)")]


def report_order(kinds: tuple[tuple[str, str | None], ...]) -> None:
    """Say a format's kinds after those already known (once: registering again changes
    nothing)."""
    for kind in kinds:
        if kind not in _ORDER:
            _ORDER.append(kind)


class Restored(Protocol):
    """One event, drive, tournament... restored: it says itself in a line."""

    def describe(self) -> str: ...


def moved(original_id: int | None, pk: int | None) -> str:
    """What a restored line says when the document's id was taken here."""
    if original_id is not None and original_id != pk:
        return f" (its id {original_id} is taken here)"
    return ""


@dataclass
class RestoreReport:
    """What a restore did (or, in a dry run, would do), for people."""

    dry_run: bool = False
    restored: dict[str, list[Any]] = field(default_factory=dict)
    users_from_backup: list[str] = field(default_factory=list)
    users_inactive: list[str] = field(default_factory=list)
    users_kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def of(self, kind: str) -> list[Any]:
        """What was restored or made of this kind ("clubs", "events", "leagues"...), in order;
        the list to add to."""
        return self.restored.setdefault(kind, [])

    def lines(self) -> list[str]:
        done = "Would restore" if self.dry_run else "Restored"
        out = []
        for kind, label in _ORDER:
            items = self.restored.get(kind, [])
            if label is None:
                out += [f"{done} {item.describe()}." for item in items]
            elif items:
                out.append(f"{done} {len(items)} {label}: {', '.join(items)}.")
        if self.users_from_backup:
            out.append(
                f"{'Would create' if self.dry_run else 'Created'} "
                f"{len(self.users_from_backup)} user(s) from the backup, with their passwords: "
                f"{', '.join(self.users_from_backup)}."
            )
        if self.users_inactive:
            out.append(
                f"{'Would create' if self.dry_run else 'Created'} {len(self.users_inactive)} "
                f"user(s) the document names, inactive and without a password (an "
                f"administrator can give them one): {', '.join(self.users_inactive)}."
            )
        if self.users_kept:
            out.append(
                f"Kept {len(self.users_kept)} user(s) already here as they are: "
                f"{', '.join(self.users_kept)}."
            )
        out += self.notes
        if self.dry_run:
            out.append(
                "Dry run: everything was checked and restored, then rolled back; nothing changed."
            )
        return out


@dataclass(frozen=True)
class Imported:
    """What a director's import made, and one sentence for the director who sent the file."""

    kind: str  # "event", "drive" or "tournament": the part's `kind`
    item: Any
    said: str
