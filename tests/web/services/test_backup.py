"""Whole-event JSON documents and whole-database backups: an event of every game, with a
correction, an artificial score, a dispute, calls, a fouled board, a replaced tablet link and
audit entries, is written, deleted and restored with every row and the standings as they were;
bad documents are refused by name and change nothing; the commands round-trip on the
configured database; the JSON is the director's download, never a public one."""

from __future__ import annotations

import copy
import gzip
import itertools
import json
import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import models
from django.test import Client

from engine.games import variant_names
from tests.web.conftest import make_event
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.services.corrections import result_correct, result_set_artificial
from tournaments.events.services.events import (
    event_finish,
    event_publish,
    pair_set_absent,
    pairs_register,
    pairs_swap,
)
from tournaments.events.services.results import call_mark_handled, result_dispute, result_submit
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import (
    director_call,
    round_clock_start,
    table_link_replace,
    table_links_ensure,
)
from tournaments.files import backup
from tournaments.kernel.backup import registry
from tournaments.kernel.models import Club, Member, MemberAudit, PeopleAudit
from tournaments.seasons import backup as season_backup

#: A movement and a stage for each game of the registry, in turn (a new game gets one too).
SETUPS = [
    ("mitchell", "finished"),
    ("howell", "running"),
    ("mitchell", "published"),
    ("mitchell", "running"),
]
GAMES = [
    (game, *setup) for game, setup in zip(variant_names(), itertools.cycle(SETUPS), strict=False)
]


def _other_entry(event: Event, result: Result) -> dict[str, Any]:
    """A valid entry for the result's board that scores differently (a director's correction)."""
    rules = rules_for(event)
    board = engine_board(Board.objects.get(event=event, number=result.board_number))
    rng = random.Random(result.pk)
    for _ in range(200):
        entry = rules.plausible_entry(board, rng)
        try:
            parsed = rules.parse_entry(board, entry)
        except ValueError:
            continue
        if rules.ns_score(board, parsed) != result.ns_score:
            return rules.entry_to_dict(parsed)
    raise AssertionError("no other entry found")


def played_event(club: Club, director: User, game: str, kind: str, status: str) -> Event:
    """An evening with everything a club night leaves behind: names, an absent pair, two
    rounds played from the tablets, a correction, an artificial score, a disputed result
    (which calls the director), another call handled, a fouled board, a replaced tablet link,
    the round clock, a pair moved, and the event closed or published as asked."""
    club.directors.add(director)
    event = make_event(club, game=game, kind=kind, user=director)
    pairs = list(Pair.objects.filter(section__event=event).order_by("direction", "number"))
    pairs_register(
        event=event,
        names={p.pk: (f"Player {p.pk}a", f"Zoë {p.pk}b") for p in pairs},
        user=director,
    )
    section = event.section
    table_links_ensure(event=event)
    table_link_replace(event=event, table=2, user=director)
    round_clock_start(event=event, minutes=14, user=director)
    event_simulate(event=event, rounds=2, seed=5, batch=True)
    played = list(Result.objects.filter(section=section).order_by("pk"))
    result_correct(
        result=played[0],
        entry=_other_entry(event, played[0]),
        reason="NS claimed one trick too many",
        user=director,
    )
    disputed = played[1]
    result_dispute(result=disputed, note="revoke on trick 5")
    board = Board.objects.get(event=event, number=played[2].board_number)
    from tournaments.events.services.corrections import board_mark_fouled

    board_mark_fouled(board=board, fouled=True, reason="cards in the wrong pocket", user=director)
    # Round 3: one result entered and waiting, one artificial.
    rows = list(MovementRow.objects.filter(section=section, round=3).order_by("table"))
    rows = [r for r in rows if r.ns_pair and r.ew_pair]
    first = rows[0]

    numbers = list(section.boards_of_set(first.board_set))
    rules = rules_for(event)
    deal = engine_board(Board.objects.get(event=event, number=numbers[0]))
    for attempt in range(50):
        try:
            result_submit(
                section=section,
                round=3,
                table=first.table,
                board_number=numbers[0],
                entry=rules.plausible_entry(deal, random.Random(attempt)),
                idempotency_key=f"tablet-{game}-{attempt}",
                device=f"table {first.table}",
            )
            break
        except ValueError:
            continue
    result_set_artificial(
        section=section,
        round=3,
        table=first.table,
        board_number=numbers[1],
        code="A+/A-",
        reason="slow play",
        user=director,
    )
    call = director_call(section=section, table=rows[-1].table, round=3, note="a revoke")
    call_mark_handled(event=event, call_id=call.pk, user=director)
    ns1, ns2 = pairs[0], pairs[1]
    pairs_swap(event=event, first=ns1, second=ns2, reason="sat at the wrong table", user=director)
    pair_set_absent(event=event, pair=pairs[-1], absent=True, user=director)  # went home early
    event = Event.objects.get(pk=event.pk)
    if status in ("finished", "published"):
        event = event_finish(event=event, user=director)
    if status == "published":
        event = event_publish(event=event, user=director)
    standings_refresh(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def _usernames() -> dict[int, str]:
    return dict(User.objects.values_list("pk", "username"))


def rows_of(event_id: int) -> dict[str, Any]:
    """Every row of the event and its club as plain values (users by username), ordered."""
    names = _usernames()
    event = Event.objects.get(pk=event_id)
    sections = Section.objects.filter(event_id=event_id)

    def values(queryset: Any, *, drop: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        out = []
        for row in queryset.order_by("pk").values():
            for key in ("created_by_id", "entered_by_id", "user_id"):
                if key in row and row[key] is not None:
                    row[key] = names[row[key]]
            out.append({k: v for k, v in row.items() if k not in drop})
        return out

    latest = Standings.objects.filter(event_id=event_id).order_by("-version")[:1]
    return {
        "club": values(Club.objects.filter(pk=event.club_id)),
        "directors": sorted(event.club.directors.values_list("username", flat=True)),
        "players": values(Player.objects.filter(club_id=event.club_id)),
        "event": values(Event.objects.filter(pk=event_id), drop=("rescore_queued_at",)),
        "sections": values(sections),
        "pairs": values(Pair.objects.filter(section__in=sections)),
        "movement": values(MovementRow.objects.filter(section__in=sections)),
        "results": values(Result.objects.filter(section__in=sections)),
        "links": values(TableAccess.objects.filter(section__in=sections)),
        "calls": values(DirectorCall.objects.filter(section__in=sections)),
        "boards": values(Board.objects.filter(event_id=event_id)),
        "audit": values(AuditEntry.objects.filter(event_id=event_id)),
        "standings": values(Standings.objects.filter(pk__in=[s.pk for s in latest])),
    }


def delete_everything() -> None:
    """An empty database, as on another laptop: no events, clubs or users."""
    Result.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()


def counts() -> dict[str, int]:
    return {
        m.__name__: m._default_manager.count()
        for m in (User, Club, Player, Event, Section, Pair, Board, Result, AuditEntry, Standings)
    }


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# -- the document covers the models ---------------------------------------------------------


def _fields(model: type[models.Model]) -> set[str]:
    return {f.name for f in model._meta.concrete_fields} | {
        f.name for f in model._meta.many_to_many
    }


def test_every_field_of_every_model_is_carried_implied_or_omitted_with_a_reason() -> None:
    for model in [*apps.get_app_config("tournaments").get_models(), User]:
        if model in backup.OMITTED_MODELS:
            assert backup.OMITTED_MODELS[model].strip()
            continue
        carried = set(backup.FIELDS.get(model, ()))
        implied = set(backup.IMPLIED.get(model, {}))
        omitted = backup.OMITTED.get(model, {})
        assert all(reason.strip() for reason in omitted.values())
        accounted = carried | implied | set(omitted)
        assert _fields(model) == accounted, (
            f"{model.__name__}: not in the document: {sorted(_fields(model) - accounted)}; "
            f"named but not fields: {sorted(accounted - _fields(model))}"
        )
        assert not carried & implied and not carried & set(omitted)


def test_each_format_registers_its_part_and_its_models_with_the_kernel() -> None:
    # Registered as Django starts, once each, in the order a backup holds them; each part
    # brings its own models' tables (the kernel's own: accounts, clubs, the register, the trails).
    markers = [backup.EVENT_FORMAT, backup.DRIVE_FORMAT, backup.TOURNAMENT_FORMAT]
    assert [part.marker for part in registry.parts()] == markers
    assert [part.marker for part in backup.FORMATS] == markers
    backup.register_formats()  # again: nothing changes
    assert [part.marker for part in registry.parts()] == markers
    owners = {part.marker: set(part.tables.fields) for part in registry.parts()}
    assert (
        not owners[markers[0]] & owners[markers[1]] and not owners[markers[1]] & owners[markers[2]]
    )
    # ... and the seasons theirs (`tournaments.seasons.backup`, in a whole backup's club blocks).
    seasons = set(season_backup.TABLES)
    kernel = {User, Club, Member, PeopleAudit, MemberAudit}  # with the club's two trails
    assert set(backup.FIELDS) == kernel.union(*owners.values(), seasons)
    assert {**dict.fromkeys(markers, 2), backup.BACKUP_FORMAT: 7} == backup.VERSIONS
    assert backup.FORMATS[0].club_part is not None and backup.FORMATS[0].club_part.key == "players"


@pytest.mark.django_db
def test_the_document_has_every_field_it_says_it_carries(club, director) -> None:
    event = played_event(club, director, "classic", "mitchell", "finished")
    Player.objects.create(club=club, name="Ada")
    doc = backup.event_document(event)
    parts: dict[type[models.Model], list[dict[str, Any]]] = {
        Club: [doc["club"]],
        Player: doc["club"]["players"],
        Event: [doc["event"]],
        Section: doc["sections"],
        Board: doc["boards"],
        AuditEntry: doc["audit"],
        Standings: [doc["standings"]],
    }
    for key, model in backup.SECTION_CHILDREN:
        parts[model] = [row for s in doc["sections"] for row in s[key]]
    for model, rows in parts.items():
        assert rows, model.__name__
        for row in rows:
            assert set(backup.FIELDS[model]) <= set(row), model.__name__
    users = backup.backup_document()["users"]
    assert users and all(set(backup.FIELDS[User]) == set(u) for u in users)


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "kind", "status"), GAMES)
def test_an_event_restores_into_an_empty_database_row_for_row(
    club, director, game: str, kind: str, status: str
) -> None:
    event = played_event(club, director, game, kind, status)
    before = rows_of(event.pk)
    assert before["results"] and before["calls"] and len(before["links"]) > event.section.tables
    statuses = {r["status"] for r in before["results"]}
    assert {"corrected", "disputed", "artificial", "confirmed"} <= statuses
    text = backup.dumps(backup.event_document(event))
    delete_everything()

    report = backup.event_restore(backup.loads(text))

    assert report.of("events")[0].event.pk == event.pk
    assert rows_of(event.pk) == before
    # Users the document names come back inactive, without a usable password.
    td = User.objects.get(username="td")
    assert not td.is_active and not td.has_usable_password()
    assert report.users_inactive == ["td"]
    # The tablets' links still reach their tables, and a replaced one still says so.
    links = TableAccess.objects.filter(section__event_id=event.pk)
    for link in links:
        answer = Client().get(f"/api/t/{link.token}/")
        if link.revoked_at is None:
            assert answer.status_code == 200 and answer.json()["table"] == link.table
        else:
            assert answer.status_code == 403 and "replaced" in answer.json()["detail"]


@pytest.mark.django_db
def test_an_event_whose_ids_are_taken_comes_back_under_new_ids_with_the_same_standings(
    club, director
) -> None:
    event = played_event(club, director, "classic", "mitchell", "finished")
    doc = json.loads(backup.dumps(backup.event_document(event)))
    stored = Standings.objects.filter(event=event).order_by("-version").first()
    assert stored is not None
    Result.objects.filter(section__event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    taker = make_event(club, start=False)
    doc["event"]["id"] = taker.pk  # the event's id is taken here now

    restored = backup.event_restore(doc).of("events")[0]

    assert restored.event.pk not in (event.pk, taker.pk)
    assert restored.original_id == taker.pk
    assert "is taken here" in restored.describe()
    new = Standings.objects.get(event=restored.event)
    assert new.data == {**stored.data, "event": restored.event.pk}
    assert Result.objects.filter(section__event=restored.event).count() == len(
        [r for s in doc["sections"] for r in s["results"]]
    )


@pytest.mark.django_db
def test_ids_kept_by_a_restore_are_never_handed_out_again(club, director) -> None:
    kept = make_event(club, user=director)
    newest = make_event(club, user=director)
    doc = json.loads(backup.dumps(backup.event_document(kept)))
    highest = {
        model: model._default_manager.order_by("-pk").values_list("pk", flat=True)[0]
        for model in (Event, Section, Pair, Board, MovementRow, AuditEntry)
    }
    Event.objects.filter(pk__in=[kept.pk, newest.pk]).delete()

    backup.event_restore(doc)
    later = make_event(club, user=director)

    assert Event.objects.filter(pk=kept.pk).exists()
    for model, pk in highest.items():
        fresh = model._default_manager.order_by("-pk").values_list("pk", flat=True)[0]
        assert fresh > pk, model.__name__
    assert later.pk > newest.pk


@pytest.mark.django_db
def test_standings_behind_the_results_are_written_as_the_results_score(club, director) -> None:
    event = make_event(club, user=director)
    event_simulate(event=event, rounds=1, seed=2, batch=True)  # no worker ran: nothing stored
    event = Event.objects.get(pk=event.pk)
    assert event.scored_version < event.results_version
    doc = backup.event_document(event)
    assert doc["standings"]["version"] == doc["event"]["scored_version"] == event.results_version
    delete_everything()
    backup.event_restore(json.loads(backup.dumps(doc)))
    restored = Event.objects.get(pk=event.pk)
    assert restored.scored_version == restored.results_version == event.results_version
    assert Standings.objects.filter(event=restored).count() == 1


@pytest.mark.django_db
def test_a_draft_event_restores_without_standings(club, director) -> None:
    event = make_event(club, start=False, user=director)
    doc = backup.event_document(event)
    assert doc["standings"] is None
    delete_everything()
    backup.event_restore(json.loads(backup.dumps(doc)))
    assert Event.objects.get(pk=event.pk).status == "draft"
    assert Board.objects.filter(event_id=event.pk).count() == 6


@pytest.mark.django_db
def test_a_dry_run_checks_everything_and_changes_nothing(club, director) -> None:
    event = played_event(club, director, "candid", "mitchell", "finished")
    doc = json.loads(backup.dumps(backup.event_document(event)))
    delete_everything()
    empty = counts()
    report = backup.event_restore(doc, dry_run=True)
    assert report.dry_run and "nothing changed" in report.lines()[-1]
    assert counts() == empty


# -- refusals -------------------------------------------------------------------------------


def _refused(document: Any, match: str) -> None:
    before = counts()
    with pytest.raises(backup.RestoreRefused, match=match):
        backup.restore(document)
    assert counts() == before


@pytest.mark.django_db
def test_bad_documents_are_refused_by_name_and_change_nothing(club, director) -> None:
    event = played_event(club, director, "classic", "mitchell", "running")
    good = json.loads(backup.dumps(backup.event_document(event)))
    delete_everything()

    wrong_version = copy.deepcopy(good)
    wrong_version["version"] = 99
    _refused(wrong_version, "version 99 of the format; this clubwhist reads version 1")

    not_ours = copy.deepcopy(good)
    not_ours["format"] = "something-else"
    _refused(not_ours, "not a clubwhist backup")

    missing_board = copy.deepcopy(good)
    missing_board["boards"] = [b for b in missing_board["boards"] if b["number"] != 4]
    _refused(missing_board, "Board 4 is missing: section A's movement plays boards 1-6")

    ghost_pair = copy.deepcopy(good)
    ghost_pair["sections"][0]["results"][0]["ew_pair"] = "EW9"
    _refused(ghost_pair, r"the EW pair 'EW9' is not a pair of the section")

    bad_score = copy.deepcopy(good)
    line = next(r for r in bad_score["sections"][0]["results"] if r["status"] == "confirmed")
    line["ns_score"] += 1
    _refused(bad_score, r"its entry scores -?\d+ for NS under the game's rules, the document")

    bad_status = copy.deepcopy(good)
    bad_status["sections"][0]["results"][0]["status"] = "lost"
    _refused(bad_status, "status: Value 'lost' is not a valid choice")

    unknown_user = copy.deepcopy(good)
    unknown_user["audit"][0]["user"] = 7
    _refused(unknown_user, "Audit entry 1: the user should be a username, not 7")

    edited_standings = copy.deepcopy(good)
    rows = edited_standings["standings"]["data"]["sections"][0]["fields"][0]["rows"]
    rows[0]["names"] = "Somebody Else"
    _refused(edited_standings, "does not come out as its stored standings")

    extra = copy.deepcopy(good)
    extra["event"]["colour"] = "blue"
    _refused(extra, "'colour', which version 2 of the format does not have")

    whole = backup.backup_document()
    with pytest.raises(backup.RestoreRefused, match=r"manage\.py restore FILE"):
        backup.event_restore(whole)

    namesake = Club.objects.create(name=good["club"]["name"], slug="another-address")
    _refused(good, "is already here under another web address .* --club SLUG")
    namesake.delete()

    text = backup.dumps(good)
    with pytest.raises(backup.RestoreRefused, match="ends in the middle of the JSON"):
        backup.loads(text[: len(text) // 2])
    assert counts() == dict.fromkeys(counts(), 0)


@pytest.mark.django_db
def test_an_event_already_here_is_refused_naming_it(club, director) -> None:
    event = played_event(club, director, "classic", "mitchell", "running")
    doc = json.loads(backup.dumps(backup.event_document(event)))
    _refused(doc, f"already holds the event 'classic test' .* \\(event {event.pk}, club")
    # A copy under another name still carries the same tablet tokens.
    renamed = copy.deepcopy(doc)
    renamed["event"]["name"] = "A copy"
    _refused(renamed, "tablet link of the event 'A copy' .* is already used here")


@pytest.mark.django_db
def test_a_restore_racing_another_is_refused_by_the_database_and_changes_nothing(
    club, director, monkeypatch
) -> None:
    event = played_event(club, director, "classic", "mitchell", "running")
    doc = json.loads(backup.dumps(backup.event_document(event)))
    doc["event"]["name"] = "Committed meanwhile"
    # The other restore committed after this one looked: the check sees nothing.
    monkeypatch.setattr("tournaments.events.services.backup.already_here", lambda parsed: None)
    _refused(doc, "The database refused a row of the document")


# -- whole database: the commands -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_round_trip_the_whole_database(tmp_path: Path) -> None:
    director = User.objects.create_user("td", password="pw-for-tests", email="td@example.org")
    User.objects.create_superuser("admin", password="admin-pw")
    first = Club.objects.create(name="Riverside Whist", slug="riverside")
    second = Club.objects.create(name="Hilltop Drive", slug="hilltop", paper="letter")
    scorer = User.objects.create_user("sam", password="sam-pw-for-tests", email="sam@example.org")
    second.scorers.add(scorer)
    events = [
        played_event(first, director, "classic", "mitchell", "published"),
        played_event(second, director, "bidwhist", "howell", "running"),
    ]
    before = [rows_of(e.pk) for e in events]
    hashes = dict(User.objects.values_list("username", "password"))
    out = tmp_path / "night.json.gz"

    said = run("backup", "-o", str(out))

    assert "2 clubs, 2 events" in said and "3 users" in said
    data = json.loads(gzip.decompress(out.read_bytes()))
    assert data["format"] == "clubwhist-backup" and data["version"] == 7
    assert {c["slug"]: c["scorers"] for c in data["clubs"]} == {"riverside": [], "hilltop": ["sam"]}
    assert not list(tmp_path.glob(".*part"))
    delete_everything()

    dry = run("restore", str(out), "--dry-run")
    assert "Dry run" in dry and Event.objects.count() == 0 == User.objects.count()
    said = run("restore", str(out))

    assert "Restored 2 club(s)" in said and said.count("standings are identical") == 2
    assert [rows_of(e.pk) for e in events] == before
    assert dict(User.objects.values_list("username", "password")) == hashes
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.get(username="td").check_password("pw-for-tests")
    # The club's scorer scores for it again, with their password, and for no other club.
    restored = User.objects.get(username="sam")
    assert restored.check_password("sam-pw-for-tests")
    assert list(restored.scored_clubs.values_list("slug", flat=True)) == ["hilltop"]
    # Ids were kept, and new rows still get fresh ones (PostgreSQL's sequences moved on).
    later = make_event(first, start=True)
    assert later.pk > max(e.pk for e in events)
    event_simulate(event=later, rounds=1, seed=1)

    with pytest.raises(CommandError, match="already has what the backup would restore: 'Hilltop"):
        run("restore", str(out))


@pytest.mark.django_db
def test_a_version_5_backup_restores_with_no_scorers_and_a_bad_list_is_refused(
    club: Club, director: Any
) -> None:
    """Version 5 had no scorers: read as none. A list that is not one of usernames is refused
    by name, and nothing is restored."""
    club.scorers.add(User.objects.create_user("sam"))
    document = json.loads(backup.dumps(backup.backup_document()))
    old = copy.deepcopy(document)
    old["version"] = 5
    for block in old["clubs"]:
        del block["scorers"]
    bad = copy.deepcopy(document)
    bad["clubs"][0]["scorers"] = "sam"
    delete_everything()

    with pytest.raises(backup.RestoreRefused, match="'scorers' should be a list of usernames"):
        backup.backup_restore(bad)
    assert not Club.objects.exists()
    backup.backup_restore(old)
    assert not Club.objects.get(slug=club.slug).scorers.exists()


@pytest.mark.django_db
def test_backup_of_one_club_or_chosen_events(club, director, tmp_path: Path) -> None:
    event = played_event(club, director, "classic", "mitchell", "running")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    make_event(other, start=False)
    User.objects.create_user("stranger")
    club.scorers.add(User.objects.create_user("sam"))
    out = tmp_path / "club.json"
    run("backup", "-o", str(out), "--club", club.slug)
    data = json.loads(out.read_text())
    assert [c["slug"] for c in data["clubs"]] == [club.slug]
    assert [e["event"]["id"] for e in data["events"]] == [event.pk]
    assert [u["username"] for u in data["users"]] == ["sam", "td"]  # its scorer, not a stranger
    # an event's own document leaves the club's scorers out: they score for the club
    assert "scorers" not in data["events"][0]["club"]
    run("backup", "-o", str(out), "--event", str(event.pk))
    assert [e["event"]["id"] for e in json.loads(out.read_text())["events"]] == [event.pk]


@pytest.mark.django_db
def test_the_backup_command_names_the_default_file_and_refuses_unknown_choices(
    club, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    said = run("backup")
    made = list(tmp_path.glob("clubwhist-backup-*.json.gz"))
    assert len(made) == 1 and made[0].name in said
    with pytest.raises(CommandError, match="no club 'nowhere'"):
        run("backup", "--club", "nowhere")
    with pytest.raises(CommandError, match="no event 999"):
        run("backup", "--event", "999")


@pytest.mark.django_db
def test_restore_refuses_a_cut_short_file_and_changes_nothing(
    club, director, tmp_path: Path
) -> None:
    played_event(club, director, "classic", "mitchell", "running")
    whole = tmp_path / "b.json.gz"
    run("backup", "-o", str(whole))
    delete_everything()
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(whole.read_bytes()[:-40])
    with pytest.raises(CommandError, match="damaged or cut-short gzip"):
        run("restore", str(cut))
    plain = tmp_path / "cut.json"
    plain.write_text(gzip.decompress(whole.read_bytes()).decode()[:5000])
    with pytest.raises(CommandError, match="ends in the middle of the JSON"):
        run("restore", str(plain))
    assert counts() == dict.fromkeys(counts(), 0)


@pytest.mark.django_db
def test_the_export_and_import_commands_carry_the_json(club, director, tmp_path: Path) -> None:
    event = played_event(club, director, "openwhist", "mitchell", "running")
    out = tmp_path / "event.clubwhist.json"
    run("export", str(event.pk), "--format", "json", "-o", str(out))
    assert json.loads(out.read_text(encoding="utf-8"))["event"]["id"] == event.pk
    Result.objects.filter(section__event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    other = Club.objects.create(name="Laptop Club", slug="laptop")
    made = json.loads(run("import", str(out), "--club", "laptop", "--json"))
    restored = Event.objects.get(pk=made["event"])
    assert restored.club == other and restored.status == "running"
    assert Result.objects.filter(section__event=restored).count() == len(
        [r for s in json.loads(out.read_text())["sections"] for r in s["results"]]
    )


# -- downloads and imports on the web -------------------------------------------------------


@pytest.mark.django_db
def test_the_director_downloads_the_json_and_the_public_cannot(club, director) -> None:
    event = played_event(club, director, "classic", "mitchell", "published")
    client = Client()
    client.force_login(director)
    page = client.get(f"/events/{event.pk}/")
    assert f"/events/{event.pk}/export/json/" in page.content.decode()
    response = client.get(f"/events/{event.pk}/export/json/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert json.loads(response.content)["format"] == "clubwhist-event"
    api = client.get(f"/api/events/{event.pk}/export/json")
    assert api.status_code == 200 and json.loads(api.content)["event"]["id"] == event.pk
    assert client.get(f"/api/events/{event.pk}/export/usebio").status_code == 200
    for who in (Client(), client):  # not even for a director, through the public addresses
        assert who.get(f"/results/{event.pk}/export.json").status_code == 404
        assert who.get(f"/api/public/events/{event.pk}/export/json").status_code == 404
    assert Client().get(f"/results/{event.pk}/export.usebio").status_code == 200
    assert Client().get(f"/api/events/{event.pk}/export/json").status_code in (401, 403)


@pytest.mark.django_db
def test_the_import_page_and_api_take_the_json_into_the_chosen_club(club, director) -> None:
    event = played_event(club, director, "bidwhist", "howell", "finished")
    text = backup.dumps(backup.event_document(event))
    Result.objects.filter(section__event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    other = Club.objects.create(name="Second Club", slug="second")
    other.directors.add(director)  # a director imports only into clubs they direct
    client = Client()
    client.force_login(director)

    response = client.post(
        "/api/events/import", {"text": text, "club": "second"}, content_type="application/json"
    )

    assert response.status_code == 201, response.content
    imported = Event.objects.get(pk=response.json()["event"])
    assert imported.club == other and imported.status == "finished"
    last = AuditEntry.objects.filter(event=imported).order_by("-pk").first()
    assert last is not None and last.action == "event imported" and last.user == director
    again = client.post(
        "/api/events/import", {"text": text, "club": "second"}, content_type="application/json"
    )
    assert again.status_code == 400 and "already holds" in again.json()["detail"]

    from django.core.files.uploadedfile import SimpleUploadedFile

    page = client.post(
        "/events/import/",
        {"file": SimpleUploadedFile("e.json", text.encode()), "club": other.pk},
    )
    assert page.status_code == 200 and "already holds" in page.content.decode()
