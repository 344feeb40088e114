from django.urls import path

from mafiatab.console import views

app_name = "console"

urlpatterns = [
    path("console-sw.js", views.service_worker, name="service_worker"),
    path("games/<int:pk>/console/", views.console, name="console"),
    path("games/<int:pk>/console/finish/", views.finish, name="finish"),
    path("games/<int:pk>/live/", views.spectator, name="spectator"),
    path("games/<int:pk>/live/board/", views.spectator_board, name="board"),
]
