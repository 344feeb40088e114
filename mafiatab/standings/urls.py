from django.urls import path

from mafiatab.standings import views

app_name = "standings"

urlpatterns = [
    path("standings/", views.standings, name="table"),
    path("standings/player/<path:player>", views.player, name="player"),
]
