"""A league keeps each team by a number of its own, the same every week (`league_team`).

Before, the league table took each week's team numbers for week 1's, so a team taken off in a
later week moved the teams after it up a number and their games were credited to others. The
column is added empty, then filled for the leagues already kept: week 1's teams by their
number; a later week's team by its name among the league's teams so far (else a new league
number), which is what the names on the night meant. Teams outside a league keep None."""

from typing import Any

from django.db import migrations, models


def number_the_leagues_teams(apps: Any, schema_editor: Any) -> None:
    tournament_model = apps.get_model("tournaments", "Tournament")
    team_model = apps.get_model("tournaments", "TournamentTeam")
    leagues = tournament_model.objects.exclude(league=None).values_list("league_id", flat=True)
    for league_id in sorted(set(leagues)):
        known: dict[str, int] = {}
        weeks = tournament_model.objects.filter(league_id=league_id).order_by("week", "pk")
        for week in weeks:
            for team in team_model.objects.filter(tournament=week).order_by("number"):
                key = team.name.casefold()
                if key not in known:
                    known[key] = (
                        team.number if week.week == 1 else max(known.values(), default=0) + 1
                    )
                team.league_team = known[key]
                team.save(update_fields=["league_team"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_drive_tournament_audit_user_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamentteam",
            name="league_team",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(number_the_leagues_teams, migrations.RunPython.noop),
    ]
