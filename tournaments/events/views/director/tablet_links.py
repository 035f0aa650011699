"""The tablets' links: their server address, its loopback warning, making and replacing them.

The warning is for an address no tablet could open (the laptop's own 127.0.0.1)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from clubwhist.lan import loopback_warning
from tournaments.events.models import Event
from tournaments.events.services import tablets as tablet_services
from tournaments.events.views.director._common import event_for_director
from tournaments.kernel.pages import act, base_url


def links_warning(request: HttpRequest, event: Event) -> str | None:
    """A warning for the event and print pages when the event's table links and QR codes would
    name the laptop itself (127.0.0.1, localhost), which no tablet can open."""
    if event.status not in (Event.Status.DRAFT, Event.Status.RUNNING):
        return None
    return loopback_warning(base_url(request))


@login_required
@require_POST
def event_tablet_links(request: HttpRequest, pk: int) -> HttpResponse:
    """Give every table a tablet link (events started before tablets existed)."""
    event = event_for_director(request, pk)
    act(request, tablet_services.table_links_ensure_for, "Tablet links are ready.", event=event)
    return redirect(event)


@login_required
@require_POST
def event_tablet_replace(request: HttpRequest, pk: int, table: int) -> HttpResponse:
    """A new link for one table (a lost or shared tablet); the old link then says so."""
    event = event_for_director(request, pk)
    act(
        request,
        tablet_services.table_link_replace,
        f"Table {table} has a new link: the old one now says it was replaced.",
        event=event,
        table=table,
    )
    back = request.POST.get("back", "")
    if not back.startswith("/") or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        # Not a path of this site: never sent elsewhere, nor read as a view's name ("²").
        back = event.get_absolute_url()
    return redirect(back)
