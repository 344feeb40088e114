from django.urls import path

from mafiatab.games import views

app_name = "games"

urlpatterns = [
    path("rounds/", views.rounds, name="rounds"),
    path("rounds/<int:pk>/tables/", views.table_add, name="table_add"),
    path("tables/<int:pk>/judge/", views.table_judge, name="table_judge"),
    path("rounds/<int:pk>/schedule/", views.round_schedule, name="round_schedule"),
    path("rounds/<int:pk>/lateness/", views.lateness, name="lateness"),
    path("calendar.ics", views.tournament_calendar, name="calendar"),
    path("calendar/<int:pk>/<str:token>.ics", views.player_calendar, name="player_calendar"),
    path("my-tables/", views.my_tables, name="my_tables"),
    path("protocols/queue/", views.queue, name="queue"),
    path("games/", views.game_list, name="list"),
    path("games/<int:pk>/", views.detail, name="detail"),
    path("games/<int:pk>/history/", views.history, name="history"),
    path("games/<int:pk>/protocol/", views.protocol, name="protocol"),
    path("games/<int:pk>/protocol/preview/", views.preview, name="preview"),
    path("games/<int:pk>/confirm/", views.confirm, name="confirm"),
    path("games/<int:pk>/return/", views.return_protocol, name="return"),
    path("games/<int:pk>/replay/", views.replay, name="replay"),
    path("games/<int:pk>/protest/", views.protest, name="protest"),
    path("protests/<int:pk>/", views.protest_decide, name="decide"),
]
