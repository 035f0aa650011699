"""An erase leaves no name (issue #44's test of done): a club with a published pairs event, a
published drive and a published team tournament in a league, where one member plays in each
and is named in their trails, a season whose table names them; the member is forgotten; then
every page and API answer of the URL conf (every route, filled with the club's evenings, rows
and tablet links, as its director and as anyone), every page those link to, every export
(CSV, PBN, USEBIO, JSON), every PDF (its text, with pypdf) and the whole backup hold the old
name nowhere: neither as written, nor in other capitals, nor HTML-escaped, nor JSON-escaped.

The same walk before the erase finds the name in pages, exports, PDFs and the backup, so the
walk is known to look where the name would be."""

from __future__ import annotations

import html
import io
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from pypdf import PdfReader

from tests.web.conftest import make_drive, make_event, make_tournament
from tests.web.security import test_permission_matrix as matrix
from tournaments.drives.models import DrivePlayer, DriveTableAccess
from tournaments.drives.services.drives import (
    drive_finish,
    drive_publish,
    hand_next,
    player_rename,
    result_enter,
)
from tournaments.events.models import DirectorCall, Pair, PrintJob, Result
from tournaments.events.services.events import event_finish, event_publish, pairs_register
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import table_links_ensure_for
from tournaments.kernel import member_privacy as privacy
from tournaments.kernel import members as register
from tournaments.kernel.backup.driver import backup_document
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import SeasonAudit
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.seasons import competition_add, season_create
from tournaments.teams.models import TournamentTableAccess, TournamentTeam
from tournaments.teams.services.games import game_enter, tournament_finish, tournament_publish
from tournaments.teams.services.teams import league_create, round_next, team_change

pytestmark = [pytest.mark.django_db, pytest.mark.heavy]  # hundreds of pages and PDFs

NAME = "Siân O'Neil"
EMAIL = "sian.oneil@example.org"
#: Not walked: logging out ends the director's session; a stream never ends.
SKIPPED = {"logout"}
#: The most pages the crawl follows beyond the URL conf's routes (a bound, not a target).
MOST = 3000
_streams_keep_the_test_connection = matrix._streams_keep_the_test_connection


def forms_of(text: str) -> list[str]:
    """The ways the name could be written in an answer."""
    return [
        NAME,
        html.escape(NAME),  # Siân O&#x27;Neil
        html.escape(NAME, quote=False).replace("'", "&#39;"),
        json.dumps(NAME)[1:-1],  # Si\u00e2n O'Neil
        EMAIL,
    ]


def holds_name(text: str) -> bool:
    folded = text.casefold()
    return any(form.casefold() in folded for form in forms_of(text))


@dataclass
class World:
    club: Club
    member: Member
    ids: dict[str, list[Any]]
    director: Any
    admin: Any


def _club_world(club: Club, director: Any) -> World:
    member = register.member_add(club=club, name="Sian O'Neil", number="42", email=EMAIL,
                                 user=director)  # fmt: skip
    member = register.member_edit(member=member, name=NAME, user=director)  # a rename
    register.member_add(club=club, name="Bob Partner", user=director)

    # A pairs event, played, finished, published; NS 1's first player renamed on the night.
    event = make_event(club, user=director)
    ns1 = Pair.objects.get(section__event=event, number=1, direction="NS")
    pairs_register(event=event, names={ns1.pk: ("S. O'Neil", "Bob Partner")}, user=director)
    pairs_register(event=event, names={ns1.pk: (NAME, "Bob Partner")}, user=director)
    Pair.objects.filter(pk=ns1.pk).update(member1=member)
    tokens = [a.token for a in table_links_ensure_for(event=event, user=director)]
    event_simulate(event=event, seed=5, batch=True)
    DirectorCall.objects.create(section=event.section, table=1, round=1, note=f"{NAME} calls")
    event_finish(event=event, user=director)
    event_publish(event=event, user=director)
    standings_refresh(event_id=event.pk, force=True)
    job = PrintJob.objects.create(event=event, status=PrintJob.Status.DONE, pages=1, total=1,
                                  pdf=f"%PDF-1.4 {NAME}".encode())  # fmt: skip

    # A drive of eight, player 1 renamed to the member, played through, published.
    drive = make_drive(club, user=director)
    player_rename(drive=drive, number=1, name=NAME, user=director)
    DrivePlayer.objects.filter(drive=drive, number=1).update(member=member)
    for hand in (1, 2):
        for table in (1, 2):
            result_enter(drive=drive, table=table, entry={"ns_tricks": 6 + table}, user=director)
        if hand == 1:
            hand_next(drive=drive, hand=1, user=director)
    drive_finish(drive=drive, user=director)
    drive_publish(drive=drive, user=director)

    # A league's team tournament, team 1's first player the member, played and published.
    league = league_create(club=club, name="Winter league", user=director)
    tournament = make_tournament(club, teams=4, league=league, user=director)
    team_change(tournament=tournament, number=1, data={"player_one": NAME}, user=director)
    TournamentTeam.objects.filter(tournament=tournament, number=1).update(member_one=member)
    for round_ in (1, 2):
        for table in (1, 2):
            score = {"home_points": 7, "away_points": 3 + table}
            game_enter(tournament=tournament, table=table, score=score, user=director)
        if round_ == 1:
            round_next(tournament=tournament, user=director)
    tournament_finish(tournament=tournament, user=director)
    tournament_publish(tournament=tournament, user=director)

    # A season's table and trail naming them.
    # The season's ledger taken from the published evenings (the job does not run inside a
    # test's transaction), then a season whose tables list the member in every format.
    club_rebuild(club=club)
    season = season_create(club=club, name="Season", starts=event.date, ends=event.date)
    competitions = [
        competition_add(season=season, name="Ladder", kind="ladder"),
        competition_add(
            season=season, name="Evenings", kind="attendance", count_drives=True,
            count_teams=True,
        ),
    ]  # fmt: skip
    assert all(NAME in str(c.table) for c in competitions)
    SeasonAudit.objects.create(club=club, season=season, action="ladder", target="season",
                               after={"leader": NAME})  # fmt: skip

    admin = get_user_model().objects.create_user("root", password="pw", is_superuser=True,
                                                 is_staff=True)  # fmt: skip
    ids: dict[str, list[Any]] = {
        "event": [event.pk], "drive": [drive.pk], "tournament": [tournament.pk],
        "league": [league.pk], "slug": [club.slug],
        "token": tokens
        + list(DriveTableAccess.objects.filter(drive=drive).values_list("token", flat=True))
        + list(TournamentTableAccess.objects.filter(tournament=tournament)
               .values_list("token", flat=True)),
        "number": [1, 2, 3], "table": [1, 2], "round": [1],
        "result_id": list(Result.objects.filter(section__event=event, ns_pair=ns1)
                          .values_list("pk", flat=True)[:2]),
        "pair_id": [ns1.pk], "call_id": list(DirectorCall.objects.values_list("pk", flat=True)),
        "job_id": [job.pk], "member_id": list(Member.objects.values_list("pk", flat=True)),
        "season_id": [season.pk], "competition_id": [c.pk for c in competitions],
        "key": ["NS1", "1"], "name": [NAME, "Bob Partner"],
        "fmt": ["csv", "pbn", "usebio", "json", "xml", "txt"],
        "what": ["hands", "table-cards", "standings", "team-list", "games", "totals",
                 "score-cards", "cards"],
        "kind": ["travellers", "curtain-cards", "hand-records", "score-cards", "pair-list"],
        "action": ["finish"],
        # the club's people and the password pages: they name accounts, never a member
        "user_id": [director.pk], "invitation_id": [1], "uidb64": ["MQ"],
    }  # fmt: skip
    return World(club, member, ids, director, admin)


def _routes() -> list[matrix.Route]:
    found = []

    def walk(patterns: list[Any], prefix: str = "") -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if entry.namespace != "admin":
                    walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern) and entry.name and entry.name not in SKIPPED:
                template = prefix + str(entry.pattern)
                params = re.findall(r"<(?:\w+:)?(\w+)>", template)
                found.append(matrix.Route(entry.name, template, params))

    walk(get_resolver().url_patterns)
    return found


def _paths(world: World) -> list[str]:
    """Every route filled with every combination of the world's values for its parameters
    (a route's `pk` takes each evening's and the league's)."""
    values = dict(world.ids)
    values["pk"] = values["event"] + values["drive"] + values["tournament"] + values["league"]
    paths: dict[str, None] = {}
    for route in _routes():
        if "stream" in route.name:
            continue
        choices = [values[p] for p in route.params]
        for combination in itertools.product(*choices):
            kwargs = dict(zip(route.params, combination, strict=True))
            try:
                paths[reverse(route.name, kwargs=kwargs)] = None
            except Exception:  # a value the route's converter refuses
                continue
    return list(paths)


@dataclass
class Walk:
    """What the walk read: every answer's text by path, and where the name was found."""

    read: dict[str, str] = field(default_factory=dict)
    found: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)


_LINK = re.compile(r"""(?:href|src|action|data-[\w-]*url)=["']([^"'#]+)""")


def _text(response: Any) -> tuple[str, str]:
    kind = response.get("Content-Type", "").split(";")[0]
    if response.streaming:
        return kind, ""
    body = response.content
    if kind == "application/pdf" or body.startswith(b"%PDF"):
        try:
            reader = PdfReader(io.BytesIO(body))
            return "pdf", "\n".join(page.extract_text() or "" for page in reader.pages)
        except Exception:  # not a PDF after all (a refusal's text)
            return kind, body.decode("utf-8", "replace")
    return kind, body.decode("utf-8", "replace")


def walk(world: World) -> Walk:
    done = Walk()
    clients = {"director": Client(), "anyone": Client()}
    clients["director"].force_login(world.director)
    queue = [(who, path) for path in _paths(world) for who in clients]
    seen = set(queue)
    while queue and len(seen) < MOST:
        who, path = queue.pop(0)
        response = clients[who].get(path)
        if response.status_code in (301, 302) and response.get("Location"):
            target = urljoin(path, response["Location"])
            if not urlsplit(target).netloc and (who, target) not in seen:
                seen.add((who, target))
                queue.append((who, target))
            continue
        kind, text = _text(response)
        done.read[f"{who} {path}"] = text
        if holds_name(text):
            done.found.append(f"{who} {path}")
            done.kinds.add(kind)
        if kind == "text/html":
            for link in _LINK.findall(text):
                target = urljoin(path, html.unescape(link))
                parts = urlsplit(target)
                if parts.netloc or not parts.path.startswith("/") or "stream" in parts.path:
                    continue
                if parts.path.startswith(("/accounts/logout", "/admin/", "/static/")):
                    continue
                if (who, target) not in seen:
                    seen.add((who, target))
                    queue.append((who, target))
    return done


def _backup_texts() -> list[str]:
    document = backup_document()
    return [json.dumps(document, ensure_ascii=False), json.dumps(document)]


def test_an_erase_leaves_the_name_in_no_page_export_pdf_or_backup(
    club: Club, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    world = _club_world(club, director)
    before = walk(world)
    # The walk looks where the name is: pages, the API's JSON, exports and PDFs, the backup.
    assert len(before.found) > 40, before.found
    assert {"text/html", "application/json", "pdf"} <= before.kinds, before.kinds
    assert any("csv" in where for where in before.found), before.found
    assert all(holds_name(text) for text in _backup_texts())

    with django_capture_on_commit_callbacks(execute=True):  # as if it committed
        privacy.member_erase(member=world.member, user=director)

    after = walk(world)
    assert len(after.read) > 500, len(after.read)
    assert not after.found, "the name is still in:\n" + "\n".join(after.found[:40])
    for text in _backup_texts():
        assert not holds_name(text)
    assert "Former member" in "".join(after.read.values())
