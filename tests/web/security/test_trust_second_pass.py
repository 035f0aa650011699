"""Issue #24, points 6 and 8 (in part): login lockout per client behind the proxy, no open
redirect after "Replace link", no director call once the event is over, and no other table's
result shown for a reused submission key."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.events.models import DirectorCall, Event, Result
from tournaments.events.services import tablets

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.5"  # every request reaches gunicorn from the proxy


def _login(client: Client, password: str) -> Any:
    return client.post("/accounts/login/", {"username": "td", "password": password})


def _via_proxy(client_address: str) -> Client:
    """A browser at `client_address`, behind the proxy: nginx appends it to X-Forwarded-For."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


@pytest.fixture
def fast_director(director: Any, settings: Any) -> Any:
    """The director, with a password that checks fast (what is tested is the counting)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    director.set_password("pw-for-tests")
    director.save()
    return director


def test_behind_the_proxy_a_lockout_is_per_client(fast_director: Any, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    attacker = _via_proxy("203.0.113.9")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(attacker, "guess")
    assert _login(attacker, "pw-for-tests").status_code == 429
    # The director, through the same proxy from another address, still logs in.
    director = _via_proxy("198.51.100.7")
    assert _login(director, "pw-for-tests").status_code == 302
    # What a client writes in the header itself is further left: it cannot pick an address.
    spoofing = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    assert _login(spoofing, "pw-for-tests").status_code == 429


def test_without_a_proxy_the_header_is_ignored(fast_director: Any, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 0  # the default: a laptop, no proxy
    for number in range(settings.AXES_FAILURE_LIMIT):
        _login(_via_proxy(f"203.0.113.{number}"), "guess")  # a new "address" each time
    assert _login(_via_proxy("198.51.100.7"), "pw-for-tests").status_code == 429


def test_a_header_that_is_not_an_address_counts_as_the_proxy(
    fast_director: Any, settings: Any
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(_via_proxy("<script>"), "guess")
    assert _login(Client(REMOTE_ADDR=PROXY), "pw-for-tests").status_code == 429


@pytest.mark.parametrize(
    "back", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:1"]
)
def test_replace_link_never_redirects_off_the_site(
    running_event: Event, director: Any, back: str
) -> None:
    client = Client()
    client.force_login(director)
    answer = client.post(f"/events/{running_event.pk}/tablets/2/replace/", {"back": back})
    assert answer.status_code == 302
    assert answer["Location"] == running_event.get_absolute_url()


def test_replace_link_follows_a_page_of_this_site(running_event: Event, director: Any) -> None:
    client = Client()
    client.force_login(director)
    back = f"/events/{running_event.pk}/print/"
    answer = client.post(f"/events/{running_event.pk}/tablets/2/replace/", {"back": back})
    assert answer.status_code == 302 and answer["Location"] == back


@pytest.mark.parametrize("status", [Event.Status.FINISHED, Event.Status.PUBLISHED])
def test_no_director_call_once_the_event_is_over(running_event: Event, status: str) -> None:
    token = tablets.table_links_ensure(event=running_event)[0].token
    Event.objects.filter(pk=running_event.pk).update(status=status)
    answer = Client().post(
        f"/api/t/{token}/call-director/", {"note": "help"}, content_type="application/json"
    )
    assert answer.status_code == 409
    assert "Ask the director" in answer.json()["detail"]
    assert not DirectorCall.objects.exists()


def test_another_tables_key_does_not_show_its_result(running_event: Event) -> None:
    links = {a.table: a.token for a in tablets.table_links_ensure(event=running_event)}
    client = Client()
    first = client.post(
        f"/api/t/{links[1]}/results/",
        {"board": 1, "entry": {"ns_tricks": 9}, "idempotency_key": "table-1-secret-key"},
        content_type="application/json",
    )
    assert first.status_code == 201
    board = client.get(f"/api/t/{links[2]}/").json()["current"]["boards"][0]["number"]
    stolen = client.post(
        f"/api/t/{links[2]}/results/",
        {"board": board, "entry": {"ns_tricks": 4}, "idempotency_key": "table-1-secret-key"},
        content_type="application/json",
    )
    assert stolen.status_code == 409
    body = stolen.json()
    assert set(body) == {"detail"}
    assert "belongs to another result" in body["detail"]
    assert "Board 1" not in body["detail"] and "NS" not in body["detail"]
    assert Result.objects.count() == 1
    # The table's own conflicts still show its stored result (the players compare the two).
    own = client.post(
        f"/api/t/{links[1]}/results/",
        {"board": 1, "entry": {"ns_tricks": 8}, "idempotency_key": "table-1-other-key"},
        content_type="application/json",
    )
    assert own.status_code == 409 and own.json()["stored"]["id"] == first.json()["id"]
