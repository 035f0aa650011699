"""Uploads are capped: a file over the limit is refused by a page that says how big it is and
what the limit is, changes nothing, and was never kept whole in memory or on disk.

Each place a director uploads a file: a board file on the event page, a results file on the
import page, an event's clubwhist JSON (a restore) on the same page.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.http.multipartparser import MultiPartParser
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.utils.module_loading import import_string

from clubwhist.uploads import TooBigUpload
from engine.dealing import deal_boards
from engine.pbn import dumps
from tests.support.rows import row_counts
from tests.web.conftest import make_event
from tournaments.events.models import Board, Event
from tournaments.events.services.events import MAX_FILE_BYTES
from tournaments.files.exports import event_export
from tournaments.kernel.forms import megabytes
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

MB = 1024 * 1024
#: 7.25 MB: said as "7.3 MB" (rounded up), against the limit's "5 MB".
BIG = int(7.25 * MB)


def rows() -> dict[str, int]:
    return row_counts(apps.get_app_config("tournaments").get_models())


def upload(content: bytes, name: str) -> io.BytesIO:
    handle = io.BytesIO(content)
    handle.name = name
    return handle


def test_the_limit_is_the_services_limit_and_the_handler_comes_first() -> None:
    assert settings.UPLOAD_MAX_BYTES == MAX_FILE_BYTES == 5 * MB
    assert settings.FILE_UPLOAD_HANDLERS[0] == "clubwhist.uploads.CappedUploadHandler"
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 5 * MB


def test_sizes_are_said_rounded_up() -> None:
    assert megabytes(BIG) == "7.3 MB"
    assert megabytes(5 * MB) == "5 MB"
    assert megabytes(5 * MB + 1) == "5.1 MB"  # never "5 MB, the limit is 5 MB"
    assert megabytes(80 * 1024) == "0.1 MB"


def _parse(body: bytes) -> Any:
    meta = {"CONTENT_TYPE": MULTIPART_CONTENT, "CONTENT_LENGTH": str(len(body))}
    handlers = [import_string(h)() for h in settings.FILE_UPLOAD_HANDLERS]
    return MultiPartParser(meta, io.BytesIO(body), handlers).parse()


def test_a_file_over_the_limit_is_counted_not_kept() -> None:
    """What the view gets for a big file: its name and true size, none of its bytes; a file
    within the limit arrives whole, as before."""
    body = encode_multipart(BOUNDARY, {"file": upload(b"x" * BIG, "huge.pbn")})
    _, files = _parse(body)
    big = files["file"]
    assert isinstance(big, TooBigUpload)
    assert (big.name, big.size) == ("huge.pbn", BIG)
    assert big.read() == b""

    small = b'[Board "1"]\n' * 1000
    body = encode_multipart(BOUNDARY, {"file": upload(small, "boards.pbn")})
    _, files = _parse(body)
    assert isinstance(files["file"], InMemoryUploadedFile)
    assert files["file"].read() == small


def test_a_board_file_over_the_limit_gets_a_page_naming_both_sizes(
    director_client: Client, club: Club
) -> None:
    event = make_event(club, start=False)
    before = (rows(), list(Board.objects.filter(event=event).values_list("number", "record")))
    response = director_client.post(
        f"/events/{event.pk}/boards/import/",
        {"file": upload(b"%" * BIG, "boards.pbn")},
        follow=True,
    )
    assert response.status_code == 200  # the event page, not a 400 or a 500
    text = response.content.decode()
    assert "The file is 7.3 MB, the limit is 5 MB: that is not a board file" in text
    assert "Nothing was imported." in text
    after = (rows(), list(Board.objects.filter(event=event).values_list("number", "record")))
    assert after == before


def test_a_board_file_within_the_limit_is_still_imported(
    director_client: Client, club: Club
) -> None:
    event = make_event(club, start=False)
    text = dumps(deal_boards("classic", range(1, 7), seed=99))
    response = director_client.post(
        f"/events/{event.pk}/boards/import/", {"file": upload(text.encode(), "b.pbn")}, follow=True
    )
    assert "6 boards imported." in response.content.decode()


def test_a_results_file_over_the_limit_gets_a_page_naming_both_sizes(
    director_client: Client, club: Club
) -> None:
    before = rows()
    response = director_client.post(
        "/events/import/", {"file": upload(b"<" * BIG, "results.xml"), "club": club.pk}
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "The file is 7.3 MB, the limit is 5 MB: that is not a results file" in text
    assert text.count("The file is 7.3 MB") == 1  # said once, at the top
    assert rows() == before


def test_a_restore_over_the_limit_gets_a_page_naming_both_sizes(
    director_client: Client, club: Club
) -> None:
    """An event's clubwhist JSON, grown past the limit (spaces JSON allows): refused by size."""
    event = make_event(club)
    backup = event_export(event, "json").text
    padded = (backup + " " * (BIG - len(backup.encode()))).encode()
    assert len(padded) == BIG
    before = (rows(), list(Event.objects.values_list("pk", "name", "status")))
    response = director_client.post(
        "/events/import/", {"file": upload(padded, "event.clubwhist.json"), "club": club.pk}
    )
    assert response.status_code == 200
    assert "The file is 7.3 MB, the limit is 5 MB" in response.content.decode()
    assert (rows(), list(Event.objects.values_list("pk", "name", "status"))) == before
