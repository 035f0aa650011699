"""The seasons' pages: the director's (the club's seasons, a season set up or changed, a
competition with its evening picker, the season's page with "Recompute now") and the public
ones (the club's seasons, a season's tables, one competition's), with the season's PDF and
CSV files. Each view reads with the selectors or calls one service; the public pages read the
stored tables and never recompute (a page costs a few queries whatever the season's size)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from engine.printing.season import season_pdf
from engine.season.model import FORMATS
from tournaments.kernel.access import club_for
from tournaments.kernel.directors import directs_club
from tournaments.kernel.downloads import table_response
from tournaments.kernel.forms import NameField
from tournaments.kernel.models import Club
from tournaments.kernel.pdf import pdf_response
from tournaments.seasons import exports as files
from tournaments.seasons.models import Competition, Season
from tournaments.seasons.selectors.seasons import (
    chosen_of,
    club_evenings,
    season_as_of,
    season_page_key,
    season_stale,
    season_tables,
    seasons_of,
)
from tournaments.seasons.services import seasons as services


class BoundErrors(forms.Form):
    """A form whose fields in error say so to assistive technology: `aria-invalid` and
    `aria-describedby` naming the error's element (`<id>-error`, drawn by `_field.html`)."""

    def bind_errors(self) -> None:
        for name in self.errors:
            if name in self.fields:
                attrs = self.fields[name].widget.attrs
                attrs["aria-invalid"] = "true"
                attrs["aria-describedby"] = f"id_{name}-error"


class SeasonForm(BoundErrors):
    name = NameField(max_length=120, label="Name")
    starts = forms.DateField(label="First day", widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(label="Last day", widget=forms.DateInput(attrs={"type": "date"}))
    handicap_basis = forms.ChoiceField(
        choices=Season.Basis.choices,
        initial=Season.Basis.FIXED,
        label="Handicaps",
        widget=forms.RadioSelect,
    )
    handicap_window = forms.IntegerField(
        min_value=1, max_value=999, initial=10, label="Handicap window (sessions)"
    )
    handicap_min_sessions = forms.IntegerField(
        min_value=0, max_value=999, initial=3, label="Sessions needed for a handicap"
    )


class CompetitionForm(BoundErrors):
    name = NameField(max_length=120, label="Name")
    kind = forms.ChoiceField(
        choices=Competition.Kind.choices,
        initial=Competition.Kind.LADDER,
        label="Kind",
        widget=forms.RadioSelect,
    )
    count_events = forms.BooleanField(required=False, initial=True, label="Duplicate pairs")
    count_drives = forms.BooleanField(required=False, label="Whist drives")
    count_teams = forms.BooleanField(required=False, label="Bid Whist teams")
    best_of = forms.IntegerField(
        min_value=1, max_value=999, required=False, label="Best of (evenings; empty: all)"
    )
    min_sessions = forms.IntegerField(
        min_value=0, max_value=999, initial=0, label="Evenings to qualify"
    )
    ties = forms.ChoiceField(
        choices=Competition.Ties.choices,
        initial=Competition.Ties.SHARE,
        label="Ties",
        widget=forms.RadioSelect,
    )
    handicapped = forms.BooleanField(required=False, label="Handicapped (a ladder only)")


def _refusal(form: BoundErrors, message: str) -> None:
    """A service's refusal shown on the form: on the whole form (the summary at its top)."""
    form.add_error(None, message)


def _season(request: HttpRequest, slug: str, season_id: int) -> tuple[Club, Season]:
    club = club_for(request.user, slug)
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise Http404("No such season in this club.")
    return club, season


def _competition(season: Season, competition_id: int) -> Competition:
    competition = season.competitions.filter(pk=competition_id).first()
    if competition is None:
        raise Http404("No such competition in this season.")
    return competition


# ---- the director's pages ----------------------------------------------------------------------


@never_cache
@login_required
@require_GET
def seasons_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request.user, slug)
    context = {"club": club, "seasons": list(seasons_of(club.pk))}
    return render(request, "tournaments/director/seasons.html", context)


@never_cache
@login_required
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request.user, slug)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(club=club, user=request.user, **form.cleaned_data)
        except ValueError as exc:
            _refusal(form, str(exc))
        else:
            messages.success(request, f"Season {season.name} set up: now add its competitions.")
            return redirect("season-detail", club.slug, season.pk)
    form.bind_errors()
    return render(
        request,
        "tournaments/director/season_edit.html",
        {"club": club, "form": form, "season": None},
    )


@never_cache
@login_required
def season_edit(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club, season = _season(request, slug, season_id)
    if request.method == "POST" and request.POST.get("action") == "delete":
        services.season_delete(season=season, user=request.user)
        messages.success(request, f"Season {season.name} removed.")
        return redirect("seasons", club.slug)
    initial = {
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "handicap_basis": season.handicap_basis,
        "handicap_window": season.handicap_window,
        "handicap_min_sessions": season.handicap_min_sessions,
    }
    form = SeasonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.season_edit(season=season, user=request.user, **form.cleaned_data)
        except ValueError as exc:
            _refusal(form, str(exc))
        else:
            messages.success(request, "Season saved; its tables are computed again.")
            return redirect("season-detail", club.slug, season.pk)
    form.bind_errors()
    context = {"club": club, "form": form, "season": season}
    return render(request, "tournaments/director/season_edit.html", context)


@never_cache
@login_required
def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club, season = _season(request, slug, season_id)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "recompute":
            changed = services.season_recompute(season=season, force=True)
            messages.success(request, f"Every table computed again ({changed} written).")
        elif action in ("up", "down"):
            order = list(
                season.competitions.order_by("position", "id").values_list("pk", flat=True)
            )
            moved = request.POST.get("competition", "")
            if moved.isdigit() and int(moved) in order:
                at = order.index(int(moved))
                to = at - 1 if action == "up" else at + 1
                if 0 <= to < len(order):
                    order[at], order[to] = order[to], order[at]
                    services.competitions_reorder(season=season, order=order, user=request.user)
        return redirect("season-detail", club.slug, season.pk)
    context = {
        "club": club,
        "season": season,
        "tables": season_tables(season, public=False),
        "as_of": season_as_of(season),
        "stale": season_stale(season),
    }
    return render(request, "tournaments/director/season_detail.html", context)


def _picker(club: Club, season: Season, chosen: set[tuple[str, int]]) -> list[dict[str, Any]]:
    groups = club_evenings(club.pk, season.starts, season.ends)
    return [
        {
            "format": name,
            "title": FORMATS[name],
            "evenings": [(e, (e.format, e.play_id) in chosen) for e in groups[name]],
        }
        for name in FORMATS
        if groups[name]
    ]


def _chosen_from(request: HttpRequest) -> list[tuple[str, int]]:
    chosen = []
    for key in request.POST.getlist("evening"):
        fmt, _, number = key.partition(":")
        if fmt in FORMATS and number.isdigit() and len(number) < 10:
            chosen.append((fmt, int(number)))
    return chosen


@never_cache
@login_required
def competition_new(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club, season = _season(request, slug, season_id)
    form = CompetitionForm(request.POST or None)
    chosen = _chosen_from(request) if request.method == "POST" else []
    every = request.POST.get("evenings", "all") == "all"
    if request.method == "POST" and form.is_valid():
        try:
            competition = services.competition_add(
                season=season, user=request.user, plays=[] if every else chosen,
                **form.cleaned_data,
            )  # fmt: skip
        except ValueError as exc:
            _refusal(form, str(exc))
        else:
            messages.success(request, f"{competition.name} added and its table computed.")
            return redirect("season-detail", club.slug, season.pk)
    form.bind_errors()
    context = {
        "club": club,
        "season": season,
        "form": form,
        "competition": None,
        "every": every,
        "picker": _picker(club, season, set(chosen)),
    }
    return render(request, "tournaments/director/competition_edit.html", context)


@never_cache
@login_required
def competition_edit(
    request: HttpRequest, slug: str, season_id: int, competition_id: int
) -> HttpResponse:
    club, season = _season(request, slug, season_id)
    competition = _competition(season, competition_id)
    if request.method == "POST" and request.POST.get("action") == "remove":
        services.competition_remove(competition=competition, user=request.user)
        messages.success(request, f"{competition.name} removed.")
        return redirect("season-detail", club.slug, season.pk)
    initial = {
        field: getattr(competition, field)
        for field in (
            "name", "kind", "count_events", "count_drives", "count_teams", "best_of",
            "min_sessions", "ties", "handicapped",
        )
    }  # fmt: skip
    form = CompetitionForm(request.POST or None, initial=initial)
    if request.method == "POST":
        chosen = set(_chosen_from(request))
        every = request.POST.get("evenings", "all") == "all"
    else:
        chosen = chosen_of(competition)
        every = not chosen
    if request.method == "POST" and form.is_valid():
        try:
            services.competition_edit(
                competition=competition, user=request.user,
                plays=[] if every else sorted(chosen), **form.cleaned_data,
            )  # fmt: skip
        except ValueError as exc:
            _refusal(form, str(exc))
        else:
            messages.success(request, f"{form.cleaned_data['name']} saved and its table computed.")
            return redirect("season-detail", club.slug, season.pk)
    form.bind_errors()
    context = {
        "club": club,
        "season": season,
        "form": form,
        "competition": competition,
        "every": every,
        "picker": _picker(club, season, chosen),
    }
    return render(request, "tournaments/director/competition_edit.html", context)


# ---- the public pages and files ---------------------------------------------------------------


def _public_season(slug: str, season_id: int) -> tuple[Club, Season]:
    club = get_object_or_404(Club, slug=slug)
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise Http404("No such season in this club.")
    return club, season


@require_GET
def public_seasons(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    context = {"club": club, "seasons": list(seasons_of(club.pk))}
    return render(request, "tournaments/public/seasons.html", context)


#: Seconds between fetches of a current season's tables (they change when an evening is
#: published, a few times a week: once a minute shows a publish soon enough).
LIVE_SECONDS = 60
#: How long a drawn season's tables stay in the cache (a change makes a new key at once).
LIVE_KEPT_SECONDS = 3600


@require_GET
def public_season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club, season = _public_season(slug, season_id)
    director = directs_club(request.user, club.pk)
    refresh = LIVE_SECONDS if season.starts <= timezone.localdate() <= season.ends else 0
    live = _season_live(club, season, director=director)
    if request.GET.get("part"):
        # The live part alone: the page fetches it again while the season is on, so a table
        # recomputed by a publish's job shows without a reload.
        return HttpResponse(live)
    context = {"club": club, "season": season, "refresh": refresh, "live": mark_safe(live)}
    return render(request, "tournaments/public/season.html", context)


def _season_live(club: Club, season: Season, *, director: bool) -> str:
    """The season's tables as HTML. For members of the public it is kept in the cache under
    what it is drawn from (`season_page_key`), so a room of phones reading the season while
    the tablets play costs two small queries a read, not five tables decoded and drawn; the
    director's version (with the stale note) is drawn each time."""
    key = None if director else season_page_key(season)
    if key is not None:
        kept = cache.get(key)
        if isinstance(kept, str):
            return kept
    context = {
        "club": club,
        "season": season,
        "tables": season_tables(season, public=True),
        "as_of": season_as_of(season),
        "stale": director and season_stale(season),
        "director": director,
    }
    html = render_to_string("tournaments/public/_season_live.html", context)
    if key is not None:
        cache.set(key, html, LIVE_KEPT_SECONDS)
    return html


@require_GET
def public_competition(
    request: HttpRequest, slug: str, season_id: int, competition_id: int
) -> HttpResponse:
    club, season = _public_season(slug, season_id)
    shown = next(
        (t for t in season_tables(season, public=True) if t.competition.pk == competition_id),
        None,
    )
    if shown is None:
        raise Http404("No such competition in this season.")
    context = {"club": club, "season": season, "shown": shown}
    return render(request, "tournaments/public/competition.html", context)


@require_GET
def season_pdf_file(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club, season = _public_season(slug, season_id)
    pdf = season_pdf(
        files.season_document(season, season_tables(season, public=True), season_as_of(season)),
        paper=files.paper_of(club),
    )
    return pdf_response(pdf, f"season-{season.pk}.pdf")


@require_GET
def season_csv_file(
    request: HttpRequest, slug: str, season_id: int, fmt: str = "csv"
) -> HttpResponse:
    """The season's tables, one after another, as CSV or XLSX (`fmt`)."""
    _club, season = _public_season(slug, season_id)
    text = files.season_csv(season_tables(season, public=True))
    return table_response(text, f"season-{season.pk}", title=season.name, fmt=fmt, private=False)


@require_GET
def competition_csv_file(
    request: HttpRequest, slug: str, season_id: int, competition_id: int, fmt: str = "csv"
) -> HttpResponse:
    """One competition's table as CSV or XLSX (`fmt`)."""
    _club, season = _public_season(slug, season_id)
    shown = [t for t in season_tables(season, public=True) if t.competition.pk == competition_id]
    if not shown:
        raise Http404("No such competition in this season.")
    return table_response(
        files.season_csv(shown),
        f"competition-{competition_id}",
        title=shown[0].competition.name,
        fmt=fmt,
        private=False,
    )
