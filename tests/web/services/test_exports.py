"""Exports and imports through the app: an event written as USEBIO or PBN with results and
read back as a new event has the same standings; CSV has its documented columns; refusals
leave nothing behind; unpublished events are not exported to anonymous visitors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from engine.games import variant_names
from tests.web.conftest import make_event
from tournaments.events.models import Board, Event, Pair, Result
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.services.corrections import result_set_artificial
from tournaments.events.services.events import event_finish, event_publish, pair_set_absent
from tournaments.events.services.simulation import event_simulate
from tournaments.files import exports


def finished(club: Any, game: str = "classic", **kwargs: Any) -> Event:
    event = make_event(club, game=game, **kwargs)
    event_simulate(event=event, seed=7, batch=True)
    return event_finish(event=Event.objects.get(pk=event.pk))


def standings_rows(event: Event) -> list[tuple[Any, ...]]:
    """What a member reads: per field, each pair's rank, names, score and percentage, and
    every board line's points."""
    document = standings_compute(event=event)
    rows: list[tuple[Any, ...]] = []
    for section in document["sections"]:
        for field in section["fields"]:
            rows += [
                (
                    field["name"],
                    row["pair"],
                    row["rank"],
                    row["names"],
                    row["total"],
                    row["percentage"],
                )
                for row in field["rows"]
            ]
        for board, lines in sorted(section["boards"].items(), key=lambda kv: int(kv[0])):
            rows += [
                (int(board), ln["ns"], ln["ew"], ln["ns_score"], ln["artificial"], ln["ns_points"])
                for ln in lines
            ]
    return rows


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
@pytest.mark.parametrize(
    ("game", "params"),
    [(game, {"tables": 3, "boards_per_round": 2}) for game in variant_names()],
)
def test_an_exported_event_imports_back_with_the_same_standings(
    club, director, fmt: str, game: str, params: dict[str, Any]
) -> None:
    event = make_event(club, game=game, params=params)
    ns1 = Pair.objects.get(section__event=event, number=1, direction="NS")
    Pair.objects.filter(pk=ns1.pk).update(player1="Zoë <Ångström>", player2='Bob "B" & Co')
    event_simulate(event=event, seed=7, batch=True)
    line = Result.objects.filter(section__event=event).order_by("pk").first()
    assert line is not None
    line.delete()  # an artificial score instead of the played result
    result_set_artificial(
        section=event.section,
        round=line.round,
        table=line.table,
        board_number=line.board_number,
        code="A+/A-",
        reason="slow play",
    )
    event = event_finish(event=Event.objects.get(pk=event.pk))
    exported = exports.event_export(event, fmt)
    copy = exports.event_import(text=exported.text, club=club, user=director)
    assert copy.pk != event.pk and copy.status == Event.Status.FINISHED
    assert (copy.game, copy.method, copy.scale, copy.options) == (
        event.game,
        event.method,
        event.scale,
        event.options,
    )
    assert standings_rows(copy) == standings_rows(event)
    assert [b.record for b in copy.boards.order_by("number")] == [
        b.record for b in event.boards.order_by("number")
    ]


@pytest.mark.django_db
def test_absent_pairs_and_fouled_boards_survive_the_round_trip(club, director) -> None:
    event = make_event(club)
    pair_set_absent(
        event=event,
        pair=Pair.objects.get(section__event=event, number=3, direction="EW"),
        absent=True,
    )
    event_simulate(event=event, seed=3, batch=True)
    Board.objects.filter(event=event, number=2).update(fouled=True)
    event = event_finish(event=Event.objects.get(pk=event.pk))
    copy = exports.event_import(
        text=exports.event_export(event, "usebio").text, club=club, user=director
    )
    assert Pair.objects.get(section__event=copy, number=3, direction="EW").is_phantom
    assert standings_rows(copy) == standings_rows(event)


@pytest.mark.django_db
def test_csv_has_its_documented_columns(club) -> None:
    event = finished(club)
    standings = list(csv.DictReader(io.StringIO(exports.event_export(event, "csv").text)))
    assert {"rank", "pair", "names", "score", "percentage"} <= set(standings[0])
    assert len(standings) == 6  # 3 NS + 3 EW pairs
    lines = list(csv.DictReader(io.StringIO(exports.event_export(event, "travellers-csv").text)))
    assert {"board", "ns_pair", "ew_pair", "ns_tricks", "ns_score", "ew_score"} <= set(lines[0])
    assert len(lines) == Result.objects.filter(section__event=event).count()


@pytest.mark.django_db
def test_a_bad_file_is_refused_by_name_and_leaves_nothing(club, director) -> None:
    event = finished(club)
    before = Event.objects.count()
    text = exports.event_export(event, "usebio").text
    with pytest.raises(exports.ImportRefused, match="neither a USEBIO"):
        exports.event_import(text="hello", club=club)
    broken = text.replace(
        "<NS_PAIR_NUMBER>2</NS_PAIR_NUMBER>", "<NS_PAIR_NUMBER>9</NS_PAIR_NUMBER>", 1
    )
    with pytest.raises(exports.ImportRefused, match="NS pair 9 is not among the PARTICIPANTS"):
        exports.event_import(text=broken, club=club)
    bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><USEBIO/>'
    with pytest.raises(exports.ImportRefused):
        exports.event_import(text=bomb, club=club)
    # A line the file itself gets right but the movement does not have (round 9) fails the
    # import half-way through, after the event was made: all of it is rolled back.
    data = exports.event_export(event, "pbn").text
    header = data.index("[ScoreTable")
    first = data.index("\n", header) + 1
    line = data[first : data.index("\n", first)]
    assert line.startswith("1 ")
    bad = data[:first] + "9" + data[first + 1 :]
    with pytest.raises(ValueError, match="Round 9, table"):
        exports.event_import(text=bad, club=club)
    assert Event.objects.count() == before


ENGINE_DATA = Path(__file__).resolve().parents[2] / "engine" / "data"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["usebio-flat-butler.xml", "usebio-nested-mp.xml"])
def test_another_programs_usebio_reads_but_is_refused_saying_what_it_lacks(club, name: str) -> None:
    """Both layouts of another program's USEBIO read (tests/engine/test_usebio_standard.py),
    but hold no movement, deals or whist results: the import says which, and what to do."""
    before = Event.objects.count()
    text = (ENGINE_DATA / name).read_text(encoding="utf-8")
    with pytest.raises(exports.ImportRefused) as refused:
        exports.event_import(text=text, club=club)
    words = str(refused.value)
    assert "does not say which movement was played" in words
    assert "import a file exported by clubwhist, or make the event here" in words
    assert words.endswith("Nothing was imported.")
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_a_usebio_file_of_two_sections_is_refused_naming_them(club) -> None:
    text = (ENGINE_DATA / "usebio-nested-mp.xml").read_text(encoding="utf-8")
    start, end = text.index("      <SECTION "), text.index("    </SESSION>")
    section = text[start:end]
    text = text.replace(section, section + section.replace('SECTION_ID="B"', 'SECTION_ID="C"'))
    before = Event.objects.count()
    with pytest.raises(
        exports.ImportRefused, match=r"SESSION 1 > SECTION B; SESSION 1 > SECTION C"
    ):
        exports.event_import(text=text, club=club)
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_export_pages_are_for_directors_until_published(club, director_client: Client) -> None:
    event = finished(club)
    anonymous = Client()
    for fmt in exports.FORMATS:
        assert anonymous.get(f"/results/{event.pk}/export.{fmt}").status_code == 404
        assert anonymous.get(f"/api/public/events/{event.pk}/export/{fmt}").status_code == 404
        mine = director_client.get(f"/events/{event.pk}/export/{fmt}/")
        assert mine.status_code == 200, fmt
        assert "attachment" in mine["Content-Disposition"]
    event_publish(event=event)
    usebio = anonymous.get(f"/results/{event.pk}/export.usebio")
    assert usebio.status_code == 200 and b"<USEBIO" in usebio.content
    api = anonymous.get(f"/api/public/events/{event.pk}/export/csv")
    assert api.status_code == 200 and b"percentage" in api.content


@pytest.mark.django_db
def test_the_import_page_makes_a_new_event(club, director_client: Client) -> None:
    event = finished(club)
    text = exports.event_export(event, "pbn").text
    upload = io.BytesIO(text.encode())
    upload.name = "tuesday.pbn"
    answer = director_client.post("/events/import/", {"file": upload, "club": club.pk})
    copy = Event.objects.exclude(pk=event.pk).get()
    assert answer.status_code == 302 and answer["Location"] == f"/events/{copy.pk}/"
    refused = io.BytesIO(b"not a results file")
    refused.name = "x.txt"
    page = director_client.post("/events/import/", {"file": refused, "club": club.pk})
    assert page.status_code == 200 and "neither a USEBIO" in page.content.decode()
    assert Event.objects.count() == 2


@pytest.mark.django_db
def test_the_export_and_import_commands(club, tmp_path: Path) -> None:
    event = finished(club)
    out = tmp_path / "event.xml"
    call_command("export", str(event.pk), "--format", "usebio", "-o", str(out))
    assert out.read_text().lstrip().startswith("<?xml")
    printed = io.StringIO()
    call_command("import", str(out), "--club", club.slug, "--json", stdout=printed)
    made = json.loads(printed.getvalue())
    copy = Event.objects.get(pk=made["event"])
    assert standings_rows(copy) == standings_rows(event)
    with pytest.raises(CommandError, match="Unknown format"):
        call_command("export", str(event.pk), "--format", "xls", "-o", str(tmp_path / "x"))
    bad = tmp_path / "bad.pbn"
    bad.write_text("nothing here")
    with pytest.raises(CommandError):
        call_command("import", str(bad), "--club", club.slug)
    assert not (tmp_path / "x").exists()


@pytest.mark.django_db
def test_the_import_api(club, director_client: Client) -> None:
    event = finished(club)
    text = exports.event_export(event, "usebio").text
    made = director_client.post(
        "/api/events/import", {"text": text, "club": club.slug}, content_type="application/json"
    )
    assert made.status_code == 201
    copy = Event.objects.get(pk=made.json()["event"])
    assert standings_rows(copy) == standings_rows(event)
    refused = director_client.post(
        "/api/events/import", {"text": "junk", "club": club.slug}, content_type="application/json"
    )
    assert refused.status_code == 400 and "neither a USEBIO" in refused.json()["detail"]
    assert Client().post("/api/events/import", {"text": text, "club": club.slug}).status_code == 403
    assert Event.objects.count() == 2
