"""The club's season in Chromium, end to end through the director's pages (1280 px): the register
imported from a CSV (preview, then confirm), a season with two competitions (a drive total and
attendance over every format), a drive whose players are ticked in the register plus a visitor
typed, played hand by hand, finished and published; then the public season page (390 px, axe)
counts the drive: the members who played in both competitions, the visitor in neither.

The publish sends the job that takes the drive into the season's ledger. With Redis (the
production setting) a real worker runs it, so the test waits for the tables it computes; without
Redis the job runs eagerly, inside the publish (CELERY_TASK_ALWAYS_EAGER), as `make run` does."""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser.axe import at_every_size, report
from tests.web.conftest import director_account, log_in
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import Competition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")

REGISTER = """name,number,email
Ann Archer,101,ann@example.org
Bill Bennett,102,
Cath Cole,103,
Dev Dutta,104,
Eve Evans,105,
Fay Fisher,106,
Gus Grant,107,
Hal Hughes,108,
"""
#: The members who play (all but Hal Hughes).
PLAYING = [line.split(",")[0] for line in REGISTER.splitlines()[1:8]]
VISITOR = "Vera Visitor"


@pytest.fixture
def jobs(request: pytest.FixtureRequest) -> Any:
    """Where the publish's job runs: a real worker when Redis is there (tasks go to its broker),
    else nothing to start (the settings make every task eager without REDIS_URL)."""
    if os.environ.get("REDIS_URL"):
        return request.getfixturevalue("celery_worker")
    return None


def wait_for_tables(competitions: list[Competition], timeout: float = 60.0) -> None:
    """Until the job has computed each competition's table with one evening counted (at once
    when the job ran eagerly); the failure says which table never came."""
    deadline = time.monotonic() + timeout
    while True:
        fresh = [Competition.objects.get(pk=c.pk) for c in competitions]
        waiting = [c.name for c in fresh if not (c.table and c.table.get("evenings"))]
        if not waiting:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the season job never computed: {', '.join(waiting)}")
        time.sleep(0.1)


def add_competition(page: Any, name: str, kind: str, formats: dict[str, bool]) -> None:
    page.get_by_role("link", name="Add a competition").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label(kind).check()
    for label, on in formats.items():
        page.get_by_label(label, exact=True).set_checked(on)
    page.get_by_role("button", name="Add the competition").click()
    assert page.get_by_role("heading", name=name).count() == 1


def test_a_drive_with_players_from_the_register_counts_in_the_season(
    live_server: Any, page: Any, browser: Any, jobs: Any
) -> None:
    club = Club.objects.create(name="Village Club", slug="village")
    director_account()
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url)

    # The register, from a CSV: the preview first, nothing stored until confirmed.
    page.goto(f"{live_server.url}/clubs/village/members/")
    page.get_by_role("link", name="Import CSV").click()
    page.get_by_label("Or paste the CSV here").fill(REGISTER)
    page.get_by_role("button", name="Preview").click()
    assert "8 new" in page.locator("#import-preview").inner_text()
    assert not Member.objects.exists()
    page.get_by_role("button", name="Confirm: add 8 members").click()
    assert Member.objects.filter(club=club).count() == 8

    # The season and its two competitions.
    page.goto(f"{live_server.url}/clubs/village/seasons/")
    page.get_by_role("link", name="New season").click()
    today = dt.date.today()
    page.get_by_label("Name", exact=True).fill("Winter season")
    page.get_by_label("First day").fill((today - dt.timedelta(days=30)).isoformat())
    page.get_by_label("Last day").fill((today + dt.timedelta(days=60)).isoformat())
    page.get_by_role("button", name="Set up the season").click()
    assert page.get_by_role("heading", name="Winter season").count() == 1
    every = {"Duplicate pairs": True, "Whist drives": True, "Bid Whist teams": True}
    add_competition(
        page,
        "Drive of the season",
        "Total points (matchpoints or drive points)",
        {"Duplicate pairs": False, "Whist drives": True, "Bid Whist teams": False},
    )
    add_competition(page, "Most evenings", "Attendance", every)
    competitions = list(Competition.objects.order_by("position", "pk"))
    assert [c.name for c in competitions] == ["Drive of the season", "Most evenings"]

    # The drive: seven members ticked in the register (found with the filter), one visitor typed.
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="New whist drive").click()
    page.get_by_label("Name", exact=True).fill("Village drive")
    page.locator("input[name=hands]").fill("2")
    page.locator("input[name=half_time]").fill("1")
    page.locator("select[name=scoring]").select_option("tricks")
    page.locator("textarea[name=players]").fill(VISITOR)
    picker = page.locator("#register-picker")
    assert picker.get_by_role("checkbox").count() == 8
    filter_box = page.get_by_label("Type to filter")
    for name in PLAYING:
        filter_box.fill(name.split()[1].lower())  # the surname, in small letters
        assert picker.locator("li:visible").count() == 1
        box = picker.get_by_role("checkbox", name=name)
        box.focus()
        page.keyboard.press("Space")  # the keyboard ticks it
        assert box.is_checked()
    filter_box.fill("nobody")
    assert picker.locator("li:visible").count() == 0
    assert "No member's name or number holds that" in picker.inner_text()
    filter_box.fill("")
    assert picker.locator("li:visible").count() == 8
    assert page.locator("#register-count").inner_text() == "7 members chosen"
    page.screenshot(path=str(SHOTS / "season-drive-new-1280.png"), full_page=True)
    page.get_by_role("button", name="Create the drive").click()
    assert "8 players: 2 tables" in page.locator("main").inner_text()

    drive = Drive.objects.get()
    linked = {p.name: p.member for p in DrivePlayer.objects.filter(drive=drive)}
    assert sorted(linked) == sorted([*PLAYING, VISITOR])
    assert linked[VISITOR] is None
    assert all(linked[name] is not None and linked[name].name == name for name in PLAYING)

    # Played through the director's pages, then finished and published.
    page.get_by_role("link", name="On to the start").click()
    page.get_by_label("Start now with these 8 players").check()
    page.get_by_role("button", name="Start the drive").click()
    for hand in (1, 2):
        assert f"Hand {hand} of 2" in page.locator("#hand h2").inner_text()
        for table, tricks in ((1, "8"), (2, "5")):
            form = page.locator(f"#enter-{table}")
            form.locator("input[name=ns_tricks]").fill(tricks)
            form.get_by_role("button", name="Save").click()
            assert page.locator(f"#table-{table}.state-done").count() == 1
        if hand == 1:
            page.get_by_label("Every table's result is right").check()
            page.get_by_role("button", name="Next hand").click()
    page.get_by_role("button", name="Finish the drive").click()
    page.get_by_role("button", name="Publish the totals and prizes").click()
    assert Drive.objects.get().status == "published"
    wait_for_tables(competitions)

    # The public season page, as anyone reads it.
    reader = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    reader.goto(f"{live_server.url}/clubs/village/season/")
    reader.get_by_role("link", name="Winter season").click()
    for competition in competitions:
        section = reader.locator(f"section[aria-labelledby=competition-{competition.pk}]")
        table = section.locator("table.season-table tbody").inner_text()
        for name in PLAYING:
            assert name in table, f"{name} missing from {competition.name}"
        assert VISITOR not in table and "Hal Hughes" not in table
        assert "1 evening counted" in section.inner_text()
    reader.screenshot(path=str(SHOTS / "season-public-1280.png"), full_page=True)
    findings = at_every_size(reader, "the public season page")
    reader.set_viewport_size({"width": 390, "height": 844})
    reader.screenshot(path=str(SHOTS / "season-public-390.png"), full_page=True)
    reader.context.close()
    assert not findings, report(findings)
