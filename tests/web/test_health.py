import pytest
from django.test import Client, override_settings

from tournaments import health


@pytest.mark.django_db
def test_health_reports_each_part(client: Client) -> None:
    response = client.get("/health")
    body = response.json()
    assert set(body["checks"]) == {"database", "broker", "worker"}
    assert body["checks"]["database"]["status"] == "ok"
    assert response.status_code == (200 if body["status"] == "ok" else 503)


@pytest.mark.django_db
@override_settings(CELERY_EAGER=True)
def test_health_in_eager_mode_needs_no_broker(client: Client) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json()["checks"]["broker"]["status"] == "eager"
    assert response.json()["checks"]["worker"]["status"] == "eager"


@pytest.mark.django_db
def test_health_is_503_when_the_database_is_down(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        health, "check_database", lambda: health.Check("database", "down", True, "refused")
    )
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {
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
