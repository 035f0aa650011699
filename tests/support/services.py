"""Which real services this test run has, and what to do when a test needs a missing one.

Service tests run when DATABASE_URL / REDIS_URL point at real servers and are skipped with
the reason shown when they do not; with REQUIRE_SERVICES=1 (as in CI) a missing service is a
failure, so a CI run can never pass by skipping.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))


def require_services() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "").strip() == "1"


def missing_reason(marker: str) -> str | None:
    """Why a test with this marker cannot run here, or None when it can."""
    if marker == "postgres":
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith(("postgres://", "postgresql://")):
            return "needs PostgreSQL: set DATABASE_URL=postgres://..."
    elif marker == "redis":
        if not os.environ.get("REDIS_URL"):
            return "needs Redis and a Celery worker: set REDIS_URL=redis://..."
    elif marker == "browser":
        if not CHROMIUM.exists() and not shutil.which(str(CHROMIUM)):
            return f"needs Chromium at {CHROMIUM} (apt-get install chromium)"
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            return "needs the playwright package (pip install -r requirements/dev.txt)"
    return None
