"""The drive's room display at a projector's 1280x720, for a small drive up to 60 players, some
with long names: the whole page fits the screen without scrolling, and every name shows whole
(wrapped where long, never cut), each beside the seat the stored seating gives that player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in
from tournaments.drives.selectors.drives import player_names, seatings_of
from tournaments.drives.services import drives as services
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")
LONG = [
    "Margaret Fitzwilliam-Cholmondeley",
    "Bartholomew Featherstonehaugh",
    "Anne-Marie Leclerc-Delacroix",
    "Siobhán Ní Mhaoldomhnaigh",
]


@pytest.mark.parametrize("count", [15, 32, 60])  # the most of each layout (_drive_room.html)
def test_every_player_fits_the_room_display(live_server: Any, browser: Any, count: int) -> None:
    user = get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    club = Club.objects.create(name="Village Club", slug="village")
    club.directors.add(user)
    names = [*LONG, *(f"Player {n:02d}" for n in range(len(LONG) + 1, count + 1))]
    drive = services.drive_create(
        club=club, name="Charity drive", settings={"hands": 4}, players=names, user=user
    )
    services.drive_start(drive=drive, seed=count, user=user)
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/drives/{drive.pk}/manage/room/")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"screenshot-drive-room-{count}-1280x720.png"))
    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= 1280 and size[1] <= 720, size
    # Every name in full: its text is the player's whole name, its box lies inside the screen
    # and nothing of it is clipped (its content is no wider than its box).
    boxes = page.eval_on_selector_all(
        "#room-places li",
        """items => items.map(li => {
            const name = li.querySelector('.name'), r = name.getBoundingClientRect();
            return [name.textContent, li.querySelector('.where').textContent,
                    r.left, r.top, r.right, r.bottom, name.scrollWidth <= name.clientWidth + 1];
        })""",
    )
    assert len(boxes) == count
    shown = {box[0]: box for box in boxes}
    assert set(shown) == set(names)
    for text, _where, left, top, right, bottom, whole in boxes:
        assert whole and left >= 0 and top >= 0 and right <= 1280 and bottom <= 720, text
    seating = seatings_of(drive)[1]
    numbers = {name: number for number, name in player_names(drive).items()}
    for name, box in shown.items():
        place = seating.place(numbers[name])
        seat = "sits out" if place is None else f"table {place.table} {place.seat}"
        assert box[1].startswith(seat), (name, box[1])
