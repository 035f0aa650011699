"""Settings fail loudly on bad values instead of running with a silent default."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


#: Variables settings.py (or Django) reads that must not leak in from the process running the
#: tests (tests/conftest.py sets DJANGO_ALLOW_ASYNC_UNSAFE for the browser tests).
READ = {
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DJANGO_ENV",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "HTTPS",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
}
KEY = "tH1s-is-a-fifty-character-test-key-0123456789-abcd"
#: The production environment docs/operations/production.md documents.
PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": KEY,
    "ALLOWED_HOSTS": "whist.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://whist.example.org",
}


def run(tmp_path: Path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in READ}
    clean.update(CLUBWHIST_VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def load_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    code = "import clubwhist.settings as s; print(s.DATABASES['default']['ENGINE'], s.CELERY_EAGER)"
    return run(tmp_path, ["-c", code], **env)


def test_defaults_need_no_services(tmp_path: Path) -> None:
    out = load_settings(tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"]
    assert (tmp_path / "secret_key").exists()


def test_the_laptops_sqlite_keeps_a_write_ahead_log_and_syncs_every_commit(tmp_path: Path) -> None:
    """The default database (no DATABASE_URL): readers do not wait for a writer (WAL), and a
    commit is synced before it returns (synchronous=FULL, 2), so an accepted result survives
    a power cut; a result written by one connection is read by another at once."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'clubwhist.settings'; "
        "django.setup(); from django.db import connection; c = connection.cursor(); "
        "c.execute('create table t (x int)'); c.execute('insert into t values (7)'); "
        "import sqlite3; other = sqlite3.connect(connection.settings_dict['NAME']); "
        "print(c.execute('pragma journal_mode').fetchone()[0], "
        "c.execute('pragma synchronous').fetchone()[0], "
        "other.execute('select x from t').fetchone()[0])"
    )
    out = run(tmp_path, ["-c", code])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["wal", "2", "7"]


def test_processes_starting_together_share_one_generated_key(tmp_path: Path) -> None:
    """The laptop's server, its job runner and the test workers may start in the same moment
    with no key yet: every one must end up with the same key (else one's signed cookies are
    refused by another), in one file only its owner can read, with no draft left behind."""
    code = (
        "import hashlib, clubwhist.settings as s;"
        "print(hashlib.sha256(s.SECRET_KEY.encode()).hexdigest())"
    )
    clean = {k: v for k, v in os.environ.items() if k not in READ}
    clean.update(CLUBWHIST_VAR_DIR=str(tmp_path))
    starting = [
        subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, env=clean, stdout=subprocess.PIPE, text=True
        )
        for _ in range(6)
    ]
    keys = {process.communicate(timeout=60)[0].strip() for process in starting}
    assert all(process.returncode == 0 for process in starting)
    assert len(keys) == 1 and len(keys.pop()) == 64
    assert [path.name for path in tmp_path.glob("secret_key*")] == ["secret_key"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG must be one of"),
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must start with postgres://"),
        ({"REDIS_URL": "http://localhost"}, "REDIS_URL must start with redis://"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV must be one of"),
        ({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "x"}, "SECRET_KEY is required"),
        ({"DEBUG": "0"}, "SECRET_KEY is required when DJANGO_ENV=production or DEBUG is off"),
        (
            {"DJANGO_ENV": "production", "ALLOWED_HOSTS": "x", "SECRET_KEY": "k" * 40},
            "SECRET_KEY must be at least 50 random characters",
        ),
        (
            {"DJANGO_ENV": "production", "ALLOWED_HOSTS": "x", "SECRET_KEY": "ab" * 30},
            "secrets.token_urlsafe(50)",
        ),
        ({"DJANGO_ENV": "production", "SECRET_KEY": KEY}, "ALLOWED_HOSTS is required"),
        ({**PRODUCTION, "HTTPS": "maybe"}, "HTTPS must be one of"),
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


def test_the_documented_production_environment_passes_the_deploy_checks(tmp_path: Path) -> None:
    out = run(tmp_path, ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert out.returncode == 0, out.stderr
    assert "System check identified no issues" in out.stdout


def test_production_is_https_only_unless_a_club_laptop_says_otherwise(tmp_path: Path) -> None:
    code = (
        "import clubwhist.settings as s; print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    served = run(tmp_path, ["-c", code], **PRODUCTION)
    assert served.stdout.split() == ["True", "31536000", "True", "True"], served.stderr
    laptop = run(tmp_path, ["-c", code], **PRODUCTION, HTTPS="0")
    assert laptop.stdout.split() == ["False", "0", "False", "False"], laptop.stderr
    development = run(tmp_path, ["-c", code])  # `make run` on http://127.0.0.1
    assert development.stdout.split() == ["False", "0", "False", "False"], development.stderr
    # A laptop is told what it gives up; the deploy checks say so rather than pass quietly.
    checked = run(tmp_path, ["manage.py", "check", "--deploy"], **PRODUCTION, HTTPS="0")
    assert "security.W008" in checked.stderr and "security.W004" in checked.stderr
