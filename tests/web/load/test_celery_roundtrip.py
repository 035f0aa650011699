"""A task through real Redis to a real worker process and back."""

import os

import pytest
from django.test import Client

from tournaments.tasks import ping

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_a_task_runs_in_the_worker_process(celery_worker) -> None:
    result = ping.delay("round trip")
    answer = result.get(timeout=30)
    assert answer["payload"] == "round trip"
    assert answer["pid"] != str(os.getpid()), "the task ran in the test process, not the worker"


def test_health_sees_the_worker(celery_worker, admin_client: Client) -> None:
    response = admin_client.get("/health")  # staff: with the details
    body = response.json()
    assert response.status_code == 200, body
    assert body["checks"]["broker"]["status"] == "ok"
    assert body["checks"]["worker"]["status"] == "ok"
    assert celery_worker.name in body["checks"]["worker"]["detail"]
