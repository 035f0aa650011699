"""Fuzzed files and results through what the director and the tablets really use (the API and
the pages, hence the services): each is taken whole or refused with a 4xx that says why, and a
refusal leaves the database as it was, row for row, versions included.

Movement files (`engine.movements.files`) are read only by the command line, never by the web
app, so they are fuzzed in tests/engine/test_fuzz_readers.py alone.

More examples: `pytest --hypothesis-profile=deep tests/web/security/test_fuzz_services.py`.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from engine import pbn
from engine.dealing import deal_boards
from engine.exports.pbn_results import dumps_with_results
from engine.exports.record import score_record
from engine.exports.usebio import dumps_usebio
from engine.games import variant_names
from tests.engine.test_exports import simulate
from tests.fuzzing import ACCEPTED, RUN, any_text, broken, entries, examples
from tests.web.conftest import make_event
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import Board, Event, MovementRow, Result
from tournaments.events.services import tablets
from tournaments.events.services.events import MAX_FILE_BYTES
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

REFUSALS = {400, 403, 404, 409}


def snapshot(event: Event | None = None) -> dict[str, Any]:
    """Every tournament table's row count and, for `event`, its status, versions, boards and
    results as stored: what a refused request must leave exactly as it found it."""
    state: dict[str, Any] = {
        model._meta.label: model.objects.count()
        for model in apps.get_app_config("tournaments").get_models()
    }
    if event is not None:
        state["event"] = Event.objects.filter(pk=event.pk).values(
            "status", "results_version", "scored_version"
        )[0]
        state["boards"] = list(
            Board.objects.filter(event=event)
            .order_by("number")
            .values_list("number", "record", "fouled")
        )
        state["results"] = list(
            Result.objects.filter(section__event=event)
            .order_by("pk")
            .values_list("pk", "entry", "ns_score", "status", "artificial_code")
        )
    return state


def answered(response: Any, allowed: set[int]) -> Any:
    """The JSON body of an answer that is one of `allowed`; a refusal must say why."""
    assert response.status_code in allowed, (response.status_code, response.content[:300])
    body = response.json()
    if response.status_code >= 400:
        assert body.get("detail") or body, "a refusal without a reason"
    return body


def _post(client: Client, url: str, data: Any) -> Any:
    return client.post(url, data, content_type="application/json")


# ---- PBN board files (draft event: replace the dealt boards) --------------------------------

BOARD_FILES = [pbn.dumps(deal_boards("classic", range(1, 7), seed=seed)) for seed in (1, 2)]
BOARD_FILES.append(pbn.dumps(deal_boards("bidwhist", range(1, 7), seed=3)))


def test_fuzzed_board_files_replace_the_boards_whole_or_not_at_all(
    director_client: Client, club: Club
) -> None:
    event = make_event(club, start=False)  # classic, 6 boards
    url = f"/api/events/{event.pk}/boards/import"

    @examples(0.4)
    @given(text=st.one_of(st.sampled_from(BOARD_FILES), broken(BOARD_FILES), any_text))
    def check(text: str) -> None:
        RUN["service: board files"] += 1
        before = snapshot(event)
        response = _post(director_client, url, {"pbn": text})
        body = answered(response, {200, 400})
        if response.status_code == 400:
            assert snapshot(event) == before
        else:
            ACCEPTED["service: board files"] += 1
            assert body["boards"] == 6
            stored = [engine_board(b) for b in Board.objects.filter(event=event)]
            read = {b.number: b for b in pbn.loads(text)}
            assert all(read[b.number] == b for b in stored)

    check()


def test_a_board_file_over_the_size_limit_is_refused_unread(
    director_client: Client, club: Club
) -> None:
    event = make_event(club, start=False)
    before = snapshot(event)
    huge = "%" + "x" * MAX_FILE_BYTES + "\n" + BOARD_FILES[0]
    response = _post(director_client, f"/api/events/{event.pk}/boards/import", {"pbn": huge})
    assert response.status_code == 413  # the request body's limit comes first
    assert response.json()["detail"] == "The request is larger than 5 MB."
    from tournaments.events.services.events import EventError, boards_import

    with pytest.raises(EventError, match="The board file is over 5 MB"):
        boards_import(event=event, pbn_text=huge)
    page = director_client.post(
        f"/events/{event.pk}/boards/import/", {"file": _upload(huge, "boards.pbn")}, follow=True
    )
    assert (
        "The file is 5.1 MB, the limit is 5 MB: that is not a board file" in page.content.decode()
    )
    assert snapshot(event) == before


def _upload(text: str, name: str) -> io.BytesIO:
    handle = io.BytesIO(text.encode())
    handle.name = name
    return handle


# ---- results files (a new, closed event) ----------------------------------------------------

RECORDS = [
    simulate("classic", movement=("mitchell", {"tables": 3, "boards_per_round": 1})),
    simulate(
        "candid",
        method="total",
        artificial=False,
        movement=("mitchell", {"tables": 3, "boards_per_round": 1}),
    ),
]
RESULTS_FILES = [dumps_with_results(record) for record in RECORDS] + [
    dumps_usebio(record, score_record(record)) for record in RECORDS
]


def test_the_results_files_import_as_they_are() -> None:
    """The documents the next test breaks are good ones to start from."""
    from tournaments.files.exports import event_import

    club = Club.objects.create(name="Import club", slug="import-club")
    for text in RESULTS_FILES:
        event = event_import(text=text, club=club)
        assert event.status == Event.Status.FINISHED


def test_fuzzed_results_files_import_whole_or_not_at_all(
    director_client: Client, club: Club
) -> None:
    @examples(0.3)
    @given(text=st.one_of(st.sampled_from(RESULTS_FILES), broken(RESULTS_FILES, most=2), any_text))
    def check(text: str) -> None:
        RUN["service: results files"] += 1
        before = snapshot()
        response = _post(director_client, "/api/events/import", {"text": text, "club": club.slug})
        body = answered(response, {201, 400})
        if response.status_code == 400:
            assert snapshot() == before
        else:
            ACCEPTED["service: results files"] += 1
            assert Event.objects.get(pk=body["event"]).status == Event.Status.FINISHED

    check()


def test_a_results_file_over_the_size_limit_is_refused_unread(
    director_client: Client, club: Club
) -> None:
    from tournaments.events.services.events import EventError
    from tournaments.files.exports import event_import

    before = snapshot()
    huge = "<" + "x" * MAX_FILE_BYTES
    with pytest.raises(EventError, match="The results file is over 5 MB"):
        event_import(text=huge, club=club)
    page = director_client.post(
        "/events/import/", {"file": _upload(huge, "big.xml"), "club": club.pk}, follow=True
    )
    assert "The file is 5.1 MB, the limit is 5 MB: that is not a results file" in (
        page.content.decode()
    )
    assert snapshot() == before


# ---- result entry: the director's API, the tablets' API, corrections, paper travellers ----


def _valid_entries(event: Event) -> list[dict[str, Any]]:
    rules = rules_for(event)
    rng = random.Random(4)
    found = []
    for board in Board.objects.filter(event=event):
        played = engine_board(board)
        for _ in range(3):
            found.append(
                rules.entry_to_dict(rules.parse_entry(played, rules.plausible_entry(played, rng)))
            )
    return found


GAMES = list(variant_names())


def _meetings(event: Event) -> list[tuple[int, int, int]]:
    """(round, table, board) of every board played in the event's movement."""
    section = event.section
    return [
        (row.round, row.table, board)
        for row in MovementRow.objects.filter(section=section).exclude(ns_pair=0).exclude(ew_pair=0)
        for board in section.boards_of_set(row.board_set)
    ]


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_results_through_the_directors_api(
    director_client: Client, club: Club, game: str
) -> None:
    event = make_event(club, game=game)  # 3 tables, 2 boards a round, 3 rounds
    url = f"/api/events/{event.pk}/results"
    valid = _valid_entries(event)

    @examples(0.3)
    @given(
        entry=entries(valid),
        where=st.one_of(
            st.sampled_from(_meetings(event)),
            st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 8)),
        ),
        confirm=st.booleans(),
    )
    def check(entry: Any, where: tuple[int, int, int], confirm: bool) -> None:
        RUN["service: director's results"] += 1
        round_, table, board = where
        before = snapshot(event)
        response = _post(
            director_client,
            url,
            {"round": round_, "table": table, "board": board, "entry": entry, "confirm": confirm},
        )
        answered(response, {200, 201} | REFUSALS)
        if response.status_code >= 400:
            assert snapshot(event) == before
        else:
            ACCEPTED["service: director's results"] += 1

    check()


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_results_through_the_tablets_api(club: Club, game: str) -> None:
    event = make_event(club, game=game)
    tokens = {a.table: a.token for a in tablets.table_links_ensure(event=event)}
    playing = [(tokens[t], board) for r, t, board in _meetings(event) if r == 1]
    valid = _valid_entries(event)
    client = Client()

    @examples(0.3)
    @given(
        entry=entries(valid),
        where=st.one_of(
            st.sampled_from(playing),
            st.tuples(
                st.sampled_from([*tokens.values(), "not-a-token", "x" * 300]),
                st.one_of(st.integers(0, 8), st.sampled_from([-1, 10**20, "2", "²", None, 1.5])),
            ),
        ),
        key=st.one_of(st.text(min_size=8, max_size=20), st.text(max_size=100)),
        preview=st.booleans(),
    )
    def check(entry: Any, where: tuple[str, Any], key: str, preview: bool) -> None:
        token, board = where
        RUN["service: tablets' results"] += 1
        before = snapshot(event)
        body = {"board": board, "entry": entry, "idempotency_key": key}
        path = "preview/" if preview else "results/"
        response = _post(client, f"/api/t/{token}/{path}", body)
        answered(response, {200, 201, 429} | REFUSALS)  # 429: a long run meets the rate limit
        if preview or response.status_code >= 400:
            assert snapshot(event) == before
        if response.status_code < 400:
            ACCEPTED["service: tablets' results"] += 1

    check()


def test_fuzzed_corrections_change_the_result_or_nothing(
    director_client: Client, club: Club
) -> None:
    event = make_event(club)
    answer = _post(
        director_client,
        f"/api/events/{event.pk}/results",
        {"round": 1, "table": 1, "board": 1, "entry": {"ns_tricks": 7}, "confirm": True},
    )
    result_id = answer.json()["id"]
    url = f"/api/events/{event.pk}/results/{result_id}/correct"

    @examples(0.3)
    @given(entry=entries([{"ns_tricks": 8}]), reason=st.text(max_size=30))
    def check(entry: Any, reason: str) -> None:
        RUN["service: corrections"] += 1
        before = snapshot(event)
        response = _post(director_client, url, {"entry": entry, "reason": reason})
        answered(response, {200, 400})
        if response.status_code == 400:
            assert snapshot(event) == before
        else:
            ACCEPTED["service: corrections"] += 1

    check()


def test_fuzzed_paper_travellers_save_every_line_or_none(
    director_client: Client, club: Club
) -> None:
    event = make_event(club, game="bidwhist")
    url = f"/events/{event.pk}/boards/1/"
    fields = [f.key for f in rules_for(event).entry_fields()]
    typed = st.one_of(
        st.sampled_from(["", "3", "7", "13", "N", "E", "uptown", "notrump", "H", "on", "²"]),
        st.text(max_size=6),
    )

    @examples(0.3)
    @given(lines=st.lists(st.fixed_dictionaries(dict.fromkeys(fields, typed)), max_size=3))
    def check(lines: list[dict[str, str]]) -> None:
        RUN["service: paper travellers"] += 1
        before = snapshot(event)
        post = {f"r{i}-{key}": value for i, line in enumerate(lines) for key, value in line.items()}
        response = director_client.post(url, post)
        assert response.status_code in (200, 302)
        stored = snapshot(event)
        if response.status_code == 200 and "Nothing was saved" in response.content.decode():
            assert stored == before
        else:
            assert response.status_code == 302
            ACCEPTED["service: paper travellers"] += 1

    check()


def test_a_superscript_digit_in_a_traveller_line_is_refused_in_words(
    director_client: Client, club: Club
) -> None:
    """Found by the fuzzing: "²" passed str.isdigit() and then crashed int() (a 500)."""
    event = make_event(club)
    before = snapshot(event)
    response = director_client.post(f"/events/{event.pk}/boards/1/", {"r0-ns_tricks": "²"})
    assert response.status_code == 200
    assert "NS tricks must be a whole number, not &#x27;²&#x27;" in response.content.decode()
    assert snapshot(event) == before
    preview = director_client.post(f"/events/{event.pk}/boards/1/preview/", {"ns_tricks": "²"})
    assert preview.json() == {"valid": False, "error": "NS tricks must be a whole number, not '²'"}
