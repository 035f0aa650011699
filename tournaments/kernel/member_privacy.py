"""A member's privacy: two records of one person merged, a member forgotten, and everything the
club holds about one member gathered for them (a subject access request).

The formats' rows link to members (a pair's two players, a drive's player, a team's two
players); each such model says which link stands behind which name field (`MEMBER_NAMES`) and
which evening a row belongs to (`member_evening`). This module finds those rows through
`Member._meta.related_objects`, never by importing a format (the kernel imports none).

Forgetting (`member_erase`) keeps the history and removes the person: the register's row
becomes "Former member <n>", and every occurrence of the names the member was known by (the
register's name, its earlier names in the register's trail, the names as played on linked
rows) is replaced by "former member" in every text and JSON column of every row of the club
(evenings, standings documents, audit trails, season tables...), found by walking the models
of the app and their foreign keys to `Club`. Stored PDFs are deleted, to be drawn again, and
the tablets' cached states are retired. A backup written before the erase still holds the
name: docs/operations/privacy.md says what to do with one.

Every write takes the club's row `SELECT ... FOR UPDATE` first, as the register's writes do;
a refusal (`MembersRefused`) changes nothing.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from tournaments.kernel import jobs, live
from tournaments.kernel.audit import User, audit_write, json_safe
from tournaments.kernel.commits import after_commit
from tournaments.kernel.members import MembersRefused
from tournaments.kernel.models import Club, Member, MemberAudit, Play, PublicName

log = logging.getLogger(__name__)

#: What replaces a forgotten member's name wherever it was written.
FORMER = "former member"
#: The register's name of a forgotten member: "Former member 3", unique in the club.
FORMER_ROW = "Former member {n}"
#: The export's marker and version.
DATA_FORMAT = "clubwhist-member-data"
DATA_VERSION = 1
#: Names shorter than this are not searched for in free text: a single letter would match
#: everywhere. (The register's own name is replaced on its rows whatever its length.)
SHORTEST_SEARCHED = 2


# ---- where a member is linked --------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """One kind of link to a member: the model, its link field and the name field behind it."""

    model: type[models.Model]
    field: str
    name_field: str


@dataclass(frozen=True)
class Place:
    """One row where a member played: its format's word, the evening, the name as played."""

    kind: str
    play: Play
    row: models.Model
    link: Link

    @property
    def name_as_played(self) -> str:
        return str(getattr(self.row, self.link.name_field))

    @property
    def others(self) -> list[str]:
        """The other names of the same row (the partner, the team mate), as played."""
        names = getattr(type(self.row), "MEMBER_NAMES", {})
        return [
            str(getattr(self.row, other))
            for other in names.values()
            if other != self.link.name_field and getattr(self.row, other)
        ]


def member_links() -> list[Link]:
    """Every link field to `Member` that stands behind a name (`MEMBER_NAMES`), whichever
    format's model holds it."""
    found = []
    for relation in Member._meta.related_objects:
        model = relation.related_model
        names = getattr(model, "MEMBER_NAMES", None)
        if isinstance(model, type) and names and relation.field.name in names:
            found.append(Link(model, relation.field.name, names[relation.field.name]))
    return sorted(found, key=lambda link: (link.model.__name__, link.field))


def member_places(member: Member) -> list[Place]:
    """Every row linked to `member`, with its evening, newest evening first. A row derived
    from those (the season's ledger) names no evening of its own and is not a place played."""
    places = []
    for link in member_links():
        if not hasattr(link.model, "member_evening"):
            continue
        for row in link.model._default_manager.filter(**{link.field: member}):
            kind, play = row.member_evening()
            places.append(Place(kind, play, row, link))
    places.sort(key=lambda p: (p.play.date, p.play.pk), reverse=True)
    return places


def _plural(word: str, n: int) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def places_summary(places: Iterable[Place]) -> dict[str, int]:
    """How many evenings of each format these places are in ("pairs event": 2, ...)."""
    evenings = {(p.kind, type(p.play), p.play.pk) for p in places}
    return dict(sorted(Counter(kind for kind, _, _ in evenings).items()))


def summary_text(counts: dict[str, int]) -> str:
    """The counts in words: "2 pairs events, 1 drive" (or "no evening")."""
    return ", ".join(_plural(kind, n) for kind, n in counts.items()) or "no evening"


# ---- the club's rows, found generically ---------------------------------------------------


def _app_models() -> list[type[models.Model]]:
    return list(apps.get_app_config(Club._meta.app_label).get_models())


@functools.cache
def club_path(model: type[models.Model]) -> str | None:
    """The lookup from `model` to its club ("club", "drive__club",
    "section__event__club"...): the shortest chain of foreign keys, or None when the model
    belongs to no club. Found by walking the foreign keys, so a model added later is walked
    too."""
    queue: list[tuple[type[models.Model], list[str]]] = [(model, [])]
    seen = {model}
    while queue:
        here, path = queue.pop(0)
        if len(path) > 4:
            return None
        for f in here._meta.concrete_fields:
            if not isinstance(f, models.ForeignKey):
                continue
            target = f.related_model
            if target is Club:
                return "__".join([*path, f.name])
            if (
                isinstance(target, type)
                and target._meta.app_label == Club._meta.app_label
                and target not in seen
            ):
                seen.add(target)
                queue.append((target, [*path, f.name]))
    return None


def _play_path(model: type[models.Model], path: str) -> str | None:
    """The part of `path` that reaches the row's evening (a `Play`), or None."""
    parts = path.split("__")[:-1]
    here: Any = model
    if issubclass(model, Play):
        return "pk"
    for i, part in enumerate(parts):
        here = here._meta.get_field(part).related_model
        if issubclass(here, Play):
            return "__".join(parts[: i + 1])
    return None


def _text_fields(model: type[models.Model]) -> list[str]:
    """The columns that may hold a name: text (not choices) and JSON."""
    found = []
    for f in model._meta.concrete_fields:
        if isinstance(f, models.JSONField) or (
            isinstance(f, models.CharField | models.TextField) and not f.choices
        ):
            found.append(f.attname)
    return found


# ---- replacing a name ------------------------------------------------------------------------


class Scrubber:
    """Replaces the names given, whatever their capitals and spacing, as whole words, by
    "former member" ("Former member" where it starts the text)."""

    def __init__(self, names: Iterable[str]) -> None:
        wanted = sorted({n.strip() for n in names if len(n.strip()) >= SHORTEST_SEARCHED},
                        key=len, reverse=True)  # fmt: skip
        self.empty = not wanted
        words = [r"\s+".join(re.escape(w) for w in name.split()) for name in wanted]
        self.pattern = re.compile(r"(?<!\w)(?:" + "|".join(words or ["(?!)"]) + r")(?!\w)",
                                  re.IGNORECASE)  # fmt: skip

    def _word(self, match: re.Match[str]) -> str:
        return FORMER.capitalize() if match.start() == 0 else FORMER

    def text(self, value: str) -> str:
        return self.pattern.sub(self._word, value)

    def value(self, value: Any) -> Any:
        """A JSON value with the names replaced in every string, keys included."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.value(v)
                    for k, v in value.items()}  # fmt: skip
        return value


@dataclass
class Scrubbed:
    """What an erase changed: rows per model, the evenings touched, files deleted."""

    rows: Counter[str]
    plays: set[tuple[type[models.Model], int]]
    files: int = 0


def _scrub_model(model: type[models.Model], club: Club, scrub: Scrubber, done: Scrubbed) -> None:
    path = club_path(model)
    fields = _text_fields(model)
    if path is None or not fields:
        return
    play = _play_path(model, path)
    extra = [play] if play and play != "pk" else []
    rows = (
        model._default_manager.filter(**{path: club}).order_by().values_list("pk", *extra, *fields)
    )
    for values in rows.iterator():
        pk = values[0]
        play_pk = pk if play == "pk" else (values[1] if extra else None)
        current = values[1 + len(extra) :]
        changed = {}
        for name, value in zip(fields, current, strict=True):
            if value is None:
                continue
            new = scrub.value(value)
            if new != value:
                changed[name] = new
        if not changed:
            continue
        _write(model, pk, changed)
        done.rows[model.__name__] += 1
        if play_pk is not None:
            owner = model if play == "pk" else _model_at(model, str(play))
            done.plays.add((owner, int(play_pk)))


def _model_at(model: type[models.Model], path: str) -> type[models.Model]:
    here: Any = model
    for part in path.split("__"):
        here = here._meta.get_field(part).related_model
    return here  # type: ignore[no-any-return]


def _write(model: type[models.Model], pk: Any, changed: dict[str, Any]) -> None:
    """One row's new values, saved through the model (so the signals that retire the
    tablets' cached copies fire). A row of a list of unique names that would hold "former
    member" twice, and that nothing refers to, is deleted instead."""
    row = model._default_manager.get(pk=pk)
    for name, value in changed.items():
        setattr(row, name, value)
    if getattr(model, "REWRITE_AS_NEW_ROW", False):
        # Its readers keep copies under its id: a new id leaves every copy unread.
        model._default_manager.filter(pk=pk).delete()
        row.pk = None
        row.save(force_insert=True)
        return
    try:
        with transaction.atomic():
            row.save(update_fields=[model._meta.get_field(n).name for n in changed])
    except IntegrityError:
        if any(r.related_model for r in model._meta.related_objects):
            raise MembersRefused(
                f"The name could not be removed from a {model._meta.verbose_name} without "
                "breaking its uniqueness: ask the administrator to edit it first."
            ) from None
        row.delete()


def _stored_files(club: Club, done: Scrubbed) -> None:
    """Rows holding a drawn document (a print pack's PDF) of the club are deleted: they may
    show the name, and are drawn again on demand."""
    for model in _app_models():
        path = club_path(model)
        if path is None or not any(
            isinstance(f, models.BinaryField) for f in model._meta.concrete_fields
        ):
            continue
        count, _ = model._default_manager.filter(**{path: club}).delete()
        done.files += count


def _admin_log(member: Member, scrub: Scrubber, shown: str) -> None:
    """Django's admin history of the member's row says its name: said no more."""
    if not apps.is_installed("django.contrib.admin"):
        return
    entry = apps.get_model("admin", "LogEntry")
    kind = apps.get_model("contenttypes", "ContentType").objects.get_for_model(Member)
    for line in entry.objects.filter(content_type=kind, object_id=str(member.pk)):
        line.object_repr = shown
        line.change_message = scrub.text(line.change_message)
        line.save(update_fields=["object_repr", "change_message"])


def _retire_tablets(plays: set[tuple[type[models.Model], int]]) -> None:
    """The evenings whose rows changed: a new version of each that counts them, so the
    tablets' cached states (kept per version) are drawn again; a drive's version also lives
    in the shared cache, forgotten once this commits."""
    for model, pk in plays:
        if not any(f.name == "version" for f in model._meta.concrete_fields):
            continue
        model._default_manager.filter(pk=pk).update(version=models.F("version") + 1)
        if model._meta.model_name == "drive":
            after_commit(live.forget_drive, pk)


def _ask_season_recompute(club: Club) -> None:
    """The seasons' tables are documents computed from the evenings' ledger, whose lines a
    merge or an erase changed: ask for them again, after commit."""
    jobs.season_recompute(club.pk)


def _lock(club: Club) -> None:
    Club.objects.select_for_update().filter(pk=club.pk).exists()


# ---- names a member was known by -----------------------------------------------------------


def _names_in(value: Any) -> Iterator[str]:
    """The values under a "name" key anywhere in a JSON value (the register's snapshots)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "name" and isinstance(inner, str):
                yield inner
            else:
                yield from _names_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _names_in(inner)


def known_names(member: Member) -> set[str]:
    """Every name the member is known by in the club's data: the register's, the earlier
    ones its trail recorded (renames, merged records), and those they played under."""
    names = {member.name}
    for before, after in MemberAudit.objects.filter(member=member).values_list("before", "after"):
        names.update(_names_in(before))
        names.update(_names_in(after))
    for place in member_places(member):
        names.add(place.name_as_played)
    return {n for n in names if n.strip()}


# ---- merge -----------------------------------------------------------------------------------


def _snapshot(member: Member) -> dict[str, Any]:
    return {"name": member.name, "number": member.number, "email": member.email,
            "active": member.active, "public_name": member.public_name}  # fmt: skip


def merge_refusal(keep: Member, drop: Member) -> str:
    """Why these two records cannot be merged ("" when they can)."""
    if keep.club_id != drop.club_id:
        return f"{drop.name} is not a member of {keep.club.name}: only a club's own records merge."
    if keep.pk == drop.pk:
        return "Choose another member: a record cannot be merged into itself."
    for m in (keep, drop):
        if m.erased_at is not None:
            return f"{m.name} was forgotten (erased): a forgotten record is never merged."
    return ""


@dataclass(frozen=True)
class MergePreview:
    """What merging `drop` into `keep` would move."""

    keep: Member
    drop: Member
    counts: dict[str, int]
    places: int
    audit_lines: int
    fills: dict[str, str]

    @property
    def text(self) -> str:
        return summary_text(self.counts)


def merge_preview(*, keep: Member, drop: Member) -> MergePreview:
    """What a merge would do (nothing is changed), or a refusal saying why it cannot."""
    refusal = merge_refusal(keep, drop)
    if refusal:
        raise MembersRefused(refusal)
    places = member_places(drop)
    fills = {k: getattr(drop, k) for k in ("number", "email")
             if getattr(drop, k) and not getattr(keep, k)}  # fmt: skip
    return MergePreview(
        keep, drop, places_summary(places), len(places),
        MemberAudit.objects.filter(member=drop).count(), fills,
    )  # fmt: skip


@transaction.atomic
def member_merge(*, keep: Member, drop: Member, user: User = None) -> Member:
    """`drop`'s whole history moved onto `keep`: every format's link to `drop`, its register
    trail, its number and email where `keep` has none; then `drop` is deleted. One audit line
    says what moved. Both must be the same club's, distinct and not forgotten."""
    _lock(keep.club)
    keep.refresh_from_db()
    drop.refresh_from_db()
    preview = merge_preview(keep=keep, drop=drop)
    before = {"kept": _snapshot(keep), "merged": _snapshot(drop)}
    moved: Counter[str] = Counter()
    for relation in Member._meta.related_objects:
        model, field = relation.related_model, relation.field
        if not isinstance(model, type) or not isinstance(field, models.ForeignKey):
            continue
        count = model._default_manager.filter(**{field.name: drop}).update(**{field.name: keep})
        if count:
            moved[f"{model._meta.verbose_name} ({field.name})"] += count
    for key, value in preview.fills.items():
        setattr(keep, key, value)
    drop.delete()
    keep.updated_at = timezone.now()
    keep.save()
    audit_write(
        MemberAudit, user=user, action="members merged", target=f"member {keep.name}"[:80],
        club=keep.club, member=keep, before=before,
        after={"kept": _snapshot(keep), "evenings": preview.counts, "rows": dict(moved),
               "filled": sorted(preview.fills)},
    )  # fmt: skip
    _ask_season_recompute(keep.club)
    return keep


# ---- erase -----------------------------------------------------------------------------------


#: The keys of the register's snapshots an erase empties in the member's own trail.
PERSONAL_KEYS = ("number", "email")


def _emptied(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "" if k in PERSONAL_KEYS and v else _emptied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_emptied(v) for v in value]
    return value


def _blank_trail(member: Member) -> None:
    """The member's own trail keeps no membership number or email (its names go with the
    rest of the club's text)."""
    for line in MemberAudit.objects.filter(member=member):
        before, after = _emptied(line.before), _emptied(line.after)
        if (before, after) != (line.before, line.after):
            line.before, line.after = before, after
            line.save(update_fields=["before", "after"])


def _former_name(club: Club) -> str:
    taken = {n.casefold() for n in Member.objects.filter(club=club).values_list("name", flat=True)}
    n = 1
    while FORMER_ROW.format(n=n).casefold() in taken:
        n += 1
    return FORMER_ROW.format(n=n)


@dataclass(frozen=True)
class Erased:
    """What an erase did: the register's new name, the rows changed per model, the evenings
    whose rows changed, the stored documents deleted."""

    member: Member
    rows: dict[str, int]
    evenings: int
    files: int


def erase_refusal(member: Member) -> str:
    if member.erased_at is not None:
        return f"{member.name} was already forgotten: there is nothing left to erase."
    return ""


def erase_preview(member: Member) -> dict[str, Any]:
    """What forgetting `member` would touch (nothing is changed)."""
    refusal = erase_refusal(member)
    if refusal:
        raise MembersRefused(refusal)
    places = member_places(member)
    counts = places_summary(places)
    return {"counts": counts, "text": summary_text(counts), "places": len(places)}


@transaction.atomic
def member_erase(*, member: Member, user: User = None) -> Erased:
    """Forget `member`: the register's row keeps no name, number or email ("Former member
    <n>", hidden, inactive, `erased_at` set), and every name they were known by is replaced
    by "former member" throughout the club's rows. Cannot be undone."""
    club = member.club
    _lock(club)
    member.refresh_from_db()
    refusal = erase_refusal(member)
    if refusal:
        raise MembersRefused(refusal)
    scrub = Scrubber(known_names(member) | ({member.email} if member.email else set()))
    _blank_trail(member)
    done = Scrubbed(Counter(), set())
    # The linked name fields say "Former member" whatever name was typed there.
    for place in member_places(member):
        field = place.link.name_field
        if getattr(place.row, field) != FORMER.capitalize():
            setattr(place.row, field, FORMER.capitalize())
            place.row.save(update_fields=[field])
            done.rows[type(place.row).__name__] += 1
            done.plays.add((type(place.play), place.play.pk))
    new_name = _former_name(club)
    member.name, member.number, member.email = new_name, "", ""
    member.public_name = PublicName.HIDDEN.value
    member.active = False
    member.erased_at = member.updated_at = timezone.now()
    member.save()
    if not scrub.empty:
        for model in _app_models():
            if model is not Member and model is not Club:
                _scrub_model(model, club, scrub, done)
        _admin_log(member, scrub, new_name)
    _stored_files(club, done)
    _retire_tablets(done.plays)
    audit_write(
        MemberAudit, user=user, action="member erased", target=f"member {new_name}",
        club=club, member=member,
        after={"name": new_name, "rows": dict(done.rows), "files": done.files},
    )  # fmt: skip
    _ask_season_recompute(club)
    return Erased(member, dict(done.rows), len(done.plays), done.files)


# ---- one member's data -----------------------------------------------------------------------


def _when(value: dt.datetime | dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _json_text(value: Any) -> str:
    """A trail line's snapshot as JSON text ("" for none)."""
    return "" if value is None else json.dumps(json_safe(value), ensure_ascii=False, sort_keys=True)


def member_data(member: Member) -> dict[str, Any]:
    """Everything the club holds about `member`, as JSON data: the register's row, the
    register's trail about them, and every place they played (the format, the evening's
    name and date, the name as played, and who with)."""
    trail = MemberAudit.objects.filter(member=member).order_by("at", "id")
    return {
        "format": DATA_FORMAT,
        "version": DATA_VERSION,
        "club": member.club.name,
        "written_at": _when(timezone.now()),
        "member": {
            "id": member.pk,
            "name": member.name,
            "number": member.number,
            "email": member.email,
            "active": member.active,
            "public_name": member.public_name,
            "shown_name": member.shown_name(),
            "created_at": _when(member.created_at),
            "updated_at": _when(member.updated_at),
            "erased_at": _when(member.erased_at),
        },
        "register_trail": [
            {
                "at": _when(line.at),
                "action": line.action,
                "target": line.target,
                "by": line.who,
                # The state before and after, as JSON text: a trail line's values differ in
                # shape from one action to another (a name, a choice, a list of names).
                "before": _json_text(line.before),
                "after": _json_text(line.after),
                "reason": line.reason,
            }
            for line in trail
        ],
        "played": [
            {
                "format": p.kind,
                "evening": p.play.name,
                "evening_id": p.play.pk,
                "date": _when(p.play.date),
                "status": str(getattr(p.play, "status", "")),
                "name_as_played": p.name_as_played,
                "with": p.others,
                "place": str(p.row),
            }
            for p in member_places(member)
        ],
    }
