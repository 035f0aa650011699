"""Django admin: a back door for the club's technical person, not the director's workflow."""

from django.contrib import admin
from django.http import HttpRequest

from tournaments.events import models
from tournaments.kernel.models import Club, Invitation


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors", "scorers"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club"]
    list_filter = ["club"]
    search_fields = ["name"]


class SectionInline(admin.TabularInline):
    model = models.Section
    extra = 0


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "game", "status", "results_version", "scored_version"]
    list_filter = ["status", "game", "club"]
    search_fields = ["name"]
    inlines = [SectionInline]


@admin.register(models.Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["section", "number", "direction", "player1", "player2", "is_phantom"]
    list_filter = ["section__event"]


@admin.register(models.Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "par_status", "fouled"]
    list_filter = ["event"]


@admin.register(models.MovementRow)
class MovementRowAdmin(admin.ModelAdmin):
    list_display = ["section", "round", "table", "ns_pair", "ew_pair", "board_set"]
    list_filter = ["section__event"]


@admin.register(models.Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["section", "board_number", "round", "table", "ns_score", "status"]
    list_filter = ["status", "section__event"]
    # Results change only through the services, which audit every change.
    readonly_fields = [f.name for f in models.Result._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "event", "user", "action", "target", "reason"]
    list_filter = ["action", "event"]
    readonly_fields = [f.name for f in models.AuditEntry._meta.fields]


@admin.register(models.Standings)
class StandingsAdmin(admin.ModelAdmin):
    list_display = ["event", "version", "computed_at"]


@admin.register(models.DirectorCall)
class DirectorCallAdmin(admin.ModelAdmin):
    list_display = ["section", "table", "round", "created_at", "handled_at"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations, to read: they are made, accepted and withdrawn from the club's People page
    (its trail says who did what), and only the token's hash is kept, so none can be made here."""

    list_display = [
        "email",
        "club",
        "role",
        "created_at",
        "expires_at",
        "accepted_at",
        "revoked_at",
    ]
    list_filter = ["club", "role"]
    search_fields = ["email"]
    readonly_fields = [f.name for f in Invitation._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
