"""The club laptop: settings that serve the venue's Wi-Fi, links that tablets can open, and a
warning wherever a link would name the laptop itself. The whole path (a real server on a
non-loopback address, a phone that scans the code) is in test_browser_club_laptop.py."""

from __future__ import annotations

import io
import ipaddress
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from pypdf import PdfReader

from clubwhist.lan import _rank, is_loopback_host, lan_addresses, loopback_warning, url_for
from tests.web.security.test_settings import run
from tournaments.events.models import Event
from tournaments.events.services.tablets import table_links_ensure

LAN = "http://192.168.1.50:8000"


def club_settings(tmp_path: Path, code: str, **env: str) -> list[str]:
    out = run(tmp_path, ["-c", f"import clubwhist.settings as s; {code}"], DJANGO_ENV="club", **env)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_club_settings_serve_the_lan_address_without_debug_pages(tmp_path: Path) -> None:
    values = club_settings(
        tmp_path,
        "print(s.DEBUG, s.BASE_URL, '192.168.1.50' in s.ALLOWED_HOSTS, "
        "'localhost' in s.ALLOWED_HOSTS, s.CELERY_EAGER, s.WHITENOISE_USE_FINDERS, "
        "s.STORAGES['staticfiles']['BACKEND'].rsplit('.', 1)[1], s.SECURE_SSL_REDIRECT)",
        CLUBWHIST_ADDRESS="192.168.1.50",
    )
    assert values == [
        "False",  # no debug pages on a network anyone at the venue can join
        LAN,  # every table link and QR code
        "True",  # a tablet's Host header is accepted
        "True",  # and the director's own browser on the laptop
        "True",  # jobs in-process: nothing else has to run
        "False",
        "CompressedManifestStaticFilesStorage",  # hashed, compressed static files
        "False",  # plain HTTP on the venue's Wi-Fi
    ]
    assert (tmp_path / "secret_key").exists()  # made once, kept in var/ like development's


def test_club_settings_take_the_port_and_refuse_a_bad_one(tmp_path: Path) -> None:
    assert club_settings(
        tmp_path, "print(s.BASE_URL)", CLUBWHIST_ADDRESS="10.0.0.7", CLUBWHIST_PORT="8080"
    ) == ["http://10.0.0.7:8080"]
    out = run(
        tmp_path,
        ["-c", "import clubwhist.settings"],
        DJANGO_ENV="club",
        CLUBWHIST_ADDRESS="10.0.0.7",
        CLUBWHIST_PORT="eighty",
    )
    assert out.returncode != 0
    assert "CLUBWHIST_PORT must be a whole number" in out.stderr


def test_the_club_laptop_passes_djangos_checks_with_its_static_files(tmp_path: Path) -> None:
    env = {"DJANGO_ENV": "club", "CLUBWHIST_ADDRESS": "192.168.1.50"}
    collected = run(tmp_path, ["manage.py", "collectstatic", "--no-input", "-v", "0"], **env)
    assert collected.returncode == 0, collected.stderr
    manifest = tmp_path / "static-club" / "staticfiles.json"
    assert manifest.exists()
    assert re.search(r'"js/table.js": "js/table\.[0-9a-f]{12}\.js"', manifest.read_text())
    checked = run(tmp_path, ["manage.py", "check"], **env)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.1.1", True),  # Debian's name for the machine itself
        ("localhost", True),
        ("LOCALHOST", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("clubwhist.localhost", True),
        ("", True),
        (None, True),
        ("192.168.1.50", False),
        ("10.0.0.7", False),
        ("club-laptop.local", False),
        ("whist.example.org", False),
    ],
)
def test_loopback_hosts_are_told_apart(host: str | None, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_the_warning_names_the_address_and_the_remedy() -> None:
    warning = loopback_warning("http://127.0.0.1:8000")
    assert warning is not None
    assert "127.0.0.1" in warning
    assert "make club" in warning
    assert loopback_warning(LAN) is None
    assert loopback_warning("https://whist.example.org") is None


def test_venue_networks_rank_before_virtual_and_odd_ones() -> None:
    def rank(interface: str, address: str) -> int | None:
        return _rank(interface, ipaddress.IPv4Address(address))

    wifi, office, docker = rank("wlan0", "192.168.1.50"), rank("eth0", "10.1.2.3"), None
    docker = rank("docker0", "172.17.0.1")
    assert wifi is not None and office is not None and docker is not None
    assert wifi < office < docker
    assert rank("lo", "127.0.0.1") is None
    assert rank("wlan0", "169.254.3.4") is None  # no DHCP answer: unusable
    assert url_for("192.168.1.50", 8000) == LAN
    assert url_for("fd00::5", 8000) == "http://[fd00::5]:8000"


def test_this_machines_addresses_are_never_loopback() -> None:
    for found in lan_addresses():
        assert not is_loopback_host(found.address)
        assert not ipaddress.IPv4Address(found.address).is_link_local


def test_the_command_refuses_a_loopback_address_and_a_port_in_use() -> None:
    with pytest.raises(CommandError, match="this computer's own address: tablets cannot reach"):
        call_command("club", "--address", "127.0.0.1", "--check")
    out = io.StringIO()
    call_command("club", "--address", "192.168.1.50", "--port", "8123", "--check", stdout=out)
    assert out.getvalue().strip() == "http://192.168.1.50:8123"
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CommandError, match=f"Port {port} is already in use.*PORT={port + 1}"):
            call_command("club", "--address", "192.168.1.50", "--port", str(port))


@pytest.mark.django_db
def test_pages_warn_when_links_would_name_the_laptop_itself(
    director_client: Client, running_event: Event
) -> None:
    table_links_ensure(event=running_event)
    for url in (running_event.get_absolute_url(), f"/events/{running_event.pk}/print/"):
        page = director_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
        assert 'id="links-warning"' in page, url
        assert "point at 127.0.0.1" in page
        assert "http://127.0.0.1:8000/t/" in page or url.endswith("/print/")
        with override_settings(BASE_URL=LAN):
            page = director_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
        assert 'id="links-warning"' not in page, url


@pytest.mark.django_db
@override_settings(BASE_URL=LAN, ALLOWED_HOSTS=["192.168.1.50", "testserver"])
def test_links_codes_and_table_cards_carry_the_lan_address(
    director_client: Client, running_event: Event
) -> None:
    links = table_links_ensure(event=running_event)
    page = director_client.get(running_event.get_absolute_url()).content.decode()
    assert f'href="{LAN}/t/{links[0].token}/"' in page
    pdf = director_client.get(f"/events/{running_event.pk}/print/table-cards.pdf")
    assert pdf.status_code == 200
    text = "".join(
        "".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.content)).pages
    )
    for link in links:
        assert f"{LAN}/t/{link.token}/" in text
    # A tablet on the Wi-Fi asks with the laptop's address as its Host, and gets its table.
    tablet = Client(HTTP_HOST="192.168.1.50:8000")
    answer: Any = tablet.get(f"/t/{links[0].token}/")
    assert answer.status_code == 200
    assert b"Table 1" in answer.content
