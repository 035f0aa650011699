"""The teams' part of the backup, writing: a team tournament's document restored (`manage.py
restore`), imported into a club, and carried in a whole backup with its leagues; the part the
teams register with the kernel (`PART`).

The same rules as a drive's restore (`drives.services.backup`): one transaction, ids kept when
none is taken here (else new ones throughout, tokens and everything else kept), users linked by
username (made inactive when missing), refused, naming it, when the tournament is already here.
A league is matched by its club and its name (the one created at the same moment first, so two
leagues of one name stay two), else made as the document has it; a week the league here already
has refuses the tournament. A director's import of a tournament into a club of their choice
(`tournament_import`) writes it through `restore_parsed_tournament` too, its people kept as
text: an audit line keeps its name as text, the tournament (and its league, when it is made
here) is the importer's.

Nothing is cached under a tournament's id or its tablet links, so a restore has nothing to
forget: the tablets' state and the room (`teams.selectors.room`) and the pages
(`teams.selectors.teams`) read the database on every request, and the only cache entries a team
table's link has are its request counts (`teams.api.tablets.TeamTableThrottle`, keyed by a
digest of the token), which are no state of the tournament. A cache of a tournament's state
must be forgotten here, on commit, as `drives.services.backup` forgets a drive's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User as AuthUser

from tournaments.kernel.audit import User
from tournaments.kernel.backup.documents import (
    DocumentsInBackup,
    document_import,
    document_restore,
    import_note,
    read_backup,
)
from tournaments.kernel.backup.registry import BackupPart
from tournaments.kernel.backup.report import Imported, RestoreReport, moved
from tournaments.kernel.backup.rows import check_unique, list_in
from tournaments.kernel.backup.schema import RestoreRefused
from tournaments.kernel.backup.writing import (
    ids_kept,
    insert_rows,
    link_users,
    links_here,
    move_sequences_past,
    refuse_if_here,
    same_here,
)
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament, TournamentTableAccess
from tournaments.teams.selectors.backup import (
    TABLES,
    TOURNAMENT_CHILDREN,
    TOURNAMENT_FORMAT,
    tournaments_picked,
)
from tournaments.teams.services.backup_parse import (
    LeagueEntry,
    ParsedTournament,
    parse_league_entries,
    parse_tournament,
)
from tournaments.teams.services.teams import audit as tournament_audit

#: What to do when the tournament's club name is taken here under another web address.
CLUB_ADVICE = (
    "give the club here the document's web address, or restore into another database (a "
    "tournament is restored into the club with its web address)"
)
#: The first backup version that carries team tournaments and leagues.
BACKUP_TOURNAMENTS_SINCE = 3


@dataclass
class RestoredTournament:
    tournament: Tournament
    original_id: int | None
    counts: str

    def describe(self) -> str:
        t = self.tournament
        week = "" if t.league is None else f", week {t.week} of the league {t.league.name!r}"
        return (
            f"tournament {t.pk}{moved(self.original_id, t.pk)}: {t.name!r} of "
            f"{t.date:%d %b %Y}{week}, {t.get_status_display().lower()}; {self.counts}"
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
    report.of("leagues").append(f"{league.name} ({club.slug})")
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
    here = same_here(Tournament, t, parsed.title, "tournament") or links_here(
        TournamentTableAccess,
        [link.token for link in parsed.table_access],
        parsed.title,
        "tournament",
        "tournament",
    )
    if here is not None:
        return here
    if club is None:
        club = Club.objects.filter(slug=parsed.club.club.slug).first()
    league = None if club is None or parsed.league is None else league_here(club, parsed.league)
    return None if league is None else _week_taken(league, t)


def restore_parsed_tournament(
    parsed: ParsedTournament, club: Club, report: RestoreReport
) -> RestoredTournament:
    """Write a checked tournament (and its league, unless here) under `club`, its people
    already linked to accounts; call inside a transaction, which a refusal rolls back."""
    refuse_if_here(tournament_already_here(parsed, club))
    tournament = parsed.tournament
    league = None if parsed.league is None else league_for(club, parsed.league, report)
    taken = None if league is None else _week_taken(league, tournament)
    if taken is not None:
        raise RestoreRefused(f"{taken}: {parsed.title} cannot be restored into it.")
    original_id = tournament.pk
    keep = ids_kept(parsed.rows)
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

    def write(target: Club, report: RestoreReport) -> None:
        report.of("tournaments").append(restore_parsed_tournament(parsed, target, report))

    return document_restore(parsed, write, advice=CLUB_ADVICE, dry_run=dry_run)


def tournament_import(document: Any, *, club: Club, imported_by: User = None) -> Imported:
    """A team tournament's JSON (`tournament_document`) into `club`, all of it or nothing: a
    league's week joins the club's league of that name, or makes it; a week that league
    already has is refused. Its people are kept as text."""
    parsed = parse_tournament(document)

    def write(target: Club, report: RestoreReport, named: list[str]) -> RestoredTournament:
        restored = restore_parsed_tournament(parsed, target, report)
        tournament = restored.tournament
        tournament_audit(
            tournament,
            imported_by,
            "tournament imported",
            f"tournament {tournament.pk}",
            after=import_note("tournament", restored.original_id, named),
            bump=False,
        )
        return restored

    restored, report = document_import(parsed, write, club=club, imported_by=imported_by)
    assert isinstance(restored, RestoredTournament)
    tournament = restored.tournament
    league = ""
    if tournament.league is not None:
        how = "made here" if report.of("leagues") else "already here"
        league = f", week {tournament.week} of the league {tournament.league.name} ({how})"
    said = (
        f"Imported whole: {tournament.name}{league}; {restored.counts}. Its standings and "
        "bracket are worked out here from its games, as they were where it was exported."
    )
    return Imported("tournament", tournament, said)


@dataclass
class TournamentsInBackup:
    """A backup's leagues and tournaments, checked: the leagues are written first, each
    tournament then joins its own."""

    leagues: list[LeagueEntry]
    tournaments: DocumentsInBackup

    def here(self) -> list[str]:
        return self.tournaments.here()

    def usernames(self) -> set[str]:
        names = {ref.username for entry in self.leagues for ref in entry.user_refs}
        return names | self.tournaments.usernames()

    def parsed_documents(self) -> list[Any]:
        return self.tournaments.parsed_documents()

    def write(
        self, clubs: Mapping[str, Club], users: Mapping[str, AuthUser], report: RestoreReport
    ) -> None:
        for entry in self.leagues:
            link_users(entry.user_refs, users)
            league_for(clubs[entry.slug], entry.league, report)
        self.tournaments.write(clubs, users, report)


def _tournaments(tournaments: list[ParsedTournament]) -> DocumentsInBackup:
    return DocumentsInBackup(
        "tournaments",
        tournaments,
        tournament_already_here,
        restore_parsed_tournament,
    )


def tournaments_read(document: dict[str, Any], slugs: set[str]) -> TournamentsInBackup:
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
        return TournamentsInBackup([], _tournaments([]))
    leagues = parse_league_entries(document, slugs)
    listed = {(e.slug, e.league.name, e.league.created_at) for e in leagues}

    def in_a_listed_league(parsed: ParsedTournament, where: str) -> None:
        league = parsed.league
        key = None if league is None else (parsed.club.club.slug, league.name, league.created_at)
        if league is not None and key not in listed:
            raise RestoreRefused(
                f"{where} of the backup ({parsed.name!r}) is a week of the league "
                f"{league.name!r}, which the backup does not list."
            )

    tournaments: list[ParsedTournament] = read_backup(
        list_in(document, "tournaments", "The backup"),
        parse_tournament,
        "Tournament",
        "tournament",
        slugs,
        in_a_listed_league,
    )
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
    return TournamentsInBackup(leagues, _tournaments(tournaments))


PART = BackupPart(
    marker=TOURNAMENT_FORMAT,
    version=2,
    readable=frozenset({1, 2}),
    kind="tournament",
    whose="a team tournament's",
    importable="a team tournament (or a league's week)",
    tables=TABLES,
    report_kinds=(("leagues", "league(s)"), ("tournaments", None)),
    pick=tournaments_picked,
    chosen_by="tournaments",
    read=tournaments_read,
    restore=tournament_restore,
    import_document=tournament_import,
)
