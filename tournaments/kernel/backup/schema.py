"""The backup format's kernel: the whole backup's marker and version, what a document carries of
each model, the refusal.

`FIELDS` names what a document carries of every model; `IMPLIED` the relations a row's place in
the document says; `OMITTED` and `OMITTED_MODELS` what is left out on purpose and why (a test
checks that these account for every field of every model, so a new field cannot be forgotten).
The kernel's own models (accounts, clubs) are listed here; each format adds its models' tables,
its document's marker and version when it registers its part (`registry.register`). Writing,
reading and restoring all follow these tables, so the format is said in one place.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import models

from tournaments.kernel.models import Club, Invitation, Member, MemberAudit, PeopleAudit
from tournaments.kernel.refusals import Refused

BACKUP_FORMAT = "clubwhist-backup"
#: The version each kind of document is written in (each format adds its own document's when
#: it registers). Each kind counts its own versions, so a change to one does not make the
#: others unreadable to an older clubwhist: an event's JSON from this clubwhist still imports
#: into one that knows no drives. Backup version 2 added "drives" (issue #26), version 3
#: "leagues" and "tournaments" (issue #27), version 4 each club's "members" (issue #44),
#: version 5 the links of every format's names to those members (each link the member's id in
#: the backup's register) and each club's "seasons" and "season_audit" (issue #44), version 6
#: each club's "scorers" (issue #46), version 7 each club's trails, "people_audit" and
#: "member_audit" (`kernel.backup.trails`); an older backup has none of them, and is read as
#: holding none. A format that adds its documents to the backup makes the next version.
VERSIONS: dict[str, int] = {BACKUP_FORMAT: 7}
#: The key of a club's scorers (usernames) in a whole backup's club block (version 6 on).
SCORERS = "scorers"
#: What a reader takes; it refuses any other version by name (a newer document would lose
#: what this clubwhist does not know of, without a word).
READABLE_VERSIONS: dict[str, frozenset[int]] = {BACKUP_FORMAT: frozenset({1, 2, 3, 4, 5, 6, 7})}

Model = type[models.Model]

#: What a document carries of each model, by the model's own field names (a relation to a user
#: as the username, a row of the same document by its key, such as a result's pairs
#: "NS3"/"EW2"/"3", the club's directors as usernames, a link to the club's member register as
#: the member's id in a whole backup and as {"name": ...} in a document on its own:
#: `kernel.backup.members`).
FIELDS: dict[Model, tuple[str, ...]] = {
    AuthUser: (
        "username",
        "email",
        "password",
        "first_name",
        "last_name",
        "is_active",
        "is_staff",
        "is_superuser",
        "date_joined",
        "last_login",
    ),
    Club: ("id", "name", "slug", "created_at", "paper", "minutes_per_board", "directors"),
    # in a whole backup only, listed in its club's block (`kernel.backup.members`)
    Member: (
        "id",
        "name",
        "number",
        "email",
        "active",
        "public_name",
        "created_at",
        "updated_at",
        "erased_at",
    ),
}

#: What a document carries of every format's audit line (`kernel.audit.AuditRow`) and tablet
#: link (`kernel.links.TableLink`).
AUDIT_FIELDS = ("id", "user", "user_name", "at", "action", "target", "before", "after", "reason")

# The club's trails, in a whole backup only, listed in its club's block (`kernel.backup.trails`):
# a register line names its member by the member's id in the backup's register.
FIELDS[PeopleAudit] = AUDIT_FIELDS
FIELDS[MemberAudit] = (*AUDIT_FIELDS, "member")
LINK_FIELDS = ("id", "table", "token", "created_at", "revoked_at")


def listed_under(owner: str, *models: Model) -> dict[Model, dict[str, str]]:
    """`IMPLIED` of rows listed under their `owner` ("drive"): the relation to it."""
    return {model: {owner: f"listed under its {owner}"} for model in models}


#: Fields added after documents were first written: an older document without them is read
#: with these values (what the field meant before it existed).
ADDED_LATER: dict[Model, dict[str, Any]] = {
    # Erasing a member came with migration 0019: before it nobody had been erased.
    Member: {"erased_at": None},
}

#: Relations a row does not carry: where it sits in the document says them.
IMPLIED: dict[Model, dict[str, str]] = {
    model: {"club": "listed under its club"} for model in (Member, PeopleAudit, MemberAudit)
}

#: Fields left out on purpose, and why.
OMITTED: dict[Model, dict[str, str]] = {
    Club: {
        "scorers": "carried by a whole backup only (version 6 on), as usernames beside the "
        "club's directors (`kernel.backup.dump.club_block`); an event's, a drive's or a "
        "tournament's document leaves them out: they score for the club, not for the evening, "
        "and a club that imports the document has its own",
    },
    AuthUser: {
        "id": "users are matched by username; ids differ from one database to another",
        "groups": "clubwhist grants nothing through groups (directors are a club's directors)",
        "user_permissions": "clubwhist grants nothing through per-user permissions",
    },
}

#: Models left out whole, and why.
OMITTED_MODELS: dict[Model, str] = {
    Invitation: "an invitation's link opens only the installation that sent it, and only "
    "while it is open: a restored club's directors invite again (the people trail says who "
    "was invited, and when)",
}


class RestoreRefused(Refused):
    """A document that cannot be restored. The message names what is wrong and where, and
    nothing has been changed."""


def model_field(model: Model, name: str) -> models.Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field), f"{model.__name__}.{name} is not a field"
    return found
