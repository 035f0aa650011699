"""A Bid Whist team tournament of six teams, three rounds of king of the hill, played in
Chromium through the tablets: the director sets it up and ticks the teams in at the door,
makes the draw, the teams enter their games at their tables' tablets and the other teams
confirm; in round 1 a team says a score is wrong (the director settles it), in round 2 a late
team forfeits and two teams enter the same score on their own (it counts at once), then the
top four play a playoff. The standings on the page equal a recomputation from the stored
games; every page fits a 390 px phone."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine.teams import Bracket, Team, TeamTournament, TournamentSettings
from tests.web.conftest import log_in
from tournaments.kernel.models import Club
from tournaments.teams.models import Tournament, TournamentGame, TournamentTableAccess
from tournaments.teams.selectors.teams import counted_results, round_of
from tournaments.teams.services import teams as services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")
WAIT_MS = 12_000
TEAMS = """Aces; Detroit; Ann Ames; Al Ames
Kings; Detroit; Ken King; Kay King
Queens; Chicago; Quinn Q; Quincy Q
Jacks; Chicago; Jack J; Jill J
Jokers; Atlanta; Joe K; Jo K
Books; Atlanta; Bo B; Bea B"""


def _tablet_enter(tablet: Any, side: str, home: int, away: int) -> None:
    tablet.locator(f'button.pick[data-field="side"][data-value="{side}"]').click()
    tablet.locator("#home_points").fill(str(home))
    tablet.locator("#away_points").fill(str(away))
    tablet.locator("#send").click()


def _tablet_hands(tablet: Any, hands: list[tuple[str, str, str, str, str]]) -> None:
    """Hand by hand: declarer, bid, kind, trumps, books; the sheet grows after each, and when
    the game is over it is sent."""
    tablet.locator('button.pick[data-field="side"][data-value="home"]').click()
    tablet.locator('button.pick[data-field="mode"][data-value="hands"]').click()
    for number, (declarer, bid, kind, trumps, books) in enumerate(hands, start=1):
        for field, value in (("declarer", declarer), ("bid", bid), ("kind", kind),
                             ("trumps", trumps), ("books", books)):  # fmt: skip
            tablet.locator(f'#pick-{field} button[data-value="{value}"]').click()
        tablet.locator("#add-hand").click()
        tablet.wait_for_function(
            "n => document.querySelectorAll('#sheet tr').length === n + 1", arg=number
        )
        if number == 1:
            _no_sideways_scroll(tablet)
            shot = SHOTS / "screenshot-teams-tablet-hands-390.png"
            tablet.screenshot(path=str(shot), full_page=True)
    assert "The game is over" in tablet.locator("#screen").inner_text()
    tablet.locator("#send-hands").click()


def _wait_round(tablet: Any, number: int) -> None:
    tablet.wait_for_function(
        "n => document.getElementById('round-label').textContent"
        ".indexOf('round ' + n + ' of') >= 0",
        arg=number,
        timeout=WAIT_MS,
    )


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def _four_teams_playing(club: Club, name: str) -> Tournament:
    """A two-round Swiss of four teams, every team in and round 1 drawn: two tables."""
    tournament = services.tournament_create(
        club=club, name=name, settings={"rotation": "swiss", "rounds": 2},
        teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")],
    )  # fmt: skip
    for number in (1, 2, 3, 4):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=1)
    return tournament


def test_a_team_tournament_through_the_tablets(live_server: Any, browser: Any, club: Club) -> None:
    user = get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    club.directors.add(user)
    director = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    director.set_default_timeout(WAIT_MS)
    log_in(director, live_server.url)

    # Set-up: king of the hill, three rounds, the top four to a playoff, no grace for lateness.
    director.goto(live_server.url + "/tournaments/new/")
    form = director.locator("#tournament-setup")
    form.get_by_label("Name", exact=True).fill("Spring teams")
    form.locator("select[name=rotation]").select_option("ladder")
    form.locator("input[name=rounds]").fill("3")
    form.locator("input[name=grace_minutes]").fill("0")
    form.locator("select[name=playoff]").select_option("4")
    form.locator("textarea[name=teams]").fill(TEAMS)
    form.get_by_role("button", name="Create the tournament").click()
    director.wait_for_selector("#teams")
    tournament = Tournament.objects.get()

    # The door: a draw with a team missing is refused and says who; then all are ticked in.
    for number in range(1, 6):
        director.locator(f"#arrive-{number} input[name=present]").check()
        director.locator(f"#arrive-{number}").get_by_role("button", name="Save").click()
        director.wait_for_selector(f"#team-{number}.present")
    director.get_by_label("Draw round 1 with these 6 teams").check()
    director.get_by_role("button", name="Make the draw").click()
    assert "Not here yet: 6 Books" in director.locator(".messages").inner_text()
    assert not tournament.rounds.exists()
    director.locator("#arrive-6 input[name=present]").check()
    director.locator("#arrive-6").get_by_role("button", name="Save").click()
    director.get_by_label("Draw round 1 with these 6 teams").check()
    director.get_by_role("button", name="Make the draw").click()
    director.wait_for_selector("#round")
    director.screenshot(path=str(SHOTS / "screenshot-teams-director-1280.png"), full_page=True)

    tablets: dict[int, Any] = {}
    for table in (1, 2, 3):
        token = TournamentTableAccess.objects.get(tournament=tournament, table=table).token
        page = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True
        ).new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{live_server.url}/tt/{token}/")
        _wait_round(page, 1)
        tablets[table] = page
    _no_sideways_scroll(tablets[1])
    tablets[1].screenshot(path=str(SHOTS / "screenshot-teams-tablet-390.png"), full_page=True)

    # Round 1: tables 1 and 2 enter and confirm; at table 3 the other team says it is wrong.
    for table, (home, away) in {1: (7, 3), 2: (2, 7)}.items():
        _tablet_enter(tablets[table], "home", home, away)
        tablets[table].locator("#confirm").click()
        tablets[table].wait_for_selector("#confirmed")
    _tablet_enter(tablets[3], "home", 7, 5)
    tablets[3].locator("#dispute-note").fill("we made 6")
    tablets[3].locator("#dispute").click()
    tablets[3].get_by_role("heading", name="The director is called").wait_for()
    director.reload()
    assert "Disputed" in director.locator("#table-3").inner_text()
    director.locator("#enter-3 input[name=home_points]").fill("7")
    director.locator("#enter-3 input[name=away_points]").fill("6")
    director.locator("#enter-3").get_by_role("button", name="Save").click()
    director.wait_for_selector("#table-3.state-done")
    # Every table has finished round 1: a phone shows the standings (table 1's, on its poll).
    tablets[1].wait_for_selector("#standings", timeout=WAIT_MS)
    assert "Standings after round 1" in tablets[1].locator("#standings").inner_text()
    _no_sideways_scroll(tablets[1])

    # Round 2, drawn from round 1's results: the tablets show their new teams by themselves,
    # and where the teams that sat there in round 1 play now.
    director.get_by_role("button", name="Draw round 2").click()
    for page in tablets.values():
        _wait_round(page, 2)
    second = round_of(tournament, 2)
    assert second is not None
    first = round_of(tournament, 1)
    assert first is not None
    names = dict(tournament.teams.values_list("number", "name"))
    team = first.tables[0].home
    now = next(p for p in second.tables if team in p.teams)
    other = now.away if now.home == team else now.home
    moves = tablets[1].locator("#moves").inner_text()
    assert f"{names[team]}: table {now.table} v {names[other]}" in moves
    _no_sideways_scroll(tablets[1])
    # A late team forfeits at table 3; at table 2 both teams enter the same score on their own.
    late = second.tables[2].away
    director.locator("#table-3 select[name=late]").select_option(str(late))
    director.locator("#table-3").get_by_role("button", name="Forfeit (0 min grace)").click()
    director.wait_for_selector("#table-3.state-done")
    _tablet_enter(tablets[1], "home", 7, 1)
    tablets[1].locator("#confirm").click()
    # The away team's own phone, on a Wi-Fi that drops: its entry waits on the phone, the home
    # team enters at the tablet meanwhile, and when the phone is back the same figures count.
    away_phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    away_phone.set_default_timeout(WAIT_MS)
    away_phone.goto(tablets[2].url)
    _wait_round(away_phone, 2)
    away_phone.context.set_offline(True)
    _tablet_enter(away_phone, "away", 7, 4)
    away_phone.locator("#banner.offline").wait_for()
    _tablet_enter(tablets[2], "home", 7, 4)
    tablets[2].locator("#confirm").wait_for()
    away_phone.context.set_offline(False)
    away_phone.wait_for_selector("#confirmed")
    tablets[2].wait_for_selector("#confirmed")
    assert TournamentGame.objects.get(tournament=tournament, round=2, table=2).status == "confirmed"
    game = TournamentGame.objects.get(tournament=tournament, round=2, table=3)
    assert game.kind == "forfeit" and game.result["winner"] != late  # type: ignore[index]

    # Round 3 through the tablets.
    director.reload()
    director.get_by_role("button", name="Draw round 3").click()
    for table, page in tablets.items():
        _wait_round(page, 3)
        if table == 1:
            _tablet_hands(page, [("N", "4", "uptown", "S", "10"), ("S", "3", "uptown", "H", "9")])
        else:
            _tablet_enter(page, "away", 3, 7)
        page.locator("#confirm").click()
        page.wait_for_selector("#confirmed")
    game = TournamentGame.objects.get(tournament=tournament, round=3, table=1)
    assert len(game.hands) == 2 and game.result["points"] == [7, 0]  # type: ignore[index]

    # The standings on the page equal a recomputation from the stored games.
    director.reload()
    engine = TeamTournament(
        TournamentSettings.from_dict(tournament.settings),
        [Team(t.number, t.name, t.city) for t in tournament.teams.all()],
    )
    again = engine.standings(counted_results(tournament))
    rows = director.locator("#standings-table tbody tr").all()
    assert len(rows) == 6
    for row, expected in zip(rows, again, strict=True):
        cells = row.locator("td").all_inner_texts()
        assert expected.team.name in cells[1]
        assert cells[3].startswith(str(expected.won)) and cells[5] == str(expected.points_for)

    # The playoff: the top four, seeded 1 v 4 and 2 v 3. Semi-final 1 is played at table 1's
    # tablet (entered and confirmed there); the director enters the others.
    director.get_by_role("button", name="Seed the playoff").click()
    director.wait_for_selector("#playoff")
    tablets[1].get_by_text("Semi-finals, match 1").wait_for()
    _no_sideways_scroll(tablets[1])
    tablets[1].screenshot(
        path=str(SHOTS / "screenshot-teams-tablet-playoff-390.png"), full_page=True
    )
    _tablet_enter(tablets[1], "home", 7, 2)
    tablets[1].locator("#confirm").click()
    tablets[1].get_by_text("no match at this table now").wait_for()
    director.reload()
    director.wait_for_selector("#match-1.decided")
    for match in (2, 3):
        form = director.locator(f"#match-{match} form")
        form.locator("input[name=home_points]").fill("7")
        form.locator("input[name=away_points]").fill("2")
        form.get_by_role("button", name="Save").click()
        director.wait_for_selector(f"#match-{match}.decided")
    tournament.refresh_from_db()
    bracket = Bracket.from_dict(tournament.bracket)
    assert bracket.champion == again[0].team.number
    assert f"{again[0].team.name} won" in director.locator("#match-3").inner_text()
    director.get_by_role("button", name="Finish the tournament").click()
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    for page in tablets.values():
        page.get_by_text("The tournament is over").wait_for()

    director.set_viewport_size({"width": 390, "height": 844})
    director.reload()
    _no_sideways_scroll(director)
    director.screenshot(path=str(SHOTS / "screenshot-teams-director-390.png"), full_page=True)
    director.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    _no_sideways_scroll(director)
    assert "Ranked by games won" in director.locator("#tie-break").inner_text()
    assert again[0].team.name in director.locator("#champion").inner_text()
    director.screenshot(path=str(SHOTS / "screenshot-teams-public-390.png"), full_page=True)
    for context in browser.contexts:
        context.close()


def test_a_team_tablet_reloaded_offline_keeps_its_entry_and_sends_it_later(
    live_server: Any, browser: Any, club: Club
) -> None:
    tournament = _four_teams_playing(club, "Offline teams")
    token = TournamentTableAccess.objects.get(tournament=tournament, table=1).token
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{live_server.url}/tt/{token}/")
    page.wait_for_selector("body[data-offline-ready='1']")
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    _tablet_enter(page, "home", 7, 2)
    page.locator("#banner.offline").wait_for()
    assert not TournamentGame.objects.filter(tournament=tournament, table=1).exists()
    # Still offline: the page comes back from the service worker's copy, the entry waiting in
    # it. (Chromium's offline emulation does not hold back the requests a page makes through
    # its service worker, so the entry may leave during the reload: what counts is that it is
    # never lost and stored once.)
    page.reload()
    page.wait_for_selector("#screen .pairs")
    page.locator("#banner.offline").wait_for()
    assert "Offline" in page.locator("#banner").inner_text()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => document.getElementById('banner').hidden === true")
    game = TournamentGame.objects.get(tournament=tournament, table=1)
    assert game.status == "entered" and game.result["points"] == [7, 2]  # type: ignore[index]
    page.context.close()


def test_a_team_changes_what_it_sent_naming_the_other_team(
    live_server: Any, browser: Any, club: Club
) -> None:
    """One team enters the game but taps the other team's name as the team entering; "change
    what we sent", its own name tapped, Send: the entry is replaced, now its own, and waits for
    the other team to confirm it (before, nothing happened and nothing was said). A refused
    score sent while changing shows its refusal, naming the teams."""
    tournament = _four_teams_playing(club, "Change teams")
    first = round_of(tournament, 1)
    assert first is not None
    names = dict(tournament.teams.values_list("number", "name"))
    home, away = names[first.tables[0].home], names[first.tables[0].away]
    token = TournamentTableAccess.objects.get(tournament=tournament, table=1).token
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{live_server.url}/tt/{token}/")
    _wait_round(page, 1)

    _tablet_enter(page, "home", 7, 3)
    page.locator("#confirm").wait_for()
    assert f"{home} entered" in page.locator("#screen").inner_text()
    page.locator("#change").click()
    _tablet_enter(page, "away", 7, 4)
    page.get_by_text(f"{away} entered").wait_for()
    game = TournamentGame.objects.get(tournament=tournament, round=1, table=1)
    assert (game.status, game.entered_by, game.result["points"]) == ("entered", "away", [7, 4])  # type: ignore[index]
    assert f"{home}: this is right" in page.locator("#confirm").inner_text()

    # A score the rules cannot give, sent while changing: the refusal is on the screen and
    # names the teams; the entry stays as it was.
    page.locator("#change").click()
    _tablet_enter(page, "home", 7, 9)
    problem = page.locator("#problem")
    problem.wait_for()
    assert f"{home} reached 7 and {away} reached 7" in problem.inner_text()
    game.refresh_from_db()
    assert (game.entered_by, game.result["points"]) == ("away", [7, 4])  # type: ignore[index]
    page.reload()
    page.locator("#confirm").click()
    page.wait_for_selector("#confirmed")
    game.refresh_from_db()
    assert game.status == "confirmed" and game.entered_by == "away"
    page.context.close()


def test_a_stale_pushed_state_never_takes_back_a_tablets_own_entry(
    live_server: Any, browser: Any, club: Club
) -> None:
    """A tablet's own game moves no version, so a stream that opens while the entry is on its
    way sends the state it read before the entry was stored: the same version, no game. The
    tablet shows its entry's answer (the other team's check) and keeps it when that stale
    state arrives (it once drew the entry screen again, as the drive tablet did); a state of a
    newer version (the director's change) is still taken. The stream here is the test's own:
    refused until the entry has its answer, then the stale state, then the newer one."""
    tournament = _four_teams_playing(club, "Stale teams")
    token = TournamentTableAccess.objects.get(tournament=tournament, table=1).token
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(WAIT_MS)
    pushed: list[str] = []  # each state the test's stream is to send, taken one at a time
    sent: list[str] = []

    def stream(route: Any) -> None:
        if not pushed:
            route.abort()
            return
        body = pushed.pop(0)
        sent.append(body)
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
            body=f"retry: 200\nevent: state\ndata: {body}\n\n",
        )

    page.route(f"{live_server.url}/tt/{token}/stream/", stream)
    # and no poll either: only the entry's answer and the test's stream draw the screen
    page.route(
        f"{live_server.url}/api/tt/{token}/",
        lambda route: route.abort() if route.request.method == "GET" else route.continue_(),
    )
    page.goto(f"{live_server.url}/tt/{token}/")
    _wait_round(page, 1)
    stale = page.evaluate(
        "() => JSON.parse(document.getElementById('team-table-state').textContent)"
    )
    assert stale["game"] is None

    _tablet_enter(page, "home", 7, 3)
    page.locator("#confirm").wait_for()
    game = TournamentGame.objects.get(tournament=tournament, round=1, table=1)
    assert game.status == "entered"

    pushed.append(json.dumps(stale))
    deadline = time.monotonic() + 10
    while not sent and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert sent, "the stale state was never asked for"
    page.wait_for_timeout(500)  # drawn by now, were it taken
    assert page.locator("#confirm").count() == 1, "the stale state took back the entry"
    assert page.locator("#send").count() == 0

    # A state of a newer version (as after the director takes the entry off) is taken.
    newer = dict(stale, version=stale["version"] + 1)
    pushed.append(json.dumps(newer))
    page.locator("#send").wait_for()
    assert page.locator("#confirm").count() == 0
    page.context.close()
