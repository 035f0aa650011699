"""A member's page, its PDF and its CSV: public for a member who chose to be shown, and always
open to the club's directors (with every name in full). Each view reads `member_page` once.

The page lives at the member's address in the register (`clubs/<slug>/members/<id>/`); the
register's form to change a member moved to `.../edit/`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_cookie

from engine.charts import bar_chart, line_chart
from engine.printing.member import member_pdf
from engine.scoring.model import format_points
from engine.season.member import history_csv, ordinal
from tournaments.kernel.downloads import table_response
from tournaments.kernel.models import Club
from tournaments.kernel.pdf import pdf_response
from tournaments.seasons.selectors.members import (
    MemberPage,
    directs,
    member_for_reader,
    member_page,
    season_choice,
)

#: Where each format's evening is published.
EVENING_PAGES = {
    "event": "public-results",
    "drive": "drive-public",
    "tournament": "tournament-public",
}


def _page(request: HttpRequest, slug: str, member_id: int) -> MemberPage:
    club = get_object_or_404(Club, slug=slug)
    director = directs(request.user, club)
    member = member_for_reader(club, member_id, director=director)
    if member is None:
        raise Http404("No member's page here.")
    season = season_choice(club, request.GET.get("season"))
    return member_page(club, member, director=director, season=season)


def _period(page: MemberPage) -> str:
    return page.season.name if page.season else "every published evening"


def _charts(page: MemberPage) -> dict[str, Any]:
    """The two charts, each with the same figures as a table beside it."""
    series = page.history.percentages
    percentage_chart = (
        line_chart(
            [(label, float(value)) for label, value, _ in series],
            title=f"{page.name}: percentage per pairs evening",
            second=[float(running) for _, _, running in series],
            second_name="running average",
            ident="member-percentages",
        )
        if series
        else ""
    )
    placings = page.history.placings
    placings_chart = (
        bar_chart(
            [(ordinal(place), count) for place, count in placings],
            title=f"{page.name}: evenings finished in each place",
            ident="member-placings",
        )
        if placings
        else ""
    )
    return {
        "percentage_chart": percentage_chart,
        "percentage_rows": [
            (label, format_points(value), format_points(running))
            for label, value, running in series
        ],
        "placings_chart": placings_chart,
        "placings_rows": [(ordinal(place), count) for place, count in placings],
    }


@vary_on_cookie
@require_GET
def member_page_view(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    page = _page(request, slug, member_id)
    context = {
        "page": page,
        "club": page.club,
        "member": page.member,
        "period": _period(page),
        **_charts(page),
    }
    return render(request, "tournaments/seasons/member.html", context)


def _file_stem(page: MemberPage) -> str:
    """The downloads' name before its extension."""
    who = slugify(page.name) or f"member-{page.member.pk}"
    return f"{page.club.slug}-{who}"


@vary_on_cookie
@require_GET
def member_page_pdf(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    page = _page(request, slug, member_id)
    data = member_pdf(
        page.name,
        page.club.name,
        page.history,
        period=_period(page),
        handicap=page.handicap_text,
        handicap_rule=page.handicap_rule,
    )
    return pdf_response(data, f"{_file_stem(page)}.pdf")


@vary_on_cookie
@require_GET
def member_page_csv(
    request: HttpRequest, slug: str, member_id: int, fmt: str = "csv"
) -> HttpResponse:
    """The member's evenings as CSV or XLSX (`fmt`), as the page shows them to this reader."""
    page = _page(request, slug, member_id)
    return table_response(history_csv(page.history), _file_stem(page), title="Results", fmt=fmt)
