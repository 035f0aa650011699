"""Top-level URL map: the director's pages, the API, its schema, health and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from clubwhist.login import LoginForm
from clubwhist.schema import SchemaView
from tournaments.drives.views import tablets as drive_tablets
from tournaments.events.views import tablets
from tournaments.home import health, home
from tournaments.kernel.password_reset import PasswordResetView
from tournaments.teams.views import tablets as team_tablets

urlpatterns = [
    path("", home, name="home"),
    path("health", health, name="health"),
    path(
        "accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's own password views, with our templates (templates/registration/).
    path(
        "accounts/password/change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password/reset/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("admin/", admin.site.urls),
    path("t/sw.js", tablets.service_worker, name="table-sw"),
    path("t/<str:token>/", tablets.table_page, name="table-page"),
    path("d/sw.js", drive_tablets.drive_service_worker, name="drive-table-sw"),
    path("d/<str:token>/", drive_tablets.drive_table_page, name="drive-table-page"),
    path("d/<str:token>/stream/", drive_tablets.drive_table_stream, name="drive-table-stream"),
    path("tt/sw.js", team_tablets.team_service_worker, name="team-table-sw"),
    path("tt/<str:token>/", team_tablets.team_table_page, name="team-table-page"),
    path("tt/<str:token>/stream/", team_tablets.team_table_stream, name="team-table-stream"),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("", include("tournaments.urls")),
]

# A URL under /api/ that matches no route is refused in the API's JSON, as an unknown id is.
handler404 = "tournaments.kernel.api.errors.not_found"
