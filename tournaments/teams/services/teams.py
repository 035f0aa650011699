"""Running a Bid Whist team tournament: set-up, the teams at the door, the draw, each table's
game, forfeits and withdrawals, the next round, the playoff, the end.

Each function is one director's action (the pages, the API and the command call the same
ones). The engine (`engine.teams.TeamTournament`) checks every setting, draws every round and
reads every game; a refusal is a `TeamsRefused` whose text says what is wrong and what to do,
raised before anything is written, so a refusal changes nothing. Each change leaves a
`TournamentAudit` row in the same transaction.

Rules of the room (docs/directors/teams.md): the draw needs both players of every team there
(`present`); a game the director enters counts at once, a tablet's waits for the other team;
the next round is drawn from the confirmed games (the rotations that go by results) or from the
schedule fixed at the start; a late team forfeits only once the grace minutes have run out; a
team that withdraws plays no more rounds: in a fixed schedule its opponents get the forfeit
result, in a drawn one it is left out of the draw.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from django.db import transaction
from django.utils import timezone

from engine.teams import Round, TeamsError
from engine.teams.model import MAX_TEAMS
from tournaments.kernel import live
from tournaments.kernel.audit import Change, User, actor, audit_write, counter_bump
from tournaments.kernel.commits import after_commit
from tournaments.kernel.member_links import NameLinker
from tournaments.kernel.models import Club
from tournaments.kernel.names import named_and_dated
from tournaments.kernel.tokens import new_link_token
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
    TournamentTableAccess,
    TournamentTeam,
)
from tournaments.teams.selectors.table_reads import games_confirmed
from tournaments.teams.selectors.teams import (
    counted_results,
    engine_for,
    round_of,
    rounds_of,
)
from tournaments.teams.services.input import (
    FEWEST_TEAMS,
    MEMBER_FIELDS,
    TEAM_FIELDS,
    TOO_MANY_TEAMS,
    checked_settings,
    name_or_refusal,
    team_fields,
    team_links,
    teams_distinct,
)
from tournaments.teams.services.input import TeamsRefused as TeamsRefused

#: A seed is stored in a signed 64-bit column.
SEED_LIMIT = 2**62


def audit(
    tournament: Tournament,
    user: User,
    action: str,
    target: str,
    *,
    bump: bool = True,
    **change: Unpack[Change],
) -> None:
    """Every change leaves its audit row and, unless `bump` is False, is a new version of the
    tournament (what moves everyone: a draw, a correction, a setting). A tablet's own game is
    not: the version is the tournament's row, and a room of tablets moving it on every entry
    would write one at a time; each tablet has its own answer instead."""
    if bump:
        counter_bump(tournament)
        tournament.version += 1  # this copy's idea of it; the row counts every writer's
        # once a commit: every change of it is in the version the streams are told
        after_commit(_announce, tournament.pk, key=("announce-tournament", tournament.pk))
    audit_write(
        TournamentAudit, tournament=tournament, user=user, action=action, target=target, **change
    )


def _announce(pk: int) -> None:
    """Once committed, the row's version (every writer's, not this copy's idea of it) wakes
    the tablets' streams (`live.announce_team`)."""
    version = Tournament.objects.filter(pk=pk).values_list("version", flat=True).first()
    if version is not None:
        live.announce_team(pk, version)


def locked(tournament: Tournament) -> Tournament:
    """The row again, locked for this transaction: two browsers or tablets acting at once take
    turns, and each sees what the other did."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# ---- set-up -------------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    name: str,
    settings: Mapping[str, Any],
    teams: Sequence[Mapping[str, Any]] = (),
    date: dt.date | None = None,
    league: League | None = None,
    user: User = None,
) -> Tournament:
    """A draft tournament with its settings (each checked by the engine) and the teams known
    beforehand (more can be added at the door until the draw). A league's next week starts
    with the league's teams, numbered as before."""
    name, date = named_and_dated(
        name, date, model=Tournament, noun="tournament", refused=TeamsRefused
    )
    if len(teams) > MAX_TEAMS:
        raise TeamsRefused(TOO_MANY_TEAMS)
    checked = checked_settings(settings)
    linker = NameLinker(club, refused=TeamsRefused)
    rows: list[dict[str, Any]] = []
    for n, team in enumerate(teams, start=1):
        fields = team_fields(team, n)
        rows.append(fields | team_links(linker, fields, team, n))
    week = 1
    if league is not None:
        if league.club_id != club.pk:
            raise TeamsRefused("A league's weeks are its own club's.")
        # Locked: two weeks made at once take turns for the next week's number.
        league = League.objects.select_for_update().get(pk=league.pk)
        week = (league.weeks.order_by("-week").values_list("week", flat=True).first() or 0) + 1
        if week > 1:
            if rows:
                raise TeamsRefused(
                    f"A league keeps week 1's teams: leave the team list empty for week {week} "
                    "(the teams are copied), or start a new league."
                )
            rows = list(league_teams(league))
        else:
            # Week 1 gives the league its teams: each keeps its number as its league number.
            rows = [row | {"league_team": n} for n, row in enumerate(rows, start=1)]
    teams_distinct([row["name"] for row in rows])
    tournament = Tournament.objects.create(
        club=club,
        league=league,
        week=week,
        name=name,
        date=date,
        settings=checked.to_dict(),
        created_by=actor(user),
    )
    TournamentTeam.objects.bulk_create(
        TournamentTeam(tournament=tournament, number=n, **row)
        for n, row in enumerate(rows, start=1)
    )
    audit(tournament, user, "create", "tournament", after={"settings": tournament.settings})
    return tournament


def league_teams(league: League) -> list[dict[str, Any]]:
    """The league's teams as its first week entered them, each with its league number (later
    weeks copy them; a team that does not come one week is taken off that week only, and a
    substitute is that week's own: the next week starts from these again). A team that
    withdrew in an earlier week has left the league: its games stand in the league table, and
    no later week has it (the others keep their league numbers)."""
    first = league.weeks.order_by("week").first()
    if first is None:
        return []
    gone = set(
        TournamentTeam.objects.filter(tournament__league=league, withdrawn_after__isnull=False)
        .exclude(league_team__isnull=True)
        .values_list("league_team", flat=True)
    )
    return [
        {field: getattr(team, field) for field in (*TEAM_FIELDS, *MEMBER_FIELDS)}
        | {"league_team": team.league_team or team.number}
        for team in first.teams.order_by("number")
        if (team.league_team or team.number) not in gone
    ]


@transaction.atomic
def league_create(*, club: Club, name: str, user: User = None) -> League:
    name = name_or_refusal(name, "the league's name", model=League, column="name", required=True)
    return League.objects.create(club=club, name=name, created_by=actor(user))


def _draft(tournament: Tournament, doing: str) -> Tournament:
    tournament = locked(tournament)
    if tournament.status != Tournament.Status.DRAFT:
        raise TeamsRefused(
            f"The draw is made: {doing} is only possible before it. A team that leaves can "
            "withdraw (its opponents get the forfeit result)."
        )
    return tournament


@transaction.atomic
def team_add(
    *, tournament: Tournament, data: Mapping[str, Any], user: User = None
) -> TournamentTeam:
    tournament = _draft(tournament, "adding a team")
    if tournament.league_id is not None and tournament.week > 1:
        raise TeamsRefused(
            "A league keeps its teams from week 1: add the team to week 1, or start a new league."
        )
    number = tournament.teams.count() + 1
    if number > MAX_TEAMS:
        raise TeamsRefused(f"The tournament has {MAX_TEAMS} teams, the most it takes.")
    fields = team_fields(data, number)
    teams_distinct([*tournament.teams.values_list("name", flat=True), fields["name"]])
    league_team = number if tournament.league_id is not None else None
    links = team_links(NameLinker(tournament.club, refused=TeamsRefused), fields, data, number)
    team = TournamentTeam.objects.create(
        tournament=tournament, number=number, league_team=league_team, **fields, **links
    )
    audit(tournament, user, "team-add", f"team {number}", after=fields)
    return team


@transaction.atomic
def team_change(
    *, tournament: Tournament, number: int, data: Mapping[str, Any], user: User = None
) -> TournamentTeam:
    """Names, city and players may be corrected any time; the city only before the draw (the
    draw kept teams of one city apart by it)."""
    tournament = locked(tournament)
    team = _team(tournament, number)
    fields = team_fields({**{f: getattr(team, f) for f in TEAM_FIELDS}, **data}, number)
    if tournament.status != Tournament.Status.DRAFT and fields["city"] != team.city:
        raise TeamsRefused("The draw is made: a team's city can no longer change.")
    others = tournament.teams.exclude(pk=team.pk).values_list("name", flat=True)
    teams_distinct([*others, fields["name"]])
    links = team_links(
        NameLinker(tournament.club, refused=TeamsRefused), fields, data, number, before=team
    )
    before = {f: getattr(team, f) for f in TEAM_FIELDS}
    for key, value in {**fields, **links}.items():
        setattr(team, key, value)
    team.save(update_fields=[*TEAM_FIELDS, *MEMBER_FIELDS])
    audit(tournament, user, "team-change", f"team {number}", before=before, after=fields)
    return team


@transaction.atomic
def team_remove(*, tournament: Tournament, number: int, user: User = None) -> None:
    """Off the list before the draw; the teams after it move up a number. In a league's later
    week the team is absent that week only: every team keeps its league number, which the
    league table goes by (week 1 gives the league its teams, so there the league numbers
    move up too)."""
    tournament = _draft(tournament, "taking a team off")
    team = _team(tournament, number)
    name = team.name
    team.delete()
    founding = tournament.league_id is not None and tournament.week == 1
    for later in tournament.teams.filter(number__gt=number).order_by("number"):
        later.number -= 1
        if founding and later.league_team is not None:
            later.league_team -= 1
        later.save(update_fields=["number", "league_team"])
    absent = tournament.league_id is not None and not founding
    audit(
        tournament, user, "team-remove", f"team {number}",
        before={"name": name}, reason="absent this week" if absent else "",
    )  # fmt: skip


@transaction.atomic
def team_arrive(
    *,
    tournament: Tournament,
    number: int,
    present: bool = True,
    paid_cents: int | None = None,
    in_pot: bool | None = None,
    user: User = None,
) -> TournamentTeam:
    """At the door: both players are here, what they paid, whether they are in the pot."""
    tournament = locked(tournament)
    team = _team(tournament, number)
    if tournament.status != Tournament.Status.DRAFT and not present:
        raise TeamsRefused("The draw is made: a team that leaves now withdraws instead (Withdraw).")
    before = {"present": team.present, "paid_cents": team.paid_cents, "in_pot": team.in_pot}
    team.present = present
    if paid_cents is not None:
        if isinstance(paid_cents, bool) or not 0 <= paid_cents <= 10_000_000:
            raise TeamsRefused("What a team paid is an amount from 0 to 100,000.00.")
        team.paid_cents = paid_cents
    if in_pot is not None:
        if tournament.status != Tournament.Status.DRAFT and in_pot != team.in_pot:
            raise TeamsRefused("The draw is made: teams join the Boston pot before it.")
        team.in_pot = in_pot
    team.save(update_fields=["present", "paid_cents", "in_pot"])
    after = {"present": team.present, "paid_cents": team.paid_cents, "in_pot": team.in_pot}
    audit(tournament, user, "team-arrive", f"team {number}", before=before, after=after)
    return team


def _team(tournament: Tournament, number: int) -> TournamentTeam:
    team = tournament.teams.filter(number=number).first()
    if team is None:
        count = tournament.teams.count()
        raise TeamsRefused(f"There is no team {number}: the teams are 1 to {count}.")
    return team


@transaction.atomic
def settings_change(
    *, tournament: Tournament, settings: Mapping[str, Any], user: User = None
) -> Tournament:
    tournament = _draft(tournament, "changing the settings")
    checked = checked_settings(settings)
    before = tournament.settings
    tournament.settings = checked.to_dict()
    tournament.save(update_fields=["settings"])
    audit(tournament, user, "settings", "tournament", before=before, after=tournament.settings)
    return tournament


# ---- the draw and the rounds ----------------------------------------------------------------


def links_ensure(tournament: Tournament, tables: int) -> None:
    have = set(
        TournamentTableAccess.objects.filter(
            tournament=tournament, revoked_at__isnull=True
        ).values_list("table", flat=True)
    )
    TournamentTableAccess.objects.bulk_create(
        TournamentTableAccess(tournament=tournament, table=t, token=new_link_token())
        for t in range(1, tables + 1)
        if t not in have
    )


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, seed: int | None = None, user: User = None
) -> TournamentRound:
    """The draw of round 1: every team must be there (both players), and the teams are then
    fixed. The seed is stored so the draw can be repeated."""
    tournament = _draft(tournament, "the draw")
    teams = list(tournament.teams.order_by("number"))
    if len(teams) < FEWEST_TEAMS:
        raise TeamsRefused(
            f"{len(teams)} team{'s' if len(teams) != 1 else ''}: a tournament needs at least "
            f"{FEWEST_TEAMS}. Add the teams first."
        )
    absent = [t for t in teams if not t.present]
    if absent:
        names = ", ".join(f"{t.number} {t.name}" for t in absent[:6])
        more = f" and {len(absent) - 6} more" if len(absent) > 6 else ""
        raise TeamsRefused(
            f"Not here yet: {names}{more}. Tick each team in when both players are here, or "
            "take it off the list, then draw."
        )
    if seed is not None and (isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT):
        raise TeamsRefused(f"The seed is a whole number from 0 to {SEED_LIMIT - 1}.")
    tournament.seed = seed if seed is not None else secrets.randbelow(SEED_LIMIT)
    engine = engine_for(tournament)
    try:
        drawn = engine.draw(1, [], [], seed=tournament.seed)
    except TeamsError as exc:
        raise TeamsRefused(str(exc)) from None
    return _begin_round(tournament, drawn, user, action="start")


def _begin_round(
    tournament: Tournament, drawn: Round, user: User, *, action: str
) -> TournamentRound:
    row = TournamentRound.objects.create(
        tournament=tournament, number=drawn.number, tables=drawn.to_dict()
    )
    tournament.status = Tournament.Status.RUNNING
    tournament.round = drawn.number
    tournament.round_started_at = timezone.now()
    tournament.save(update_fields=["status", "round", "round_started_at", "seed"])
    engine = engine_for(tournament)
    withdrawn = _withdrawn(tournament)
    # A bye is a win, but not for a team that has left (a fixed schedule keeps it).
    byes = [
        TournamentGame(
            tournament=tournament,
            round=drawn.number,
            table=0,
            match=f"bye-{team}",
            home=team,
            kind=TournamentGame.Kind.BYE,
            result=engine.bye(drawn.number, team, week=tournament.week).to_dict(),
            confirmed_at=timezone.now(),
        )
        for team in drawn.byes
        if team not in withdrawn
    ]
    TournamentGame.objects.bulk_create(byes)
    # A withdrawn team still in a fixed schedule: its opponents get the forfeit result now.
    for pairing in drawn.tables:
        gone = [t for t in pairing.teams if t in withdrawn]
        if gone:
            # Both teams gone: the table is done and counts for nobody (no result).
            result = None
            if len(gone) == 1:
                stays = pairing.away if pairing.home in gone else pairing.home
                result = engine.forfeit(
                    drawn.number,
                    pairing.table,
                    stays,
                    gone[0],
                    home=pairing.home,
                    withdrawn=True,
                    week=tournament.week,
                )
            TournamentGame.objects.create(
                tournament=tournament,
                round=drawn.number,
                table=pairing.table,
                home=pairing.home,
                away=pairing.away,
                kind=TournamentGame.Kind.WITHDRAWN,
                result=None if result is None else result.to_dict(),
                confirmed_at=timezone.now(),
            )
    links_ensure(tournament, len(drawn.tables))
    audit(tournament, user, action, f"round {drawn.number}", after=drawn.to_dict())
    return row


def _withdrawn(tournament: Tournament) -> set[int]:
    return set(
        tournament.teams.filter(withdrawn_after__isnull=False).values_list("number", flat=True)
    )


def round_complete(tournament: Tournament) -> tuple[int, int]:
    """(tables whose game counts, tables) of the round being played."""
    drawn = round_of(tournament, tournament.round)
    if drawn is None:
        return (0, 0)
    return (games_confirmed(tournament, drawn.number), len(drawn.tables))


@transaction.atomic
def round_next(*, tournament: Tournament, user: User = None) -> TournamentRound:
    """Draw the next round once every table's game of this one counts."""
    tournament = locked(tournament)
    if tournament.status != Tournament.Status.RUNNING:
        raise TeamsRefused(
            f"The tournament is {tournament.get_status_display().lower()}: rounds are drawn "
            "while it runs."
        )
    settings = engine_for(tournament).settings
    if tournament.round >= settings.rounds:
        raise TeamsRefused(
            f"Round {tournament.round} was the last of {settings.rounds}: "
            + ("seed the playoff, or finish." if settings.playoff else "finish the tournament.")
        )
    done, tables = round_complete(tournament)
    if done < tables:
        raise TeamsRefused(
            f"{tables - done} of {tables} tables of round {tournament.round} have no confirmed "
            "game yet: enter or confirm them (or record a forfeit), then draw."
        )
    engine = engine_for(tournament)
    try:
        drawn = engine.draw(
            tournament.round + 1,
            rounds_of(tournament),
            counted_results(tournament),
            seed=tournament.seed or 0,
            withdrawn=_withdrawn(tournament),
        )
    except TeamsError as exc:
        raise TeamsRefused(str(exc)) from None
    return _begin_round(tournament, drawn, user, action="round")


@transaction.atomic
def link_replace(*, tournament: Tournament, table: int, user: User = None) -> TournamentTableAccess:
    """A new link for a table (a tablet lost, or a link seen by the wrong people): the old
    one answers that it was replaced. The team tablets read the database on every request,
    so nothing cached holds the old link."""
    tournament = locked(tournament)
    have = TournamentTableAccess.objects.filter(tournament=tournament, revoked_at__isnull=True)
    tables = sorted(have.values_list("table", flat=True))
    if not tables:
        raise TeamsRefused("The tables' links are made at the draw.")
    if table not in tables:
        raise TeamsRefused(f"There is no table {table}: the tables are 1 to {tables[-1]}.")
    have.filter(table=table).update(revoked_at=timezone.now())
    fresh = TournamentTableAccess.objects.create(
        tournament=tournament, table=table, token=new_link_token()
    )
    audit(tournament, user, "replaced link", f"table {table}")
    return fresh
