from django.urls import path

from mafiatab.console import broadcast_views, views

app_name = "console"

urlpatterns = [
    path("console-sw.js", views.service_worker, name="service_worker"),
    path("games/<int:pk>/console/", views.console, name="console"),
    path("games/<int:pk>/console/finish/", views.finish, name="finish"),
    path("games/<int:pk>/console/ready/", views.ready, name="ready"),
    path("games/<int:pk>/console/ready/fine/", views.ready_fine, name="ready_fine"),
    path("games/<int:pk>/console/reports/decide/", views.report_decide, name="report_decide"),
    path("games/<int:pk>/console/side/", views.side, name="side"),
    path("games/<int:pk>/console/side-judge/", views.side_judge_assign, name="side_judge"),
    path("games/<int:pk>/live/", views.spectator, name="spectator"),
    path("games/<int:pk>/live/board/", views.spectator_board, name="board"),
    path("games/<int:pk>/live/updates/", broadcast_views.board_live, name="board_live"),
    path("games/<int:pk>/overlay/", broadcast_views.overlay, name="overlay"),
    path("games/<int:pk>/overlay/updates/", broadcast_views.overlay_live, name="overlay_live"),
    path("games/<int:pk>/card/", broadcast_views.card, name="card"),
    path("games/<int:pk>/card/updates/", broadcast_views.card_live, name="card_live"),
    path("broadcast/", broadcast_views.broadcast_page, name="broadcast"),
    path("broadcast/director/", broadcast_views.director_links, name="director_links"),
    path("director/<str:token>/", broadcast_views.director, name="director"),
    path(
        "director/<str:token>/games/<int:pk>/overlay/",
        broadcast_views.director_overlay,
        name="director_overlay",
    ),
    path(
        "director/<str:token>/games/<int:pk>/overlay/updates/",
        broadcast_views.director_overlay_live,
        name="director_overlay_live",
    ),
]
