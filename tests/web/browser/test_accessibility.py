"""Accessibility: every page type of every format, checked by axe-core in Chromium against the
WCAG 2.2 A and AA rules (violations of any impact fail), at a phone's width (390x844), a
laptop's (1280x800) and a phone at 200 % zoom (195x422 CSS pixels); at each size no page
scrolls sideways (a wide table scrolls inside its own focusable region, not the page).

The pages are listed in PAGES, each by its route in the URL conf; `EXEMPT` names every other
route with the reason it has no page of its own to check. A route added later that is in
neither fails `test_every_page_route_is_checked_or_exempted`, so no page is forgotten.

axe-core is the copy bundled by the `axe-playwright-python` package (a dev dependency); its
source is run with `page.evaluate`, which the pages' Content-Security-Policy does not govern.
The world (events, a drive, a tournament and a league) is built once for all the pages; each
role (anonymous, the club's director, an account without a club) has one browser context.
The tablets' screens are reached by tapping through them, in a test of their own per tablet,
and each is checked with large print off and on.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import get_resolver, resolve, reverse

from tests.web.browser.axe import SIZES, Finding, at_every_size, report
from tests.web.conftest import director_account, log_in, make_drive, make_event, make_tournament
from tests.web.security.test_permission_matrix import _walk
from tournaments.drives.models import Drive, DriveTableAccess
from tournaments.drives.services.drives import (
    drive_create,
    drive_finish,
    drive_live,
    drive_publish,
    drive_start,
    hand_next,
    result_enter,
)
from tournaments.events.models import Event, MovementRow, Pair, Result, TableAccess
from tournaments.events.selectors import table_round
from tournaments.events.services.events import event_finish, event_publish, event_set_live_public
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import director_call, table_links_ensure, tablet_submit
from tournaments.kernel import password_reset, people
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import Competition, Season, SeasonLine
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.seasons import competition_add, season_create
from tournaments.teams.models import Tournament, TournamentTableAccess
from tournaments.teams.services.games import game_enter, tournament_live
from tournaments.teams.services.teams import league_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# ---- the tablets' screens: every selector the tablet walk relies on, in one place ----------
# (the tablets' pages are rewritten often: when one changes, this is what to update)
TABLET = {
    # the pairs tablet, /t/<token>/
    "pairs.ready": "#screen ul.boards, #screen.recap",
    "pairs.enter": "#screen ul.boards button.primary",  # "Enter board N"
    "pairs.entry": "#screen.entry",
    "pairs.pick": 'button.pick[data-field="ns_tricks"] >> text="7"',
    "pairs.preview": ".preview .scores",
    "pairs.send": "#screen.entry button.primary >> text=/Send to East-West/",
    "pairs.confirm": "#screen.confirm",
    "pairs.wrong_number": "#pair-number",
    "pairs.disagree": "#screen.confirm button >> text='We do not agree'",
    "pairs.dispute": "#dispute-note",
    "pairs.call": "#call",
    "pairs.call_panel": "#call-panel",
    "pairs.recap": "#screen.recap",
    # the drive tablet, /d/<token>/
    "drive.entry": "#enter",
    "drive.pick": "#enter fieldset.picker >> nth=0 >> button.pick >> nth=6",
    "drive.send": "#send",
    "drive.confirm": "#confirm",
    "drive.wrong": "#wrong",
    "drive.agree": "#agree",
    "drive.done": "#done",
    # the team tablet, /tt/<token>/
    "team.entry": "#entry-form",
    "team.side": '#entry-form button.pick[data-field="side"][data-value="home"]',
    "team.home_points": "#home_points",
    "team.away_points": "#away_points",
    "team.send": "#send",
    "team.confirm": "#screen.confirm",
    "team.dispute": "#dispute",
    "team.disputed": "#screen >> text='The director is called'",
    "team.confirmed": "#confirmed",
    # all three
    "banner": "#banner:not([hidden])",
}


# ---- the world ---------------------------------------------------------------------------------


@dataclass
class World:
    club: Club
    running: Event  # round 1 played, followed live, a result waiting, a call open
    published: Event
    draft: Event
    result: Result  # a confirmed result of the running event (round 1)
    artificial: tuple[int, int, int]  # (board, round, table) not yet played
    drive: Drive  # running, hand 1 entered at table 1, followed live
    finished_drive: Drive  # published: the prize list
    tournament: Tournament  # running, round 1, a game in, followed live
    draft_drive: Drive
    draft_tournament: Tournament  # teams still coming in


def build_world() -> World:
    club = club_get_or_create(name="Axe Whist Club")
    published = make_event(club)
    Pair.objects.filter(section__event=published, number=1, direction="NS").update(
        player1="Ann Archer", player2="Bill Bennett"
    )
    # Ann and Bill are members, and a season covers the evening: its results pages show the
    # handicapped standings, and Ann has a member's page.
    ann = Member.objects.create(club=club, name="Ann Archer")
    bill = Member.objects.create(club=club, name="Bill Bennett", public_name="initials")
    Pair.objects.filter(section__event=published, number=1, direction="NS").update(
        member1=ann, member2=bill
    )
    Season.objects.create(
        club=club,
        name="Axe season",
        starts=published.date - dt.timedelta(days=30),
        ends=published.date + dt.timedelta(days=30),
    )
    event_simulate(event=published, seed=5, batch=True)
    event_finish(event=published)
    event_publish(event=published)

    running = make_event(club)
    tokens = {a.table: a.token for a in table_links_ensure(event=running)}
    event_simulate(event=running, rounds=1, seed=3, batch=True)
    event_set_live_public(event=running, live=True)
    now = table_round(running.section, 1)
    row = MovementRow.objects.filter(section=running.section, round=now, table=1).get()
    tablet_submit(
        access=TableAccess.objects.get(token=tokens[1]),
        board_number=running.section.boards_of_set(row.board_set)[0],
        entry={"ns_tricks": 7},
        key="axe-key-1",
    )
    standings_refresh(event_id=running.pk)
    director_call(section=running.section, table=2, round=now, note="help")
    row_2 = MovementRow.objects.filter(section=running.section, round=now, table=2).get()
    artificial = (running.section.boards_of_set(row_2.board_set)[0], now, 2)
    result = Result.objects.filter(section__event=running, status="confirmed").order_by("pk")[0]

    draft = make_event(club, start=False)

    drive = make_drive(club, players=9, hands=4, name="Axe drive")
    result_enter(drive=drive, table=1, entry={"ns_tricks": 8})
    drive_live(drive=drive, live=True)
    finished = drive_create(
        club=club, name="Done drive", settings={"hands": 2}, players=[f"P{n}" for n in range(4)]
    )
    drive_start(drive=finished, seed=1)
    for hand in (1, 2):
        result_enter(drive=finished, table=1, entry={"ns_tricks": 6 + hand})
        if hand == 1:
            hand_next(drive=finished, hand=1)
    drive_finish(drive=finished)
    drive_publish(drive=finished)

    league = league_create(club=club, name="Axe league")
    tournament = make_tournament(club, teams=5, rounds=3, name="Axe teams", league=league)
    game_enter(tournament=tournament, table=1, score={"home_points": 7, "away_points": 2})
    tournament_live(tournament=tournament, live=True)
    club_rebuild(club=club)  # the ledger, as the publishing jobs take it
    return World(
        club=club,
        running=running,
        published=published,
        draft=draft,
        result=result,
        artificial=artificial,
        drive=drive,
        finished_drive=finished,
        tournament=tournament,
        draft_drive=make_drive(club, name="Draft drive", start=False),
        draft_tournament=make_tournament(club, name="Draft teams", start=False),
    )


# ---- the pages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """A page to check: its route, the role that opens it, its URL's arguments from the world,
    and what to do on it first (e.g. send the login form wrongly)."""

    route: str
    role: str  # "anonymous", "director", "admin" or "lonely" (an account directing no club)
    args: Callable[[World], dict[str, Any]] = lambda w: {}
    query: str = ""
    label: str = ""
    then: Callable[[Any], None] | None = None
    status: int = 200

    def url(self, world: World) -> str:
        return reverse(self.route, kwargs=self.args(world)) + self.query

    @property
    def name(self) -> str:
        return self.route + (f" ({self.label})" if self.label else "")


def _bad_login(page: Any) -> None:
    page.get_by_label("Username").fill("td")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("load")


def _refused(button: str) -> Callable[[Any], None]:
    """Send the form with a name of spaces only, so the page comes back with its errors shown
    (the browser's own check takes spaces for a name; the server does not)."""

    def send(page: Any) -> None:
        page.locator("input[name=name]").first.fill("   ")
        page.get_by_role("button", name=button, exact=True).click()
        page.wait_for_load_state("load")
        page.locator(".errorlist, .error, [role=alert]").first.wait_for()

    return send


def _register_filtered(page: Any) -> None:
    """The new drive's register picker in use: a member ticked, the list filtered to them."""
    page.get_by_label("Type to filter").fill("archer")
    page.get_by_role("checkbox", name="Ann Archer").check()
    page.get_by_text("1 member chosen").wait_for()


def _running(w: World) -> dict[str, Any]:
    return {"pk": w.running.pk}


def _published(w: World) -> dict[str, Any]:
    return {"pk": w.published.pk}


def _drive(w: World) -> dict[str, Any]:
    return {"pk": w.drive.pk}


def _teams(w: World) -> dict[str, Any]:
    return {"pk": w.tournament.pk}


def _club(w: World) -> dict[str, Any]:
    return {"slug": w.club.slug}


def _member(w: World) -> Member:
    return Member.objects.get_or_create(club=w.club, name="Siân O'Neil", number="7")[0]


def _merge_twin(w: World) -> dict[str, Any]:
    """The member's page for a merge, with a second record of them to merge."""
    Member.objects.get_or_create(club=w.club, name="Sian ONeil", number="77")
    return _club(w) | {"member_id": _member(w).pk}


def _merge_preview(page: Any) -> None:
    page.get_by_label("The other record").select_option(label="Sian ONeil (no. 77)")
    page.get_by_role("button", name="See what the merge will do").click()
    page.wait_for_load_state("load")
    page.locator("#merge-preview").wait_for()


def _merge_unchosen(page: Any) -> None:
    page.get_by_role("button", name="See what the merge will do").click()
    page.wait_for_load_state("load")
    page.locator("#merge-error").wait_for()


def _ann(w: World) -> Member:
    return Member.objects.get(club=w.club, name="Ann Archer")


def _season(w: World) -> dict[str, Any]:
    """The club's season with a ladder over its published evenings (made once)."""
    season = Season.objects.filter(club=w.club, name="Accessible season").first()
    if season is None:
        for n, (name, pct) in enumerate((("Siân O'Neil", 61), ("Zoë Brontë", 48)), start=1):
            member = Member.objects.get_or_create(club=w.club, name=name)[0]
            SeasonLine.objects.create(
                club=w.club, format="event", play_id=999, play_name="An evening",
                date=dt.date.today(), entrant=f"NS{n}", member=member, name=name, rank=str(n),
                field_size=2, figures={"percentage": str(pct), "points": str(pct)},
            )  # fmt: skip
        season = season_create(
            club=w.club, name="Accessible season", starts="2020-01-01", ends=dt.date.today()
        )
        competition_add(season=season, name="Ladder")
        competition_add(season=season, name="Attendance", kind="attendance")
    return {"slug": w.club.slug, "season_id": season.pk}


def _competition(w: World) -> dict[str, Any]:
    args = _season(w)
    first = Competition.objects.filter(season_id=args["season_id"]).order_by("position")[0]
    return args | {"competition_id": first.pk}


def _import_preview(page: Any) -> None:
    page.get_by_label("Or paste the CSV here").fill(
        "name;number;email\nZoë Brontë;8;zoe@example.org\nSiân O'Neil;;\n;9;no-name@example.org\n"
    )
    page.get_by_role("button", name="Preview").click()
    page.wait_for_load_state("load")


def _invitation(w: World) -> dict[str, Any]:
    """A fresh invitation's token: only its hash is kept, so each page visit makes one."""
    sent = people.invite(club=w.club, email="new@example.org", user=None, base_url="")
    return {"token": sent.link.rstrip("/").rsplit("/", 1)[1]}


def _invite_refused(page: Any) -> None:
    page.get_by_label("Their email address").fill("not an address")
    page.get_by_role("button", name="Send the invitation").click()
    page.wait_for_load_state("load")
    page.locator("#error-summary").wait_for()


def _invited(page: Any) -> None:
    page.get_by_label("Their email address").fill("sam@example.org")
    page.get_by_role("radio", name="Scorer").check()
    page.get_by_role("button", name="Send the invitation").click()
    page.wait_for_load_state("load")
    page.locator("#invitation-sent").wait_for()


def _weak_password(page: Any) -> None:
    page.get_by_label("Username").fill("newcomer")
    page.locator("#id_password1").fill("short")
    page.locator("#id_password2").fill("short")
    page.get_by_role("button", name="Make my account and join").click()
    page.wait_for_load_state("load")
    page.locator("#error-summary").wait_for()


def _reset_over_limit(page: Any) -> None:
    """Resets asked for one address until the page refuses the next (its limit an hour)."""
    form = page.url
    for _ in range(password_reset.RESET_PER_EMAIL + 1):
        page.get_by_label("Email").fill("axe-reset@example.org")
        page.get_by_role("button", name="Send me the link").click()
        page.wait_for_load_state("load")
        if page.locator("#error-summary").count():
            return
        page.goto(form)
    page.locator("#error-summary").wait_for()


A, D = "anonymous", "director"
PAGES = [
    # open to everyone
    Page("home", A, label="anonymous"),
    Page("home", D, label="a director's"),
    Page("login", A),
    Page("login", A, label="a wrong password", then=_bad_login),
    # a club's published results and its players
    Page("public-club", A, lambda w: {"slug": w.club.slug}),
    Page("public-players", A, lambda w: {"slug": w.club.slug}),
    Page("public-player", A, lambda w: {"slug": w.club.slug}, query="?name=Ann+Archer"),
    # an event's public pages: published, and a running one followed live
    Page("public-results", A, _published, label="published"),
    Page("public-results", A, _running, label="live"),
    Page("member-page", A, lambda w: _club(w) | {"member_id": _ann(w).pk}),
    Page("member-page", D, lambda w: _club(w) | {"member_id": _ann(w).pk}, label="director"),
    Page("public-board", A, lambda w: _published(w) | {"number": 1}),
    Page("public-board", A, lambda w: _running(w) | {"number": 1}, label="live"),
    Page("public-pair", A, lambda w: _published(w) | {"key": "NS1"}),
    Page("public-pair", D, lambda w: _running(w) | {"key": "NS1"}, label="running, the director's"),
    Page("public-display", A, _published),
    Page("public-display", A, _running, label="live"),
    Page("event-standings", A, _published, label="published"),
    Page("event-standings", D, _running, label="live, the director's"),
    # a drive's public pages
    Page("drive-public", A, _drive, label="live"),
    Page("drive-public", A, lambda w: {"pk": w.finished_drive.pk}, label="published, prizes"),
    Page("drive-display", A, _drive),
    Page("drive-player", A, lambda w: _drive(w) | {"number": 1}),
    Page(
        "drive-player", A, lambda w: _drive(w) | {"number": 99}, label="no such player", status=404
    ),
    # a team tournament's and a league's
    Page("tournament-public", A, _teams, label="live"),
    Page("tournament-team", A, lambda w: _teams(w) | {"number": 1}),
    Page("league-detail", D, lambda w: {"pk": w.tournament.league_id}),
    # the director's: events
    Page("event-new", D),
    Page("event-new", D, label="its errors shown", then=_refused("Show movements")),
    Page("event-new", "lonely", label="an account directing no club", status=403),
    Page("event-import-file", D),
    Page("event-detail", D, lambda w: {"pk": w.draft.pk}, label="draft"),
    Page("event-detail", D, _running, label="running"),
    Page("event-detail", D, _published, label="published"),
    Page("event-room", D, _running),
    Page("event-enter", D, _running),
    Page("event-traveller", D, lambda w: _running(w) | {"number": 1}),
    Page("event-print", D, _running),
    Page("event-audit", D, _running),
    Page("event-close", D, _running),
    Page(
        "result-correct",
        D,
        lambda w: _running(w) | {"result_id": w.result.pk},
    ),
    Page(
        "result-artificial",
        D,
        lambda w: _running(w) | dict(zip(("number", "round", "table"), w.artificial, strict=True)),
    ),
    # drives
    Page("drive-new", D),
    Page("drive-new", D, label="its errors shown", then=_refused("Create the drive")),
    Page("drive-new", D, label="the register filtered", then=_register_filtered),
    Page("drive-detail", D, lambda w: {"pk": w.draft_drive.pk}, label="draft"),
    Page("drive-detail", D, _drive, label="running"),
    Page("drive-detail", D, lambda w: {"pk": w.finished_drive.pk}, label="published"),
    Page("drive-players", D, lambda w: {"pk": w.draft_drive.pk}, label="draft"),
    Page("drive-players", D, _drive, label="running"),
    Page("drive-room", D, _drive),
    Page("drive-cards", D, _drive),
    Page("drive-totals", D, _drive),
    # team tournaments
    Page("tournament-new", D),
    Page("tournament-new", D, label="its errors shown", then=_refused("Create the tournament")),
    Page("tournament-detail", D, lambda w: {"pk": w.draft_tournament.pk}, label="draft"),
    Page("tournament-detail", D, _teams, label="running"),
    Page("tournament-room", D, _teams),
    Page("tournament-settings", D, _teams),
    # the club's member register
    Page("members", D, _club),
    Page("members", D, _club, query="?q=zzz&show=inactive", label="nobody matches"),
    # an address holding a NUL: the page that says to mend it (clubwhist/addresses.py)
    Page("members", D, _club, query="?q=Ann%00", label="a NUL in the search", status=400),
    Page("member-new", D, _club),
    Page("member-edit", D, lambda w: _club(w) | {"member_id": _member(w).pk}),
    Page("members-import", D, _club),
    Page("members-import", D, _club, label="a preview", then=_import_preview),
    Page("member-merge", D, _merge_twin),
    Page("member-merge", D, _merge_twin, label="what it will move", then=_merge_preview),
    Page("member-merge", D, _merge_twin, label="its error shown", then=_merge_unchosen),
    Page("member-erase", D, lambda w: _club(w) | {"member_id": _member(w).pk}),
    # the club's seasons
    Page("seasons", D, _club),
    Page("season-new", D, _club),
    Page("season-new", D, _club, label="its errors shown", then=_refused("Set up the season")),
    Page("season-detail", D, _season),
    Page("season-edit", D, _season),
    Page("competition-new", D, _season),
    Page("competition-edit", D, _competition),
    Page("public-seasons", A, _club),
    Page("public-season", A, _season),
    Page("public-competition", A, _competition),
    # the club's people, invitations and accounts
    Page("people", D, _club),
    Page("people", D, _club, label="an invitation sent", then=_invited),
    Page("people", D, _club, label="its errors shown", then=_invite_refused),
    Page("club-new", "admin"),
    Page("club-new", D, label="not an administrator", status=403),
    Page("invitation-accept", A, _invitation),
    Page(
        "invitation-accept",
        A,
        _invitation,
        label="a weak password",
        then=_weak_password,
        status=200,
    ),
    Page("invitation-accept", A, lambda w: {"token": "no-such-link"}, label="unknown", status=404),
    Page("password_change", D),
    Page("password_change_done", D),
    Page("password_reset", A),
    Page("password_reset", A, label="a reset over the limit", then=_reset_over_limit),
    Page("password_reset_done", A),
    Page(
        "password_reset_confirm", A, lambda w: {"uidb64": "MQ", "token": "x"}, label="an old link"
    ),
    Page("password_reset_complete", A),
]

#: The tablets: their routes are checked screen by screen in `test_tablet_screens`.
TABLET_ROUTES = {"table-page", "drive-table-page", "team-table-page"}

FORM_POST = "a form's POST target: it answers with a redirect to a page checked here"
PART = "a part of a page, fetched by that page's script: checked inside the whole page"
DOWNLOAD = "a download (a file, not a page)"
NOT_HTML = "not a page: JSON, a stream or a service worker"
#: The routes that only take a form's POST (each answers with a redirect, or a 405 to a GET).
POST_TARGETS = {
    "event-pairs", "event-move-pair", "event-pair-leave", "event-pair-arrive",
    "event-pair-presence-undo", "event-import", "event-status", "event-analyse",
    "event-print-paper", "event-print-pack", "event-live-public", "event-tablet-links",
    "event-tablet-replace", "event-round-start", "event-round-clock", "call-handled",
    "board-preview", "board-fouled", "drive-start", "drive-enter", "drive-next", "drive-correct",
    "drive-comes-goes", "drive-status", "drive-moves-on", "drive-link-replace",
    "tournament-teams", "tournament-start", "tournament-enter", "tournament-forfeit",
    "tournament-withdraw", "tournament-next", "tournament-playoff", "tournament-tie",
    "tournament-status", "tournament-link-replace", "person-remove", "invitation-revoke",
}  # fmt: skip
#: Every other route of the URL conf outside the API, and why it has no page of its own.
EXEMPT = {
    "health": NOT_HTML,
    "logout": FORM_POST,
    "table-sw": NOT_HTML,
    "drive-table-sw": NOT_HTML,
    "team-table-sw": NOT_HTML,
    "drive-table-stream": NOT_HTML,
    "team-table-stream": NOT_HTML,
    "public-stream": NOT_HTML,
    "public-version": NOT_HTML,
    "event-analysis-progress": NOT_HTML,
    "event-print-pack-state": NOT_HTML,
    "drive-export-json": DOWNLOAD,
    "tournament-export-json": DOWNLOAD,
    "event-export": DOWNLOAD,
    "public-export": DOWNLOAD,
    "event-boards-pbn": DOWNLOAD,
    "event-print-pack-pdf": DOWNLOAD,
    "event-print-document": DOWNLOAD,
    "drive-export": DOWNLOAD,
    "drive-export-xlsx": DOWNLOAD,
    "drive-print": DOWNLOAD,
    "tournament-csv": DOWNLOAD,
    "tournament-xlsx": DOWNLOAD,
    "tournament-print": DOWNLOAD,
    "members-export": DOWNLOAD,
    "members-export-xlsx": DOWNLOAD,
    "member-data": DOWNLOAD,
    "member-page-pdf": DOWNLOAD,
    "member-page-csv": DOWNLOAD,
    "member-page-xlsx": DOWNLOAD,
    "season-pdf": DOWNLOAD,
    "season-csv": DOWNLOAD,
    "season-xlsx": DOWNLOAD,
    "competition-csv": DOWNLOAD,
    "competition-xlsx": DOWNLOAD,
    "drive-room-part": PART,
    **dict.fromkeys(POST_TARGETS, FORM_POST),
}


def page_routes() -> set[str]:
    """Every named route outside the API and the admin (the API's schema is no page)."""
    return {r.name for r in _walk(get_resolver().url_patterns) if not r.template.startswith("api/")}


def test_every_page_route_is_checked_or_exempted() -> None:
    routes = page_routes()
    checked = {p.route for p in PAGES} | TABLET_ROUTES
    unsorted = routes - checked - set(EXEMPT)
    assert not unsorted, (
        f"routes neither checked for accessibility nor exempted: {sorted(unsorted)}: "
        "add a Page to PAGES (or, for no page of its own, a reason to EXEMPT)"
    )
    assert not checked & set(EXEMPT), f"both checked and exempted: {checked & set(EXEMPT)}"
    stale = (checked | set(EXEMPT)) - routes
    assert not stale, f"no such routes: {sorted(stale)}"


# ---- the tests --------------------------------------------------------------------------------


def _open_as(browser: Any, base: str, role: str) -> Any:
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page = context.new_page()
    page.set_default_timeout(15_000)
    if role == "director":
        log_in(page, base)
    elif role == "lonely":
        log_in(page, base, "lonely", "secret-lonely-pw")
    elif role == "admin":
        log_in(page, base, "axe-admin", "secret-admin-pw")
    return page


def _close(page: Any) -> None:
    """Let the live server answer what the page still asked for (no request mid-way through a
    transaction when the test database is flushed), then close its context."""
    with contextlib.suppress(Exception):
        page.wait_for_load_state("networkidle", timeout=3_000)
    page.context.close()


def test_every_page_at_three_sizes(browser: Any, live_server: Any) -> None:
    world = build_world()
    director_account()
    get_user_model().objects.create_user("lonely", password="secret-lonely-pw")
    get_user_model().objects.create_user(
        "axe-admin", password="secret-admin-pw", is_superuser=True, is_staff=True
    )
    base = live_server.url
    pages: dict[str, Any] = {}
    findings: list[Finding] = []
    try:
        for spec in PAGES:
            if spec.role not in pages:
                pages[spec.role] = _open_as(browser, base, spec.role)
            page = pages[spec.role]
            url = spec.url(world)
            assert resolve(url.partition("?")[0]).url_name == spec.route
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            response = page.goto(base + url)
            assert response is not None and response.status == spec.status, (
                f"{spec.name} {url}: {response and response.status}, expected {spec.status}"
            )
            if spec.then is not None:
                spec.then(page)
            findings += at_every_size(page, f"{spec.name} {url}")
    finally:
        for page in pages.values():
            _close(page)
    assert not findings, report(findings)


# ---- the tablets, screen by screen -------------------------------------------------------------


class Tablet:
    """One tablet's page in a context of its own; `check` runs axe on the screen shown now."""

    def __init__(self, browser: Any, url: str, name: str, findings: list[Finding]) -> None:
        self.context = browser.new_context(viewport={"width": SIZES[1][0], "height": SIZES[1][1]})
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.goto(url)
        self.name = name
        self.findings = findings

    def wait(self, key: str) -> None:
        self.page.wait_for_selector(TABLET[key])

    def tap(self, key: str) -> None:
        self.page.locator(TABLET[key]).first.click()

    def check(self, screen: str) -> None:
        """The screen at every size, with large print off and then on (the class the tablet's
        switch sets; the switch itself is tested with each tablet)."""
        self.findings += at_every_size(self.page, f"{self.name} tablet: {screen}")
        self.page.evaluate("() => document.documentElement.classList.add('large-print')")
        self.findings += at_every_size(self.page, f"{self.name} tablet, large print: {screen}")
        self.page.evaluate("() => document.documentElement.classList.remove('large-print')")
        self.page.set_viewport_size({"width": SIZES[1][0], "height": SIZES[1][1]})

    def offline_banner(self) -> None:
        self.context.set_offline(True)
        self.wait("banner")
        self.check("offline banner")
        self.context.set_offline(False)


def _pairs_tablet(browser: Any, base: str, club: Club, findings: list[Finding]) -> None:
    event = make_event(club)
    token = {a.table: a.token for a in table_links_ensure(event=event)}[1]
    tablet = Tablet(browser, f"{base}/t/{token}/", "pairs", findings)
    tablet.wait("pairs.ready")
    tablet.check("board list")
    tablet.tap("pairs.call")
    tablet.wait("pairs.call_panel")
    tablet.check("call panel")
    tablet.page.reload()
    tablet.wait("pairs.ready")
    tablet.tap("pairs.enter")
    tablet.wait("pairs.entry")
    tablet.tap("pairs.pick")
    tablet.wait("pairs.preview")
    tablet.check("entry")
    tablet.tap("pairs.send")
    tablet.wait("pairs.confirm")
    tablet.page.locator(TABLET["pairs.wrong_number"]).fill("9")
    tablet.check("confirm, a wrong pair number typed")
    tablet.tap("pairs.disagree")
    tablet.wait("pairs.dispute")
    tablet.check("dispute")
    tablet.offline_banner()
    tablet.context.close()
    # The end of a round: another event whose first round is played.
    done = make_event(club)
    token = {a.table: a.token for a in table_links_ensure(event=done)}[1]
    event_simulate(event=done, rounds=1, seed=3, batch=True)
    tablet = Tablet(browser, f"{base}/t/{token}/", "pairs", findings)
    tablet.wait("pairs.recap")
    tablet.check("end of round")
    tablet.context.close()
    # A link that is no more.
    tablet = Tablet(browser, f"{base}/t/not-a-table-link-0000000000/", "pairs", findings)
    tablet.check("a link that is no more")
    tablet.context.close()


def _drive_tablet(browser: Any, base: str, club: Club, findings: list[Finding]) -> None:
    drive = make_drive(club, players=8, name="Axe drive")
    token = DriveTableAccess.objects.get(drive=drive, table=1).token
    tablet = Tablet(browser, f"{base}/d/{token}/", "drive", findings)
    tablet.wait("drive.entry")
    tablet.check("entry")
    tablet.tap("drive.pick")
    tablet.tap("drive.send")
    tablet.wait("drive.confirm")
    tablet.check("confirm")
    tablet.tap("drive.wrong")
    tablet.wait("drive.entry")
    tablet.check("entry again, the result said wrong")
    tablet.tap("drive.pick")
    tablet.tap("drive.send")
    tablet.wait("drive.confirm")
    tablet.tap("drive.agree")
    tablet.wait("drive.done")
    tablet.check("end of the hand")
    tablet.offline_banner()
    tablet.context.close()


def _team_tablet(browser: Any, base: str, club: Club, findings: list[Finding]) -> None:
    tournament = make_tournament(club, teams=4, name="Axe teams")
    tokens = dict(
        TournamentTableAccess.objects.filter(tournament=tournament).values_list("table", "token")
    )
    tablet = Tablet(browser, f"{base}/tt/{tokens[1]}/", "team", findings)
    tablet.wait("team.entry")
    tablet.check("entry")
    tablet.tap("team.side")
    tablet.page.locator(TABLET["team.home_points"]).fill("7")
    tablet.page.locator(TABLET["team.away_points"]).fill("3")
    tablet.tap("team.send")
    tablet.wait("team.confirm")
    tablet.check("confirm")
    tablet.tap("team.dispute")
    tablet.wait("team.disputed")
    tablet.check("dispute")
    tablet.offline_banner()
    tablet.context.close()
    # The end of the round at table 2: its game entered by the director.
    game_enter(tournament=tournament, table=2, score={"home_points": 7, "away_points": 2})
    tablet = Tablet(browser, f"{base}/tt/{tokens[2]}/", "team", findings)
    tablet.wait("team.confirmed")
    tablet.check("game confirmed, end of round")
    tablet.context.close()


TABLETS = {"pairs": _pairs_tablet, "drive": _drive_tablet, "team": _team_tablet}


@pytest.mark.parametrize("kind", sorted(TABLETS))
def test_tablet_screens(browser: Any, live_server: Any, kind: str) -> None:
    club = club_get_or_create(name="Axe Whist Club")
    findings: list[Finding] = []
    TABLETS[kind](browser, live_server.url, club, findings)
    assert not findings, report(findings)


# ---- the focus ring ----------------------------------------------------------------------------

#: The focused control's ring (its outline, and a box-shadow drawn as a second ring) and the
#: best contrast (WCAG's ratio) of any of its colours against the background behind the
#: control, the first opaque one among its ancestors (the ring sits outside the control).
RING = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return null; }
  const rgb = c => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || '');
    if (!m) { return null; }
    const p = m[1].split(',').map(parseFloat);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const cs = getComputedStyle(el);
  const rings = [];
  if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) {
    rings.push(rgb(cs.outlineColor));
  }
  (cs.boxShadow.match(/rgba?\\([^)]+\\)/g) || []).forEach(c => rings.push(rgb(c)));
  let bg = null;
  for (let node = el.parentElement; node && !bg; node = node.parentElement) {
    const b = rgb(getComputedStyle(node).backgroundColor);
    if (b && b.a > 0.5) { bg = b; }
  }
  bg = bg || {r: 255, g: 255, b: 255, a: 1};
  const linear = v => (v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  const lum = c => 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
  const ratio = (a, b) => {
    const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const best = rings.filter(c => c && c.a > 0.5).reduce((m, c) => Math.max(m, ratio(c, bg)), 0);
  const words = (el.textContent || el.value || '').trim().slice(0, 30);
  return {control: el.tagName + (el.id ? '#' + el.id : '') + ' ' + words, best: best};
}"""


def _rings(page: Any, where: str, stops: int = 14) -> list[str]:
    """Tab through the first `stops` controls of the page; each focused one whose ring has no
    colour at 3:1 or more against what lies behind it (WCAG 2.4.13's contrast)."""
    faint = []
    page.locator("body").focus()
    for _ in range(stops):
        page.keyboard.press("Tab")
        ring = page.evaluate(RING)
        if ring is not None and ring["best"] < 3:
            faint.append(f"{where}: {ring['control']!r}: ring contrast {ring['best']:.2f}:1")
    return faint


def test_the_focus_ring_stands_out_on_every_background(browser: Any, live_server: Any) -> None:
    """Our own focus ring, seen by keyboard (Tab), on the light pages, on the green bars, on a
    tablet's white cards and on East-West's dark screen: at least 3:1 against each."""
    club = club_get_or_create(name="Ring Whist Club")
    event = make_event(club)
    token = {a.table: a.token for a in table_links_ensure(event=event)}[1]
    director_account()
    base = live_server.url
    faint: list[str] = []
    page = _open_as(browser, base, "anonymous")
    try:
        for path in ("/", "/accounts/login/"):
            page.goto(base + path)
            faint += _rings(page, path)
        director = _open_as(browser, base, "director")
        for path in (f"/events/{event.pk}/", f"/events/{event.pk}/room/"):
            director.goto(base + path)
            faint += _rings(director, path)
        _close(director)
        tablet = Tablet(browser, f"{base}/t/{token}/", "pairs", [])
        tablet.wait("pairs.ready")
        faint += _rings(tablet.page, "pairs tablet: board list", stops=6)
        tablet.tap("pairs.enter")
        tablet.wait("pairs.entry")
        tablet.tap("pairs.pick")
        tablet.wait("pairs.preview")
        tablet.tap("pairs.send")
        tablet.wait("pairs.confirm")
        faint += _rings(tablet.page, "pairs tablet: East-West's check", stops=6)
        tablet.context.close()
    finally:
        _close(page)
    assert not faint, "\n".join(faint)
