import pytest
from django.test import Client, override_settings

from tournaments.kernel import health


@pytest.mark.django_db
def test_health_reports_each_part(client: Client) -> None:
    response = client.get("/health")
    body = response.json()
    assert set(body["checks"]) == {"database", "broker", "worker", "live_streams"}
    assert body["checks"]["live_streams"] == {"status": "ok", "required": False}
    assert body["checks"]["database"]["status"] == "ok"
    assert response.status_code == (200 if body["status"] == "ok" else 503)


@pytest.mark.django_db
def test_health_tells_anyone_ok_or_down_and_nothing_about_the_server(client: Client) -> None:
    """No database kind, version, host name or error text for anonymous callers: what a
    monitor needs is each part's status."""
    response = client.get("/health")
    text = response.content.decode().lower()
    for part in response.json()["checks"].values():
        assert set(part) == {"status", "required"}
    for word in ("sqlite", "postgres", "redis", "celery@", "worker(s)", "version"):
        assert word not in text


@pytest.mark.django_db
def test_staff_see_the_details(admin_client: Client, client: Client) -> None:
    from django.db import connection

    checks = admin_client.get("/health").json()["checks"]
    assert checks["database"]["detail"] == connection.vendor
    assert "open from" in checks["live_streams"]["detail"]
    assert "turned away since it started" in checks["live_streams"]["detail"]
    client.force_login(_member())
    assert "detail" not in client.get("/health").json()["checks"]["database"]


def _member():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("member", password="pw-for-tests")


@pytest.mark.django_db
@override_settings(CELERY_EAGER=True)
def test_health_in_eager_mode_needs_no_broker(client: Client) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json()["checks"]["broker"]["status"] == "eager"
    assert response.json()["checks"]["worker"]["status"] == "eager"


@pytest.mark.django_db
def test_health_is_503_when_the_database_is_down(
    client: Client, admin_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        health, "check_database", lambda: health.Check("database", "down", True, "refused")
    )
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {"status": "down", "required": True}
    assert admin_client.get("/health").json()["checks"]["database"] == {
        "status": "down",
        "required": True,
        "detail": "refused",
    }


@pytest.mark.django_db
@override_settings(CELERY_EAGER=False)
def test_health_is_503_when_the_broker_is_unreachable(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from clubwhist.celery import app

    monkeypatch.setattr(app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/health")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["broker"]["status"] == "down"
    assert checks["worker"]["status"] == "down"
