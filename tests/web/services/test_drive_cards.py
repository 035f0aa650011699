"""A drive played on paper and scored from the players' own score cards: every player's figures
typed at the end give the totals and the prize list; every refusal changes nothing."""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from pypdf import PdfReader

from engine.drives import CardTotal, award_prizes, card_lines
from tournaments.drives.models import Drive, DriveAudit, DriveTableAccess
from tournaments.drives.selectors.drives import drive_settings, drive_state, seatings_of
from tournaments.drives.services import cards as drive_cards
from tournaments.drives.services import drives as services
from tournaments.drives.services import paper as drive_paper
from tournaments.drives.services import tablets
from tournaments.drives.services.drives import DriveRefused
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
#: Totals as the players added them up; Cat and Eve tie at 90, Ann and Dan at 70.
TOTALS = {1: "70", 2: "88", 3: "90", 4: "70", 5: "90", 6: "85.5", 7: "60", 8: "79"}
FIRST = {1: "30", 2: "44", 3: "41", 4: "35", 5: "50", 6: "40", 7: "31", 8: "40"}


def started(club: Club, **settings: Any) -> Drive:
    drive = services.drive_create(
        club=club,
        name="Paper drive",
        settings={"hands": 12, "half_time": 6, "scoring": "tricks"} | settings,
        players=NAMES,
    )
    return services.drive_start(drive=drive, seed=4)


def cards(**changes: dict[str, Any]) -> dict[int, dict[str, Any]]:
    typed = {p: {"total": TOTALS[p], "first_half": FIRST[p], "ten_plus": 1} for p in TOTALS}
    for player, change in changes.items():
        typed[int(player[1:])] = {**typed[int(player[1:])], **change}
    return typed


def fingerprint() -> tuple[Any, ...]:
    return (
        tuple(Drive.objects.order_by("pk").values_list("status", "cards", "version")),
        DriveAudit.objects.count(),
    )


def test_the_cards_give_the_totals_and_the_prizes(club: Club) -> None:
    drive = started(club)
    drive_cards.cards_enter(drive=drive, cards=cards())
    drive.refresh_from_db()
    state = drive_state(drive)
    assert [(line.name, line.total) for line in state.lines] == [
        ("Cat", "90"), ("Eve", "90"), ("Bob", "88"), ("Fay", "85.50"), ("Hal", "79"),
        ("Ann", "70"), ("Dan", "70"), ("Gus", "60"),
    ]  # fmt: skip
    assert [line.place for line in state.lines] == [1, 1, 3, 4, 5, 6, 6, 8]
    settings = drive_settings(drive)
    engine_cards = {
        p: CardTotal(Fraction(c["total"]), Fraction(c["first_half"]), 1) for p, c in cards().items()
    }
    expected = award_prizes(
        settings,
        card_lines(settings, seatings_of(drive)[1], engine_cards),
        seed=drive.seed,
        names=dict(enumerate(NAMES, start=1)),
    )
    assert [(a.title, a.winners, a.text) for a in state.awards] == [
        (a.title, a.winners, a.text) for a in expected
    ]
    top = state.awards[0]
    assert set(top.winners) == {3, 5} and "only the score cards' totals" in top.text
    half = next(a for a in state.awards if a.prize.kind == "first_half")
    assert half.winners == (8,) and "Eve" in half.text  # Eve's 50 won a prize already
    services.drive_finish(drive=drive)
    pdf = drive_paper.drive_pdf(drive=Drive.objects.get(pk=drive.pk), what="prizes")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Paper drive" in text and "Cat" in text and "85.50" in text


def test_a_card_can_be_typed_again_until_published(club: Club) -> None:
    drive = started(club)
    drive_cards.cards_enter(drive=drive, cards=cards())
    drive_cards.cards_enter(drive=drive, cards=cards(p7={"total": "95"}))
    drive.refresh_from_db()
    assert drive_state(drive).lines[0].name == "Gus"
    services.drive_finish(drive=drive)
    services.drive_publish(drive=drive)
    before = fingerprint()
    with pytest.raises(DriveRefused, match="published"):
        drive_cards.cards_enter(drive=drive, cards=cards())
    assert fingerprint() == before


@pytest.mark.parametrize(
    ("typed", "match"),
    [
        (cards(p2={"total": ""}), "Bob's card has no total"),
        (cards(p2={"total": "eighty"}), "a number, not 'eighty'"),
        (cards(p2={"total": "-3"}), "a number from 0"),
        (cards(p2={"total": "80.123"}), "two decimal places"),
        (cards(p2={"first_half": "99"}), "more than the total"),
        (cards(p2={"first_half": None}), "no first-half total"),
        (cards(p2={"ten_plus": "1.5"}), "whole number"),
        (cards(p2={"ten_plus": "13"}), "13 hands of 10 or more tricks, of 12"),
        ({**cards(), 9: {"total": "50"}}, "no player 9"),
        ({p: c for p, c in cards().items() if p != 8}, "Hal's card has no total"),
    ],
)
def test_a_wrong_card_is_refused_by_name_and_nothing_is_kept(
    club: Club, typed: dict[int, Any], match: str
) -> None:
    drive = started(club)
    before = fingerprint()
    with pytest.raises(DriveRefused, match=match):
        drive_cards.cards_enter(drive=drive, cards=typed)
    assert fingerprint() == before


def test_the_prize_list_says_which_figures_it_needs(club: Club) -> None:
    drive = started(club, prizes=[{"kind": "highest"}, {"kind": "ten_plus"}])
    assert drive_cards.needs(drive) == (False, True)
    with pytest.raises(DriveRefused, match="count them on every card"):
        drive_cards.cards_enter(drive=drive, cards=cards(p1={"ten_plus": None}))
    typed = {p: {"total": TOTALS[p], "ten_plus": p % 3} for p in TOTALS}
    drive_cards.cards_enter(drive=drive, cards=typed)  # no first half needed here


def test_the_totals_count_hands_of_ten_only_for_a_prize_that_needs_them(
    club: Club, director_client: Client
) -> None:
    needs = started(club, prizes=[{"kind": "highest"}, {"kind": "ten_plus"}])
    typed = {p: {"total": TOTALS[p], "ten_plus": p % 3} for p in TOTALS}
    drive_cards.cards_enter(drive=needs, cards=typed)
    page = director_client.get(f"/drives/{needs.pk}/manage/totals/").content.decode()
    assert "10+ tricks" in page
    plain = started(club, prizes=[{"kind": "highest"}])
    page = director_client.get(f"/drives/{plain.pk}/manage/").content.decode()
    assert "Totals after 0 hands" in page and "10+ tricks" not in page


def test_cards_and_hands_refuse_each_other(club: Club) -> None:
    drive = started(club)
    token = DriveTableAccess.objects.filter(drive=drive).first()
    assert token is not None
    services.result_enter(drive=drive, table=1, entry={"ns_tricks": 7})
    before = fingerprint()
    with pytest.raises(DriveRefused, match="hands have results entered"):
        drive_cards.cards_enter(drive=drive, cards=cards())
    assert fingerprint() == before
    other = started(club)
    drive_cards.cards_enter(drive=other, cards=cards())
    with pytest.raises(DriveRefused, match="score cards"):
        services.result_enter(drive=other, table=1, entry={"ns_tricks": 7})
    with pytest.raises(DriveRefused, match="score cards"):
        tablets.tablet_enter(drive_id=other.pk, table=1, hand=1, entry={"ns_tricks": 7})
    with pytest.raises(DriveRefused, match="started"):
        drive_cards.cards_enter(
            drive=services.drive_create(club=club, name="Draft", settings={}, players=NAMES),
            cards=cards(),
        )


def test_the_page_keeps_what_was_typed_when_a_card_is_wrong(
    club: Club, director_client: Client
) -> None:
    drive = started(club)
    url = f"/drives/{drive.pk}/manage/cards/"
    assert director_client.get(url).status_code == 200
    form = {}
    for p, card in cards().items():
        form |= {f"total-{p}": card["total"], f"first-{p}": card["first_half"], f"ten-{p}": "1"}
    wrong = director_client.post(url, form | {"total-4": "7O"})
    assert wrong.status_code == 400
    page = wrong.content.decode()
    assert "Dan&#x27;s card, total: a number, not &#x27;7O&#x27;" in page
    assert 'value="7O"' in page and 'value="85.5"' in page  # nothing typed is lost
    assert Drive.objects.get(pk=drive.pk).cards == {}
    done = director_client.post(url, form)
    assert done.status_code == 302 and done["Location"].endswith(
        f"/drives/{drive.pk}/manage/totals/"
    )
    totals = director_client.get(done["Location"]).content.decode()
    assert "Cat" in totals and "count-back needs each hand" in totals
    assert Client().get(url).status_code == 302  # to the login


def test_the_api_takes_the_cards_for_scripts(club: Club, director_client: Client) -> None:
    drive = started(club)
    url = f"/api/drives/{drive.pk}/cards/"
    body = {"cards": {str(p): c for p, c in cards().items()}}
    bad = director_client.post(
        url, {"cards": {**body["cards"], "2": {"total": "x"}}}, content_type="application/json"
    )
    assert bad.status_code == 400 and "Bob's card, total: a number" in bad.json()["detail"]
    assert Drive.objects.get(pk=drive.pk).cards == {}
    answer = director_client.post(url, body, content_type="application/json")
    assert answer.status_code == 200
    totals = {line["name"]: line["total"] for line in answer.json()["totals"]}
    assert totals["Fay"] == "85.50" and totals["Cat"] == "90"
    assert Client().post(url, body, content_type="application/json").status_code == 403


def test_a_drive_scored_from_the_cards_reads_right_on_every_page(
    club: Club, director: Any, director_client: Client, client: Client
) -> None:
    """No page of a drive scored from the score cards speaks of hands being played: not the
    director's page (no hand to enter), the totals, the room, the public page and big screen
    (the half-time leaders from the cards' first halves), nor a player's card."""
    club.directors.add(director)
    drive = started(club)
    drive_cards.cards_enter(drive=drive, cards=cards())
    # ... and no prize counts hands of 10+ tricks here: no column of them either.
    wrong = ("has not started", "After 0 of", "Hand 1 of 12", "to go", "no hand complete")
    wrong += ("10+ tricks",)
    pages = {
        "detail": f"/drives/{drive.pk}/manage/",
        "totals": f"/drives/{drive.pk}/manage/totals/",
        "room": f"/drives/{drive.pk}/manage/room/",
    }
    shown = {name: director_client.get(path).content.decode() for name, path in pages.items()}
    assert "Played on paper" in shown["detail"] and "Totals from the score cards" in shown["detail"]
    assert 'id="enter-1"' not in shown["detail"]  # no hand's Save boxes
    assert "From the players' score cards: all 12 hands" in shown["totals"]
    assert "Played on paper" in shown["room"]
    services.drive_finish(drive=drive)
    services.drive_publish(drive=drive)
    public = {
        "public": client.get(f"/drives/{drive.pk}/").content.decode(),
        "screen": client.get(f"/drives/{drive.pk}/display/").content.decode(),
        "card": client.get(f"/drives/{drive.pk}/players/5/").content.decode(),
    }
    # Eve's card says 50 for the first half, the best: she leads at half time.
    half = public["public"][public["public"].index('id="half-time"') :]
    assert "Eve" in half.split("</tr>")[1] and "50" in half.split("</tr>")[1]
    assert "Played on paper" in public["card"] and "with <strong>90</strong>" in public["card"]
    assert "half-time 50" in public["card"]
    for name, page in (shown | public).items():
        for words in wrong:
            assert words not in page, (name, words)
