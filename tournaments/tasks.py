"""Celery tasks: thin wrappers that take ids and call one service."""

from celery import shared_task


@shared_task(name="clubwhist.ping")
def ping(payload: str) -> dict[str, str]:
    """Echo a payload back: proves the broker-worker-result path end to end (used by tests)."""
    import os

    return {"payload": payload, "pid": str(os.getpid())}
