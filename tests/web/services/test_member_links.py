"""Every name in every format linked to the club's member whose name it is (issue #44): the
one matching rule, each format's services and API, the explicit choice and its refusals, and
the sweep of names already stored (`members link` and its API)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.web.conftest import make_drive, make_event, make_tournament
from tournaments.drives.models import DrivePlayer
from tournaments.drives.services import comings
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Pair
from tournaments.events.services import events as event_services
from tournaments.kernel import members as register
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.member_links import (
    NameLinker,
    member_for_name,
    members_by_name,
    name_key,
    names_link,
    shown_player,
)
from tournaments.kernel.models import Club, Member, MemberAudit
from tournaments.kernel.refusals import Refused
from tournaments.teams.models import TournamentTeam
from tournaments.teams.services import teams as team_services

pytestmark = pytest.mark.django_db


def add(club: Club, name: str, **values: Any) -> Member:
    return register.member_add(club=club, name=name, **values)


# ---- the rule ---------------------------------------------------------------------------------


def test_a_name_matches_whatever_its_capitals_and_spacing(club: Club) -> None:
    sian = add(club, "Siân O'Neil")
    assert name_key("  SIÂN   o'neil ") == name_key("Siân O'Neil")
    assert member_for_name(club, "  SIÂN   o'neil ") == sian
    assert member_for_name(club, "Sian O'Neil") is None  # another name: a visitor
    assert member_for_name(club, "") is None


def test_an_inactive_member_matches_an_erased_one_never(club: Club) -> None:
    lapsed = add(club, "Ann Lee", active=False)
    gone = add(club, "Bob Gray")
    Member.objects.filter(pk=gone.pk).update(erased_at=timezone.now())
    assert member_for_name(club, "ann lee") == lapsed
    assert member_for_name(club, "Bob Gray") is None
    assert set(members_by_name(club)) == {"ann lee"}


def test_another_clubs_member_never_matches(club: Club) -> None:
    add(club_get_or_create(name="Elsewhere"), "Ann Lee")
    assert member_for_name(club, "Ann Lee") is None


def test_the_shown_name_for_the_public(club: Club) -> None:
    full = add(club, "Ann Lee")
    initials = add(club, "Siân O'Neil", public_name="initials")
    hidden = add(club, "Bob Gray", public_name="hidden")
    assert shown_player("Ann Lee", full) == "Ann Lee"
    assert shown_player("Siân O'Neil", initials) == "S. O'N."
    assert shown_player("Bob Gray", hidden) == "a member"
    assert shown_player("Vic Visitor", None) == "Vic Visitor"
    Member.objects.filter(pk=full.pk).update(erased_at=timezone.now())
    full.refresh_from_db()
    assert shown_player("Ann Lee", full) == "former member"


def test_an_explicit_choice_is_checked(club: Club) -> None:
    ann = add(club, "Ann Lee")
    other = add(club_get_or_create(name="Elsewhere"), "Ann Lee")
    linker = NameLinker(club)
    assert linker.link("ann lee", chosen=ann.pk, what="player 1") == ann
    assert linker.link("Ann Lee", chosen=None, what="player 1") is None  # a visitor namesake
    with pytest.raises(Refused, match=f"member {other.pk} is not in this club's register"):
        linker.link("Ann Lee", chosen=other.pk, what="player 1")
    with pytest.raises(Refused, match=r"“Bob Gray” but member .* is “Ann Lee”"):
        linker.link("Bob Gray", chosen=ann.pk, what="player 1")
    Member.objects.filter(pk=ann.pk).update(erased_at=timezone.now())
    with pytest.raises(Refused, match="erased"):
        linker.link("Ann Lee", chosen=ann.pk, what="player 1")


# ---- events -----------------------------------------------------------------------------------


def test_pair_names_link_and_a_new_member_changes_nothing_played(club: Club) -> None:
    ann = add(club, "Ann Lee")
    event = make_event(club, start=False)
    pairs = list(Pair.objects.filter(section__event=event).order_by("number"))
    event_services.pairs_register(event=event, names={pairs[0].pk: ("ANN LEE", "Vic Visitor")})
    pairs[0].refresh_from_db()
    assert (pairs[0].member1, pairs[0].member2) == (ann, None)
    add(club, "Vic Visitor")  # the register gains the visitor: nothing changes silently
    event_services.pairs_register(event=event, names={pairs[0].pk: ("ANN LEE", "Vic Visitor")})
    pairs[0].refresh_from_db()
    assert pairs[0].member2 is None
    # A new name links anew; the same name keeps its link.
    event_services.pairs_register(event=event, names={pairs[0].pk: ("Ann Lee", "Carl Hart")})
    pairs[0].refresh_from_db()
    assert (pairs[0].member1, pairs[0].member2) == (ann, None)


def test_a_pair_swap_moves_the_links(club: Club) -> None:
    ann = add(club, "Ann Lee")
    event = make_event(club, start=False)
    first, second = Pair.objects.filter(section__event=event).order_by("number")[:2]
    event_services.pairs_register(event=event, names={first.pk: ("Ann Lee", "X"),
                                                      second.pk: ("Y", "Z")})  # fmt: skip
    event_services.pairs_swap(event=event, first=first, second=second, reason="wrong table")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.member1, second.member1) == (None, ann)


def test_the_pairs_api_takes_a_member_or_says_why_not(director_client: Client, club: Club) -> None:
    ann = add(club, "Ann Lee")
    event = make_event(club, start=False)
    pair = Pair.objects.filter(section__event=event).order_by("number").first()
    assert pair is not None
    url = f"/api/events/{event.pk}/pairs"
    answer = director_client.post(
        url, [{"id": pair.pk, "player1": "Ann Lee", "player2": "Ann Lee", "member2": None}],
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 200, answer.content
    row = next(r for r in answer.json() if r["id"] == pair.pk)
    assert (row["member1"], row["member2"]) == (ann.pk, None)
    wrong = director_client.post(
        url, [{"id": pair.pk, "player1": "Bob Gray", "player2": "", "member1": ann.pk}],
        content_type="application/json",
    )  # fmt: skip
    assert wrong.status_code == 400
    assert "Ann Lee" in wrong.content.decode() and "Bob Gray" in wrong.content.decode()
    pair.refresh_from_db()
    assert pair.player1 == "Ann Lee"  # nothing changed


# ---- drives -----------------------------------------------------------------------------------


def test_drive_players_link_on_create_add_rename_and_arrival(club: Club) -> None:
    ann, bob = add(club, "Ann Lee"), add(club, "Bob Gray")
    drive = drive_services.drive_create(
        club=club, name="Drive", settings={"hands": 2},
        players=["ann lee", "P2", "P3", "P4", "P5", "P6", "P7"],
    )  # fmt: skip
    players = {p.number: p for p in DrivePlayer.objects.filter(drive=drive)}
    assert (players[1].member, players[2].member) == (ann, None)
    added = drive_services.player_add(drive=drive, name="BOB GRAY")
    assert added.member == bob
    renamed = drive_services.player_rename(drive=drive, number=2, name="Carl Hart")
    assert renamed.member is None
    renamed = drive_services.player_rename(drive=drive, number=8, name="Bob  Gray")
    assert renamed.member == bob  # the same name, respaced: the link stays


def test_a_late_drive_player_links(club: Club) -> None:
    ann = add(club, "Ann Lee")
    drive = make_drive(club)
    assert comings.player_arrive(drive=drive, name="Ann Lee").member == ann


def test_the_drive_api_takes_members(director_client: Client, club: Club) -> None:
    ann = add(club, "Ann Lee")
    answer = director_client.post(
        "/api/drives/",
        {"name": "D", "settings": {"hands": 2}, "club": club.slug,
         "players": ["Ann Lee", "B", "C", "D"], "members": [ann.pk, None, None, None]},
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content
    assert DrivePlayer.objects.get(number=1).member == ann
    short = director_client.post(
        "/api/drives/",
        {"name": "D", "settings": {"hands": 2}, "club": club.slug,
         "players": ["Ann Lee", "B"], "members": [ann.pk]},
        content_type="application/json",
    )  # fmt: skip
    assert short.status_code == 400 and "one per player" in short.content.decode()


# ---- teams ------------------------------------------------------------------------------------


def test_team_players_link_and_the_league_carries_them(club: Club) -> None:
    ann, bob = add(club, "Ann Lee"), add(club, "Bob Gray")
    league = team_services.league_create(club=club, name="League")
    week1 = team_services.tournament_create(
        club=club, name="W1", settings={"rotation": "swiss", "rounds": 1}, league=league,
        teams=[{"name": "T1", "player_one": "ann lee", "player_two": "Vic"},
               {"name": "T2", "player_one": "Bob Gray", "player_two": "Bob Gray",
                "member_two": None}],
    )  # fmt: skip
    teams = {t.number: t for t in TournamentTeam.objects.filter(tournament=week1)}
    assert (teams[1].member_one, teams[1].member_two) == (ann, None)
    assert (teams[2].member_one, teams[2].member_two) == (bob, None)
    week2 = team_services.tournament_create(
        club=club, name="W2", settings={"rotation": "swiss", "rounds": 1}, league=league
    )
    assert TournamentTeam.objects.get(tournament=week2, number=1).member_one == ann
    changed = team_services.team_change(tournament=week1, number=1, data={"player_two": "Bob Gray"})
    assert (changed.member_one, changed.member_two) == (ann, bob)


def test_a_team_with_a_wrong_member_is_refused(club: Club) -> None:
    ann = add(club, "Ann Lee")
    with pytest.raises(Refused, match=r"Team 1.s first player"):
        team_services.tournament_create(
            club=club, name="T", settings={"rotation": "swiss", "rounds": 1},
            teams=[{"name": "T1", "player_one": "Bob", "member_one": ann.pk}],
        )  # fmt: skip


# ---- the sweep --------------------------------------------------------------------------------


def _named_everywhere(club: Club) -> tuple[Pair, Any, Any]:
    event = make_event(club, start=False)
    pair = Pair.objects.filter(section__event=event).order_by("number").first()
    assert pair is not None
    event_services.pairs_register(event=event, names={pair.pk: ("Ann Lee", "Vic Visitor")})
    drive = make_drive(club, start=False)
    drive_services.player_rename(drive=drive, number=1, name="ANN LEE")
    tournament = make_tournament(club, start=False)
    team_services.team_change(
        tournament=tournament, number=1, data={"player_one": "ann lee", "player_two": "vic visitor"}
    )
    return pair, drive, tournament


def test_the_sweep_links_every_format_and_reports(club: Club, director: Any) -> None:
    pair, drive, tournament = _named_everywhere(club)  # nobody is a member yet
    ann = add(club, "Ann Lee")
    dry = names_link(club=club, dry_run=True)
    assert [(n.name, n.places) for n in dry.linked] == [("Ann Lee", 3)]
    assert not Pair.objects.filter(member1=ann).exists()  # dry: nothing changed
    report = names_link(club=club, user=director)
    assert [(n.name, n.places, len(n.evenings)) for n in report.linked] == [("Ann Lee", 3, 3)]
    unmatched = {n.name: n for n in report.unmatched}
    assert "Vic Visitor" in unmatched and len(unmatched["Vic Visitor"].evenings) == 2
    assert report.summary().startswith("linked 1 name(s) in 3 place(s)")
    pair.refresh_from_db()
    assert pair.member1 == ann
    assert DrivePlayer.objects.get(drive=drive, number=1).member == ann
    assert TournamentTeam.objects.get(tournament=tournament, number=1).member_one == ann
    line = MemberAudit.objects.get(action="member linked")
    assert (line.member, line.user) == (ann, director)
    assert names_link(club=club).linked == []  # run again: nothing more to link


def test_the_command_and_the_api(director_client: Client, club: Club) -> None:
    _named_everywhere(club)
    add(club, "Ann Lee")
    out = io.StringIO()
    call_command("members", "link", "--club", club.slug, "--dry-run", stdout=out)
    said = out.getvalue()
    assert "would link  Ann Lee" in said and "3 place(s)" in said
    assert "no member  Vic Visitor" in said and "Nothing was changed" in said
    for not_a_boolean in (0, 1, "yes"):  # the schema says boolean: JSON true or false only
        refused = director_client.post(
            f"/api/clubs/{club.slug}/members/link/", {"dry_run": not_a_boolean},
            content_type="application/json",
        )  # fmt: skip
        assert refused.status_code == 400 and "dry_run" in refused.json()
    assert not Pair.objects.filter(section__event__club=club, member1__isnull=False).exists()
    answer = director_client.post(
        f"/api/clubs/{club.slug}/members/link/", {"dry_run": False},
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 200
    body = answer.json()
    assert body["linked"][0]["places"] == 3 and body["dry_run"] is False
    assert json.dumps(body).count("Vic Visitor") == 1
    other = club_get_or_create(name="Elsewhere")
    assert (
        director_client.post(
            f"/api/clubs/{other.slug}/members/link/", {}, content_type="application/json"
        ).status_code
        == 404
    )


# ---- the pickers and the marks on the directors' pages ------------------------------------------


def test_the_setup_pages_suggest_active_members_and_mark_each_name(
    director_client: Client, club: Club
) -> None:
    add(club, "Ann Lee")
    add(club, "Old Timer", active=False)
    event = make_event(club, start=False)
    pair = Pair.objects.filter(section__event=event).order_by("number").first()
    assert pair is not None
    event_services.pairs_register(event=event, names={pair.pk: ("Ann Lee", "Vic Visitor")})
    drive = make_drive(club, start=False)
    drive_services.player_rename(drive=drive, number=1, name="Ann Lee")
    tournament = make_tournament(club, start=False)
    team_services.team_change(tournament=tournament, number=1, data={"player_one": "Ann Lee"})
    pages = {
        f"/events/{event.pk}/": 'name="pair-',
        f"/drives/{drive.pk}/manage/players/": 'name="name"',
        f"/tournaments/{tournament.pk}/manage/": 'name="player_one"',
    }
    for url, field in pages.items():
        page = director_client.get(url).content.decode()
        assert page.count('<datalist id="club-members">') == 1, url
        assert '<option value="Ann Lee">' in page and "Old Timer" not in page, url
        assert 'list="club-members"' in page and field in page, url
    marked = [
        director_client.get(url).content.decode()
        for url in (f"/events/{event.pk}/", f"/drives/{drive.pk}/manage/players/",
                    f"/tournaments/{tournament.pk}/manage/")
    ]  # fmt: skip
    assert all('class="member-mark muted">member<' in page for page in marked)
    assert 'class="member-mark muted">visitor<' in marked[0]
