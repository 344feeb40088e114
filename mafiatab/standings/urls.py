from django.urls import path

from mafiatab.standings import views

app_name = "standings"

urlpatterns = [
    # One address for the table and its other forms: ?provisional=1, ?view=projector,
    # ?format=csv; an htmx request gets the refreshable part only.
    path("standings/", views.standings, name="table"),
    path("standings/strip/", views.strip, name="strip"),
    path("standings/settings/", views.manage, name="manage"),
    path("standings/advance/<slug:stage>/", views.advance, name="advance"),
    path("standings/player/<path:player>", views.player, name="player"),
]
