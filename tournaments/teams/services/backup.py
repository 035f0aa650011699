"""Writing checked team tournaments and leagues back into the database: one tournament on its
own (`manage.py restore`) or all of a backup's.

The same rules as a drive's restore (`drive_restoring`): one transaction, ids kept when none is
taken here (else new ones throughout, tokens and everything else kept), users linked by
username (made inactive when missing), refused, naming it, when the tournament is already here.
A league is matched by its club and its name (the one created at the same moment first, so two
leagues of one name stay two), else made as the document has it; a week the league here already
has refuses the tournament. A director's import of a tournament into a club of their choice
(`importing`) writes it through `restore_parsed_tournament` too, its people kept as text.

Nothing is cached under a tournament's id or its tablet links, so a restore has nothing to
forget: the tablets' state and the room (`teams.selectors.room`) and the pages
(`teams.selectors.teams`) read the database on every request, and the only cache entries a team
table's link has are its request counts (`teams.api.tablets.TeamTableThrottle`, keyed by a
digest of the token), which are no state of the tournament. A cache of a tournament's state
must be forgotten here, on commit, as `drive_restoring` forgets a drive's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction

from tournaments.files.backup.report import RestoredTournament, RestoreReport
from tournaments.files.backup.rows import check_unique, list_in
from tournaments.files.backup.schema import (
    BACKUP_TOURNAMENTS_SINCE,
    TOURNAMENT_CHILDREN,
    RestoreRefused,
)
from tournaments.files.backup.team_parse import (
    LeagueEntry,
    ParsedTournament,
    parse_league_entries,
    parse_tournament,
)
from tournaments.files.backup.writing import (
    batches,
    club_for,
    club_listed,
    database_refusals,
    ensure_users,
    ids_free,
    in_backup,
    insert_rows,
    link_users,
    move_sequences_past,
)
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament, TournamentTableAccess

#: What to do when the tournament's club name is taken here under another web address.
CLUB_ADVICE = (
    "give the club here the document's web address, or restore into another database (a "
    "tournament is restored into the club with its web address)"
)


def league_here(club: Club, league: League) -> League | None:
    """The club's league of that name here: the one created at the same moment, else the
    first made."""
    same = League.objects.filter(club=club, name=league.name).order_by("pk")
    return same.filter(created_at=league.created_at).first() or same.first()


def league_for(club: Club, league: League, report: RestoreReport) -> League:
    """The league here (`league_here`), or `league` made under `club`, its id kept when free
    (its creator already linked to an account)."""
    found = league_here(club, league)
    if found is not None:
        return found
    if league.pk is not None and League.objects.filter(pk=league.pk).exists():
        league.pk = None
    league.club = club
    insert_rows(League, [league])
    move_sequences_past([(League, [league])])
    report.leagues.append(f"{league.name} ({club.slug})")
    return league


def _week_taken(league: League, tournament: Tournament) -> str | None:
    taken = league.weeks.filter(week=tournament.week).first()
    if taken is None:
        return None
    return (
        f"The league {league.name!r} here already has a week {tournament.week} "
        f"({taken.name!r}, tournament {taken.pk})"
    )


def tournament_already_here(parsed: ParsedTournament, club: Club | None = None) -> str | None:
    """Why the database cannot take this tournament, naming what is there; None when it can.

    The tournament is here when one with its name, date and creation time is (an id proves
    nothing across databases); a copy of it shows by its tablet tokens, unique in a database;
    and its league here may have its week already: the league of `club` when given (a
    director's import into a club of their choice), else of the club with the document's
    web address."""
    t = parsed.tournament
    same = (
        Tournament.objects.filter(name=t.name, date=t.date, created_at=t.created_at)
        .select_related("club")
        .first()
    )
    if same is not None:
        return (
            f"This database already holds {parsed.title} (tournament {same.pk}, club "
            f"{same.club.name!r})"
        )
    tokens = [link.token for link in parsed.table_access]
    for chunk in batches(tokens):
        clash = (
            TournamentTableAccess.objects.filter(token__in=chunk)
            .select_related("tournament")
            .first()
        )
        if clash is not None:
            return (
                f"Table {clash.table}'s tablet link of {parsed.title} is already used here by "
                f"tournament {clash.tournament_id} ({clash.tournament.name!r}): that "
                "tournament is this one or a copy of it"
            )
    if club is None:
        club = Club.objects.filter(slug=parsed.club.club.slug).first()
    league = None if club is None or parsed.league is None else league_here(club, parsed.league)
    return None if league is None else _week_taken(league, t)


def restore_parsed_tournament(
    parsed: ParsedTournament, club: Club, report: RestoreReport
) -> RestoredTournament:
    """Write a checked tournament (and its league, unless here) under `club`, its people
    already linked to accounts; call inside a transaction, which a refusal rolls back."""
    refusal = tournament_already_here(parsed, club)
    if refusal is not None:
        raise RestoreRefused(f"{refusal}. Delete it first, or restore into another database.")
    tournament = parsed.tournament
    league = None if parsed.league is None else league_for(club, parsed.league, report)
    taken = None if league is None else _week_taken(league, tournament)
    if taken is not None:
        raise RestoreRefused(f"{taken}: {parsed.title} cannot be restored into it.")
    original_id = tournament.pk
    keep = ids_free(parsed.rows())
    if not keep:
        for _, rows in parsed.rows():
            for row in rows:
                row.pk = None
    tournament.club = club
    tournament.league = league
    insert_rows(Tournament, [tournament])
    for key, model in TOURNAMENT_CHILDREN:
        rows = getattr(parsed, key)
        for row in rows:
            row.tournament = tournament
        insert_rows(model, rows)
    if keep:
        move_sequences_past(parsed.rows())
    # Nothing to forget in the cache: see this module's docstring.
    return RestoredTournament(tournament, original_id, parsed.counts())


def tournament_restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """Restore one tournament document (`tournament_document`), all of it or nothing, into
    the club with the document's web address (made as the document has it when there is
    none) and its league there (matched by name, else made), its users linked by username
    and made, inactive, when missing. A dry run does everything, checks included, then rolls
    back."""
    parsed = parse_tournament(document)
    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        users = ensure_users(parsed.usernames() | set(parsed.club.directors), {}, report)
        target = club_for(parsed.club, users, report, advice=CLUB_ADVICE)
        link_users(parsed.user_refs, users)
        report.tournaments.append(restore_parsed_tournament(parsed, target, report))
        if dry_run:
            transaction.set_rollback(True)
    return report


def backup_tournaments(
    document: dict[str, Any], slugs: set[str]
) -> tuple[list[LeagueEntry], list[ParsedTournament]]:
    """A backup's leagues and tournaments, checked: lists since version 3. An older backup
    has none; one that lists some was edited (they would be dropped without a word)."""
    version = document["version"]
    if version < BACKUP_TOURNAMENTS_SINCE:
        for key in ("leagues", "tournaments"):
            if document.get(key, []) != []:
                raise RestoreRefused(
                    f"The backup is version {version} of the format, which has no {key}, yet "
                    f"it lists some: team tournaments and leagues are in backups from version "
                    f"{BACKUP_TOURNAMENTS_SINCE}."
                )
        return [], []
    leagues = parse_league_entries(document, slugs)
    listed = {(e.slug, e.league.name, e.league.created_at) for e in leagues}
    tournaments: list[ParsedTournament] = []
    for i, raw in enumerate(list_in(document, "tournaments", "The backup")):
        where = f"Tournament {i + 1}"
        parsed = in_backup(parse_tournament, raw, where, "tournament")
        slug, name = parsed.club.club.slug, parsed.tournament.name
        club_listed(slug, slugs, where, name)
        league = parsed.league
        if league is not None and (slug, league.name, league.created_at) not in listed:
            raise RestoreRefused(
                f"{where} of the backup ({name!r}) is a week of the league {league.name!r}, "
                "which the backup does not list."
            )
        tournaments.append(parsed)
    check_unique(
        (
            (
                (t.club.club.slug, t.league.name, t.league.created_at, t.tournament.week),
                f"{t.title}",
            )
            for t in tournaments
            if t.league is not None
        ),
        "league and week",
        "The backup",
    )
    return leagues, tournaments


def restore_backup_tournaments(
    leagues: list[LeagueEntry],
    tournaments: list[ParsedTournament],
    clubs: Mapping[str, Club],
    users: Mapping[str, AuthUser],
    report: RestoreReport,
) -> None:
    """Write a backup's leagues, then its tournaments, into the clubs just made (`clubs`, by
    slug); call inside the backup's transaction."""
    for entry in leagues:
        link_users(entry.user_refs, users)
        league_for(clubs[entry.slug], entry.league, report)
    for parsed in tournaments:
        link_users(parsed.user_refs, users)
        club = clubs[parsed.club.club.slug]
        report.tournaments.append(restore_parsed_tournament(parsed, club, report))
