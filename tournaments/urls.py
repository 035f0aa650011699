"""The director's pages and the API (grown by the tournaments work)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
