"""WSGI entry point: `gunicorn mafiatab.wsgi`."""

import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from mafiatab.standings.cache import release

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiatab.settings")

application = get_wsgi_application()

# The URLconf, and with it every view, is imported while the worker starts, so that
# its first request is served as fast as the next ones (Django would import it then).
import_module(settings.ROOT_URLCONF)
# So is the fingerprint of the release the standings' kept pages are keyed on.
release()
