"""WSGI entry point: `gunicorn mafiatab.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiatab.settings")

application = get_wsgi_application()
