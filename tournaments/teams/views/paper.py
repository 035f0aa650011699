"""A team tournament's paper for its director: the team list, the tables, score sheets and the
bracket, each a PDF on the club's paper for the browser's viewer (ready for its Print button).

A document that cannot be printed yet (no round drawn, no playoff seeded) sends the director
back to the tournament's page with the reason, as a drive's paper does.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET

from tournaments.kernel.pdf import pdf_response
from tournaments.teams.access import tournament_for
from tournaments.teams.models import Tournament
from tournaments.teams.services import paper as team_paper
from tournaments.teams.services.teams import TeamsRefused


@login_required
@require_GET
def tournament_print(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    """The team list, the tables, the score sheets or the bracket as a PDF; a refusal goes
    back to the tournament's page with its reason."""
    tournament = tournament_for(request.user, pk, Tournament.objects.select_related("club"))
    if what not in team_paper.DOCUMENTS:
        raise Http404(f"A tournament's paper is {', '.join(team_paper.DOCUMENTS)}.")
    try:
        pdf = team_paper.tournament_pdf(tournament=tournament, what=what)
    except TeamsRefused as exc:
        messages.error(request, str(exc))
        return redirect("tournament-detail", tournament.pk)
    return pdf_response(pdf, f"tournament-{tournament.pk}-{what}.pdf")
