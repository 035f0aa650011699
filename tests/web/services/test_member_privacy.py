"""A member's privacy (issue #44): two records merged with all their history, a member
forgotten (erased) with their history kept under "former member", one member's data
exported; the services, the pages, the API and the command. The walk over every page, export
and backup after an erase is in test_member_erase_walk.py."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.web.conftest import make_drive, make_event, make_tournament
from tournaments.drives.models import DriveAudit, DrivePlayer, DriveResult
from tournaments.drives.services.drives import player_rename
from tournaments.events.models import AuditEntry, Event, Pair, PrintJob, Result, Standings
from tournaments.events.services.events import pairs_register
from tournaments.kernel import member_privacy as privacy
from tournaments.kernel import members as register
from tournaments.kernel.models import Club, Member, MemberAudit, PublicName
from tournaments.kernel.refusals import Refused
from tournaments.seasons.models import Competition, CompetitionPlay, Season, SeasonAudit
from tournaments.teams.models import TournamentAudit, TournamentTeam
from tournaments.teams.services.teams import team_change

pytestmark = pytest.mark.django_db


def add(club: Club, name: str, **values: Any) -> Member:
    return register.member_add(club=club, name=name, **values)


def pair(event: Event, number: int = 1, direction: str = "NS") -> Pair:
    return Pair.objects.get(section__event=event, number=number, direction=direction)


def played_everywhere(club: Club, member: Member, name: str, user: Any) -> dict[str, Any]:
    """`member` plays as `name` in a running pairs event (NS 1's first player, renamed by the
    director, so an audit line names them), a drive (player 1) and a team tournament (team
    1's first player), each linked to the register."""
    event = make_event(club, user=user)
    p = pair(event)
    pairs_register(event=event, names={p.pk: (name, "Bob Partner")}, user=user)
    Pair.objects.filter(pk=p.pk).update(member1=member)
    drive = make_drive(club, user=user)
    player_rename(drive=drive, number=1, name=name, user=user)
    DrivePlayer.objects.filter(drive=drive, number=1).update(member=member)
    tournament = make_tournament(club, user=user)
    team_change(tournament=tournament, number=1, data={"player_one": name}, user=user)
    TournamentTeam.objects.filter(tournament=tournament, number=1).update(member_one=member)
    return {"event": event, "drive": drive, "tournament": tournament}


def links_of(member: Member) -> tuple[int, int, int]:
    return (
        Pair.objects.filter(member1=member).count() + Pair.objects.filter(member2=member).count(),
        DrivePlayer.objects.filter(member=member).count(),
        TournamentTeam.objects.filter(member_one=member).count()
        + TournamentTeam.objects.filter(member_two=member).count(),
    )


def state() -> tuple[Any, ...]:
    """What a refusal must leave as it was."""
    return (
        tuple(Member.objects.order_by("pk").values_list("pk", "name", "number", "email",
                                                          "active", "erased_at")),
        tuple(Pair.objects.order_by("pk").values_list("player1", "member1", "member2")),
        tuple(DrivePlayer.objects.order_by("pk").values_list("name", "member")),
        tuple(TournamentTeam.objects.order_by("pk").values_list("player_one", "member_one")),
        tuple(MemberAudit.objects.order_by("pk").values_list("member", "action", "after")),
    )  # fmt: skip


# ---- where a member is linked ----------------------------------------------------------------


def test_it_finds_every_formats_links_without_importing_them() -> None:
    found = {(link.model.__name__, link.field, link.name_field) for link in privacy.member_links()}
    assert found == {
        ("Pair", "member1", "player1"), ("Pair", "member2", "player2"),
        ("DrivePlayer", "member", "name"), ("SeasonLine", "member", "name"),
        ("TournamentTeam", "member_one", "player_one"),
        ("TournamentTeam", "member_two", "player_two"),
    }  # fmt: skip


def test_it_finds_each_models_way_to_its_club() -> None:
    assert privacy.club_path(MemberAudit) == "club"
    assert privacy.club_path(DriveAudit) == "drive__club"
    assert privacy.club_path(TournamentAudit) == "tournament__club"
    assert privacy.club_path(AuditEntry) == "event__club"
    assert privacy.club_path(SeasonAudit) == "club"
    assert privacy.club_path(Result) == "section__event__club"
    assert privacy.club_path(DriveResult) == "drive__club"
    assert privacy.club_path(CompetitionPlay) == "competition__season__club"


def test_the_scrubber_replaces_whole_names_whatever_their_case_and_spacing() -> None:
    scrub = privacy.Scrubber(["Siân O'Neil"])
    assert scrub.text("Siân O'Neil & Bob") == "Former member & Bob"
    assert scrub.text("pair of SIÂN  o'neil") == "pair of former member"
    assert scrub.text("Siân O'Neill stays") == "Siân O'Neill stays"  # another name
    assert scrub.value({"Siân O'Neil": ["siân o'neil", 3, None]}) == {
        "Former member": ["Former member", 3, None]
    }


# ---- merge -----------------------------------------------------------------------------------


def test_a_merge_moves_every_link_in_all_three_formats_and_the_trail(
    club: Club, director: Any
) -> None:
    keep = add(club, "Siân O'Neil", user=director)
    drop = add(club, "Sian ONeil", number="77", email="sian@example.org", user=director)
    register.member_edit(member=drop, public_name="initials", user=director)
    played_everywhere(club, drop, "Sian ONeil", director)
    assert links_of(drop) == (1, 1, 1)
    preview = privacy.merge_preview(keep=keep, drop=drop)
    assert preview.counts == {"drive": 1, "pairs event": 1, "team tournament": 1}
    assert preview.text == "1 drive, 1 pairs event, 1 team tournament"
    assert preview.fills == {"number": "77", "email": "sian@example.org"}

    kept = privacy.member_merge(keep=keep, drop=drop, user=director)

    assert not Member.objects.filter(pk=drop.pk).exists()
    assert links_of(kept) == (1, 1, 1)
    assert (kept.name, kept.number, kept.email) == ("Siân O'Neil", "77", "sian@example.org")
    # The dropped record's trail follows the person; one line says what moved.
    assert MemberAudit.objects.filter(member=kept).count() == 4
    line = MemberAudit.objects.filter(action="members merged").get()
    assert line.member == kept and line.user == director
    assert line.after["evenings"] == {"drive": 1, "pairs event": 1, "team tournament": 1}
    assert line.after["rows"]["pair (member1)"] == 1
    assert line.before["merged"]["name"] == "Sian ONeil"
    # The names as played stay as they were typed.
    assert Pair.objects.get(member1=kept).player1 == "Sian ONeil"


def test_a_merge_keeps_the_kept_records_own_number_and_email(club: Club) -> None:
    keep = add(club, "Ann Archer", number="1", email="ann@example.org")
    drop = add(club, "Ann Archer (2)", number="2", email="other@example.org")
    kept = privacy.member_merge(keep=keep, drop=drop)
    assert (kept.number, kept.email) == ("1", "ann@example.org")


@pytest.mark.parametrize("case", ["same", "other club", "erased keep", "erased drop"])
def test_a_refused_merge_says_why_and_changes_nothing(club: Club, case: str) -> None:
    keep = add(club, "Ann Archer")
    drop = add(club, "Bill Bennett")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    played_everywhere(club, drop, "Bill Bennett", None)
    if case == "same":
        drop = keep
    elif case == "other club":
        drop = add(other, "Bill Bennett")
    elif case == "erased keep":
        privacy.member_erase(member=keep)
    else:
        privacy.member_erase(member=drop)
    before = state()
    with pytest.raises(Refused) as refused:
        privacy.member_merge(keep=keep, drop=drop)
    words = {"same": "into itself", "other club": "not a member of",
             "erased keep": "forgotten", "erased drop": "forgotten"}  # fmt: skip
    assert words[case] in str(refused.value)
    assert state() == before


# ---- erase -----------------------------------------------------------------------------------


def test_an_erase_removes_the_name_number_and_email_and_keeps_the_history(
    club: Club, director: Any
) -> None:
    member = add(club, "Siân O'Neil", number="12", email="sian@example.org", user=director)
    register.member_edit(member=member, name="Siân O'Neil-Jones", user=director)  # a rename
    register.member_edit(member=member, name="Siân O'Neil", user=director)
    evenings = played_everywhere(club, member, "SIÂN O'NEIL", director)
    bystander = add(club, "Siân O'Neill")  # another member, one letter apart

    done = privacy.member_erase(member=member, user=director)

    member.refresh_from_db()
    assert member.name == "Former member 1" == done.member.name
    assert (member.number, member.email, member.active) == ("", "", False)
    assert member.public_name == PublicName.HIDDEN and member.erased_at is not None
    # The history stays, linked, under "Former member".
    assert links_of(member) == (1, 1, 1)
    assert pair(evenings["event"]).player1 == "Former member"
    assert pair(evenings["event"]).player2 == "Bob Partner"
    assert DrivePlayer.objects.get(member=member).name == "Former member"
    team = TournamentTeam.objects.get(member_one=member)
    assert team.player_one == "Former member"
    # Every trail, whatever its format, names them no more (nor their earlier names).
    everything = json.dumps(
        [list(m.objects.values("target", "before", "after", "reason"))
         for m in (MemberAudit, AuditEntry, DriveAudit, TournamentAudit)],
        ensure_ascii=False, default=str,
    ).casefold()  # fmt: skip
    assert "o'neil\"" not in everything and "o'neil-jones" not in everything
    assert "sian@example.org" not in everything and '"12"' not in everything
    assert "former member" in everything
    assert Member.objects.get(pk=bystander.pk).name == "Siân O'Neill"
    line = MemberAudit.objects.filter(action="member erased").get()
    assert line.after["name"] == "Former member 1" and line.user == director


def test_an_erase_scrubs_standings_season_tables_and_deletes_stored_pdfs(
    club: Club, director: Any
) -> None:
    member = add(club, "Ann Archer")
    evenings = played_everywhere(club, member, "Ann Archer", director)
    event = evenings["event"]
    Standings.objects.create(event=event, version=99, data={"names": {"NS1": "Ann Archer & B"}})
    job = PrintJob.objects.create(event=event, status="done", pdf=b"%PDF Ann Archer", pages=1)
    season = Season.objects.create(club=club, name="Ann Archer's season", starts="2025-01-01",
                                   ends="2025-12-31")  # fmt: skip
    competition = Competition.objects.create(
        season=season, name="Ladder", table={"rows": [{"name": "ann archer", "points": 3}]}
    )
    privacy.member_erase(member=member)
    assert Standings.objects.get(event=event, version=99).data == {
        "names": {"NS1": "Former member & B"}
    }
    assert not PrintJob.objects.filter(pk=job.pk).exists()
    competition.refresh_from_db()
    assert competition.table == {"rows": [{"name": "Former member", "points": 3}]}
    season.refresh_from_db()
    assert season.name == "Former member's season"


def test_an_erase_touches_no_other_club(club: Club) -> None:
    member = add(club, "Ann Archer")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    theirs = add(other, "Ann Archer", user=None)
    event = make_event(other)
    Pair.objects.filter(pk=pair(event).pk).update(player1="Ann Archer")
    privacy.member_erase(member=member)
    assert pair(event).player1 == "Ann Archer"
    assert Member.objects.get(pk=theirs.pk).name == "Ann Archer"
    assert MemberAudit.objects.get(member=theirs).after["name"] == "Ann Archer"


def test_a_second_erase_is_refused_and_changes_nothing(club: Club) -> None:
    member = add(club, "Ann Archer")
    privacy.member_erase(member=member)
    before = state()
    with pytest.raises(Refused, match="already forgotten"):
        privacy.member_erase(member=member)
    assert state() == before


def test_former_members_are_numbered_apart(club: Club) -> None:
    first = privacy.member_erase(member=add(club, "Ann Archer")).member
    second = privacy.member_erase(member=add(club, "Bill Bennett")).member
    assert (first.name, second.name) == ("Former member 1", "Former member 2")


def test_the_seasons_tables_are_asked_for_again_after_commit(
    club: Club, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(privacy.jobs, "send", lambda *a, **k: sent.append(a))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        privacy.member_erase(member=add(club, "Ann Archer"))
    assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert (privacy.jobs.SEASON_RECOMPUTE, club.pk) in sent


# ---- one member's data -----------------------------------------------------------------------


def test_a_members_data_lists_the_register_row_its_trail_and_every_place_played(
    club: Club, director: Any
) -> None:
    member = add(club, "Ann Archer", number="5", email="ann@example.org", user=director)
    played_everywhere(club, member, "Ann Archer", director)
    data = privacy.member_data(member)
    assert data["format"] == privacy.DATA_FORMAT
    assert data["member"]["name"] == "Ann Archer" and data["member"]["email"] == "ann@example.org"
    assert [line["action"] for line in data["register_trail"]] == ["member added"]
    played = {p["format"]: p for p in data["played"]}
    assert set(played) == {"pairs event", "drive", "team tournament"}
    assert played["pairs event"]["with"] == ["Bob Partner"]
    assert played["pairs event"]["name_as_played"] == "Ann Archer"
    assert played["drive"]["evening"] == "Test drive"
    json.dumps(data)  # plain JSON


# ---- the pages -------------------------------------------------------------------------------


def test_the_members_page_offers_the_data_a_merge_and_forgetting(
    club: Club, director_client: Client
) -> None:
    member = add(club, "Ann Archer")
    add(club, "Bill Bennett", number="9")
    page = director_client.get(f"/clubs/{club.slug}/members/{member.pk}/edit/").content.decode()
    assert "Download this member's data (JSON)" in page
    assert "Merge another record into this one" in page and "Bill Bennett (no. 9)" in page
    assert "Forget this member" in page


def test_a_merge_through_the_pages_shows_what_moves_then_merges_on_post(
    club: Club, director: Any, director_client: Client
) -> None:
    keep = add(club, "Ann Archer")
    drop = add(club, "Anne Archer", number="7")
    played_everywhere(club, drop, "Anne Archer", director)
    url = f"/clubs/{club.slug}/members/{keep.pk}/merge/"
    shown = director_client.get(url, {"other": drop.pk})
    assert shown.status_code == 200
    text = shown.content.decode()
    assert "1 drive, 1 pairs event, 1 team tournament" in text
    assert "cannot be undone" in text
    assert Member.objects.filter(pk=drop.pk).exists()  # nothing changed by looking
    done = director_client.post(url, {"other": drop.pk})
    assert done.status_code == 302 and done["Location"].endswith(f"/members/{keep.pk}/edit/")
    assert not Member.objects.filter(pk=drop.pk).exists()
    assert links_of(keep) == (1, 1, 1)


def test_a_refused_merge_page_says_why_beside_the_field(
    club: Club, director_client: Client
) -> None:
    keep = add(club, "Ann Archer")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    theirs = add(other, "Bill Bennett")
    url = f"/clubs/{club.slug}/members/{keep.pk}/merge/"
    before = state()
    for data in ({"other": theirs.pk}, {"other": keep.pk}, {"other": "²"}, {"other": ""}):
        response = director_client.post(url, data)
        assert response.status_code == 400, data
        assert 'aria-invalid="true"' in response.content.decode()
    assert state() == before


def test_forgetting_through_the_pages_asks_first_then_erases_on_post(
    club: Club, director_client: Client
) -> None:
    member = add(club, "Ann Archer")
    url = f"/clubs/{club.slug}/members/{member.pk}/erase/"
    page = director_client.get(url).content.decode()
    assert "cannot be undone" in page and "former member" in page
    assert Member.objects.get(pk=member.pk).name == "Ann Archer"
    assert director_client.post(url).status_code == 302
    assert Member.objects.get(pk=member.pk).name == "Former member 1"
    again = director_client.post(url)
    assert again.status_code == 400 and "already forgotten" in again.content.decode()


def test_the_data_download_is_the_members_json(club: Club, director_client: Client) -> None:
    member = add(club, "Ann Archer", email="ann@example.org")
    response = director_client.get(f"/clubs/{club.slug}/members/{member.pk}/data.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["member"]["email"] == "ann@example.org"


def test_another_clubs_director_reaches_none_of_it(club: Club) -> None:
    member = add(club, "Ann Archer")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    user = get_user_model().objects.create_user("elsewhere-td", password="pw")
    other.directors.add(user)
    client = Client()
    client.force_login(user)
    for path in ("merge/", "erase/", "data.json"):
        url = f"/clubs/{club.slug}/members/{member.pk}/{path}"
        assert client.get(url).status_code == 404
        assert client.post(url, {"other": member.pk}).status_code in {404, 405}
    assert Member.objects.get(pk=member.pk).name == "Ann Archer"


# ---- the API ---------------------------------------------------------------------------------


def test_the_api_merges_erases_and_gives_a_members_data(
    club: Club, director: Any, director_client: Client
) -> None:
    keep = add(club, "Ann Archer")
    drop = add(club, "Anne Archer", number="7")
    played_everywhere(club, drop, "Anne Archer", director)
    base = f"/api/clubs/{club.slug}/members"
    merged = director_client.post(
        f"{base}/{keep.pk}/merge/", {"other": drop.pk}, content_type="application/json"
    )
    assert merged.status_code == 200, merged.content
    body = merged.json()
    assert body["member"]["number"] == "7"
    assert body["evenings"] == {"drive": 1, "pairs event": 1, "team tournament": 1}
    data = director_client.get(f"{base}/{keep.pk}/data/").json()
    assert len(data["played"]) == 3
    erased = director_client.post(f"{base}/{keep.pk}/erase/", content_type="application/json")
    assert erased.status_code == 200 and erased.json()["member"]["name"] == "Former member 1"
    again = director_client.post(f"{base}/{keep.pk}/erase/", content_type="application/json")
    assert again.status_code == 400 and "already forgotten" in again.json()["detail"]


def test_the_api_refuses_a_merge_with_a_stranger_and_changes_nothing(
    club: Club, director_client: Client
) -> None:
    keep = add(club, "Ann Archer")
    theirs = add(Club.objects.create(name="Elsewhere", slug="elsewhere"), "Bill Bennett")
    before = state()
    for other in (theirs.pk, keep.pk, "x", None):
        response = director_client.post(
            f"/api/clubs/{club.slug}/members/{keep.pk}/merge/", {"other": other},
            content_type="application/json",
        )  # fmt: skip
        assert response.status_code == 400, other
    assert state() == before


# ---- the command -----------------------------------------------------------------------------


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("members", *args, stdout=out)
    return out.getvalue()


def test_the_command_merges_and_erases_only_with_yes(club: Club, director: Any) -> None:
    keep = add(club, "Ann Archer")
    drop = add(club, "Anne Archer")
    played_everywhere(club, drop, "Anne Archer", director)
    said = run("merge", "--club", club.slug, "--keep", str(keep.pk), "--drop", str(drop.pk))
    assert "1 drive, 1 pairs event, 1 team tournament" in said and "--yes" in said
    assert Member.objects.filter(pk=drop.pk).exists()
    run("merge", "--club", club.slug, "--keep", str(keep.pk), "--drop", str(drop.pk), "--yes")
    assert not Member.objects.filter(pk=drop.pk).exists()
    data = json.loads(run("data", "--club", club.slug, "--id", str(keep.pk)))
    assert len(data["played"]) == 3
    assert "cannot be undone" in run("erase", "--club", club.slug, "--id", str(keep.pk))
    assert Member.objects.get(pk=keep.pk).erased_at is None
    said = run("erase", "--club", club.slug, "--id", str(keep.pk), "--yes")
    assert "Former member 1" in said
    with pytest.raises(CommandError, match="already forgotten"):
        run("erase", "--club", club.slug, "--id", str(keep.pk), "--yes")
    with pytest.raises(CommandError, match="no member 999999"):
        run("data", "--club", club.slug, "--id", "999999")
