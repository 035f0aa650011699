"""WSGI entry point, served by gunicorn in production."""

import os

from django.core.wsgi import get_wsgi_application

from clubwhist import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
application = get_wsgi_application()
heap.settle()
