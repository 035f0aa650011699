"""`python manage.py tournament ...`: run a Bid Whist team tournament (or a league's week) from
the command line.

Subcommands: `list`; `create FILE` (a JSON file: club, name, optional date, optional league
(its name: made if new, else its next week), settings as `TournamentSettings.from_dict` takes
them, teams: [{name, city, player_one, player_two}]); `arrive ID NUMBER [NUMBER ...] [--absent]
[--paid 12.50] [--pot|--no-pot]` (at the door); `start ID [--seed N]` (the draw of round 1);
`show ID` (the round being played, or the draft's teams); `enter ID TABLE HOME_POINTS
AWAY_POINTS [--hands H A] [--bostons H A] [--round N] [--reason WHY]` (a table's final score;
a correction needs the reason); `forfeit ID TABLE LATE_TEAM`; `withdraw ID TEAM [--reason
WHY]`; `next ID`; `standings ID`; `links ID` (each table's tablet link, at CLUBWHIST_BASE_URL,
default http://127.0.0.1:8000); `playoff ID` (seed it) and `playoff ID MATCH HOME_POINTS
AWAY_POINTS [--hands H A] [--bostons H A]`; `finish ID`; `publish ID`; `league ID [--week N]`
(a league's standings through week N). The same services as the pages; a refusal ends in one
line (`_oneline`) and changes nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from engine.teams.ranking import StandingRow, tie_break_text
from tournaments.kernel.clubs import club_get_or_create
from tournaments.management.commands._oneline import OneLineCommand
from tournaments.teams.models import League, Tournament, TournamentGame, TournamentTeam
from tournaments.teams.selectors.room import playoff_view, team_links
from tournaments.teams.selectors.teams import (
    TableView,
    game_text,
    league_standings,
    settings_of,
    tournament_state,
)
from tournaments.teams.services import games as team_games
from tournaments.teams.services import playoff as team_playoff
from tournaments.teams.services import teams as team_services

FILE_FIELDS = ("club", "name", "date", "league", "settings", "teams")


def _tournament(number: int) -> Tournament:
    tournament = Tournament.objects.select_related("club", "league").filter(pk=number).first()
    if tournament is None:
        raise CommandError(
            f"There is no tournament {number}: `manage.py tournament list` shows them."
        )
    return tournament


def _cents(text: str) -> int:
    """'12.50' -> 1250, as the door's form reads an amount."""
    try:
        amount = Decimal(text.strip().replace(",", ""))
    except InvalidOperation:
        raise CommandError(f"--paid is an amount such as 12.50, not {text!r}") from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise CommandError(f"--paid is an amount in whole cents, such as 12.50, not {text!r}")
    return int(amount * 100)


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _wins(value: Fraction) -> str:
    whole = int(value)
    return str(whole) if value == whole else f"{whole or ''}½"


def _score(options: dict[str, Any]) -> dict[str, int]:
    """The final score's fields from the command's numbers (hands and Bostons if given)."""
    score = {"home_points": options["home_points"], "away_points": options["away_points"]}
    for what in ("hands", "bostons"):
        if options.get(what):
            score[f"home_{what}"], score[f"away_{what}"] = options[what]
    return score


def _score_arguments(parser: CommandParser, *, required: bool = True) -> None:
    nargs = None if required else "?"
    parser.add_argument("home_points", type=int, nargs=nargs, help="the home (NS) team's")
    parser.add_argument("away_points", type=int, nargs=nargs, help="the away (EW) team's")
    parser.add_argument("--hands", type=int, nargs=2, metavar=("H", "A"), help="hands won")
    parser.add_argument("--bostons", type=int, nargs=2, metavar=("H", "A"), help="Bostons")


class Command(OneLineCommand):
    help = "Run a Bid Whist team tournament: create, arrive, start, enter, next, standings."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("list", help="the tournaments, newest first")
        sub.add_parser("create", help="a tournament from a JSON file").add_argument(
            "file", type=Path
        )
        for name in ("show", "next", "standings", "links", "finish", "publish"):
            sub.add_parser(name).add_argument("tournament", type=int)
        arrive = sub.add_parser("arrive", help="teams at the door: here, paid, in the pot")
        arrive.add_argument("tournament", type=int)
        arrive.add_argument("numbers", type=int, nargs="+", metavar="NUMBER")
        arrive.add_argument("--absent", action="store_true", help="not here after all")
        arrive.add_argument("--paid", help="what the team paid, such as 12.50")
        arrive.add_argument(
            "--pot", action=argparse.BooleanOptionalAction, default=None, help="the Boston pot"
        )
        start = sub.add_parser("start", help="the draw of round 1 (every team must be here)")
        start.add_argument("tournament", type=int)
        start.add_argument("--seed", type=int, default=None)
        enter = sub.add_parser("enter", help="a table's final score (counts at once)")
        enter.add_argument("tournament", type=int)
        enter.add_argument("table", type=int)
        _score_arguments(enter)
        enter.add_argument("--round", type=int, default=None, help="an earlier round's game")
        enter.add_argument("--reason", default="", help="why a confirmed game is corrected")
        forfeit = sub.add_parser("forfeit", help="a late team forfeits (after the grace)")
        forfeit.add_argument("tournament", type=int)
        forfeit.add_argument("table", type=int)
        forfeit.add_argument("late", type=int, metavar="LATE_TEAM")
        withdraw = sub.add_parser("withdraw", help="a team leaves the tournament for good")
        withdraw.add_argument("tournament", type=int)
        withdraw.add_argument("team", type=int)
        withdraw.add_argument("--reason", default="")
        playoff = sub.add_parser("playoff", help="seed the playoff, or enter a match's score")
        playoff.add_argument("tournament", type=int)
        playoff.add_argument("match", type=int, nargs="?")
        _score_arguments(playoff, required=False)
        league = sub.add_parser("league", help="a league's standings through week N")
        league.add_argument("league", type=int)
        league.add_argument("--week", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "list":
            for t in Tournament.objects.select_related("club", "league")[:50]:
                week = f"\tleague {t.league_id} {t.league.name}, week {t.week}" if t.league else ""
                self.stdout.write(f"{t.pk}\t{t.date}\t{t.status}\t{t.name}{week}")
            return
        if action == "create":
            self._create(options["file"])
            return
        if action == "league":
            self._league(options["league"], options["week"])
            return
        tournament = _tournament(options["tournament"])
        if action == "links":
            self._links(tournament)
            return
        if action == "arrive":
            self._arrive(tournament, options)
        elif action == "start":
            team_services.tournament_start(tournament=tournament, seed=options["seed"])
        elif action == "enter":
            game = team_games.game_enter(
                tournament=tournament,
                table=options["table"],
                round=options["round"],
                score=_score(options),
                reason=options["reason"],
            )
            self._saved(tournament, game)
        elif action == "forfeit":
            game = team_games.game_forfeit(
                tournament=tournament, table=options["table"], late=options["late"]
            )
            self._saved(tournament, game)
        elif action == "withdraw":
            team_games.team_withdraw(
                tournament=tournament, number=options["team"], reason=options["reason"]
            )
            self.stdout.write(f"Team {options['team']} withdrew: it plays no more rounds.")
        elif action == "next":
            team_services.round_next(tournament=tournament)
        elif action == "playoff":
            self._playoff(tournament, options)
        elif action == "finish":
            team_games.tournament_finish(tournament=tournament)
        elif action == "publish":
            team_games.tournament_publish(tournament=tournament)
        tournament.refresh_from_db()
        if action in ("standings", "finish", "publish"):
            self._standings(tournament)
        else:
            self._show(tournament)

    # ---- the actions ----------------------------------------------------------------------

    def _create(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise CommandError(f"{path}: the file is a JSON object ({', '.join(FILE_FIELDS)})")
        try:
            date = dt.date.fromisoformat(str(data["date"])) if data.get("date") else None
        except ValueError:
            raise CommandError(f"{path}: date is YYYY-MM-DD, not {data['date']!r}") from None
        unknown = sorted(set(data) - set(FILE_FIELDS))
        if unknown:
            raise CommandError(f"{path}: no field {unknown[0]!r} ({', '.join(FILE_FIELDS)})")
        teams = data.get("teams") or []
        if not isinstance(teams, list):
            raise CommandError(f"{path}: teams is a list of {{name, city, player_one, ...}}")
        with transaction.atomic():
            club = club_get_or_create(name=str(data.get("club") or "My whist club"))
            league = None
            if data.get("league"):
                name = str(data["league"])
                league = League.objects.filter(club=club, name=name).first()
                league = league or team_services.league_create(club=club, name=name)
            tournament = team_services.tournament_create(
                club=club,
                name=str(data.get("name") or "Bid Whist tournament"),
                date=date,
                league=league,
                settings=data.get("settings") or {},
                teams=teams,
            )
        week = f" (league {league.pk}, {league.name}, week {tournament.week})" if league else ""
        self.stdout.write(
            f"Tournament {tournament.pk} created{week}: {tournament.name}, "
            f"{tournament.teams.count()} teams."
        )

    def _arrive(self, tournament: Tournament, options: dict[str, Any]) -> None:
        paid = None if options["paid"] is None else _cents(options["paid"])
        with transaction.atomic():  # every team, or (refused) none
            for number in options["numbers"]:
                team_services.team_arrive(
                    tournament=tournament,
                    number=number,
                    present=not options["absent"],
                    paid_cents=paid,
                    in_pot=options["pot"],
                )

    def _playoff(self, tournament: Tournament, options: dict[str, Any]) -> None:
        given = [options[k] for k in ("match", "home_points", "away_points")]
        if all(value is None for value in given):
            team_playoff.playoff_start(tournament=tournament)
            return
        if any(value is None for value in given):
            raise CommandError("Give the match and both teams' points: playoff ID MATCH H A")
        team_playoff.playoff_enter(
            tournament=tournament, match=options["match"], score=_score(options)
        )

    def _saved(self, tournament: Tournament, game: TournamentGame) -> None:
        teams = {t.number: t for t in tournament.teams.all()}
        self.stdout.write(f"Round {game.round}, table {game.table}: {game_text(game, teams)}.")

    def _links(self, tournament: Tournament) -> None:
        links = team_links(tournament, settings.BASE_URL or "http://127.0.0.1:8000")
        if not links:
            raise CommandError(
                f"Tournament {tournament.pk} has no table links yet: they are made at the draw."
            )
        for link in links:
            self.stdout.write(f"table {link.table}\t{link.url}")

    # ---- what it prints -------------------------------------------------------------------

    def _show(self, tournament: Tournament) -> None:
        state = tournament_state(tournament)
        t, s = tournament, state.settings
        if t.status == Tournament.Status.DRAFT:
            here = len(state.teams) - len(state.absent)
            self.stdout.write(
                f"Tournament {t.pk} (draft): {t.name}, {len(state.teams)} teams, {here} here."
            )
            for team in state.teams:
                self.stdout.write(f"  {team.number} {self._team(team)}: {self._door(team)}")
            if state.absent:
                names = ", ".join(f"{team.number} {team.name}" for team in state.absent)
                self.stdout.write(f"Not here yet: {names}. The draw waits for every team.")
            return
        self.stdout.write(
            f"Tournament {t.pk} ({t.get_status_display().lower()}), round {t.round} of "
            f"{s.rounds}: {state.done} of {len(state.tables)} tables done."
        )
        for table in state.tables:
            self.stdout.write(
                f"  table {table.number}: {table.home.name} (NS) v {table.away.name} (EW)"
                + self._game(table)
            )
        if state.byes:
            self.stdout.write(f"  bye ({s.bye}): " + ", ".join(b.name for b in state.byes))
        gone = [team for team in state.teams if team.withdrawn_after is not None]
        for team in gone:
            self.stdout.write(f"  withdrawn: {team.name}, after round {team.withdrawn_after}")
        self._bracket(tournament)

    @staticmethod
    def _team(team: TournamentTeam) -> str:
        players = " & ".join(p for p in (team.player_one, team.player_two) if p)
        about = "; ".join(x for x in (team.city, players) if x)
        return f"{team.name} ({about})" if about else team.name

    @staticmethod
    def _door(team: TournamentTeam) -> str:
        words = ["here" if team.present else "not here", f"paid {_money(team.paid_cents)}"]
        if team.in_pot:
            words.append("in the pot")
        return ", ".join(words)

    @staticmethod
    def _game(table: TableView) -> str:
        if table.game is None:
            return ""
        if table.waiting:
            return f" -- entered at the tablet, waiting for the other team: {table.text}"
        if table.disputed:
            note = f" ({table.game.note})" if table.game.note else ""
            return f" -- disputed, the director is called: {table.text}{note}"
        return f" -- {table.text}"

    def _bracket(self, tournament: Tournament) -> None:
        rounds = playoff_view(tournament)
        if not rounds:
            return
        self.stdout.write("Playoff:")
        for name, matches in rounds:
            for m in matches:
                label = "third place" if m.third_place else f"match {m.id}"
                won = f" -- {m.winner} won" if m.winner else ""
                self.stdout.write(f"  {name}, {label}: {m.home} v {m.away}{won}")

    def _standings(self, tournament: Tournament) -> None:
        state = tournament_state(tournament)
        if not state.standings:
            self.stdout.write(
                f"Tournament {tournament.pk} is a draft: the standings begin with the draw."
            )
            return
        final = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED)
        when = "final" if final else "so far"
        self.stdout.write(
            f"{tournament.name} ({tournament.get_status_display().lower()}): standings {when}, "
            f"after round {tournament.round} of {state.settings.rounds}"
        )
        gone = {t.number: t.withdrawn_after or 0 for t in state.teams if t.withdrawn_after}
        self._table(state.standings, gone)
        self.stdout.write(f"{state.tie_break}.")
        self._bracket(tournament)

    def _table(self, rows: list[StandingRow], gone: dict[int, int]) -> None:
        self.stdout.write(
            f"{'#':>4}  {'team':<28} {'P':>3} {'W':>4} {'L':>3} {'Pts':>5} {'Ag':>5} "
            f"{'H':>4} {'B':>3}"
        )
        for row in rows:
            rank = f"{row.rank}{'=' if row.tied else ''}"
            notes = [f"({row.decided_by})"] if row.decided_by else []
            if row.team.number in gone:
                notes.append(f"withdrew after round {gone[row.team.number]}")
            self.stdout.write(
                f"{rank:>4}  {row.team.name[:28]:<28} {row.played:>3} {_wins(row.wins):>4} "
                f"{row.lost:>3} {row.points_for:>5} {row.points_against:>5} {row.hands:>4} "
                f"{row.bostons:>3}  {' '.join(notes)}".rstrip()
            )

    def _league(self, number: int, week: int | None) -> None:
        league = League.objects.filter(pk=number).first()
        if league is None:
            raise CommandError(
                f"There is no league {number}: `manage.py tournament list` names them."
            )
        weeks = list(league.weeks.exclude(status=Tournament.Status.DRAFT).order_by("week"))
        if not weeks:
            self.stdout.write(f"League {league.pk}, {league.name}: no week has been drawn yet.")
            return
        if week is not None and not 1 <= week <= weeks[-1].week:
            raise CommandError(
                f"League {league.pk} has played weeks 1 to {weeks[-1].week}: not week {week}."
            )
        through = week or weeks[-1].week
        played = ", ".join(f"week {w.week} {w.get_status_display().lower()}" for w in weeks)
        self.stdout.write(f"{league.name}: standings through week {through} ({played})")
        self._table(league_standings(league, through), {})
        self.stdout.write(f"{tie_break_text(settings_of(weeks[0]).keys)}.")
