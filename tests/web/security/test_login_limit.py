"""Logins are rate limited (django-axes): a run of wrong passwords locks that username from
that address for a while, with a page that says so; a right password clears a short run."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(settings: object) -> object:
    """A director whose password checks fast (a dozen logins here; the real hasher takes a
    second each on this machine, and what is tested is the counting, not the hashing)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]
    return get_user_model().objects.create_user("td", password="pw-for-tests", is_staff=True)


def _try(client: Client, password: str) -> object:
    return client.post("/accounts/login/", {"username": "td", "password": password})


def test_wrong_passwords_lock_the_login(director) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        answer = _try(client, "guess")
        assert answer.status_code == 200  # the form again, with its error
    locked = _try(client, "guess")
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.content.decode()
    # Even the right password is refused while locked, and nobody is logged in.
    right = _try(client, "pw-for-tests")
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another username from the same address is not locked by td's failures.
    get_user_model().objects.create_user("other", password="other-pw-123")
    other = client.post("/accounts/login/", {"username": "other", "password": "other-pw-123"})
    assert other.status_code == 302


def test_a_right_password_clears_a_short_run_of_mistakes(director) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _try(client, "typo")
    assert _try(client, "pw-for-tests").status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _try(client, "typo").status_code == 200  # counting from zero again
