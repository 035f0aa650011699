"""Settings fail loudly on bad values instead of running with a silent default."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_ENV", "DEBUG", "ALLOWED_HOSTS"}
    }
    clean.update(CLUBWHIST_VAR_DIR=str(tmp_path), **env)
    code = "import clubwhist.settings as s; print(s.DATABASES['default']['ENGINE'], s.CELERY_EAGER)"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_defaults_need_no_services(tmp_path: Path) -> None:
    out = load_settings(tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"]
    assert (tmp_path / "secret_key").exists()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG must be one of"),
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must start with postgres://"),
        ({"REDIS_URL": "http://localhost"}, "REDIS_URL must start with redis://"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV must be one of"),
        ({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "x"}, "SECRET_KEY is required"),
        ({"DJANGO_ENV": "production", "SECRET_KEY": "k" * 40}, "ALLOWED_HOSTS is required"),
    ],
)
def test_bad_values_stop_start_up(tmp_path: Path, env: dict[str, str], message: str) -> None:
    out = load_settings(tmp_path, **env)
    assert out.returncode != 0
    assert message in out.stderr


def test_redis_url_switches_off_eager_mode(tmp_path: Path) -> None:
    out = load_settings(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[1] == "False"


@pytest.mark.redis
def test_the_redis_cache_reuses_one_client_per_pool() -> None:
    """Django builds a Redis client per cache call; ours keeps one (clubwhist/cache.py) and
    still behaves as a cache."""
    from django.core.cache import caches

    from clubwhist.cache import RedisCache

    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    client = cache._cache  # the backend's client wrapper
    assert client.get_client(write=True) is client.get_client(write=True)
    cache.set("reuse-check", {"a": 1}, timeout=5)
    assert cache.get("reuse-check") == {"a": 1}
    cache.delete("reuse-check")
    assert cache.get("reuse-check") is None
