"""Read side of the published results: what members, the room display and exports read.

Everything a public page shows of an event at one results version is gathered once into a
`PublishedEvent` and kept in the cache under that version: a published evening is read by many
members and changes only when results do, so pages cost a cache read and a render.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.http import Http404

from clubwhist.queries import Prepared
from engine import pbn
from engine.boards import Board as EngineBoard
from engine.dd.analysis import par_summary
from engine.games import GameRules
from engine.publishing import ResultInfo, board_frequencies, pair_card, row_for
from engine.scoring.document import StandingRow, StandingsDocument
from tournaments.events import access
from tournaments.events.bridge import board_from_record, engine_board, rules_for, rules_named
from tournaments.events.models import Board, Event, Pair, Result, Standings
from tournaments.events.selectors.documents import (
    ClubEvent,
    ClubEvents,
    PairCardLine,
    PublicBoard,
    PublicPair,
    PublicStandings,
)
from tournaments.events.selectors.events import latest_standings
from tournaments.events.selectors.standings import finished_standings
from tournaments.kernel.member_links import shown_player
from tournaments.kernel.models import Club, Member, PublicName

CACHE_SECONDS = 15 * 60


def event_for_reader(pk: int, user: Any) -> Event:
    """The event if this reader may see it (its club's directors: always, to check the pages
    before publishing; anyone: public ones)."""
    event = Event.objects.select_related("club").prefetch_related("sections").filter(pk=pk).first()
    if event is None or not (event.is_public or access.directs(user, event)):
        raise Http404("No published results here.")
    return event


def sees_everything(event: Event, user: Any) -> bool:
    """Published results are whole for everyone; the event's directors see every board of a
    running event (to check it); everyone else sees only finished boards (`boards_shown`)."""
    return event.status == Event.Status.PUBLISHED or access.directs(user, event)


def boards_shown(event: Event, user: Any, results: PublishedEvent) -> frozenset[int]:
    """The boards whose hands and results this reader may see now.

    Cards are secret until played: while an event runs (or is being checked before it is
    published), a board's hands, par, results, frequencies and each pair's line on it reach
    the public only once every table that plays it has finished it (`boards_finished`)."""
    if sees_everything(event, user):
        return frozenset(results.boards)
    return results.finished & frozenset(results.boards)


def published_for(event: Event, user: Any, key: str | None = None) -> PublishedEvent:
    """The event's results as this reader may see them: everything for the event's directors
    and once published (`sees_everything`); for everyone else `PublishedEvent.public_view`,
    whose standings count only the finished boards. Every public page, part, stream and API
    document reads the results through here."""
    results = published(event, key)
    if not sees_everything(event, user):
        results = results.public_view()
    if not access.directs(user, event):
        results = results.named(public_pair_names(event))
    return results


def _shown_names(pair: Pair) -> str:
    return " & ".join(
        shown_player(name, member)
        for name, member in ((pair.player1, pair.member1), (pair.player2, pair.member2))
        if name
    )


def public_pair_names(event: Event) -> dict[str, dict[str, str]]:
    """The pairs whose names a public reader sees otherwise than typed (section name -> pair
    key -> names): a linked member's name as they chose it shown (`shown_player`). Read at
    each request, not kept in the snapshot: a member's choice applies at once."""
    names: dict[str, dict[str, str]] = {}
    linked = (
        Pair.objects.filter(section__event=event)
        .filter(Q(member1__isnull=False) | Q(member2__isnull=False))
        .select_related("section", "member1", "member2")
    )
    for pair in linked:
        shown = _shown_names(pair)
        if shown != " & ".join(n for n in (pair.player1, pair.player2) if n):
            key = pair.section.pair_key(pair.number, pair.direction or "")
            names.setdefault(pair.section.name, {})[key] = shown
    return names


def document_for(results: PublishedEvent, shown: frozenset[int]) -> dict[str, Any] | None:
    """The standings document as a dict with only the shown boards' lines."""
    if results.document is None:
        return None
    data = results.document.to_dict()
    for section in data.get("sections", []):
        section["boards"] = {
            number: lines
            for number, lines in section.get("boards", {}).items()
            if int(number) in shown
        }
    return data


def club_events(club: Club) -> list[Event]:
    """A club's results page: published events and those followed live, newest first."""
    candidates = Event.objects.filter(club=club).exclude(status=Event.Status.DRAFT)
    return [event for event in candidates.order_by("-date", "-id") if event.is_public]


def club_events_document(club: Club) -> ClubEvents:
    """A club's results page as data: `club_events`, each with whether it is followed live."""
    return ClubEvents(
        club=club.name,
        events=tuple(
            ClubEvent(
                id=e.pk,
                name=e.name,
                date=e.date.isoformat(),
                game=e.game,
                status=e.status,
                live=e.status != Event.Status.PUBLISHED,
            )
            for e in club_events(club)
        ),
    )


def standings_document(
    event: Event, results: PublishedEvent, shown: frozenset[int]
) -> PublicStandings:
    """The standings document with only the shown boards' lines (`document_for`), and the
    version its results were scored at."""
    document = results.document
    if document is not None:
        document = replace(
            document,
            sections=tuple(
                replace(
                    section,
                    boards={n: lines for n, lines in section.boards.items() if int(n) in shown},
                )
                for section in document.sections
            ),
        )
    return PublicStandings(version=event.scored_version, document=document)


def board_document(results: PublishedEvent, number: int) -> PublicBoard:
    """A board the reader may see: its deal as PBN, par when known, and the frequency of
    every result (the caller checks `boards_shown` first: cards are secret until played)."""
    rows = (
        board_frequencies(results.document.sections[0], number, results.info)
        if results.document
        else []
    )
    analysis = results.analyses.get(number)
    return PublicBoard(
        board=number,
        pbn=pbn.dumps([results.board(number)]),
        par=par_summary(analysis) if analysis else None,
        analysis=analysis,
        frequencies=tuple(rows),
    )


def pair_document(results: PublishedEvent, key: str, shown: frozenset[int]) -> PublicPair | None:
    """A pair's score card on the shown boards: every board with the opponents, result,
    points and against par; None when no pair has that key."""
    for section in results.document.sections if results.document else ():
        row = row_for(section, key)
        if row is not None:
            card = [r for r in pair_card(section, row, results.info) if r.board in shown]
            return PublicPair(
                pair=row,
                boards=tuple(
                    PairCardLine(
                        board=r.board,
                        round=r.round,
                        table=r.table,
                        seat=r.direction,
                        opponents=r.opponents,
                        result=r.result,
                        score=r.score,
                        points=r.points,
                        top=r.top,
                        versus_par=r.versus_par,
                        running_percentage=r.running_percentage,
                    )
                    for r in card
                ),
            )
    return None


@dataclass
class PublishedEvent:
    """An event's results at one version, ready for any public page."""

    event_id: int
    version: int
    key: str  # the cache key of this snapshot: what a cached page part depends on
    rules_name: str
    options: dict[str, Any]
    document: StandingsDocument | None
    info: dict[tuple[int, int], ResultInfo] = field(default_factory=dict)
    boards: dict[int, str] = field(default_factory=dict)  # number -> PBN record
    analyses: dict[int, dict[str, Any]] = field(default_factory=dict)  # number -> par data
    # The boards every table has finished when the snapshot was made: what the public may see
    # of a running event (`boards_shown`).
    finished: frozenset[int] = frozenset()
    # The standings over those boards alone (`finished_standings`), for the readers who may
    # not see everything; the same object as `document` once every board is finished.
    public: StandingsDocument | None = None
    is_public_view: bool = False

    def public_view(self) -> PublishedEvent:
        """These results as a reader who may not see everything gets them: the standings over
        the finished boards only, and nothing else of an unfinished board (its results' lines,
        its par). A total over boards another table has yet to play would tell its players
        how those boards went (docs/directors/secrecy.md)."""
        if self.is_public_view:
            return self
        shown = self.finished
        return replace(
            self,
            document=self.public,
            info={key: info for key, info in self.info.items() if key[0] in shown},
            analyses={n: a for n, a in self.analyses.items() if n in shown},
            is_public_view=True,
        )

    def named(self, names: dict[str, dict[str, str]]) -> PublishedEvent:
        """These results with some pairs' names as a public reader sees them
        (`public_pair_names`)."""
        if not names:
            return self
        return replace(
            self,
            document=self.document.with_names(names) if self.document else None,
            public=self.public.with_names(names) if self.public else None,
        )

    @property
    def rules(self) -> GameRules:
        return rules_named(self.rules_name, self.options)

    def board(self, number: int) -> EngineBoard:
        return board_from_record(self.boards[number])


def snapshot_key(event: Event) -> str:
    """What an event's public pages depend on: its newest standings and its analysed boards
    (par can arrive after the results). Two small queries; no snapshot is loaded."""
    stored = (
        Standings.objects.filter(event=event).order_by("-version").values_list("pk", "version")
    ).first()
    analysed = Board.objects.filter(event=event, par_status=Board.ParStatus.DONE).count()
    pk, version = stored if stored else (0, -1)
    return f"published2:{event.pk}:{pk}:{version}:{analysed}"


_LOCAL: OrderedDict[str, PublishedEvent] = OrderedDict()  # this process's recent snapshots
_LOCAL_SIZE = 8
_LOCAL_LOCK = threading.Lock()


@dataclass
class _Details:
    """What a snapshot built in this process made of each result of an event, and from what:
    the rules (the game's name and options), each board's deal and par, each result's row."""

    made_by: tuple[str, str]
    deals: dict[int, tuple[str, Any]] = field(default_factory=dict)
    results: dict[tuple[int, int], tuple[tuple[Any, ...], ResultInfo]] = field(default_factory=dict)


_DETAILS: OrderedDict[int, _Details] = OrderedDict()  # the newest per event (`_build`)

# A snapshot's read of every result of the event, built into SQL once per connection.
_EVENT_RESULTS = Prepared(
    lambda event: Result.objects.filter(section__event_id=event).values_list(
        "board_number", "ns_pair__number", "round", "table", "entry", "artificial_code"
    )
)


def forget_snapshots() -> None:
    """Drop this process's snapshots (tests start each from an empty database and cache)."""
    with _LOCAL_LOCK:
        _LOCAL.clear()
        _DETAILS.clear()
        _BUILDING.clear()
        _PARTS.clear()


_PARTS: OrderedDict[str, str] = OrderedDict()  # this process's newest live parts (streams)


def recent_part(key: str) -> str | None:
    """A live part this process rendered or fetched lately (the streams of a room of readers
    all want the same one at the same moment)."""
    with _LOCAL_LOCK:
        return _PARTS.get(key)


def keep_part(key: str, html: str) -> None:
    with _LOCAL_LOCK:
        _PARTS[key] = html
        _PARTS.move_to_end(key)
        while len(_PARTS) > 32:
            _PARTS.popitem(last=False)


_BUILDING: dict[str, threading.Lock] = {}


def single_flight(key: str) -> threading.Lock:
    """One lock per key in this process: when new results land every open page asks at once,
    and one thread should build what the others then read."""
    with _LOCAL_LOCK:
        return _BUILDING.setdefault(key, threading.Lock())


def published(event: Event, key: str | None = None) -> PublishedEvent:
    """The event's results as of its newest stored standings: from this process's memory,
    else the shared cache, else built (and kept in both)."""
    key = key or snapshot_key(event)
    with _LOCAL_LOCK:
        found = _LOCAL.get(key)
        if found is not None:
            _LOCAL.move_to_end(key)
            return found
    with single_flight(key):
        return _load(event, key)


def _load(event: Event, key: str) -> PublishedEvent:
    with _LOCAL_LOCK:
        found = _LOCAL.get(key)
        if found is not None:
            return found  # another thread built it while this one waited
    cached = cache.get(key)
    if isinstance(cached, PublishedEvent):
        found = cached
    else:
        stored = latest_standings(event)
        found = _build(
            event, stored.data if stored else None, stored.version if stored else -1, key
        )
        cache.set(key, found, CACHE_SECONDS)
    with _LOCAL_LOCK:
        _LOCAL[key] = found
        while len(_LOCAL) > _LOCAL_SIZE:
            old, _ = _LOCAL.popitem(last=False)
            _BUILDING.pop(old, None)
    return found


def _build(event: Event, data: dict[str, Any] | None, version: int, key: str) -> PublishedEvent:
    rules = rules_for(event)
    boards = {b.number: b for b in Board.objects.filter(event=event)}
    analyses = {
        number: b.par
        for number, b in boards.items()
        if b.par_status == Board.ParStatus.DONE and b.par
    }
    info: dict[tuple[int, int], ResultInfo] = {}
    # What the previous snapshot of this event in this process made of each result, with what
    # it was made from: a new version changes a few results, and reading each entry again
    # (parsed, described, set against par) was a fifth of a snapshot's cost, which spaces the
    # live pages' parts (`tournaments/events/views/live.py`).
    made_by = (event.game, repr(sorted(event.options.items())))  # what rules_for reads
    deals = {number: (b.record, analyses.get(number)) for number, b in boards.items()}
    seen = _DETAILS.get(event.pk)
    earlier = seen if seen is not None and seen.made_by == made_by else _Details(made_by)
    same = {number for number, deal in deals.items() if earlier.deals.get(number) == deal}
    made = _Details(made_by, deals)
    for number, ns, rnd, table, entry, code in _EVENT_RESULTS(event.pk):
        source = (rnd, table, entry, code)
        found = earlier.results.get((number, ns)) if number in same else None
        if found is not None and found[0] == source:
            info[(number, ns)] = found[1]
            made.results[(number, ns)] = found
            continue
        text, versus = code, None
        if entry is not None:
            played = engine_board(boards[number])
            parsed = rules.parse_entry(played, entry)
            text = rules.describe_short(parsed)
            analysis = analyses.get(number)
            if analysis:
                tricks = rules.ns_tricks(played, parsed)
                dd = rules.dd_ns_tricks(played, parsed, analysis)
                if tricks is not None and dd is not None:
                    versus = tricks - dd
        info[(number, ns)] = ResultInfo(round=rnd, table=table, text=text, versus_par=versus)
        made.results[(number, ns)] = (source, info[(number, ns)])
    with _LOCAL_LOCK:
        _DETAILS[event.pk] = made
        _DETAILS.move_to_end(event.pk)
        while len(_DETAILS) > _LOCAL_SIZE:
            _DETAILS.popitem(last=False)
    document = StandingsDocument.from_dict(data) if data else None
    if event.status == Event.Status.PUBLISHED or document is None:
        # Published: everything is public, the standings as stored. Nothing stored yet: no
        # standings for anyone, and no board has been finished.
        finished, public = (frozenset(boards) if document else frozenset()), document
    else:
        computed = finished_standings(event=event)
        finished = computed.shown
        # Every board finished (the evening's end): the stored standings are the public ones.
        whole = all(not p.pending for p in computed.progress.values())
        public = document if whole and document is not None else computed.document
    return PublishedEvent(
        event_id=event.pk,
        version=version,
        key=key,
        rules_name=event.game,
        options=dict(event.options),
        document=document,
        info=info,
        boards={number: b.record for number, b in boards.items()},
        analyses=analyses,
        finished=finished,
        public=public,
    )


@dataclass(frozen=True)
class HistoryEntry:
    event: Event
    pair: Pair
    row: StandingRow | None  # None when the event has no standings


def _public_name(name: str, member: Member | None) -> bool:
    """Whether a public page may show this name as typed: a visitor's, or a member's who
    chose their full name."""
    return shown_player(name, member) == name


def player_history(club: Club, name: str) -> list[HistoryEntry]:
    """A player's published events at this club, oldest first, with the pair's result. A
    member who chose initials or to be hidden has no such page under their name: the places
    they played under it are left out."""
    pairs = Pair.objects.filter(
        section__event__club=club, section__event__status=Event.Status.PUBLISHED
    ).filter(Q(player1=name) | Q(player2=name))
    found = []
    for pair in pairs.select_related("section__event", "member1", "member2"):
        if not any(
            typed == name and _public_name(typed, member)
            for typed, member in ((pair.player1, pair.member1), (pair.player2, pair.member2))
        ):
            continue
        event = pair.section.event
        doc = published(event).document
        if doc is not None:
            doc = doc.with_names(public_pair_names(event))
        key = pair.section.pair_key(pair.number, pair.direction or "")
        row = None
        for section in doc.sections if doc else ():
            row = row_for(section, key) or row
        found.append(HistoryEntry(event, pair, row))
    found.sort(key=lambda item: (item.event.date, item.event.pk))
    return found


def player_names(club: Club) -> list[str]:
    """Everyone who has played in a published event of the club, as a public page may name
    them: members who chose initials or to be hidden are left out (their full name is not
    public, and a list of initials would lead nowhere)."""
    names: set[str] = set()
    for pair in Pair.objects.filter(
        section__event__club=club, section__event__status="published", is_phantom=False
    ).select_related("member1", "member2"):
        names.update(
            n
            for n, member in ((pair.player1, pair.member1), (pair.player2, pair.member2))
            if n and _public_name(n, member)
        )
    return sorted(names, key=str.casefold)


def member_pages(club: Club) -> dict[str, int]:
    """Names played under in the club's published events that belong to a member whose page
    is public under that same full name: name -> member id (the players' list links them to
    the member's page). A member shown by initials or hidden is left out: linking them here
    would put their full name beside their page."""
    found: dict[str, int] = {}
    pairs = Pair.objects.filter(
        section__event__club=club, section__event__status="published", is_phantom=False
    )
    for name_field, member_field in (("player1", "member1"), ("player2", "member2")):
        rows = pairs.filter(
            **{
                f"{member_field}__public_name": PublicName.FULL,
                f"{member_field}__erased_at__isnull": True,
            }
        ).values_list(name_field, member_field, f"{member_field}__name")
        for played, member, name in rows:
            if played and played == name:
                found[played] = member
    return found
