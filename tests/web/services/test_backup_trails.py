"""A club's own trails in a whole backup (version 7): who may do what (`PeopleAudit`) and the
member register's (`MemberAudit`) are carried in the club's block and restored line for line,
each naming its account, or its name in words when the account is not here, and each register
line its member, whatever id the member gets here. A version 6 backup restores with no trail;
a line naming a member the register does not list is refused, and nothing is restored."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from tournaments.files import backup
from tournaments.kernel.members import member_add, member_deactivate, member_edit
from tournaments.kernel.models import Club, Member, MemberAudit, PeopleAudit
from tournaments.kernel.people import invite, revoke

pytestmark = pytest.mark.django_db


def _lines(model: type[PeopleAudit] | type[MemberAudit], club: Club) -> list[tuple[Any, ...]]:
    """A trail as its page reads it: who (account and words), when, what, to what, how."""
    out = []
    for line in model.objects.filter(club=club).order_by("at", "pk").select_related("user"):
        member = getattr(line, "member", None)
        out.append((
            line.user.username if line.user else None, line.user_name, line.at, line.action,
            line.target, line.before, line.after, line.reason, member.name if member else None,
        ))  # fmt: skip
    return out


def _history(club: Club, director: Any) -> None:
    """An invitation sent and withdrawn; two members added, one changed, one made inactive."""
    sent = invite(club=club, email="zoe@example.org", user=director, base_url="http://club")
    revoke(invitation=sent.invitation, user=director)
    ann = member_add(club=club, name="Siân Ames", number="7", user=director)
    bob = member_add(club=club, name="Bob Bird", user=director)
    member_edit(member=ann, email="sian@example.org", user=director)
    member_deactivate(member=bob, user=director)


def _empty() -> None:
    Club.objects.all().delete()
    User.objects.all().delete()


def test_a_whole_backup_carries_both_trails_and_a_restore_puts_them_back(
    club: Club, director: Any
) -> None:
    _history(club, director)
    people, register = _lines(PeopleAudit, club), _lines(MemberAudit, club)
    assert [line[3] for line in people] == ["invite", "revoke"]
    assert len(register) == 4 and {line[-1] for line in register} == {"Siân Ames", "Bob Bird"}
    document = json.loads(backup.dumps(backup.backup_document()))
    assert document["version"] == 7
    (block,) = document["clubs"]
    assert len(block["people_audit"]) == 2 and len(block["member_audit"]) == 4
    ids = {m["name"]: m["id"] for m in block["members"]}
    assert {line["member"] for line in block["member_audit"]} == set(ids.values())
    _empty()

    report = backup.backup_restore(document)

    assert not report.dry_run
    restored = Club.objects.get(slug=club.slug)
    assert _lines(PeopleAudit, restored) == people
    assert _lines(MemberAudit, restored) == register


def test_register_lines_follow_their_members_when_the_ids_are_taken_here(
    club: Club, director: Any
) -> None:
    _history(club, director)
    register = _lines(MemberAudit, club)
    document = json.loads(backup.dumps(backup.backup_document()))
    ids = sorted(m["id"] for m in document["clubs"][0]["members"])
    _empty()
    # Another club here holds members under the backup's ids, and trail lines under its lines'.
    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    for pk in ids:
        Member.objects.create(pk=pk, club=elsewhere, name=f"Other {pk}")
    for line in document["clubs"][0]["member_audit"]:
        MemberAudit.objects.create(pk=line["id"], club=elsewhere, action="kept", target="here")

    backup.backup_restore(document)

    restored = Club.objects.get(slug=club.slug)
    assert _lines(MemberAudit, restored) == register
    assert not set(restored.members.values_list("pk", flat=True)) & set(ids)
    assert MemberAudit.objects.filter(club=elsewhere, action="kept").count() == len(register)


def test_a_line_naming_an_account_not_here_keeps_the_name_in_words(
    club: Club, director: Any
) -> None:
    """A backup of one club carries the accounts its documents name; a trail may name someone
    who no longer directs it: the line is restored naming them in words."""
    _history(club, director)
    club.directors.remove(director)
    club.directors.add(User.objects.create_user("newtd"))
    document = json.loads(backup.dumps(backup.backup_document(clubs=[club])))
    assert "td" not in {u["username"] for u in document["users"]}
    _empty()

    backup.backup_restore(document)

    restored = Club.objects.get(slug=club.slug)
    lines = _lines(PeopleAudit, restored) + _lines(MemberAudit, restored)
    assert len(lines) == 6
    assert {(line[0], line[1]) for line in lines} == {(None, "td")}


def test_a_version_6_backup_restores_with_no_trail(club: Club, director: Any) -> None:
    _history(club, director)
    document = json.loads(backup.dumps(backup.backup_document()))
    old = copy.deepcopy(document)
    old["version"] = 6
    for block in old["clubs"]:
        del block["people_audit"], block["member_audit"]
    _empty()

    backup.backup_restore(old)

    restored = Club.objects.get(slug=club.slug)
    assert restored.members.count() == 2
    assert not PeopleAudit.objects.exists() and not MemberAudit.objects.exists()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda b: b["member_audit"][0].update(member=987654), "register trail line 1, member"),
        (lambda b: b["member_audit"][0].update(member={"name": "Siân Ames"}), "'Siân Ames'"),
        (lambda b: b.update(people_audit={"action": "invite"}), "'people_audit' should be a list"),
        (lambda b: b["people_audit"][1].update(action="x" * 41), "people trail line 2: action"),
        (lambda b: b["people_audit"][1].update(id=b["people_audit"][0]["id"]), "have the id"),
    ],
)
def test_a_bad_trail_is_refused_by_name_and_nothing_is_restored(
    club: Club, director: Any, change: Any, said: str
) -> None:
    _history(club, director)
    document = json.loads(backup.dumps(backup.backup_document()))
    change(document["clubs"][0])
    _empty()

    with pytest.raises(backup.RestoreRefused, match=said):
        backup.backup_restore(document)

    assert not Club.objects.exists() and not User.objects.exists()
    assert not MemberAudit.objects.exists() and not PeopleAudit.objects.exists()
