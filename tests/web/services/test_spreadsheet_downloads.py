"""Every table a director or a reader downloads is offered as CSV that opens right in Excel
(a byte-order mark before the UTF-8) and as an Excel workbook holding the same table with its
cells typed: an event's standings and travellers (the director's and the public copies), its
audit trail, a drive's hands and totals, a team tournament's standings and games, a season's
tables and one competition's, a member's evenings, and the club's register.

Each workbook is read back with openpyxl and compared cell by cell with its CSV twin, typed by
the rule `engine.exports.spreadsheet` documents; names with accents must read back whole."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from engine.exports.spreadsheet import BOM, XLSX_CONTENT_TYPE, typed_cell
from tournaments.kernel.models import Club, Member
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.seasons import competition_add, season_create, season_recompute
from tournaments.seasons.services.simulation import (
    TeamEntry,
    drive_evening,
    pairs_evening,
    teams_evening,
)

pytestmark = pytest.mark.django_db

ACCENTED = ("Siân O'Neil", "Zoë Çelik")
PAIRS = [
    (ACCENTED[0], ACCENTED[1]), ("Ann Ames", "Ben Bird"), ("Cath Cole", "Dan Dyer"),
    ("Eve Ross", "Fay Finch"), ("Gus Gray", "Hal Hunt"), ("Ivy Irwin", "Jo Jones"),
]  # fmt: skip
PLAYERS = [*ACCENTED, "Ann Ames", "Ben Bird", "Cath Cole", "Dan Dyer", "Eve Ross", "Fay Finch"]
TEAMS = [
    TeamEntry("Llanfair Aces", ACCENTED[0], ACCENTED[1]),
    TeamEntry("Books", "Ann Ames", "Ben Bird"),
    TeamEntry("Kitty", "Cath Cole", "Dan Dyer"),
    TeamEntry("Bostons", "Eve Ross", "Fay Finch"),
]


def _csv_rows(content: bytes) -> list[list[str]]:
    assert content.startswith(BOM.encode()), "no byte-order mark: Excel would garble accents"
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def _as_read(text: str) -> object:
    """The CSV cell typed as the workbook holds it, as openpyxl reads it back (a date cell
    comes back as a datetime at midnight)."""
    value, _shown = typed_cell(text)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return dt.datetime(value.year, value.month, value.day)
    return value


def _both(client: Client, csv_url: str, xlsx_url: str) -> list[list[str]]:
    """The CSV's rows, after checking the workbook holds the same table, typed."""
    as_csv = client.get(csv_url)
    assert as_csv.status_code == 200, csv_url
    assert as_csv["Content-Type"].startswith("text/csv")
    rows = _csv_rows(as_csv.content)
    as_xlsx = client.get(xlsx_url)
    assert as_xlsx.status_code == 200, xlsx_url
    assert as_xlsx["Content-Type"] == XLSX_CONTENT_TYPE
    assert as_xlsx["Content-Disposition"].endswith('.xlsx"')
    sheet = openpyxl.load_workbook(io.BytesIO(as_xlsx.content)).active
    assert sheet is not None
    read = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert read[0] == rows[0], f"{xlsx_url}: the header"
    width = len(rows[0])
    expected = [[_as_read(cell) for cell in row] + [None] * (width - len(row)) for row in rows[1:]]
    assert [row[:width] for row in read[1:]] == expected, xlsx_url
    return rows


def _has_accents(rows: list[list[str]]) -> None:
    text = "\n".join(",".join(row) for row in rows)
    assert any(name in text or name.split()[0] in text for name in ACCENTED), text[:300]


@pytest.fixture
def world(club: Club, director: Any) -> dict[str, Any]:
    today = dt.date.today()
    for name in ACCENTED:
        Member.objects.create(club=club, name=name)
    event = pairs_evening(club=club, name="Thursday pairs", date=today, pairs=PAIRS, seed=3)
    drive = drive_evening(club=club, name="Tuesday drive", date=today, players=PLAYERS, seed=4)
    tournament = teams_evening(club=club, name="Bid Whist night", date=today, teams=TEAMS, seed=5)
    season = season_create(club=club, name="Winter", starts=today, ends=today)
    competition = competition_add(season=season, name="Ladder", min_sessions=0)
    club_rebuild(club=club)
    season_recompute(season=season, force=True)
    return {
        "club": club, "event": event, "drive": drive, "tournament": tournament,
        "season": season, "competition": competition,
        "member": Member.objects.get(club=club, name=ACCENTED[0]),
    }  # fmt: skip


def _an_events_standings_and_travellers(world: dict[str, Any], director_client: Client) -> None:
    pk = world["event"].pk
    for csv_fmt, xlsx_fmt in (
        ("csv", "xlsx"),
        ("travellers-csv", "travellers-xlsx"),
        ("score-cards-csv", "score-cards-xlsx"),
    ):
        rows = _both(
            director_client,
            reverse("event-export", args=[pk, csv_fmt]),
            reverse("event-export", args=[pk, xlsx_fmt]),
        )
        assert len(rows) > 1
    # Each traveller line is on two score cards, its NS pair's and its EW pair's, with the
    # same result and each side's own score; a pair's card is one block, in round order.
    travellers = _both(
        director_client,
        reverse("event-export", args=[pk, "travellers-csv"]),
        reverse("event-export", args=[pk, "travellers-xlsx"]),
    )
    cards = _both(
        director_client,
        reverse("event-export", args=[pk, "score-cards-csv"]),
        reverse("event-export", args=[pk, "score-cards-xlsx"]),
    )
    _has_accents(cards)
    head, lines = travellers[0], travellers[1:]
    card_head, card_rows = cards[0], cards[1:]
    assert len(card_rows) == 2 * len(lines)
    column = {name: head.index(name) for name in head}
    card = {name: card_head.index(name) for name in card_head}
    on_cards = {
        (r[card["board"]], r[card["direction"]], r[card["pair"]], r[card["against"]]): (
            r[card["result"]],
            r[card["score"]],
            r[card["points"]],
        )
        for r in card_rows
    }
    for line in lines:
        ns, ew, board = line[column["ns_pair"]], line[column["ew_pair"]], line[column["board"]]
        result = line[column["result"]]
        assert on_cards[(board, "NS", ns, ew)] == (
            result,
            line[column["ns_score"]],
            line[column["ns_points"]],
        )
        assert on_cards[(board, "EW", ew, ns)] == (
            result,
            line[column["ew_score"]],
            line[column["ew_points"]],
        )
    blocks = [(r[card["direction"]], r[card["pair"]]) for r in card_rows]
    assert blocks == sorted(blocks, key=lambda b: (b[0] != "NS", int(b[1])))  # NS first, then EW
    standings = _both(
        director_client,
        reverse("event-export", args=[pk, "csv"]),
        reverse("event-export", args=[pk, "xlsx"]),
    )
    _has_accents(standings)
    # The public copies too, as a member downloads them from the results page.
    public = _both(
        Client(),
        reverse("public-export", args=[pk, "csv"]),
        reverse("public-export", args=[pk, "xlsx"]),
    )
    assert public[0] == standings[0]


def _the_audit_trail(world: dict[str, Any], director_client: Client) -> None:
    url = reverse("event-audit", args=[world["event"].pk])
    rows = _both(director_client, url + "?format=csv", url + "?format=xlsx")
    assert rows[0] == ["at", "who", "action", "target", "change", "reason"] and len(rows) > 1


def _a_drives_hands_and_totals(world: dict[str, Any], director_client: Client) -> None:
    pk = world["drive"].pk
    for what in ("hands", "totals"):
        rows = _both(
            director_client,
            reverse("drive-export", args=[pk, what]),
            reverse("drive-export-xlsx", args=[pk, what]),
        )
        _has_accents(rows)


def _a_team_tournaments_standings_and_games(world: dict[str, Any], _client: Client) -> None:
    pk = world["tournament"].pk
    for what in ("standings", "games"):
        rows = _both(
            Client(),
            reverse("tournament-csv", args=[pk, what]),
            reverse("tournament-xlsx", args=[pk, what]),
        )
        assert len(rows) > 1


def _a_seasons_tables_a_members_evenings_and_the_register(
    world: dict[str, Any], director_client: Client
) -> None:
    slug, season = world["club"].slug, world["season"]
    rows = _both(
        Client(),
        reverse("season-csv", args=[slug, season.pk]),
        reverse("season-xlsx", args=[slug, season.pk]),
    )
    assert len(rows) > 1
    competition = world["competition"]
    _both(
        Client(),
        reverse("competition-csv", args=[slug, season.pk, competition.pk]),
        reverse("competition-xlsx", args=[slug, season.pk, competition.pk]),
    )
    member = world["member"]
    evenings = _both(
        director_client,
        reverse("member-page-csv", args=[slug, member.pk]),
        reverse("member-page-xlsx", args=[slug, member.pk]),
    )
    assert len(evenings) == 4  # the header and three evenings, one of each format
    register = _both(
        director_client,
        reverse("members-export", args=[slug]),
        reverse("members-export-xlsx", args=[slug]),
    )
    _has_accents(register)


def test_every_table_downloads_as_csv_and_as_a_workbook(
    world: dict[str, Any], director_client: Client
) -> None:
    """One world of evenings (a pairs event, a drive and a team tournament, published, and a
    season over them), every download checked against it."""
    for check in (
        _an_events_standings_and_travellers,
        _the_audit_trail,
        _a_drives_hands_and_totals,
        _a_team_tournaments_standings_and_games,
        _a_seasons_tables_a_members_evenings_and_the_register,
    ):
        check(world, director_client)
    # A format that is not a table's: the page itself, or not found.
    url = reverse("event-audit", args=[world["event"].pk])
    page = director_client.get(url + "?format=ods")
    assert page.status_code == 200 and b"<h1>Audit trail</h1>" in page.content
    ods = reverse("event-export", args=[world["event"].pk, "ods"])
    assert director_client.get(ods).status_code == 404


def test_a_running_events_tables_reach_no_one_but_its_directors(
    club: Club, director_client: Client
) -> None:
    """Cards are secret until played: before publication the public addresses answer 404 for
    the workbooks as for the CSV files (a live event's figures are the live pages', which count
    finished boards only); the director has them."""
    from tests.web.conftest import make_event
    from tournaments.events.services.results import result_submit

    event = make_event(club)
    result_submit(
        section=event.section, round=1, table=1, board_number=1, entry={"ns_tricks": 7},
        confirm=True,
    )  # fmt: skip
    for fmt in (
        "csv", "xlsx", "travellers-csv", "travellers-xlsx", "score-cards-csv", "score-cards-xlsx"
    ):  # fmt: skip
        assert Client().get(reverse("public-export", args=[event.pk, fmt])).status_code == 404
        assert director_client.get(reverse("event-export", args=[event.pk, fmt])).status_code == 200
