"""A drive's and a tournament's audit lines name who acted in words, as an event's do (0010).

The column is added empty, then each existing line linked to an account is given that
account's username, so old lines read as new ones (the audit writers fill it from now on).
Nothing else changes; going back drops the column and keeps every line."""

from typing import Any

from django.conf import settings
from django.db import migrations, models


def names_from_accounts(apps: Any, schema_editor: Any) -> None:
    """Each line with an account gets its username; a line without one stays blank."""
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    for label in ("DriveAudit", "TournamentAudit"):
        model = apps.get_model("tournaments", label)
        linked = model.objects.filter(user__isnull=False).values("user_id").distinct()
        accounts = user_model.objects.filter(pk__in=linked).values_list("pk", "username")
        for user_id, username in accounts.iterator():
            model.objects.filter(user_id=user_id, user_name="").update(user_name=username)


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tournaments", "0014_team_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="driveaudit",
            name="user_name",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.AddField(
            model_name="tournamentaudit",
            name="user_name",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.RunPython(names_from_accounts, migrations.RunPython.noop, elidable=True),
    ]
