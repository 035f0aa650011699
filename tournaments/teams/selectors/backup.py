"""The teams' part of the backup, reading (the teams' models' tables, a team tournament's
document, the leagues and tournaments a backup takes): the kernel's framework
(`tournaments.kernel.backup`) writes it out.

A team tournament's document (a Bid Whist tournament, or one week of a league) holds its club,
its league (by name; null for a tournament on its own), every column of the tournament
(settings, status, the round being played, the seed, the bracket), its teams, each round's
tables as drawn, each game as entered and as counted (forfeits, withdrawals, byes and playoff
matches included), its tablet links and its audit trail: everything its standings and bracket
are worked out from. A backup carries its leagues apart ("leagues"), so a league none of whose
weeks exists yet is kept too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tournaments.kernel.backup.dump import (
    documents_of,
    head,
    member_links_out,
    named_in,
    row,
    usernames,
)
from tournaments.kernel.backup.registry import Picked, Tables
from tournaments.kernel.backup.schema import (
    AUDIT_FIELDS,
    LINK_FIELDS,
    Model,
    listed_under,
)
from tournaments.kernel.models import Club
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
    TournamentTableAccess,
    TournamentTeam,
)

TOURNAMENT_FORMAT = "clubwhist-tournament"

#: What a tournament's document (and a backup's league) carries of each of the teams' models.
TABLES = Tables(
    fields={
        League: ("id", "name", "created_by", "created_at"),
        Tournament: (
            "id",
            "week",
            "name",
            "date",
            "settings",
            "status",
            "round",
            "round_started_at",
            "seed",
            "live_public",
            "moves_on",
            "version",
            "bracket",
            "created_by",
            "created_at",
        ),
        TournamentTeam: (
            "id",
            "number",
            "name",
            "city",
            "player_one",
            "player_two",
            "member_one",
            "member_two",
            "paid_cents",
            "in_pot",
            "present",
            "withdrawn_after",
            "league_team",
        ),
        TournamentRound: ("id", "number", "tables", "drawn_at"),
        TournamentGame: (
            "id",
            "round",
            "table",
            "match",
            "home",
            "away",
            "kind",
            "status",
            "hands",
            "score",
            "result",
            "entered_by",
            "note",
            "source",
            "entered_at",
            "confirmed_at",
        ),
        TournamentTableAccess: LINK_FIELDS,
        TournamentAudit: AUDIT_FIELDS,
    },
    added_later={
        # A league kept its teams by each week's numbers before migration 0016: None reads a
        # team by its number on the night, as the league table then did.
        # A tournament's audit kept no name in words before migration 0015: its lines said who
        # only by the account.
        TournamentAudit: {"user_name": ""},
        # The links to the member register came with migration 0019 and were carried from
        # version 2 of the document (version 5 of the backup): before, none.
        TournamentTeam: {"league_team": None, "member_one": None, "member_two": None},
    },
    implied={
        League: {"club": "the document's club (a backup's league block names its club's slug)"},
        Tournament: {
            "club": "the document's club",
            "league": "the document's league block (null: not a league week)",
        },
        **listed_under(
            "tournament",
            TournamentTeam,
            TournamentRound,
            TournamentGame,
            TournamentTableAccess,
            TournamentAudit,
        ),
    },
)

#: Under a tournament, its rows by the models' related names, in the order they are written back.
TOURNAMENT_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("teams", TournamentTeam),
    ("rounds", TournamentRound),
    ("games", TournamentGame),
    ("table_access", TournamentTableAccess),
    ("audit", TournamentAudit),
)


def tournament_document(tournament: Tournament, *, backup: bool = False) -> dict[str, Any]:
    """The whole team tournament (or league week) as a JSON-ready document
    (`TOURNAMENT_FORMAT`, its version): its club, its league (by name; the week is the
    tournament's own column) or null, every column of the tournament (settings, status, the
    round being played, the seed, the bracket) and every row under it (teams, each round's
    tables as drawn, each game as entered and as counted, whatever its status, the tablet
    links with their tokens, the audit trail). The standings and the bracket's progress are
    not in it: they are worked out from these rows, here and wherever the document is
    restored. A team's players' links to the club's members are the members' ids in a whole
    backup (`backup`), which carries the register, and their names in a document on its own
    (`kernel.backup.dump.member_links_out`). Reads only; call inside `consistent_read()` when
    tablets may be writing."""
    tournament = Tournament.objects.select_related("club", "league").get(pk=tournament.pk)
    rows = {
        key: list(model._default_manager.filter(tournament=tournament).order_by("pk"))
        for key, model in TOURNAMENT_CHILDREN
    }
    league = tournament.league
    users = usernames(
        [
            tournament.created_by_id,
            None if league is None else league.created_by_id,
            *TournamentAudit.objects.filter(tournament=tournament).values_list(
                "user_id", flat=True
            ),
        ]
    )
    members = member_links_out(
        [getattr(t, f"{link}_id") for t in rows["teams"] for link in TournamentTeam.MEMBER_NAMES],
        backup=backup,
    )
    document: dict[str, Any] = {
        **head(TOURNAMENT_FORMAT, tournament.club),
        "league": None if league is None else row(league, League, users=users),
        "tournament": row(tournament, Tournament, users=users),
    }
    for key, model in TOURNAMENT_CHILDREN:
        document[key] = [row(item, model, users=users, members=members) for item in rows[key]]
    return document


def _league_entries(leagues: Iterable[League]) -> list[dict[str, Any]]:
    """A backup's leagues, each with its club's slug: a league none of whose weeks exists
    yet is kept too."""
    chosen = sorted({league.pk: league for league in leagues}.items())
    users = usernames(league.created_by_id for _, league in chosen)
    return [
        {"club": league.club.slug, "league": row(league, League, users=users)}
        for _, league in chosen
    ]


def _named_users_of_tournaments(
    documents: Iterable[Mapping[str, Any]], leagues: Iterable[Mapping[str, Any]]
) -> Iterator[str]:
    yield from (entry["league"]["created_by"] for entry in leagues if entry["league"]["created_by"])
    for doc in documents:
        yield from named_in(doc, "tournament")
        if doc["league"] is not None and doc["league"]["created_by"]:
            yield doc["league"]["created_by"]


def tournaments_picked(
    clubs: list[Club], chosen: Iterable[Tournament] | None, whole: bool
) -> Picked:
    """A backup's "leagues" and "tournaments": the tournaments given and those of the clubs
    given (with `whole`, every one), each a document of its own, and the leagues of those
    clubs and tournaments, each with its club's slug; with their clubs and the people they
    name."""
    tournaments, documents = documents_of(
        chosen,
        clubs,
        lambda club: Tournament.objects.filter(club=club).select_related("club", "league"),
        lambda: Tournament.objects.select_related("club", "league"),
        whole,
        lambda tournament: tournament_document(tournament, backup=True),
    )
    leagues = list(League.objects.filter(club__in=[c.pk for c in clubs]).select_related("club"))
    if whole:
        leagues = list(League.objects.select_related("club"))
    leagues += [t.league for t in tournaments if t.league is not None]
    entries = _league_entries(leagues)
    return Picked(
        blocks={"leagues": entries, "tournaments": documents},
        clubs=[t.club for t in tournaments],
        usernames=set(_named_users_of_tournaments(documents, entries)),
    )
