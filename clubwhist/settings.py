"""Settings for clubwhist, read from the environment.

One module for every environment: a laptop at the venue, CI and production differ only in
their environment variables. Every reader (here and in clubwhist/environment.py) fails
loudly on a value it cannot read, so a typo in a deployment stops the process at start-up
instead of running with a silent default.
The variables are documented in docs/operations/configuration.md.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import dj_database_url
from django.conf import global_settings
from django.conf import settings as live_settings
from django.core.exceptions import ImproperlyConfigured

from clubwhist.environment import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    key_kept_in,
    redis_database_moved,
)
from clubwhist.lan import lan_addresses, url_for

if TYPE_CHECKING:
    from django.http import HttpRequest

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CLUBWHIST_VAR_DIR", BASE_DIR / "var"))


def database_from_env() -> dict[str, Any]:
    """DATABASE_URL, or a SQLite file under var/ so a laptop needs no database server."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "clubwhist.sqlite3",
            # Results arrive from many tablets at once: wait for the write lock, don't fail.
            # Write-ahead log: readers (live results, the tablets' polls) no longer wait for
            # a writer, and a commit appends to one file and syncs it once, where the
            # default rollback journal made, synced and deleted a journal file for each
            # (the demo's 15,000 statements took 17 s instead of 6). synchronous=FULL keeps
            # a committed result through a power cut as before (NORMAL could lose the last
            # ones). See docs/operations/backup.md for copying the file.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
            },
            # A file, not memory, so a Celery worker process can share the test database.
            "TEST": {"NAME": VAR_DIR / "test.sqlite3"},
        }
    scheme = urlsplit(url).scheme
    if scheme not in {"postgres", "postgresql", "sqlite"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// or sqlite://; got scheme {scheme!r}"
        )
    pool = env_int("DB_POOL_SIZE", 10) if scheme != "sqlite" else 0
    try:
        # A pool shares a few connections among a process's threads (threaded gunicorn
        # workers, live-result streams); without one every thread would keep its own.
        # Health checks: a connection the server dropped while it sat idle (a restart, a
        # failover, pg_terminate_backend, a firewall's timeout) is found out before a request
        # uses it, at the cost of one round trip, and replaced: the request never notices.
        # With a pool, the backend clubwhist/postgresql does it (Django's check is too slow
        # there when the server dropped several connections at once).
        config: dict[str, Any] = dict(
            dj_database_url.parse(url, conn_max_age=0 if pool else 60, conn_health_checks=not pool)
        )
        if scheme != "sqlite":
            config["ENGINE"] = "clubwhist.postgresql"
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL could not be read: {exc}") from None
    if pool < 0:
        raise ImproperlyConfigured(f"DB_POOL_SIZE must be 0 (no pool) or more; got {pool}")
    if pool:
        config.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": pool, "timeout": 20}
    return config


def redis_url_from_env() -> str:
    url = os.environ.get("REDIS_URL", "").strip()
    if url and urlsplit(url).scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"REDIS_URL must start with redis:// or rediss://; got {url!r}")
    return url


_MAKE_A_KEY = "make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def secret_key_from_env(required: bool) -> str:
    """SECRET_KEY from the environment, required in production and whenever DEBUG is off (a
    key in a file beside the code is a development convenience, never a deployment's secret);
    in development a random key is made once and kept in var/."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        if required and (len(key) < 50 or len(set(key)) < 5):
            raise ImproperlyConfigured(
                "SECRET_KEY must be at least 50 random characters in production; " + _MAKE_A_KEY
            )
        return key
    if required:
        raise ImproperlyConfigured(
            "SECRET_KEY is required when DJANGO_ENV=production or DEBUG is off: set it in the "
            "environment (never in a file in the code); " + _MAKE_A_KEY
        )
    return key_kept_in(VAR_DIR)


DJANGO_ENV = env_choice("DJANGO_ENV", "development", ("development", "club", "production"))
PRODUCTION = DJANGO_ENV == "production"
# The club laptop (`make club`, `manage.py club`): the director's laptop at the venue serving
# the tablets over the venue's Wi-Fi. Like production it runs without debug pages, on a real
# WSGI server, with hashed and compressed static files; like development it needs nothing else
# running (SQLite, jobs in-process) and keeps its generated secret key in var/, because the
# laptop is the whole installation. See clubwhist/lan.py and docs/directors/club-night.md.
CLUB = DJANGO_ENV == "club"
DEBUG = env_bool("DEBUG", DJANGO_ENV == "development")
SECRET_KEY = secret_key_from_env(PRODUCTION or (not DEBUG and not CLUB))
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]


def club_address() -> str:
    """The laptop's address on the venue's network: CLUBWHIST_ADDRESS, else the best one found."""
    named = os.environ.get("CLUBWHIST_ADDRESS", "").strip()
    if named:
        return named
    found = lan_addresses()
    if not found:
        raise ImproperlyConfigured(
            "The club laptop has no network address: join the venue's Wi-Fi (or plug in its "
            "router) and start again, or name the address with CLUBWHIST_ADDRESS=192.168.1.50"
        )
    return found[0].address


if CLUB:
    CLUB_ADDRESS = club_address()
    CLUB_PORT = env_int("CLUBWHIST_PORT", 8000)
    _club_hosts = [CLUB_ADDRESS, *(a.address for a in lan_addresses())]
    _club_hosts += [socket.gethostname(), f"{socket.gethostname()}.local"]
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", list(dict.fromkeys(_club_hosts + LOOPBACK_HOSTS)))
else:
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else [*LOOPBACK_HOSTS, "testserver"])
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DJANGO_ENV=production")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "clubwhist.admin.AdministratorsAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "axes",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An address holding a NUL is answered before any view looks it up (clubwhist/addresses.py).
    "clubwhist.addresses.NulRefusal",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Logins are rate limited by django-axes: after AXES_FAILURE_LIMIT wrong passwords for one
# username from one address, that pair is locked out for AXES_COOLOFF_TIME (a director who
# mistypes a few times waits a quarter of an hour; a script guessing passwords gets nowhere).
# A successful login clears the count. The admin's login is covered the same way.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind a reverse proxy every request comes from the proxy's address, so axes would count one
# address for the whole world and five wrong passwords from anyone would lock the director out.
# TRUSTED_PROXY_COUNT says how many proxies in front of gunicorn append to X-Forwarded-For
# (nginx: `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;`); the client is the
# address the outermost of them appended. 0 (the default: a laptop with no proxy) keeps
# REMOTE_ADDR and ignores the header, which any client can send.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT must be 0 or more; got {TRUSTED_PROXY_COUNT}")


def client_ip_address(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or with TRUSTED_PROXY_COUNT proxies the address the
    outermost trusted proxy put in X-Forwarded-For (counted from the right: what a client wrote
    there itself is further left, so it cannot choose its address). A header shorter than the
    proxies, or a value that is not an address, falls back to REMOTE_ADDR: a lockout record
    must never hold what a client typed."""
    remote: str | None = request.META.get("REMOTE_ADDR")
    count: int = getattr(live_settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if count <= 0 or len(forwarded) < count:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-count]))
    except ValueError:
        return remote


AXES_CLIENT_IP_CALLABLE = client_ip_address

# Live results streams (tournaments/events/views/live.py): the most one process follows at once, and
# the most from one client address (counted as above, behind the proxy; with Redis, across
# every web process and node of the installation, tournaments/kernel/live.py). Served by ASGI
# (production and the club laptop) a stream is a coroutine and costs no thread; served by
# threads (WSGI: `make run`) each holds one, so LIVE_STREAMS_THREADED is far lower and leaves
# the tablets theirs. A reader over a cap gets a 503 and its page asks every 15 s instead.
# A venue's readers may share one public address behind its router: keep that cap generous.
LIVE_STREAMS_PER_PROCESS = env_int("LIVE_STREAMS_PER_PROCESS", 1000)
LIVE_STREAMS_PER_ADDRESS = env_int("LIVE_STREAMS_PER_ADDRESS", 50)
LIVE_STREAMS_THREADED = env_int("LIVE_STREAMS_THREADED", 8)


def login_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The username axes records for a login: what was typed, cut to the record's 255
    characters (no account's name is longer than 150) and without NUL, which PostgreSQL
    refuses. Otherwise a 256-character username is a server error instead of a wrong login."""
    source: Any = credentials if credentials else getattr(request, "data", request.POST)
    typed = source.get("username")
    return typed.replace("\x00", "")[:255] if isinstance(typed, str) else typed


AXES_USERNAME_CALLABLE = login_username


def password_hashers(*, fast: bool) -> list[str]:
    """Django's hashers, with MD5 first when `fast` (tests only, never in production).

    CLUBWHIST_TEST_FAST_HASHER=1 asks for it: tests/conftest.py sets it, as Django's docs
    advise for tests, because PBKDF2 costs about 0.2 s a password and every test that makes a
    director pays it. The processes the tests start (gunicorn, Celery workers) inherit the
    variable and so check the passwords the tests hashed; the default hashers follow MD5 so
    any stored hash still checks. A production server ignores it and hashes with PBKDF2.
    """
    default = list(global_settings.PASSWORD_HASHERS)
    return ["django.contrib.auth.hashers.MD5PasswordHasher", *default] if fast else default


PASSWORD_HASHERS = password_hashers(
    fast=env_bool("CLUBWHIST_TEST_FAST_HASHER", False) and not PRODUCTION
)

# What a new password must be, wherever one is chosen (an invitation's new account, a change,
# a reset): Django's four checks, so "password" or the username itself is refused with words.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

ROOT_URLCONF = "clubwhist.urls"
WSGI_APPLICATION = "clubwhist.wsgi.application"
ASGI_APPLICATION = "clubwhist.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_env()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# `collectstatic` writes here for production; in development WhiteNoise serves from the app
# folders directly (finders), so the folder only has to exist.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# The club laptop collects its own copy (`manage.py club` runs collectstatic) so that, as in
# production, every file is served under a name that changes with its content.
COLLECTED_STATIC = PRODUCTION or CLUB
WHITENOISE_USE_FINDERS = not COLLECTED_STATIC
if not PRODUCTION:
    STATIC_ROOT = VAR_DIR / ("static-club" if CLUB else "static")
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if COLLECTED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# HTTPS. In production everything is served over HTTPS by default (a TLS-terminating proxy in
# front, which says so in X-Forwarded-Proto): plain HTTP is redirected, browsers are told to
# come back only over HTTPS (HSTS) and cookies are sent only over HTTPS. A club laptop that
# serves the tablets over the venue's Wi-Fi at http://192.168.x.y runs production with
# HTTPS=0, which turns all of that off (`manage.py check --deploy` then warns, rightly).
# `make run` (development) never uses HTTPS.
HTTPS = env_bool("HTTPS", PRODUCTION)
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
# An uptime monitor may ask the app server directly over plain HTTP (it answers ok/down only).
SECURE_REDIRECT_EXEMPT = [r"^health$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading asks browser makers to hard-code HTTPS for the whole domain, subdomains included,
# for months after any change of mind: the domain's owner decides that, not a default. Until
# SECURE_HSTS_PRELOAD=1, Django's reminder about it (security.W021) is silenced.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# ---- Content-Security-Policy and uploads ----------------------------------------------------
# Browsers run only our own script and style files (no inline code, style="", eval, plugin or
# other site; data reaches scripts in data- attributes) and no other site may frame us. Static
# files and PDFs (the viewer is an <embed>: views/printing.py) carry no policy. connect-src:
# fetch and the live stream; worker-src: the tablets' /t/sw.js. docs/operations/production.md
INSTALLED_APPS.append("csp")
MIDDLEWARE.insert(
    MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1,
    "csp.middleware.CSPMiddleware",
)
_CSP_SELF = ["default", "script", "style", "img", "font", "connect", "worker", "manifest"]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        **{f"{kind}-src": ["'self'"] for kind in _CSP_SELF},
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
    }
}
# An uploaded file is at most 5 MB (services' MAX_FILE_BYTES): clubwhist/uploads.py keeps no
# more and counts the rest; the form says "The file is N MB, the limit is 5 MB" (forms.py).
UPLOAD_MAX_BYTES = 5 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "clubwhist.uploads.CappedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES  # in memory up to the limit, not 2.5 MB
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES  # the body besides files (the API's JSON imports)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "tournaments.kernel.api.schema.ErrorsAutoSchema",
    # The client's address (DRF's per-address throttles) from the proxies we trust, as for the
    # login lockout: never a raw X-Forwarded-For a client could write itself.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "EXCEPTION_HANDLER": "tournaments.kernel.api.errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.kernel.api.parsers.LimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Per table link: a tablet polls every 10 s and sends a few results a round.
    "DEFAULT_THROTTLE_RATES": {"table": os.environ.get("TABLET_THROTTLE", "240/min")},
}

# The address players' tablets use to reach this server (table links and QR codes); when
# unset, pages use the address the director's browser used, and `manage.py tablets`
# http://127.0.0.1:8000. The club laptop sets it to its address on the venue's network.
BASE_URL = os.environ.get("CLUBWHIST_BASE_URL", "").rstrip("/")
if CLUB and not BASE_URL:
    BASE_URL = url_for(CLUB_ADDRESS, CLUB_PORT)


def email_from_env() -> dict[str, Any]:
    """Django's email settings from the environment: its SMTP backend when EMAIL_HOST names a
    server, else the console backend, which prints each email to the terminal (the club laptop
    has no mail server; the director reads an invitation's link there, or from the page).

    A value that cannot be read stops the process at start-up, naming the variable: an
    invitation or a password reset that silently goes nowhere is found out far too late."""
    host = os.environ.get("EMAIL_HOST", "").strip()
    sender = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "clubwhist <clubwhist@localhost>"
    if "@" not in sender or "\n" in sender or "\r" in sender:
        raise ImproperlyConfigured(
            f"DEFAULT_FROM_EMAIL must be an email address (clubwhist@example.org, or "
            f"'Club <clubwhist@example.org>'); got {sender!r}"
        )
    if not host:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
            "DEFAULT_FROM_EMAIL": sender,
        }
    if any(c in host for c in " /:@"):
        raise ImproperlyConfigured(
            f"EMAIL_HOST must be the mail server's name or address alone (smtp.example.org), "
            f"without a scheme, port or user; got {host!r}"
        )
    use_tls = env_bool("EMAIL_USE_TLS", False)
    use_ssl = env_bool("EMAIL_USE_SSL", False)
    if use_tls and use_ssl:
        raise ImproperlyConfigured(
            "EMAIL_USE_TLS and EMAIL_USE_SSL are two ways of encrypting: set one of them "
            "(TLS, usually port 587; SSL, usually port 465), not both"
        )
    port = env_int("EMAIL_PORT", 465 if use_ssl else 587 if use_tls else 25)
    if not 1 <= port <= 65535:
        raise ImproperlyConfigured(f"EMAIL_PORT must be a port number (1 to 65535); got {port}")
    user = os.environ.get("EMAIL_HOST_USER", "")
    password = os.environ.get("EMAIL_HOST_PASSWORD", "")
    if bool(user) != bool(password):
        raise ImproperlyConfigured(
            "EMAIL_HOST_USER and EMAIL_HOST_PASSWORD go together: set both to sign in to the "
            "mail server, or neither"
        )
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": host,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": user,
        "EMAIL_HOST_PASSWORD": password,
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
        # A mail server that does not answer costs the director's request seconds, not minutes.
        "EMAIL_TIMEOUT": env_int("EMAIL_TIMEOUT", 10),
        "DEFAULT_FROM_EMAIL": sender,
    }


_email = email_from_env()
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
DEFAULT_FROM_EMAIL = _email["DEFAULT_FROM_EMAIL"]
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if "EMAIL_HOST" in _email:
    EMAIL_HOST = _email["EMAIL_HOST"]
    EMAIL_PORT = _email["EMAIL_PORT"]
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
    EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
    EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
    EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]
# How long an invitation to a club's people stays good (kernel.people), in days.
INVITATION_DAYS = env_int("INVITATION_DAYS", 7)
if INVITATION_DAYS < 1:
    raise ImproperlyConfigured(f"INVITATION_DAYS must be 1 or more; got {INVITATION_DAYS}")
# A password reset link stays good for a day (Django's default is three).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_HOURS", 24) * 3600

SPECTACULAR_SETTINGS = {
    "TITLE": "clubwhist API",
    "DESCRIPTION": "Set up and run duplicate whist events; enter results; read standings.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The enums' hook (drf-spectacular's default), then ours: no query value holds a NUL.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "clubwhist.schema.queries_hold_no_nul",
    ],
    # Request bodies are JSON: the form parsers stay for DRF's own pages, but a form cannot
    # carry the nested objects most bodies hold (an entry, settings, a list of teams).
    "PARSER_WHITELIST": ["tournaments.kernel.api.parsers.LimitedJSONParser"],
    # Three models have a `status` with its own choices: each enum is named for its model.
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.events.models.Event.Status",
        "ResultStatusEnum": "tournaments.events.models.Result.Status",
        "PrintJobStatusEnum": "tournaments.events.models.PrintJob.Status",
        # A team table's two sides, named once for every field that holds one.
        "TeamSideEnum": [("home", "home"), ("away", "away")],
        # How public pages show a member (the register's public-name choice).
        "MemberPublicNameEnum": "tournaments.kernel.models.PublicName",
        # A season's competition kinds and tie rules, and the formats of its evenings.
        "CompetitionKindEnum": "tournaments.seasons.models.Competition.Kind",
        "CompetitionTiesEnum": "tournaments.seasons.models.Competition.Ties",
        "SeasonHandicapBasisEnum": "tournaments.seasons.models.Season.Basis",
        "SeasonPlayFormatEnum": "tournaments.seasons.models.CompetitionPlay.Format",
    },
}

# Celery. Without REDIS_URL every task runs in-process at once (eager), so `make run` needs
# nothing else running; with it, tasks go through Redis to `celery worker` processes.
REDIS_URL = redis_url_from_env()


def cache_url(broker: str) -> str:
    """The cache's Redis database: the broker's server, the next database number (clearing
    the cache must never flush the broker's queues)."""
    return redis_database_moved(broker, 1)


# One cache for every web process (the tablets' request limits and the published results are
# kept there): Redis when there is one, else this process's memory (`runserver` on a laptop).
CACHES = {
    "default": (
        {
            "BACKEND": "clubwhist.cache.RedisCache",
            "LOCATION": os.environ.get("CACHE_REDIS_URL") or cache_url(REDIS_URL),
            # A Redis that does not answer must cost a request a moment, not hang it: the
            # cache then carries on without it (clubwhist/cache.py).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
CELERY_EAGER = not REDIS_URL
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = CELERY_EAGER
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "clubwhist")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# The sweep that re-queues results processing left behind while the broker was down (run by
# `celery worker --beat` or a separate `celery beat`); see tournaments/events/services/scoring.py.
CELERY_BEAT_SCHEDULE = {
    "rescore-sweep": {"task": "clubwhist.rescore_sweep", "schedule": 15.0},
}
# How long results processing waits before rescoring, so a burst of results is one recompute.
RESCORE_DEBOUNCE_SECONDS = env_int("RESCORE_DEBOUNCE_MS", 100) / 1000
# How long /health waits for a worker to answer a ping, in seconds.
HEALTH_WORKER_TIMEOUT = float(env_int("HEALTH_WORKER_TIMEOUT_MS", 1000)) / 1000

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"turned_away": {"()": "clubwhist.logfilters.TurnedAwayReaders"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO").upper()},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # A live-results reader turned away at a cap is not an error (clubwhist/logfilters.py).
        "django.request": {"filters": ["turned_away"]},
        # One line per task is worker noise; in-process (eager) runs it would fill the console.
        "celery.app.trace": {"level": "WARNING" if CELERY_EAGER else "INFO"},
        # django-axes logs every successful login at INFO; lockouts are WARNINGs.
        "axes": {"level": "WARNING"},
        # On the club laptop any device on the venue's Wi-Fi may knock with a wrong Host
        # (captive-portal probes, a phone's old bookmark): refused, but no traceback on the
        # director's screen each time.
        **({"django.security.DisallowedHost": {"level": "CRITICAL"}} if CLUB else {}),
    },
}
