"""Thin page views: each reads with a selector or calls one service, then renders."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.health import run_checks


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    healthy = not any(check.failing for check in checks)
    body = {
        "status": "ok" if healthy else "down",
        "checks": {check.name: check.as_dict() for check in checks},
    }
    return JsonResponse(body, status=200 if healthy else 503)
