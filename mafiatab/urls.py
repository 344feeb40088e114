"""The URLconf. Each app brings its own `urls.py`; a JSON API mounts as `path("api/", ...)`."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from mafiatab.api import api
from mafiatab.front.views import healthz

TOURNAMENT = "t/<slug:slug>/"

#: A busy database or a full disk met outside a view is a 503 "try again" too.
handler500 = "mafiatab.security.busy.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", RedirectView.as_view(url=static("mafiatab/favicon.svg"), permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("mafiatab.accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path(TOURNAMENT, include("mafiatab.registrations.urls")),
    path(TOURNAMENT, include("mafiatab.penalties.urls")),
    path(TOURNAMENT, include("mafiatab.standings.urls")),
    path(TOURNAMENT, include("mafiatab.games.urls")),
    path(TOURNAMENT, include("mafiatab.seating.urls")),
    path(TOURNAMENT, include("mafiatab.printables.urls")),
    path(TOURNAMENT, include("mafiatab.console.urls")),
    path(TOURNAMENT, include("mafiatab.announcements.urls")),
    path("", include("mafiatab.notifications.urls")),
    path("", include("mafiatab.front.urls")),
]
