"""The Django admin, for administrators only.

A club's director works on the director's pages, which show only their own clubs' events (see
`tournaments.events.access`). The admin shows every club's rows, so only a superuser may open it:
a staff flag alone is not enough.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest


class AdministratorsAdminSite(AdminSite):
    site_header = "clubwhist administration"

    def has_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and user.is_superuser)


class AdministratorsAdminConfig(AdminConfig):
    default_site = "clubwhist.admin.AdministratorsAdminSite"
