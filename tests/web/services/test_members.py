"""The club's member register: the rule of a row, the two-step CSV import, the export, the
pages, the API, the command and the backup (issue #44, first slice)."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from tournaments.kernel import members as register
from tournaments.kernel.backup.driver import backup_document, backup_restore
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.member_csv import BOM, MembersFileRefused
from tournaments.kernel.models import Club, Member, MemberAudit, initials_of
from tournaments.kernel.refusals import Refused

pytestmark = pytest.mark.django_db


def add(club: Club, name: str, **values: Any) -> Member:
    return register.member_add(club=club, name=name, **values)


# ---- the rule of one row --------------------------------------------------------------------


def test_it_adds_a_member_with_accents_and_audits_it(club: Club, director: Any) -> None:
    member = add(club, "  Siân O'Neil ", number="12", email="sian@example.org", user=director)
    assert (member.name, member.number, member.active) == ("Siân O'Neil", "12", True)
    line = MemberAudit.objects.get()
    assert (line.action, line.member, line.user) == ("member added", member, director)


@pytest.mark.parametrize(
    ("choice", "shown"),
    [("full", "Siân O'Neil"), ("initials", "S. O'N."), ("hidden", "a member")],
)
def test_the_public_name_choice(club: Club, choice: str, shown: str) -> None:
    assert add(club, "Siân O'Neil", public_name=choice).shown_name() == shown


def test_initials_rules() -> None:
    assert initials_of("Zoë Brontë") == "Z. B."
    assert initials_of("Anne-Marie van der Berg") == "A.-M. B."


def test_a_name_is_once_per_club_whatever_its_capitals(club: Club) -> None:
    add(club, "Siân O'Neil")
    with pytest.raises(register.MembersRefused, match="already in the register"):
        add(club, "SIÂN O'NEIL")
    other = club_get_or_create(name="Another club")
    add(other, "siân o'neil")  # another club's register is its own
    assert Member.objects.count() == 2


def test_a_number_is_once_per_club(club: Club) -> None:
    add(club, "Ann", number="7")
    with pytest.raises(register.MembersRefused, match="already Ann's"):
        add(club, "Bob", number="7")
    add(club, "Cy")
    add(club, "Di")  # no number twice is no clash
    assert Member.objects.filter(club=club).count() == 3


@pytest.mark.parametrize(
    "values",
    [
        {"name": ""},
        {"name": "Ann\nBob"},
        {"name": "x" * 121},
        {"name": "Ann", "email": "not-an-address"},
        {"name": "Ann", "public_name": "nickname"},
        {"name": "Ann", "number": "1" * 21},
    ],
)
def test_a_refusal_is_a_400_and_stores_nothing(club: Club, values: dict[str, Any]) -> None:
    with pytest.raises(Refused) as refused:
        register.member_add(club=club, **values)
    assert refused.value.status == 400
    assert not Member.objects.exists() and not MemberAudit.objects.exists()


def test_edit_deactivate_and_reactivate(club: Club, director: Any) -> None:
    member = add(club, "Ann")
    add(club, "Bob")
    with pytest.raises(register.MembersRefused):
        register.member_edit(member=member, name="bob")
    register.member_edit(member=member, public_name="initials", user=director)
    register.member_deactivate(member=member, user=director)
    assert not Member.objects.get(pk=member.pk).active
    register.member_reactivate(member=member, user=director)
    actions = list(MemberAudit.objects.order_by("id").values_list("action", flat=True))
    assert actions[-3:] == ["member changed", "member deactivated", "member reactivated"]


# ---- the CSV import --------------------------------------------------------------------------

EXCEL = (
    BOM + "Name;Number;EMAIL;Active;Public_Name\r\n"
    "Siân O'Neil;101;sian@example.org;yes;initials\r\n"
    "Zoë Brontë;102;;no;\r\n"
    ";103;nobody@example.org;;\r\n"
    "Ann Archer;101;;;\r\n"
    "Bob Bennett;104;bob-at-example;;\r\n"
    "zoë brontë;;;;\r\n"
    "\r\n"
)


def test_the_preview_classifies_each_line_and_stores_nothing(club: Club) -> None:
    add(club, "Bill Bennett", number="200")
    preview = register.members_import_preview(club=club, text=EXCEL.encode())
    got = [(r.line, r.status) for r in preview.rows]
    assert got == [
        (2, "new"), (3, "new"), (4, "refused"), (5, "refused"), (6, "refused"), (7, "refused")
    ]  # fmt: skip
    reasons = {r.line: r.reason for r in preview.rows}
    assert reasons[4] == "No name."
    assert "used twice in the file" in reasons[5]
    assert "not an email address" in reasons[6]
    assert "same name as line 3" in reasons[7]
    assert preview.rows[0].public_name == "initials" and preview.rows[1].active is False
    assert Member.objects.filter(club=club).count() == 1


def test_the_register_is_found_by_name_or_number(club: Club) -> None:
    add(club, "Siân O'Neil")
    add(club, "Carol", number="555")
    text = "name,number\nSIÂN O'NEIL,\nSomeone,555\nNew one,556\n"
    preview = register.members_import_preview(club=club, text=text)
    assert [r.status for r in preview.rows] == ["existing", "existing", "new"]


@pytest.mark.parametrize(
    "text",
    [
        "name,email\nAnn,ann@example.org\n",
        "NAME ; email\r\nAnn;ann@example.org\r\n",
        BOM + "name\r\nAnn\r\n",
        '"name","email"\n"Ann","ann@example.org"\n',
    ],
)
def test_the_dialects_spreadsheets_write(club: Club, text: str) -> None:
    preview = register.members_import_preview(club=club, text=text.encode())
    assert [(r.name, r.status) for r in preview.rows] == [("Ann", "new")]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"number,email\n1,a@b.org\n", "no \u201cname\u201d column"),
        (b"", "empty"),
        (b"PK\x03\x04\x00\x00binary", "not text"),
        ("name\nZoë\n".encode("latin-1"), "not UTF-8"),
        (b"name,name\nAnn,Ann\n", "named twice"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_saying_what_is_expected(
    club: Club, data: bytes, said: str
) -> None:
    with pytest.raises(MembersFileRefused, match=said) as refused:
        register.members_import_preview(club=club, text=data)
    assert refused.value.status == 400


def test_confirm_stores_what_the_preview_showed_as_new(club: Club, director: Any) -> None:
    preview = register.members_import_preview(club=club, text=EXCEL)
    done = register.members_import_confirm(
        club=club, text=EXCEL, lines=[r.line for r in preview.new], user=director
    )
    assert sorted(m.name for m in done.stored) == ["Siân O'Neil", "Zoë Brontë"]
    assert Member.objects.get(name="Zoë Brontë").active is False
    assert MemberAudit.objects.get().action == "members imported"


def test_confirm_after_someone_added_the_same_name_meanwhile(club: Club) -> None:
    text = "name\nSiân O'Neil\nZoë Brontë\n"
    preview = register.members_import_preview(club=club, text=text)
    add(club, "sian o'neil".replace("sian", "siân"))  # another director, meanwhile
    done = register.members_import_confirm(
        club=club, text=text, lines=[r.line for r in preview.new]
    )
    assert [m.name for m in done.stored] == ["Zoë Brontë"]
    assert [(r.line, r.status) for r in done.not_stored] == [(2, "existing")]
    assert Member.objects.filter(club=club, name__iexact="siân o'neil").count() == 1


def test_export_then_import_is_the_same_register(club: Club) -> None:
    add(club, "Siân O'Neil", number="1", email="s@example.org", public_name="initials")
    add(club, "Zoë Brontë", active=False, public_name="hidden")
    add(club, "=Formula", number="+44")
    text = register.members_export(club)
    assert text.startswith(BOM + "name,number,email,active,public_name\r\n")
    other = club_get_or_create(name="Second club")
    done = register.members_import_confirm(club=other, text=text.encode("utf-8"))
    fields = ("name", "number", "email", "active", "public_name")
    assert list(Member.objects.filter(club=other).values_list(*fields)) == list(
        Member.objects.filter(club=club).values_list(*fields)
    )
    assert len(done.stored) == 3


# ---- the backup ------------------------------------------------------------------------------


def test_a_backup_carries_the_register_and_restores_it(club: Club, director: Any) -> None:
    add(club, "Siân O'Neil", number="1", email="s@example.org", public_name="initials")
    add(club, "Zoë Brontë", active=False)
    document = json.loads(json.dumps(backup_document()))
    assert document["version"] == 7
    assert [m["name"] for m in document["clubs"][0]["members"]] == ["Siân O'Neil", "Zoë Brontë"]
    fields = ("name", "number", "email", "active", "public_name", "created_at")
    before = list(Member.objects.order_by("name").values_list(*fields))
    Club.objects.all().delete()
    backup_restore(document)
    assert list(Member.objects.order_by("name").values_list(*fields)) == before


def test_an_older_backup_without_members_still_restores(club: Club) -> None:
    document = json.loads(json.dumps(backup_document()))
    document["version"] = 3
    for block in document["clubs"]:
        del block["members"]
    Club.objects.all().delete()
    backup_restore(document)
    assert Club.objects.filter(slug=club.slug).exists() and not Member.objects.exists()


# ---- the pages -------------------------------------------------------------------------------


def test_the_pages_add_search_edit_import_and_export(director_client: Client, club: Club) -> None:
    base = f"/clubs/{club.slug}/members/"
    values = {"name": "Siân O'Neil", "number": "5", "public_name": "full", "active": "on"}
    answer = director_client.post(base + "new/", values)
    assert answer.status_code == 302
    member = Member.objects.get()
    page = director_client.get(base, {"q": "siân"})
    assert (
        "Siân O&#x27;Neil" in page.content.decode()
        and "1 member: 1 active" in page.content.decode()
    )
    assert "Siân" not in director_client.get(base, {"q": "zzz"}).content.decode()
    director_client.post(f"{base}{member.pk}/edit/", values | {"public_name": "hidden"})
    assert Member.objects.get().public_name == "hidden"
    text = "name\nZoë Brontë\nsiân o'neil\n"
    preview = director_client.post(base + "import/", {"step": "preview", "text": text})
    body = preview.content.decode()
    assert "Nothing is stored until you confirm" in body and "1 new, 1 already" in body
    assert Member.objects.count() == 1
    confirm = director_client.post(
        base + "import/", {"step": "confirm", "line": ["2"], "text": text}
    )
    assert confirm.status_code == 302 and Member.objects.count() == 2
    export = director_client.get(base + "export.csv")
    assert export.content.decode("utf-8").startswith(BOM + "name,")


def test_a_bad_line_number_on_confirm_is_refused_in_words(
    director_client: Client, club: Club
) -> None:
    answer = director_client.post(
        f"/clubs/{club.slug}/members/import/",
        {"step": "confirm", "line": ["²"], "text": "name\nA\n"},
    )
    assert answer.status_code == 400 and b"whole number" in answer.content
    assert not Member.objects.exists()


def test_another_clubs_director_gets_a_404(club: Club, director: Any) -> None:
    other = club_get_or_create(name="Elsewhere")
    assert director_client_for(director).get(f"/clubs/{other.slug}/members/").status_code == 404


def director_client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_home_page_links_the_register(director_client: Client, club: Club) -> None:
    assert f"/clubs/{club.slug}/members/" in director_client.get("/").content.decode()


# ---- the API ---------------------------------------------------------------------------------


def test_the_api(director_client: Client, club: Club) -> None:
    base = f"/api/clubs/{club.slug}/members/"
    made = director_client.post(base, {"name": "Siân O'Neil", "public_name": "initials"},
                                content_type="application/json")  # fmt: skip
    assert made.status_code == 201 and made.json()["shown_name"] == "S. O'N."
    twin = director_client.post(base, {"name": "SIÂN O'NEIL"}, content_type="application/json")
    assert twin.status_code == 400 and "already in the register" in twin.json()["detail"]
    pk = made.json()["id"]
    changed = director_client.patch(f"{base}{pk}/", {"active": False},
                                    content_type="application/json")  # fmt: skip
    assert changed.json()["active"] is False
    assert director_client.get(base, {"show": "active"}).json() == []
    assert len(director_client.get(base, {"q": "o'neil"}).json()) == 1
    text = "name;number\nZoë Brontë;3\nSiân O'Neil;\n"
    preview = director_client.post(base + "import/preview", {"text": text},
                                   content_type="application/json").json()  # fmt: skip
    assert (preview["new"], preview["existing"]) == (1, 1)
    done = director_client.post(base + "import/confirm", {"text": text, "lines": [2]},
                                content_type="application/json").json()  # fmt: skip
    assert [m["name"] for m in done["stored"]] == ["Zoë Brontë"]
    export = director_client.get(base + "export")
    assert export["Content-Type"].startswith("text/csv")
    bad = director_client.post(base + "import/preview", {"text": "email\nx@y.org\n"},
                               content_type="application/json")  # fmt: skip
    assert bad.status_code == 400 and "name" in bad.json()["detail"]


# ---- the command -----------------------------------------------------------------------------


def test_the_command(club: Club, tmp_path: Any) -> None:
    source = tmp_path / "members.csv"
    source.write_bytes((BOM + "name;number\r\nSiân O'Neil;1\r\n;2\r\n").encode())
    out = io.StringIO()
    call_command("members", "import", str(source), "--club", club.slug, stdout=out)
    assert "1 new, 0 already in the register, 1 refused" in out.getvalue()
    assert not Member.objects.exists()
    call_command("members", "import", str(source), "--club", club.slug, "--yes", stdout=out)
    assert Member.objects.get().name == "Siân O'Neil"
    listed = io.StringIO()
    call_command("members", "list", "--club", club.slug, "--json", stdout=listed)
    assert json.loads(listed.getvalue())[0]["name"] == "Siân O'Neil"
    target = tmp_path / "out.csv"
    call_command("members", "export", "--club", club.slug, "-o", str(target), stdout=out)
    assert target.read_bytes().startswith(BOM.encode() + b"name,")
    with pytest.raises(CommandError, match="No club"):
        call_command("members", "list", "--club", "nowhere")


# ---- two directors at once -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_imports_at_once_store_each_name_once() -> None:
    club = club_get_or_create(name="Race club")
    text = "name\nSiân O'Neil\nZoë Brontë\n"
    errors: list[BaseException] = []

    def run() -> None:
        try:
            register.members_import_confirm(club=club, text=text)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert Member.objects.filter(club=club).count() == 2
