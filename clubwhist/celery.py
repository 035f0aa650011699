"""The Celery application.

Configuration comes from Django settings (the CELERY_ namespace), so the broker is Redis when
REDIS_URL is set and tasks run eagerly in-process when it is not.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")

app = Celery("clubwhist")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
