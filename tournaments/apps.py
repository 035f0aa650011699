"""The tournaments app's configuration: what it wires up as Django starts."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: Django loads the models before `ready`, and these
        # modules need them. The tablets' state cache listens to the rows a tablet shows; the
        # tasks register their names, so `tournaments.kernel.jobs` can send them; each format
        # registers its part of the backup with the kernel's framework.
        from tournaments import tasks  # noqa: F401
        from tournaments.events.selectors import tablet_cache
        from tournaments.files import backup
        from tournaments.kernel import handicaps
        from tournaments.seasons.backup import register_seasons
        from tournaments.seasons.selectors.handicaps import club_handicaps

        tablet_cache.connect()
        backup.register_formats()
        register_seasons()
        # The events' results pages show handicapped standings from the seasons' figures,
        # asked through the kernel's slot: events may not import seasons (kernel.handicaps).
        handicaps.register(club_handicaps)
