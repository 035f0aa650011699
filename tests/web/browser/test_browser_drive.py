"""A whist drive on paper in Chromium: the director sets up 12 players, starts, enters hand 1's
three results, moves on and sees the new seating (1280 px); the public totals at 390 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in
from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import player_names, seatings_of
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")


def test_a_director_runs_hand_one_of_a_drive(live_server: Any, page: Any, browser: Any) -> None:
    user = get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    Club.objects.create(name="Village Club", slug="village").directors.add(user)
    log_in(page, live_server.url)
    page.get_by_role("link", name="New whist drive").click()

    page.get_by_label("Name", exact=True).fill("Village drive")
    page.locator("input[name=hands]").fill("6")
    page.locator("select[name=scoring]").select_option("tricks")
    page.locator("textarea[name=players]").fill("\n".join(f"Villager {n}" for n in range(1, 13)))
    page.get_by_role("button", name="Create the drive").click()
    assert "12 players: 3 tables" in page.locator("main").inner_text()
    page.get_by_role("link", name="On to the start").click()
    page.get_by_label("Start now with these 12 players").check()
    page.get_by_role("button", name="Start the drive").click()
    assert "Hand 1 of 6" in page.locator("#hand h2").inner_text()

    for table, tricks in ((1, "9"), (2, "4"), (3, "7")):
        form = page.locator(f"#enter-{table}")
        form.locator("input[name=ns_tricks]").fill(tricks)
        form.get_by_role("button", name="Save").click()
        assert page.locator(f"#table-{table}.state-done").count() == 1
    assert page.locator("#hand-progress").inner_text() == "3 of 3 tables done"
    page.get_by_label("Every table's result is right").check()
    page.get_by_role("button", name="Next hand").click()
    assert "Hand 2 of 6" in page.locator("#hand h2").inner_text()

    drive = Drive.objects.get()
    names = player_names(drive)
    seating = seatings_of(drive)[2]
    for number, table in enumerate(seating.tables, start=1):
        shown = page.locator(f"#table-{number} ul.seats").inner_text()
        for player in table:
            assert names[player] in shown
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 1280
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "screenshot-drive-1280.png"), full_page=True)

    page.get_by_role("button", name="Let everyone follow the totals live").click()
    member = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    member.goto(f"{live_server.url}/drives/{drive.pk}/")
    assert "live" in member.locator("main p.muted").first.inner_text()
    rows = member.locator("#totals tbody tr")
    assert rows.count() == 12
    assert member.evaluate("() => document.documentElement.scrollWidth") <= 390
    member.screenshot(path=str(SHOTS / "screenshot-drive-public-390.png"), full_page=True)
    member.context.close()
