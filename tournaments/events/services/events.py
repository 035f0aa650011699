"""Setting up and running an event: create, register pairs, boards, start, finish, publish."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from engine import pbn
from engine.dealing import deal_boards
from engine.games import EntryError, find_variant
from engine.movements import MovementError, check_params, validate
from tournaments.events.bridge import board_record, movement_for, rules_for
from tournaments.events.models import Board, Event, MovementRow, Pair, Section
from tournaments.events.services.audit import audit_record

# Read from here by the drives' and teams' API and the exports' page, until they import them
# from `kernel.clubs`, where every format's clubs are made.
from tournaments.events.services.scoring import lock_sections, results_changed, standings_refresh
from tournaments.events.services.tablets import table_links_ensure
from tournaments.kernel import jobs
from tournaments.kernel.audit import User, actor
from tournaments.kernel.member_links import BY_NAME, NameLinker
from tournaments.kernel.models import Club
from tournaments.kernel.names import date_checked, name_checked
from tournaments.kernel.refusals import Refused


class EventError(Refused):
    """A director's request that the event's state does not allow; the message says why."""


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    game: str,
    movement_kind: str,
    movement_params: Mapping[str, Any],
    date: dt.date | None = None,
    options: Mapping[str, Any] | None = None,
    method: str = Event.Method.MATCHPOINTS,
    scale: str = Event.Scale.EBU,
    seed: int | str | None = None,
    advance: str = Event.Advance.TABLE,
    user: User = None,
) -> Event:
    """Create a draft event with its movement, pair slots and freshly dealt boards.

    Boards come from `secrets.SystemRandom` unless a seed is given (demos and tests); a
    director who has pre-dealt boards replaces them with `event_import_boards`.
    """
    if not str(name).strip():
        raise EventError("Give the event a name.")
    name = name_checked(
        name, model=Event, column="name", what="the event's name", refused=EventError
    )
    date = date_checked(date, what="the event's date", refused=EventError)
    rules = find_variant(game)(dict(options or {}))
    refusal = rules.not_for_pairs()
    if refusal:
        raise EventError(refusal)
    if advance not in Event.Advance.values:
        raise EventError(f"Unknown way to move to the next round {advance!r}.")
    if method not in Event.Method.values:
        raise EventError(f"Unknown scoring method {method!r}.")
    if scale not in Event.Scale.values:
        raise EventError(f"Unknown matchpoint scale {scale!r}.")
    if not isinstance(movement_params, Mapping):
        raise EventError("The movement's settings must be an object of named values.")
    try:
        check_params(movement_kind, dict(movement_params))  # limits before any work
    except MovementError as exc:
        raise EventError(f"The movement cannot be made: {exc}.") from None
    event = Event.objects.create(
        club=club,
        name=name,
        date=date,
        game=game,
        options=dict(rules.options),
        method=method,
        scale=scale,
        advance=advance,
        created_by=actor(user),
    )
    section = Section(event=event, name="A", movement_kind=movement_kind)
    section.movement_params = dict(movement_params)
    movement = movement_for(section)
    report = validate(movement)
    if not report.ok:
        raise EventError("The movement is not valid: " + "; ".join(report.problems))
    section.tables = movement.tables
    section.rounds = movement.rounds
    section.boards_per_round = movement.boards_per_round
    section.one_winner = movement.one_winner
    section.relay_sets = [list(rs) for rs in movement.relay_sets]
    section.save()
    MovementRow.objects.bulk_create(
        MovementRow(
            section=section,
            round=m.round,
            table=m.table,
            ns_pair=m.ns,
            ew_pair=m.ew,
            board_set=m.set,
        )
        for m in movement.meetings
    )
    Pair.objects.bulk_create(
        Pair(
            section=section,
            number=slot.number,
            direction=section.direction_of(slot.direction or ""),
        )
        for slot in movement.pairs
    )
    numbers = range(1, movement.board_count() + 1)
    dealt = deal_boards(game, numbers, seed=seed, options=rules.options)
    Board.objects.bulk_create(
        Board(event=event, number=b.number, record=board_record(b)) for b in dealt
    )
    audit_record(
        event=event,
        user=user,
        action="event created",
        target=f"event {event.pk}",
        after={"game": game, "movement": movement_kind, "params": dict(movement_params)},
    )
    return event


def _require_status(event: Event, *allowed: str, doing: str) -> None:
    if event.status not in allowed:
        raise EventError(f"You cannot {doing} while the event is {event.get_status_display()}.")


@transaction.atomic
def pairs_register(
    *,
    event: Event,
    names: Mapping[int, tuple[str, str]],
    members: Mapping[int, tuple[Any, Any]] | None = None,
    user: User = None,
) -> list[Pair]:
    """Set the players' names of pair slots (pair id -> names); late arrivals included.

    Each name set is linked to the club's member whose name it is (`kernel.member_links`), or
    to the member the API caller chose (`members`: pair id -> two member ids, None for a
    visitor, `BY_NAME` to go by the name); a name left as it was keeps its link."""
    _require_status(event, "draft", "running", doing="change pair names")
    changed = []
    linker = NameLinker(event.club, refused=EventError)
    members = members or {}
    pairs = {p.pk: p for p in Pair.objects.select_for_update().filter(section__event=event)}
    for pair_id, (first, second) in names.items():
        pair = pairs.get(pair_id)
        if pair is None:
            raise EventError(f"Pair {pair_id} is not in this event.")
        first, second = (
            name_checked(
                value,
                model=Pair,
                column=column,
                what=f"{pair.label}'s {which} player",
                refused=EventError,
            )
            for value, column, which in ((first, "player1", "first"), (second, "player2", "second"))
        )
        chosen = members.get(pair_id, (BY_NAME, BY_NAME))
        links = (
            linker.link(
                value,
                chosen=choice,
                what=f"{pair.label}'s {which} player",
                before=(getattr(pair, column), getattr(pair, link)),
            )
            for value, choice, column, link, which in (
                (first, chosen[0], "player1", "member1", "first"),
                (second, chosen[1], "player2", "member2", "second"),
            )
        )
        member1, member2 = links
        if (pair.player1, pair.player2, pair.member1, pair.member2) == (
            first, second, member1, member2
        ):  # fmt: skip
            continue
        before = {"player1": pair.player1, "player2": pair.player2}
        pair.player1, pair.player2 = first, second
        pair.member1, pair.member2 = member1, member2
        pair.arrived_late = pair.arrived_late or event.status == Event.Status.RUNNING
        pair.save(update_fields=["player1", "player2", "member1", "member2", "arrived_late"])
        changed.append(pair)
        if event.status != Event.Status.DRAFT:
            audit_record(
                event=event,
                user=user,
                action="pair renamed",
                target=f"pair {pair.label}",
                before=before,
                after={"player1": first, "player2": second},
            )
    return changed


@transaction.atomic
def pairs_update(
    *,
    event: Event,
    names: Mapping[int, tuple[str, str]],
    absent: Mapping[int, bool],
    user: User = None,
) -> None:
    """The director's pair list saved at once: names (pair id -> names) and who is absent
    (pair id -> absent); all of it or nothing."""
    pairs_register(event=event, names=names, user=user)
    for pair in Pair.objects.filter(section__event=event, pk__in=list(absent)):
        # A pair that came late or left keeps what its arrivals and departures say (the
        # page greys its Absent box out; `services.presence` changes it).
        if absent[pair.pk] != pair.is_phantom and not pair.presence:
            pair_set_absent(event=event, pair=pair, absent=absent[pair.pk], user=user)


@transaction.atomic
def pair_set_absent(*, event: Event, pair: Pair, absent: bool, user: User = None) -> Pair:
    """Mark a pair slot as a phantom (nobody came: its opponents sit out) or back as present.

    The usual case is a pair booked but not there at the start, or one that arrives late: the
    movement does not change, only whether that slot's meetings are played. Results already
    entered for the pair are kept.
    """
    _require_status(event, "draft", "running", doing="change who is present")
    pair = Pair.objects.select_for_update().get(pk=pair.pk, section__event=event)
    if pair.is_phantom == absent:
        return pair
    if pair.presence:
        raise EventError(
            f'{pair.label} came late or left during play: change that under "A pair comes '
            'late or leaves early" (undo the last change, or record a new one), not with '
            "the Absent box."
        )
    pair.is_phantom = absent
    if not absent and event.status == Event.Status.RUNNING:
        pair.arrived_late = True
    pair.save(update_fields=["is_phantom", "arrived_late"])
    audit_record(
        event=event,
        user=user,
        action="pair absent" if absent else "pair present",
        target=f"pair {pair.label}",
        before={"phantom": not absent},
        after={"phantom": absent},
    )
    results_changed(event=event)
    return pair


@transaction.atomic
def pairs_swap(*, event: Event, first: Pair, second: Pair, reason: str, user: User = None) -> None:
    """Move a pair: the players of two slots change places (e.g. they sat at the wrong table).

    The slots keep their numbers and results; the names move, so the standings credit the
    people who really played each seat.
    """
    _require_status(event, "draft", "running", "finished", doing="move a pair")
    if not reason.strip():
        raise EventError("Say why the pair is being moved.")
    if first.section.event_id != event.pk or second.section.event_id != event.pk:
        raise EventError("Both pairs must be in this event.")
    if first.pk == second.pk:
        raise EventError("Choose two different pairs.")
    locked = {
        p.pk: p for p in Pair.objects.select_for_update().filter(pk__in=[first.pk, second.pk])
    }
    first, second = locked[first.pk], locked[second.pk]
    before = {first.label: first.names, second.label: second.names}
    first.player1, second.player1 = second.player1, first.player1
    first.player2, second.player2 = second.player2, first.player2
    first.member1, second.member1 = second.member1, first.member1
    first.member2, second.member2 = second.member2, first.member2
    moved = ["player1", "player2", "member1", "member2"]
    first.save(update_fields=moved)
    second.save(update_fields=moved)
    audit_record(
        event=event,
        user=user,
        action="pair moved",
        target=f"pairs {first.label} and {second.label}",
        before=before,
        after={first.label: first.names, second.label: second.names},
        reason=reason,
    )
    results_changed(event=event)


#: The most boards one file may bring in, whatever its kind (a PBN board file, a results
#: file, an event's clubwhist JSON): a club evening plays 24 to 36 boards and the longest
#: movements here 120, so 200 leaves room for any real event. Counted before any board is
#: read (a PBN file's Deal tags, a USEBIO file's BOARD elements, a JSON list's length), and
#: the PBN reader stops past it too: reading 40,000 boards took a minute and a half.
MAX_IMPORT_BOARDS = 200
#: The largest file a director imports (a board file, a results file), refused unread above
#: it: a 200-board PBN file is under 100 KB, a 30-table evening's USEBIO under 0.5 MB.
MAX_FILE_BYTES = 5 * 1024 * 1024


def file_size_check(*, text: str, what: str) -> None:
    """EventError before a file is read when it is larger than any real one (`what` names
    it for the message: "board file", "results file")."""
    if len(text) > MAX_FILE_BYTES:
        raise EventError(
            f"The {what} is over {MAX_FILE_BYTES // (1024 * 1024)} MB, far more than one "
            "event's: check that it is the right file."
        )


def too_many_boards(found: int) -> str:
    """The refusal of a file with `found` boards, over MAX_IMPORT_BOARDS: what is wrong and
    what to do, in one place for every import."""
    return (
        f"The file has {found} boards; an event plays at most {MAX_IMPORT_BOARDS}. Split the "
        "file, or export only this evening's boards from the dealing program. Nothing was "
        "imported."
    )


def boards_import(*, event: Event, pbn_text: str, user: User = None) -> list[Board]:
    """Replace the event's boards with pre-dealt ones from a PBN file (draft events only)."""
    return boards_import_counted(event=event, pbn_text=pbn_text, user=user)[0]


@transaction.atomic
def boards_import_counted(
    *, event: Event, pbn_text: str, user: User = None
) -> tuple[list[Board], int]:
    """`boards_import`, also saying how many of the file's boards the movement does not play
    (they are not stored; the director is told, not left to wonder)."""
    _require_status(event, "draft", doing="replace the boards")
    file_size_check(text=pbn_text, what="board file")
    games = pbn.deal_count(pbn_text)
    if games > MAX_IMPORT_BOARDS:
        raise EventError(too_many_boards(games))
    rules = rules_for(event)
    # The event's game reads untagged boards (a dealing program's plain bridge deals); the
    # reader stops past the limit, for a board the count above could not see.
    imported = pbn.loads_for_game(pbn_text, rules, most=MAX_IMPORT_BOARDS)
    section = event.section
    needed = movement_for(section).board_count()
    numbers = sorted(b.number for b in imported)
    if len(set(numbers)) != len(numbers):
        raise EventError("The file has the same board number twice.")
    missing = sorted(set(range(1, needed + 1)) - set(numbers))
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        raise EventError(f"The movement needs boards 1-{needed}; the file lacks {shown}.")
    for board in sorted(imported, key=lambda b: b.number):
        try:
            rules.check_board(board)
        except EntryError as exc:
            raise EventError(f"Board {board.number} in the file does not fit: {exc}.") from None
    Board.objects.filter(event=event).delete()
    boards = Board.objects.bulk_create(
        Board(event=event, number=b.number, record=board_record(b))
        for b in sorted(imported, key=lambda b: b.number)
        if b.number <= needed
    )
    audit_record(
        event=event,
        user=user,
        action="boards imported",
        target=f"event {event.pk}",
        after={"boards": len(boards)},
    )
    return boards, sum(1 for b in imported if b.number > needed)


@transaction.atomic
def event_start(*, event: Event, user: User = None) -> Event:
    """Lock the movement and boards and open result entry."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _require_status(event, "draft", doing="start the event")
    section = event.section
    needed = movement_for(section).board_count()
    have = event.boards.count()
    if have < needed:
        raise EventError(f"The movement needs {needed} boards; the event has {have}.")
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    audit_record(event=event, user=user, action="event started", target=f"event {event.pk}")
    table_links_ensure(event=event)  # every table's tablet link is ready when play starts
    return event


def _lock_for_scoring(event: Event) -> Event:
    """Lock the event for a change that scores it in the same transaction: the section rows
    first, as the scorer takes them (`standings_refresh`), then the event row. A rescore in
    the worker holds the sections and updates the event row at its end; taking the event row
    first and then waiting for the sections would deadlock with it."""
    lock_sections(event_id=event.pk)
    return Event.objects.select_for_update().get(pk=event.pk)


@transaction.atomic
def event_finish(*, event: Event, user: User = None) -> Event:
    """Close result entry and compute the final standings now, not in the background."""
    event = _lock_for_scoring(event)
    _require_status(event, "running", doing="close the event")
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    audit_record(event=event, user=user, action="event closed", target=f"event {event.pk}")
    standings_refresh(event_id=event.pk, force=True)
    return event


@transaction.atomic
def event_reopen(*, event: Event, reason: str, user: User = None) -> Event:
    """Reopen a finished or published event for late corrections (audited). Live results are
    switched off: the public does not watch corrections half-made."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _require_status(event, "finished", "published", doing="reopen the event")
    if not reason.strip():
        raise EventError("Say why the event is being reopened.")
    before = event.status
    event.status = Event.Status.RUNNING
    # Corrections are not for the public to watch: an event reopened is not "live" again
    # (members see it once it is published again; the director may open it live on purpose).
    event.live_public = False
    event.save(update_fields=["status", "live_public"])
    audit_record(
        event=event,
        user=user,
        action="event reopened",
        target=f"event {event.pk}",
        before={"status": before},
        after={"status": event.status},
        reason=reason,
    )
    jobs.season_play_changed("event", event.pk)
    return event


@transaction.atomic
def event_publish(*, event: Event, user: User = None) -> Event:
    """Make the final standings public (members can read them without logging in)."""
    event = _lock_for_scoring(event)
    _require_status(event, "finished", doing="publish the results")
    standings_refresh(event_id=event.pk, force=True)
    event.status = Event.Status.PUBLISHED
    event.save(update_fields=["status"])
    audit_record(event=event, user=user, action="results published", target=f"event {event.pk}")
    jobs.season_play_changed("event", event.pk)
    return event


def event_set_live_public(*, event: Event, live: bool, user: User = None) -> Event:
    """Let everyone follow the results while the event runs (or stop it); a published event
    is public whatever this says."""
    if event.live_public != live:
        Event.objects.filter(pk=event.pk).update(live_public=live)
        event.live_public = live
        audit_record(
            event=event,
            user=user,
            action="live results public" if live else "live results private",
            target=f"event {event.pk}",
        )
    return event
