"""Checking a whole team tournament document without writing anything: every row, and the
tournament they make.

As for an event and a drive (their formats' `services.backup_parse`), everything is checked
before the first row is written, so a restore refuses a bad document whole, naming the first
problem: each value against its model; the settings as the engine takes them
(`TournamentSettings.from_dict`); the teams numbered 1, 2, 3... with names the standings can
tell apart; each round's tables as the engine stores and checks a round (`Round.from_dict`,
`check_round`: every team seated once, or on a bye), a fixed schedule's rounds as its seed draws
them; each game where its round seats it, its result as the engine writes one
(`GameResult.from_dict`) and as the engine works it out again from the game's hands, its final
score, the forfeit or the bye; every round before the current one complete; the bracket as the
engine reads one (`Bracket.from_dict`), with a game for each match it says was won and none for
the others; and the standings worked out from it all, as the tournament's pages work them out
(`backup_checks` holds the games' and the bracket's checks).

What is not checked, on purpose: that a round drawn from results (king of the hill, Swiss)
follows from the results before it. A director's correction of an earlier round changes the
standings, never a round already drawn (`teams.services.games.game_enter`), so a faithful
tournament may hold such rounds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User as AuthUser

from engine.teams import Round, Team, TeamsError, TeamTournament, check_round
from engine.teams.model import MAX_TEAMS
from engine.teams.settings import TournamentSettings
from tournaments.kernel.backup.checks import (
    check_ids_once,
    check_links,
    check_names,
    check_range,
)
from tournaments.kernel.backup.documents import ClubBlock, ParsedDocument, parse_club
from tournaments.kernel.backup.rows import (
    MemberRef,
    UserRef,
    as_object,
    check_marker,
    check_unique,
    list_in,
    load_row,
    rows_in,
)
from tournaments.kernel.backup.schema import Model, RestoreRefused
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
    TournamentTableAccess,
    TournamentTeam,
)
from tournaments.teams.selectors.backup import TOURNAMENT_CHILDREN, TOURNAMENT_FORMAT
from tournaments.teams.services.backup_checks import (
    FIXED_ROTATIONS,
    check_bracket,
    check_games,
    check_standings,
    is_playoff,
    same_json,
)
from tournaments.teams.services.input import FEWEST_TEAMS
from tournaments.teams.services.teams import SEED_LIMIT

#: A team's columns that are names, checked by the one rule for names.
TEAM_NAMES = ("name", "city", "player_one", "player_two")


@dataclass
class ParsedTournament(ParsedDocument):
    """A checked tournament document: unsaved rows (its league's too, when it is a league's
    week), and the users they name."""

    club: ClubBlock
    league: League | None
    tournament: Tournament
    teams: list[TournamentTeam]
    rounds: list[TournamentRound]
    games: list[TournamentGame]
    table_access: list[TournamentTableAccess]
    audit: list[TournamentAudit]
    user_refs: list[UserRef]
    member_refs: list[MemberRef] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.tournament.name

    @property
    def title(self) -> str:
        t = self.tournament
        week = "" if self.league is None else f", week {t.week} of {self.league.name!r}"
        return f"the tournament {t.name!r} of {t.date:%d %b %Y}{week}"

    def rows(self) -> Iterator[tuple[Model, list[Any]]]:
        """Every row of the tournament by model, the tournament before its rows (the league
        is matched or made apart: `backup`)."""
        yield Tournament, [self.tournament]
        for key, model in TOURNAMENT_CHILDREN:
            yield model, list(getattr(self, key))

    def owned_by(self, importer: AuthUser | None) -> None:
        self.tournament.created_by = importer
        if self.league is not None:
            self.league.created_by = importer

    def counts(self) -> str:
        waiting = sum(g.status != TournamentGame.Status.CONFIRMED for g in self.games)
        playoff = sum(is_playoff(g.match) for g in self.games)
        return (
            f"{len(self.teams)} teams, {len(self.rounds)} rounds drawn, {len(self.games)} games "
            f"({playoff} in the playoff, {waiting} not counting yet), "
            f"{len(self.table_access)} tablet links, {len(self.audit)} audit entries"
        )


@dataclass
class LeagueEntry:
    """A league a backup lists (with its club's slug): kept even before its first week."""

    slug: str
    league: League
    user_refs: list[UserRef]


def _rows(
    document: Any,
    key: str,
    model: Model,
    label: str,
    refs: list[UserRef],
    members: list[MemberRef] | None = None,
) -> list[Any]:
    each, where = f"The tournament's {label}", "The tournament document"
    return rows_in(document, key, model, each, where, refs, TOURNAMENT_FORMAT, members)


def parse_league(raw: Any, refs: list[UserRef], where: str = "The league") -> League:
    league: League = load_row(League, raw, where, users=refs, fmt=TOURNAMENT_FORMAT)
    check_names(league, ("name",), where)
    return league


def parse_league_entries(document: Any, slugs: set[str]) -> list[LeagueEntry]:
    """A backup's "leagues": each names a club the backup lists, and no two are the same
    league (a club, a name and a creation time)."""
    entries = []
    for i, raw in enumerate(list_in(document, "leagues", "The backup")):
        where = f"League {i + 1} of the backup"
        data = as_object(raw, where)
        if sorted(data) != ["club", "league"]:
            raise RestoreRefused(f"{where} should have a 'club' (its web address) and a 'league'.")
        if data["club"] not in slugs:
            raise RestoreRefused(
                f"{where} belongs to the club {data['club']!r}, which the backup does not list."
            )
        refs: list[UserRef] = []
        entries.append(LeagueEntry(data["club"], parse_league(data["league"], refs, where), refs))
    check_unique(
        (
            ((e.slug, e.league.name, e.league.created_at), f"league {e.league.name!r}")
            for e in entries
        ),
        "club, name and creation time",
        "The backup",
    )
    return entries


def _settings(tournament: Tournament) -> TournamentSettings:
    if not isinstance(tournament.settings, dict):
        raise RestoreRefused(
            f"The tournament: settings should be an object, not {tournament.settings!r}."
        )
    try:
        return TournamentSettings.from_dict(tournament.settings)
    except (TeamsError, TypeError, KeyError, AttributeError) as exc:
        raise RestoreRefused(f"The tournament: its settings are refused: {exc}") from None


def _check_state(tournament: Tournament, settings: TournamentSettings, teams: int) -> None:
    """The status, the round being played and the seed agree, as the services set them."""
    status = tournament.status
    if status == Tournament.Status.DRAFT:
        if tournament.round or tournament.bracket:
            raise RestoreRefused(
                "The tournament is a draft, yet it has a round under way or a bracket: a "
                "draft is at round 0 with neither."
            )
        return
    if teams < FEWEST_TEAMS:
        raise RestoreRefused(
            f"The tournament has started with {teams} team(s): a tournament needs at least "
            f"{FEWEST_TEAMS}."
        )
    check_range(tournament.round, 1, settings.rounds, "The tournament", "its round")
    if tournament.seed is None or not 0 <= tournament.seed < SEED_LIMIT:
        raise RestoreRefused(
            f"The tournament has started, so its seed is a whole number from 0 to "
            f"{SEED_LIMIT - 1}, not {tournament.seed!r}: its draw depends on it."
        )


def _check_teams(tournament: Tournament, teams: list[TournamentTeam]) -> None:
    numbers = sorted(t.number for t in teams)
    if numbers != list(range(1, len(teams) + 1)):
        raise RestoreRefused(
            f"The tournament's teams are numbered {numbers}: a tournament numbers them from 1 "
            "without a gap or a repeat."
        )
    seen: dict[str, int] = {}
    for team in teams:
        where = f"The tournament's team {team.number}"
        check_names(team, TEAM_NAMES, where)
        first = seen.setdefault(team.name.casefold(), team.number)
        if first != team.number:
            raise RestoreRefused(
                f"The tournament's teams {first} and {team.number} are both called "
                f"{team.name!r}: the standings could not tell them apart."
            )
        if team.withdrawn_after is not None and not 1 <= team.withdrawn_after <= tournament.round:
            raise RestoreRefused(
                f"{where} withdrew after round {team.withdrawn_after}, but the tournament is "
                f"at round {tournament.round}."
            )


def _seated(number: int, settings: TournamentSettings, teams: list[TournamentTeam]) -> list[int]:
    """The teams round `number` seats: all of them in a fixed schedule (a withdrawn team's
    opponents get the forfeit), those not withdrawn before it in a rotation drawn by result."""
    return [
        t.number
        for t in teams
        if settings.rotation in FIXED_ROTATIONS
        or t.withdrawn_after is None
        or t.withdrawn_after >= number
    ]


def _check_rounds(
    tournament: Tournament,
    settings: TournamentSettings,
    engine: TeamTournament,
    teams: list[TournamentTeam],
    rows: list[TournamentRound],
) -> dict[int, Round]:
    """Rounds 1 to the current one drawn, once each, every one as the engine checks a round;
    a fixed schedule's as its seed makes them."""
    drawn: dict[int, Round] = {}
    for row in rows:
        where = f"The tournament's round {row.number}"
        if row.number in drawn:
            raise RestoreRefused(f"{where} is in the document twice.")
        try:
            if not isinstance(row.tables, dict):
                raise TeamsError(f"a round is an object, not {row.tables!r}")
            round_ = Round.from_dict(row.tables)
            if not same_json(round_.to_dict(), row.tables):
                raise TeamsError(f"{row.tables!r} is not a round as the engine stores one")
            check_round(round_, _seated(row.number, settings, teams))
        except TeamsError as exc:
            raise RestoreRefused(f"{where} is not one the tournament can have: {exc}") from None
        if round_.number != row.number:
            raise RestoreRefused(f"{where}: its tables say they are round {round_.number}'s.")
        drawn[row.number] = round_
    wanted = list(range(1, tournament.round + 1))
    if sorted(drawn) != wanted:
        have = ", ".join(str(n) for n in sorted(drawn)) or "none"
        raise RestoreRefused(
            f"The tournament is at round {tournament.round}, so rounds 1-{tournament.round} "
            f"are drawn; the document has rounds {have}."
        )
    if settings.rotation in FIXED_ROTATIONS and drawn:
        assert tournament.seed is not None
        try:
            schedule = engine.schedule(tournament.seed)
        except TeamsError as exc:
            raise RestoreRefused(f"The tournament's schedule cannot be made: {exc}") from None
        for number, round_ in sorted(drawn.items()):
            made = schedule[number - 1]
            if made != round_:
                raise RestoreRefused(
                    f"The tournament's round {number} is not the one its rotation "
                    f"({settings.rotation}) draws from its seed {tournament.seed}: the document "
                    f"has {round_.to_dict()['tables']}, the schedule {made.to_dict()['tables']}."
                )
    return drawn


def parse_tournament(document: Any) -> ParsedTournament:
    """Check a whole tournament document without writing anything; the first problem found
    is a `RestoreRefused` naming it."""
    check_marker(document, TOURNAMENT_FORMAT, "team tournament document")
    for key in ("club", "league", "tournament", *(key for key, _ in TOURNAMENT_CHILDREN)):
        if key not in document:
            raise RestoreRefused(f"The tournament document has no {key!r}: it is not complete.")
    refs: list[UserRef] = []
    linked: list[MemberRef] = []
    club = parse_club(document["club"], TOURNAMENT_FORMAT)
    league = None if document["league"] is None else parse_league(document["league"], refs)
    tournament: Tournament = load_row(
        Tournament, document["tournament"], "The tournament", users=refs, fmt=TOURNAMENT_FORMAT
    )
    check_names(tournament, ("name",), "The tournament")
    check_range(tournament.week, 1, None, "The tournament", "its week")
    if league is None and tournament.week != 1:
        raise RestoreRefused(
            f"The tournament is week {tournament.week}, but of no league: a tournament on its "
            "own is week 1."
        )
    settings = _settings(tournament)
    listed = len(list_in(document, "teams", "The tournament document"))
    if listed > MAX_TEAMS:  # before any team is read, the draw checked or the games replayed
        raise RestoreRefused(
            f"The tournament has {listed} teams; a tournament takes at most {MAX_TEAMS}. It was "
            "not written by clubwhist: export the tournament again."
        )
    teams: list[TournamentTeam] = _rows(document, "teams", TournamentTeam, "team", refs, linked)
    _check_state(tournament, settings, len(teams))
    _check_teams(tournament, teams)
    ordered = sorted(teams, key=lambda t: t.number)
    engine = TeamTournament(settings, [Team(t.number, t.name, t.city) for t in ordered])
    rounds: list[TournamentRound] = _rows(document, "rounds", TournamentRound, "round", refs)
    drawn = _check_rounds(tournament, settings, engine, teams, rounds)
    games: list[TournamentGame] = _rows(document, "games", TournamentGame, "game", refs)
    withdrawn = {t.number: t.withdrawn_after for t in teams if t.withdrawn_after is not None}
    counted = check_games(tournament, engine, drawn, games, withdrawn)
    check_bracket(tournament, settings, teams, games)
    check_standings(engine, counted)
    links: list[TournamentTableAccess] = _rows(
        document, "table_access", TournamentTableAccess, "tablet link", refs
    )
    tables = max((len(r.tables) for r in drawn.values()), default=0)
    check_links(links, "The tournament", tables, f"the tournament's rounds have {tables} table(s)")
    audit: list[TournamentAudit] = _rows(document, "audit", TournamentAudit, "audit entry", refs)
    parsed = ParsedTournament(
        club, league, tournament, teams, rounds, games, links, audit, refs, linked
    )
    check_ids_once(parsed.rows(), "the tournament document")
    return parsed
