"""The "forgot your password?" page with limits: Django's own view and email, counted in the
shared cache (Redis in production: every web node counts together), so the page cannot be used
to flood someone's inbox or to send mail in bulk.

- at most RESET_PER_EMAIL emails to one address an hour, whether or not it has an account
  (so the answer tells no one which addresses do);
- at most RESET_PER_CLIENT requests from one client address an hour (the address behind the
  trusted proxies, as the login lockout counts it).
A request over a limit sends nothing and says which limit and what to do; a form with a
mistake in it counts nothing.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest

#: Emails to one address an hour (any of their links works until one is used).
RESET_PER_EMAIL = 3
#: Requests from one client address an hour (a venue's members share one address).
RESET_PER_CLIENT = 20
WINDOW_SECONDS = 3600


def _key(kind: str, value: str) -> str:
    """A cache key that keeps no address in the clear."""
    return f"password-reset:{kind}:{hashlib.sha256(value.encode()).hexdigest()[:32]}"


def _count(key: str) -> int:
    return int(cache.get(key) or 0)


def _add(key: str) -> None:
    """One more in the hour that began with the first (the count lapses with it)."""
    if not cache.add(key, 1, WINDOW_SECONDS):
        try:
            cache.incr(key)
        except ValueError:  # it lapsed between the two calls
            cache.add(key, 1, WINDOW_SECONDS)


class LimitedResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, refusing a request over a limit with the reason."""

    def __init__(self, *args: Any, client: str = "unknown", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.client = client

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).strip().lower()
        if _count(_key("client", self.client)) >= RESET_PER_CLIENT:
            raise forms.ValidationError(
                f"{RESET_PER_CLIENT} password resets have been asked for from your network in "
                "the last hour, the most we send: try again in an hour, or ask your club's "
                "director to send you an invitation."
            )
        if _count(_key("email", email)) >= RESET_PER_EMAIL:
            raise forms.ValidationError(
                f"{RESET_PER_EMAIL} emails have gone to this address in the last hour: look in "
                "its inbox (and its spam folder) for one of them, whose link works, or ask "
                "again in an hour."
            )
        return email

    def save(self, *args: Any, **kwargs: Any) -> None:
        _add(_key("client", self.client))
        _add(_key("email", str(self.cleaned_data["email"])))
        super().save(*args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = LimitedResetForm

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        request: HttpRequest = self.request
        kwargs["client"] = str(settings.AXES_CLIENT_IP_CALLABLE(request) or "unknown")
        return kwargs
