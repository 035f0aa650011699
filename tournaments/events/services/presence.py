"""A pair that comes late or leaves early, and tables not finished when the next round starts.

Arrivals and departures are per round: "pair 5 is away from round 4 on", "the late pair plays
from round 3 on". The pair's slot in the movement does not change; in the rounds it misses its
meetings have no game (its opponents sit out, as they would against the phantom), and the
director decides what those meetings score (`award`, as seen from the pair left waiting and
then from the absent pair):
- a pair that leaves: by default its opponents get average-plus and the pair itself nothing
  for the rounds it misses ("A+/NP"): the waiting pair came to play and could not, through no
  fault of its own (Law 12C2); the pair that left is ranked on the boards it played;
- a pair that comes late: by default nothing on either side for the rounds before it came
  ("NP"), as for the phantom of an odd number of pairs: those opponents were told at the
  table that they sat out. The director may give them an average instead.
Each award is an artificial result of its own (`Result.Status.ARTIFICIAL`, marked as the
absence's by `ABSENCE_DEVICE`), so the director can change any one of them on the usual
artificial-score page. A change of presence is undone only before anything has been played
after it.

A late pair with no slot of its own (an odd number of pairs, the movement's phantom, pair 0)
takes the phantom's place: the movement is the same one without its phantom (the Howell's
stationary pair, the Mitchell's missing pair), the new pair's slot is made, and it is away in
the rounds before it came.

A table that has not finished its boards when the director starts the next round: see
`corrections.unfinished_averages`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q

from engine.movements import MovementError, validate
from engine.scoring import ArtificialCodeError, method_scope, parse_artificial
from tournaments.events.bridge import meeting_rows, movement_for
from tournaments.events.models import Event, MovementRow, Pair, Result, Section
from tournaments.events.services.audit import audit_record
from tournaments.events.services.corrections import award_create
from tournaments.events.services.events import EventError
from tournaments.events.services.scoring import results_changed
from tournaments.events.services.tablets import table_links_ensure
from tournaments.kernel.audit import User
from tournaments.kernel.member_links import NameLinker

ABSENCE_DEVICE = Result.ABSENCE_DEVICE

LEAVING_AWARD = "A+/NP"
LATE_AWARD = "NP"


def _award_checked(event: Event, award: str) -> str:
    """The award as stored ("A+/NP"; "NP" for nothing either side), or EventError."""
    try:
        waiting, away = parse_artificial(award)
    except ArtificialCodeError as exc:
        raise EventError(f"{exc}.") from None
    refusal = method_scope(event.method).artificial_refusal((waiting, away))
    if refusal is not None:
        raise EventError(f"{refusal}.")
    return waiting if waiting == away else f"{waiting}/{away}"


def default_award(event: Event, *, leaving: bool) -> str:
    """The award a change gets unless the director says otherwise (see the module's note);
    nothing either side where the method has no average (total points)."""
    wanted = LEAVING_AWARD if leaving else LATE_AWARD
    codes = parse_artificial(wanted)
    return wanted if method_scope(event.method).artificial_refusal(codes) is None else "NP"


def _running(event: Event, doing: str) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.RUNNING:
        raise EventError(
            f"You can {doing} only while the event is running "
            f"(it is {event.get_status_display().lower()})."
        )
    return event


def _round_checked(section: Section, round: int) -> None:
    if not 1 <= round <= section.rounds:
        raise EventError(f"Rounds run from 1 to {section.rounds}, not {round}.")


def _meetings_of(section: Section, pair: Pair) -> Iterable[tuple[int, int, str, int]]:
    """The pair's meetings: (round, table, its seat, the opponents' number)."""
    for (rnd, table), row in sorted(meeting_rows(section).items()):
        for seat, number, other in (
            ("NS", row.ns_pair, row.ew_pair),
            ("EW", row.ew_pair, row.ns_pair),
        ):
            if number == pair.number and section.direction_of(seat) == pair.direction:
                yield rnd, table, seat, other


def _played(section: Section, pair: Pair, rounds: Iterable[int]) -> list[Result]:
    """The pair's results in those rounds that are not an absence's award."""
    return list(
        Result.objects.filter(section=section, round__in=list(rounds))
        .filter(_of_pair(pair))
        .exclude(entered_by_device=ABSENCE_DEVICE, status=Result.Status.ARTIFICIAL)
        .order_by("round", "board_number")
    )


def _of_pair(pair: Pair) -> Q:
    return Q(ns_pair=pair) | Q(ew_pair=pair)


def _award_of(pair: Pair, rnd: int) -> str:
    """The award governing round `rnd` (one the pair misses): the change that took it away,
    or, before its first change, the arrival that ended its first absence."""
    changes = sorted(pair.presence, key=lambda c: c["round"])
    governing = [c for c in changes if c["round"] <= rnd]
    change = governing[-1] if governing else changes[0]
    return str(change.get("award") or "NP")


def _awards_rewrite(section: Section, pair: Pair, user: User) -> None:
    """Make the pair's award results match its presence: one for each board of each meeting
    it misses against a pair that is there (award not NP both sides), none where it plays.
    An award the director has changed since stays as changed; a played result is never
    touched."""
    missed = pair.absent_rounds(section.rounds) if pair.presence else frozenset()
    pairs = {(p.number, p.direction): p for p in Pair.objects.filter(section=section)}
    stored = {
        (r.round, r.table, r.board_number): r
        for r in Result.objects.filter(section=section).filter(_of_pair(pair))
    }
    for rnd, table, seat, other_number in _meetings_of(section, pair):
        other_seat = "EW" if seat == "NS" else "NS"
        other = pairs.get((other_number, section.direction_of(other_seat)))
        row = meeting_rows(section)[(rnd, table)]
        boards = section.boards_of_set(row.board_set)
        if other is None:
            continue  # the movement's phantom: a sit-out, as ever
        other_away = rnd in _missed(section, other)
        if rnd not in missed or other_away:
            if rnd not in missed and not other_away:  # both there: nobody's absence to score
                for number in boards:
                    found = stored.get((rnd, table, number))
                    if (
                        found is not None
                        and found.entered_by_device == ABSENCE_DEVICE
                        and (found.status == Result.Status.ARTIFICIAL)
                    ):
                        found.delete()
            continue
        waiting, away = parse_artificial(_award_of(pair, rnd))
        if (waiting, away) == ("NP", "NP"):
            codes = None
        else:
            ns_code, ew_code = (away, waiting) if seat == "NS" else (waiting, away)
            codes = ns_code if ns_code == ew_code else f"{ns_code}/{ew_code}"
        for number in boards:
            found = stored.get((rnd, table, number))
            if found is not None:
                if codes is None and found.entered_by_device == ABSENCE_DEVICE:
                    found.delete()
                continue  # played, or an award already given (perhaps changed since)
            if codes is None:
                continue
            award_create(
                section=section,
                number=number,
                round=rnd,
                table=table,
                pairs=(pair, other) if seat == "NS" else (other, pair),
                code=codes,
                device=ABSENCE_DEVICE,
                user=user,
            )


def _missed(section: Section, pair: Pair) -> frozenset[int]:
    return pair.absent_rounds(section.rounds) if pair.is_phantom or pair.presence else frozenset()


def _last_round_changed(pair: Pair) -> int:
    return max((int(c["round"]) for c in pair.presence), default=0)


@transaction.atomic
def pair_leave(
    *, event: Event, pair: Pair, round: int, award: str | None = None, user: User = None
) -> Pair:
    """The pair goes home before the end: from `round` on it is a phantom (its opponents sit
    out and get `award`, by default Ave+ to them and nothing to it)."""
    event = _running(event, "mark a pair as leaving")
    section = event.section
    _round_checked(section, round)
    pair = Pair.objects.select_for_update().get(pk=pair.pk, section=section)
    if round in _missed(section, pair):
        raise EventError(f"{pair.label} is already away in round {round}.")
    if round <= _last_round_changed(pair):
        raise EventError(
            f"{pair.label} already has a change from round {_last_round_changed(pair)}: a "
            "departure must come after it (undo that change first if it was a mistake)."
        )
    code = _award_checked(event, award if award is not None else default_award(event, leaving=True))
    played = _played(section, pair, range(round, section.rounds + 1))
    if played:
        first = played[0]
        raise EventError(
            f"{pair.label} has a result in round {first.round} (board {first.board_number}): "
            f"it played then, so it cannot have left from round {round}. Give the round it "
            "really left, or correct that result first."
        )
    before = {"presence": list(pair.presence), "phantom": pair.is_phantom}
    if not pair.presence and pair.is_phantom:  # defensive: absent all evening already
        raise EventError(f"{pair.label} is marked absent for the whole evening.")
    pair.presence = [*pair.presence, {"round": round, "present": False, "award": code}]
    pair.is_phantom = True
    pair.save(update_fields=["presence", "is_phantom"])
    _awards_rewrite(section, pair, user)
    audit_record(
        event=event,
        user=user,
        action="pair left",
        target=f"pair {pair.label}",
        before=before,
        after={"from round": round, "award": code},
    )
    results_changed(event=event)
    return pair


@transaction.atomic
def pair_arrive(
    *,
    event: Event,
    round: int,
    pair: Pair | None = None,
    names: tuple[str, str] | None = None,
    award: str | None = None,
    user: User = None,
) -> Pair:
    """A pair comes late and plays from `round` on: in the place of a pair slot marked absent
    (`pair`), or, with no `pair`, of the movement's phantom (an odd number of pairs). The
    rounds before it came score `award` (by default nothing on either side: a sit-out)."""
    event = _running(event, "seat a late pair")
    section = Section.objects.select_for_update().get(pk=event.section.pk)
    _round_checked(section, round)
    code = _award_checked(
        event, award if award is not None else default_award(event, leaving=False)
    )
    if pair is None:
        pair = _take_phantoms_place(event, section, user)
        new_slot = True
    else:
        pair = Pair.objects.select_for_update().get(pk=pair.pk, section=section)
        new_slot = False
    missed = _missed(section, pair)
    if round not in missed:
        raise EventError(f"{pair.label} is not away in round {round}: nothing to change.")
    if round <= _last_round_changed(pair):
        raise EventError(
            f"{pair.label} already has a change from round {_last_round_changed(pair)}: an "
            "arrival must come after it (undo that change first if it was a mistake)."
        )
    before = {"presence": list(pair.presence), "phantom": pair.is_phantom}
    pair.presence = [*pair.presence, {"round": round, "present": True, "award": code}]
    pair.is_phantom = False
    pair.arrived_late = True
    fields = ["presence", "is_phantom", "arrived_late"]
    if names is not None:
        linker = NameLinker(event.club, refused=EventError)
        pair.player1, pair.player2 = (n.strip() for n in names)
        pair.member1, pair.member2 = (
            linker.link(n, what=f"{pair.label}'s player") for n in (pair.player1, pair.player2)
        )
        fields += ["player1", "player2", "member1", "member2"]
    pair.save(update_fields=fields)
    _awards_rewrite(section, pair, user)
    audit_record(
        event=event,
        user=user,
        action="pair arrived",
        target=f"pair {pair.label}",
        before=before,
        after={
            "from round": round,
            "award": code,
            "in the phantom's place": new_slot,
            "names": pair.names,
        },
    )
    results_changed(event=event)
    if new_slot:  # the sit-out table is played at from now on: its tablet link
        table_links_ensure(event=Event.objects.get(pk=event.pk))
    return pair


def _without_phantom(section: Section) -> dict[str, Any]:
    params = dict(section.movement_params)
    if not params.get("phantom"):
        raise EventError(
            "This movement has no phantom whose place a late pair could take: choose the "
            "absent pair slot the late pair fills."
        )
    params["phantom"] = False
    return params


def _take_phantoms_place(event: Event, section: Section, user: User) -> Pair:
    """The movement without its phantom, the same in every other meeting: pair 0 becomes a
    pair slot (absent in every round, until its arrival is recorded)."""
    params = _without_phantom(section)
    old = movement_for(section)
    try:
        fuller = movement_for(Section(movement_kind=section.movement_kind, movement_params=params))
    except MovementError as exc:
        raise EventError(f"The movement cannot take a late pair: {exc}.") from None
    old_meetings = {(m.round, m.table): m for m in old.meetings}
    same = len(fuller.meetings) == len(old.meetings) and validate(fuller).ok
    for m in fuller.meetings:
        was = old_meetings.get((m.round, m.table))
        if was is None or was.set != m.set or (was.ns or m.ns) != m.ns or (was.ew or m.ew) != m.ew:
            same = False
    slots = {(s.number, section.direction_of(s.direction or "")) for s in fuller.pairs}
    have = set(Pair.objects.filter(section=section).values_list("number", "direction"))
    new = sorted(slots - have)
    if not same or len(new) != 1:
        raise EventError(
            "In this movement the late pair cannot simply take the phantom's place (the "
            "movement without a phantom seats pairs differently): start the pair in the next "
            "event, or seat it with the director's own arrangement."
        )
    number, direction = new[0]
    for m in fuller.meetings:
        was = old_meetings[(m.round, m.table)]
        if (was.ns, was.ew) != (m.ns, m.ew):
            MovementRow.objects.filter(section=section, round=m.round, table=m.table).update(
                ns_pair=m.ns, ew_pair=m.ew
            )
    section.movement_params = params
    section.save(update_fields=["movement_params"])
    audit_record(
        event=event,
        user=user,
        action="phantom replaced",
        target=f"section {section.name}",
        before={"movement_params": {**params, "phantom": True}},
        after={"movement_params": params},
    )
    return Pair.objects.create(section=section, number=number, direction=direction, is_phantom=True)


@transaction.atomic
def presence_undo(*, event: Event, pair: Pair, reason: str, user: User = None) -> Pair:
    """Take back the pair's last arrival or departure, recorded by mistake: only before
    anything has been played in that round or after it (what is played stays played)."""
    event = _running(event, "undo an arrival or departure")
    if not reason.strip():
        raise EventError("Say why the arrival or departure is undone.")
    section = Section.objects.select_for_update().get(pk=event.section.pk)
    pair = Pair.objects.select_for_update().get(pk=pair.pk, section=section)
    if not pair.presence:
        raise EventError(f"{pair.label} has no arrival or departure to undo.")
    last = max(pair.presence, key=lambda c: c["round"])
    played = (
        Result.objects.filter(section=section, round__gte=last["round"])
        .exclude(status=Result.Status.ARTIFICIAL)
        .order_by("round", "table")
        .first()
    )
    if played is not None:
        raise EventError(
            f"Round {played.round} has been played since (table {played.table}, board "
            f"{played.board_number}): the {'arrival' if last['present'] else 'departure'} of "
            f"{pair.label} stays. Give the rounds concerned the scores you want on the "
            "artificial-score page instead."
        )
    before = {"presence": list(pair.presence), "phantom": pair.is_phantom}
    pair.presence = [c for c in pair.presence if c is not last]
    # After its other changes as they were; with none left, as it was before this one (away
    # before an arrival, there before a departure).
    pair.is_phantom = not pair.presence[-1]["present"] if pair.presence else last["present"]
    pair.save(update_fields=["presence", "is_phantom"])
    _awards_rewrite(section, pair, user)
    gone = False
    if not pair.presence and pair.is_phantom and _phantom_slot(section, pair):
        # The late pair that had taken the phantom's place: the phantom comes back.
        Result.objects.filter(section=section).filter(_of_pair(pair)).filter(
            entered_by_device=ABSENCE_DEVICE, status=Result.Status.ARTIFICIAL
        ).delete()
        params = {**section.movement_params, "phantom": True}
        old = {(m.round, m.table): m for m in movement_for(section).meetings}
        section.movement_params = params
        section.save(update_fields=["movement_params"])
        for m in movement_for(section).meetings:
            if (old[(m.round, m.table)].ns, old[(m.round, m.table)].ew) != (m.ns, m.ew):
                MovementRow.objects.filter(section=section, round=m.round, table=m.table).update(
                    ns_pair=m.ns, ew_pair=m.ew
                )
        pair.delete()
        gone = True
    audit_record(
        event=event,
        user=user,
        action="arrival undone" if last["present"] else "departure undone",
        target=f"pair {pair.label}",
        before=before,
        after={"presence": list(pair.presence), "phantom": True if gone else pair.is_phantom},
        reason=reason,
    )
    results_changed(event=event)
    return pair


def _phantom_slot(section: Section, pair: Pair) -> bool:
    """The pair slot made when a late pair took the movement's phantom's place."""
    if section.movement_params.get("phantom") is not False:
        return False
    with_phantom = Section(
        movement_kind=section.movement_kind,
        movement_params={**section.movement_params, "phantom": True},
    )
    try:
        slots = movement_for(with_phantom).pairs
    except MovementError:
        return False
    return not any(
        s.number == pair.number and section.direction_of(s.direction or "") == pair.direction
        for s in slots
    )
