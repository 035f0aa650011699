"""The member register in Chromium, as a director uses it: a CSV file from the club's
spreadsheet imported (the preview, then Confirm), the register searched, one member's
public-name choice changed. Screenshots at 390 and 1280 px go to var/ (members-*.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import director_account, log_in
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")
CSV = (
    "\ufeffName;Number;Email;Active;Public_name\r\n"
    "Siân O'Neil;101;sian@example.org;yes;full\r\n"
    "Zoë Brontë;102;;yes;initials\r\n"
    "Arthur Ellis;103;arthur@example;yes;\r\n"
    "Joan Hartley;104;;no;hidden\r\n"
)


def test_a_director_imports_searches_and_edits(
    live_server: Any, browser: Any, tmp_path: Path
) -> None:
    club = club_get_or_create(name="Village Hall Whist")
    director_account()
    source = tmp_path / "members.csv"
    source.write_bytes(CSV.encode("utf-8"))
    SHOTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        Member.objects.all().delete()
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        log_in(page, live_server.url)
        page.wait_for_load_state("load")
        page.get_by_role("link", name="members").click()
        page.get_by_role("link", name="Import CSV").click()
        page.get_by_label("CSV file").set_input_files(str(source))
        page.get_by_role("button", name="Preview").click()
        preview = page.locator("#import-preview")
        preview.get_by_text("Nothing is stored until you confirm.").wait_for()
        assert "3 new, 0 already in the register, 1 refused" in preview.inner_text()
        assert "not an email address" in page.locator("#preview").inner_text()
        assert not Member.objects.exists()
        page.screenshot(path=str(SHOTS / f"members-preview-{width}.png"), full_page=True)
        page.get_by_role("button", name="Confirm: add 3 members").click()
        page.get_by_text("3 members added.").wait_for()
        assert sorted(Member.objects.values_list("name", flat=True)) == [
            "Joan Hartley", "Siân O'Neil", "Zoë Brontë",
        ]  # fmt: skip
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.get_by_label("Name or number").fill("brontë")
        page.get_by_role("button", name="Search").click()
        # The click returns once the search's page has begun to arrive: wait for all of it.
        page.wait_for_url("**q=*")
        rows = page.locator("#members tbody tr")
        assert rows.count() == 1 and "Z. B." in rows.inner_text()
        page.screenshot(path=str(SHOTS / f"members-list-{width}.png"), full_page=True)
        page.get_by_role("link", name="Zoë Brontë", exact=True).click()
        page.get_by_label("Hidden").check()
        page.screenshot(path=str(SHOTS / f"members-edit-{width}.png"), full_page=True)
        page.get_by_role("button", name="Save").click()
        page.get_by_text("Zoë Brontë saved.").wait_for()
        assert Member.objects.get(name="Zoë Brontë").public_name == "hidden"
        assert "a member" in page.locator("#members").inner_text()
        context.close()
    assert club.members.count() == 3
