"""PBN through the app: an event exported as PBN with results (or USEBIO) and imported again is
the same event (a fouled board's mark and entries, Candid Whist bags, players' names with " & "); a
plain bridge PBN imports into a Candid Whist event; a classic event whose trumps are turned
refuses a file without turned cards, naming the option; hand records carry the event."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from engine import pbn
from engine.dealing import deal_boards
from tests.web.conftest import make_event
from tests.web.services.test_exports import standings_rows
from tournaments.events.models import Board, Event, Pair
from tournaments.events.selectors.records import hand_records_pbn
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.services.events import boards_import, event_finish
from tournaments.events.services.simulation import event_simulate
from tournaments.files import exports


def bags(event: Event) -> dict[tuple[str, int], Any]:
    document = standings_compute(event=event)
    return {
        (row["direction"], row["pair"]): (row.get("bags"), row.get("bag_penalty"))
        for section in document["sections"]
        for field in section["fields"]
        for row in field["rows"]
    }


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["pbn", "usebio"])
def test_a_candid_event_with_a_fouled_board_and_ampersands_comes_back_the_same(
    club, director, fmt: str
) -> None:
    event = make_event(club, game="candid")
    ns1 = Pair.objects.get(section__event=event, number=1, direction="NS")
    Pair.objects.filter(pk=ns1.pk).update(player1="Ann & Co", player2="Bob; Jr")
    ew2 = Pair.objects.get(section__event=event, number=2, direction="EW")
    Pair.objects.filter(pk=ew2.pk).update(player1="Cy", player2="")
    event_simulate(event=event, seed=7, batch=True)
    Board.objects.filter(event=event, number=1).update(fouled=True)
    event = event_finish(event=Event.objects.get(pk=event.pk))
    text = exports.event_export(event, fmt).text
    copy = exports.event_import(text=text, club=club, user=director)
    assert list(copy.boards.filter(fouled=True).values_list("number", flat=True)) == [1]
    assert standings_rows(copy) == standings_rows(event)
    assert bags(copy) == bags(event)
    assert any(value[0] for value in bags(event).values())  # there are bags to compare

    def players(e: Event) -> list[tuple[str, int, str, str]]:
        return sorted(
            Pair.objects.filter(section__event=e).values_list(
                "direction", "number", "player1", "player2"
            )
        )

    assert players(copy) == players(event)
    # The fouled board's results are kept as entered, not replaced by an Average.
    original = sorted(
        (r.round, r.table, r.entry) for r in event.section.results.filter(board_number=1)
    )
    assert original and all(entry is not None for _, _, entry in original)
    assert (
        sorted((r.round, r.table, r.entry) for r in copy.section.results.filter(board_number=1))
        == original
    )


def plain_pbn(count: int) -> str:
    """A dealing program's file: no whist tags."""
    text = pbn.dumps(deal_boards("candid", range(1, count + 1), seed=4))
    return re.sub(r"\[Whist[^\n]*\n", "", text)


@pytest.mark.django_db
def test_a_plain_bridge_pbn_imports_into_a_candid_event(club) -> None:
    event = make_event(club, game="candid", start=False)
    needed = 6  # 3 tables, 2 boards a round
    boards = boards_import(event=event, pbn_text=plain_pbn(needed))
    assert len(boards) == needed
    assert all('[WhistVariant "candid"]' in b.record for b in boards)


@pytest.mark.django_db
def test_turned_card_trumps_refuse_a_plain_pbn_naming_the_option(club) -> None:
    event = make_event(club, game="classic", start=False, options={"trumps": "turned"})
    before = sorted(event.boards.values_list("record", flat=True))
    with pytest.raises(ValueError, match=r"board 1 has no turned card.*option trumps"):
        boards_import(event=event, pbn_text=plain_pbn(6))
    assert sorted(event.boards.values_list("record", flat=True)) == before


@pytest.mark.django_db
def test_a_classic_event_reads_plain_boards_with_its_own_rotation(club) -> None:
    event = make_event(club, game="classic", start=False, options={"rotation": "CDHS"})
    boards = boards_import(event=event, pbn_text=plain_pbn(6))
    assert [b.record.count('[WhistTrumps "C"]') for b in boards][:1] == [1]


@pytest.mark.django_db
def test_hand_records_carry_the_event_site_and_date(club) -> None:
    event = make_event(club, game="candid")
    text = hand_records_pbn(event)
    assert f'[Event "{event.name}"]' in text
    assert f'[Site "{event.club.name}"]' in text
    assert f'[Date "{event.date:%Y.%m.%d}"]' in text
    assert len(pbn.loads(text)) == event.boards.count()


@pytest.mark.django_db
def test_a_latin_1_pbn_from_an_older_dealing_program_imports_on_the_page(
    club, director_client
) -> None:
    """PBN's own character set is Latin-1: the page reads such a file rather than refusing it;
    a binary file is refused, saying what to choose."""
    event = make_event(club, game="classic", start=False)  # 6 boards
    text = '[Event "Soirée du club"]\n' + pbn.dumps(
        list(deal_boards("classic", range(1, 7), seed=5)), header=False
    )
    upload = io.BytesIO(text.encode("latin-1"))
    upload.name = "boards.pbn"
    page = director_client.post(f"/events/{event.pk}/boards/import/", {"file": upload}, follow=True)
    assert "6 boards imported." in page.content.decode()

    binary = io.BytesIO(b"%PDF-1.4\x00\x01\x02")
    binary.name = "boards.pbn"
    page = director_client.post(f"/events/{event.pk}/boards/import/", {"file": binary}, follow=True)
    assert "not a text PBN file" in page.content.decode()


@pytest.mark.django_db
def test_a_boards_file_for_another_game_is_refused_in_words_and_changes_nothing(club) -> None:
    event = make_event(club, game="classic", start=False)
    before = sorted(event.boards.values_list("record", flat=True))
    text = pbn.dumps(deal_boards("bidwhist", range(1, 7), seed=2))
    with pytest.raises(ValueError, match=r"^board 1 is a Bid Whist board \(the file says "):
        boards_import(event=event, pbn_text=text)
    assert sorted(event.boards.values_list("record", flat=True)) == before


@pytest.mark.django_db
def test_the_boards_page_shows_the_refusal_of_another_games_file(club, director_client) -> None:
    event = make_event(club, game="bidwhist", start=False)
    before = sorted(event.boards.values_list("record", flat=True))
    upload = io.BytesIO(pbn.dumps(deal_boards("candid", range(1, 7), seed=2)).encode())
    upload.name = "candid.pbn"
    response = director_client.post(
        f"/events/{event.pk}/boards/import/", {"file": upload}, follow=True
    )
    shown = [str(m) for m in response.context["messages"]]
    assert len(shown) == 1
    assert shown[0].startswith(
        'board 1 is a Candid Whist board (the file says [WhistVariant "candid"]), and this '
        "event plays Bid Whist: a board dealt for one game cannot be played as another. Let "
        "clubwhist deal the boards"
    )
    assert sorted(event.boards.values_list("record", flat=True)) == before
