"""Club night on a laptop, end to end: `manage.py club` serves a venue network that is not the
loopback, and a phone on it plays a round from the code on the director's screen.

The venue is a network namespace this test makes (a veth pair, 10.213.7.1 on this side and
10.213.7.2 inside): the club laptop runs inside it, as a separate host would, and finds its
address by itself; the director's browser and the phone reach it across the pair. Nothing
leaves the machine. Making a namespace needs root and iproute2, as CI has.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.support.services import require_services
from tests.web.security.test_settings import READ, ROOT
from tournaments.management.commands.demo import DEMO_PASSWORD, DEMO_USERNAME
from tournaments.templatetags.clubwhist import qr_svg

pytestmark = pytest.mark.browser

LAPTOP_SIDE = "10.213.7.1"
VENUE_SIDE = "10.213.7.2"  # the club laptop's address on the "venue's Wi-Fi"
PORT = 8000


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


@dataclass
class Venue:
    namespace: str
    address: str


@pytest.fixture
def venue() -> Iterator[Venue]:
    """A network namespace joined to this one by a veth pair, removed afterwards."""
    suffix = f"{os.getpid() % 100000}"
    namespace, outside, inside = f"cwvenue{suffix}", f"cwh{suffix}", f"cwv{suffix}"
    reason = None
    if os.geteuid() != 0 or shutil.which("ip") is None:
        reason = "needs root and iproute2 (`ip`) to make a network namespace"
    else:
        try:
            _ip("netns", "add", namespace)
        except subprocess.CalledProcessError as exc:
            reason = f"could not make a network namespace: {exc.stderr.strip()}"
    if reason is not None:
        if require_services():
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)
    try:
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", inside, "netns", namespace)
        _ip("addr", "add", f"{LAPTOP_SIDE}/30", "dev", outside)
        _ip("link", "set", outside, "up")
        for args in (
            ("addr", "add", f"{VENUE_SIDE}/30", "dev", inside),
            ("link", "set", inside, "up"),
            ("link", "set", "lo", "up"),
        ):
            _ip("-n", namespace, *args)
        yield Venue(namespace, VENUE_SIDE)
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _ip("link", "del", outside)
        _ip("netns", "del", namespace)


def _direct() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _wait_until_served(url: str, server: subprocess.Popen[str], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the club laptop stopped: {log.read_text()}")
        with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError):
            if _direct().open(f"{url}/health", timeout=2).status == 200:
                return
        time.sleep(0.3)
    pytest.fail(f"the club laptop did not answer in 90 s: {log.read_text()}")


@pytest.fixture
def club_laptop(venue: Venue, tmp_path: Path) -> Iterator[tuple[str, dict[str, Any], Path]]:
    """`manage.py club` inside the venue with the demo club; yields its URL, the demo's
    events and the console log."""
    env = {k: v for k, v in os.environ.items() if k not in READ}
    env.update(CLUBWHIST_VAR_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], env=env, check=True, cwd=ROOT)
    made = subprocess.run(
        [*manage, "demo", "--json"], env=env, check=True, cwd=ROOT, capture_output=True, text=True
    )
    events = json.loads(made.stdout[made.stdout.index("{") :])["events"]
    log = tmp_path / "club.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            ["ip", "netns", "exec", venue.namespace, *manage, "club", "--port", str(PORT)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
    url = f"http://{venue.address}:{PORT}"
    try:
        _wait_until_served(url, server, log)
        yield url, {e["name"]: e for e in events}, log
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def test_a_phone_on_the_venue_network_plays_a_round_from_the_code(
    browser: Any, club_laptop: tuple[str, dict[str, Any], Path]
) -> None:
    url, events, log = club_laptop
    console = log.read_text()
    # The laptop found its venue address by itself and says where tablets go, with a code.
    assert f"Tablets and phones on the venue's Wi-Fi: {url}/" in console
    assert "▀" in console or "█" in console  # the QR code, drawn in the terminal
    assert "the demo login director / whist-demo still works" in console
    event_id = next(e["id"] for name, e in events.items() if "Tuesday" in name)

    # The director, at the laptop's venue address, logs in and opens the event.
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    director = desk.new_page()
    director.set_default_timeout(20_000)
    director.goto(f"{url}/accounts/login/")
    director.fill("#id_username", DEMO_USERNAME)
    director.fill("#id_password", DEMO_PASSWORD)
    director.get_by_role("button", name=re.compile("log in", re.I)).click()
    director.goto(f"{url}/events/{event_id}/")
    if director.get_by_role("button", name="Make the tablet links").count():
        director.get_by_role("button", name="Make the tablet links").click()
    assert director.locator("#links-warning").count() == 0  # the links reach the tablets
    first = director.locator("figure.tablet-link").first
    table_url = first.locator("figcaption a").get_attribute("href")
    assert table_url is not None and table_url.startswith(f"{url}/t/")
    # The code on the screen is that link's: the page the server sent carries exactly the QR
    # code of the URL, as the template filter draws it.
    html = director.request.get(f"{url}/events/{event_id}/").text()
    assert str(qr_svg(table_url)) in html
    # The printed table cards carry the same address under each code.
    cards = director.request.get(f"{url}/events/{event_id}/print/table-cards.pdf")
    assert cards.status == 200
    text = "".join(
        "".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(cards.body())).pages
    )
    assert table_url in text

    # A phone on the venue's Wi-Fi opens the code's URL and plays its round.
    phone_context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone = phone_context.new_page()
    phone.set_default_timeout(20_000)
    phone.goto(table_url)
    phone.wait_for_selector("#screen ul.boards, #screen.recap")
    token = table_url.rstrip("/").rsplit("/", 1)[1]
    state = phone.request.get(f"{url}/api/t/{token}/").json()
    current = state["current"]
    if phone.locator("#screen.recap").count():
        phone.get_by_role("button", name=f"Start round {current['round']}").click()
    ew = current["ew"]["number"]
    boards = [b["number"] for b in current["boards"]]
    assert boards
    for number, tricks in zip(boards, (7, 5, 9, 6), strict=False):
        phone.get_by_role("button", name=f"Enter board {number}").click()
        phone.locator(
            'button.pick[data-field="ns_tricks"]', has_text=re.compile(f"^{tricks}$")
        ).click()
        phone.wait_for_selector(".preview .scores")  # checked by the laptop, score shown
        phone.get_by_role("button", name="Send to East-West").click()
        phone.wait_for_selector("#screen.confirm")
        phone.locator("#pair-number").fill(str(ew))
        phone.get_by_role("button", name="Confirm", exact=True).click()
        phone.wait_for_selector("#screen ul.boards, #screen.recap")

    # Every result of the round is stored and confirmed, read back over the venue network.
    # The tablet moves on as soon as a confirmation is queued (its offline queue sends it), so
    # the last one may still be on its way: read until the round is in, for 10 s at most.
    expected = set(zip(boards, (7, 5, 9, 6), strict=False))
    deadline = time.monotonic() + 10
    while True:
        rows = director.request.get(f"{url}/api/events/{event_id}/results").json()
        played = {
            (r["board_number"], r["entry"]["ns_tricks"])
            for r in rows
            if r["round"] == current["round"] and r["table"] == 1 and r["status"] == "confirmed"
        }
        if played == expected or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert played == expected
    phone_context.close()
    desk.close()
