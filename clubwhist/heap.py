"""The web and worker processes' heap, settled once the application has loaded.

Why: once Django, DRF, the models, the URL patterns and the views are loaded, a web process
holds some 170,000 objects that live as long as it does. Python's full collection (its oldest
generation) walks every one of them each time, and it stops every thread of the process while
it does: measured under 300 tablets on the 2-core machine, about 100 ms of CPU (130-230 ms of
wall time) four times a minute in each process, and the requests it caught were the slowest
of the run. Moved out of the collector's sight (`gc.freeze`), they are never walked again; the
collector still sees, and frees, everything made afterwards.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle() -> None:
    """Load what the first request would (every view module, through the URL patterns), then
    hand everything alive to the permanent generation. Call it once the application is built."""
    get_resolver().url_patterns  # noqa: B018 (the property imports the views)
    freeze_loaded()


def freeze_loaded() -> None:
    """Hand everything alive now to the permanent generation. A Celery worker calls it once
    Django and the tasks are loaded, before its pool forks (`clubwhist.celery`): a rescore
    makes thousands of objects, and a full collection in a worker walked some 117,000 of
    Django's (about 75 ms each, measured beside `standings_compute`, every 15 or so rescores)."""
    gc.collect()
    gc.freeze()
