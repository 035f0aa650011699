"""`python manage.py season ...`: a club's seasons from the command line.

    season list --club SLUG                      the seasons and their competitions
    season rebuild --club SLUG                   the ledger taken again, then every table
    season recompute --club SLUG                 every table computed again from the ledger
    season show --club SLUG SEASON COMPETITION   one competition's stored table

A rebuild is for after a restore, or when evenings were published while the broker was down;
a recompute when only the tables are behind (docs/directors/season.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from tournaments.kernel.models import Club
from tournaments.management.commands._oneline import OneLineCommand
from tournaments.seasons.selectors.seasons import competitions_of, season_tables, seasons_of
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.seasons import competitions_recompute


class Command(OneLineCommand):
    help = "List a club's seasons, rebuild or recompute their tables, show one table."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        listing = sub.add_parser("list", help="the seasons and their competitions")
        rebuild = sub.add_parser("rebuild", help="the ledger taken again, then every table")
        recompute = sub.add_parser("recompute", help="every table computed again")
        show = sub.add_parser("show", help="one competition's table")
        show.add_argument("season", help="the season's name")
        show.add_argument("competition", help="the competition's name")
        for each in (listing, rebuild, recompute, show):
            each.add_argument("--club", required=True, help="the club's slug")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"No club has the slug {options['club']!r}.")
        action = options["action"]
        if action == "list":
            for season in seasons_of(club.pk):
                self.stdout.write(f"{season.name}  {season.starts} to {season.ends}")
                for competition in competitions_of(season):
                    self.stdout.write(
                        f"  {competition.name}  ({competition.get_kind_display()}), "
                        f"as of {_when(competition.computed_at)}"
                    )
        elif action == "rebuild":
            taken = club_rebuild(club=club)
            changed = competitions_recompute(club_id=club.pk, force=True)
            self.stdout.write(f"{taken} evenings taken again; {changed} tables computed.")
        elif action == "recompute":
            changed = competitions_recompute(club_id=club.pk, force=True)
            self.stdout.write(f"{changed} tables computed.")
        else:
            self._show(club, options["season"], options["competition"])

    def _show(self, club: Club, season_name: str, competition_name: str) -> None:
        season = next(
            (s for s in seasons_of(club.pk) if s.name.casefold() == season_name.casefold()), None
        )
        if season is None:
            raise CommandError(f"{club.name} has no season called {season_name!r}.")
        shown = next(
            (
                t
                for t in season_tables(season, public=False)
                if t.competition.name.casefold() == competition_name.casefold()
            ),
            None,
        )
        if shown is None:
            raise CommandError(f"{season.name} has no competition called {competition_name!r}.")
        if shown.table is None:
            self.stdout.write("Not computed yet: run `season recompute`.")
            return
        self.stdout.write(f"{shown.competition.name}: {shown.table.heading}")
        for row, name in shown.rows:
            self.stdout.write(
                f"{row.place or '-':>4}  {name:<30} {row.shown:>10}  "
                f"{row.counted}/{row.played}  {row.detail}"
            )


def _when(moment: Any) -> str:
    """A table's time as the pages show it, in the club's time zone ("never" if not yet)."""
    return "never" if moment is None else f"{timezone.localtime(moment):%d %b %Y %H:%M}"
