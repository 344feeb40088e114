from django.urls import path

from mafiatab.printables import views

app_name = "printables"

urlpatterns = [
    path("games/<int:pk>/protocol.pdf", views.game_protocol, name="protocol"),
    path("protocols.pdf", views.blank_protocols, name="blank_protocols"),
    path("seating.pdf", views.seating, name="seating"),
    path("seating/judges.pdf", views.judge_copies, name="judge_copies"),
    path("standings.pdf", views.standings_pdf, name="standings_pdf"),
    path("standings.xlsx", views.standings_xlsx, name="standings_xlsx"),
    path("archive.zip", views.archive, name="archive"),
]
