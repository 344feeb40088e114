from django.urls import path

from mafiatab.front import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("t/new/", views.tournament_new, name="new"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("t/<slug:slug>/edit/", views.tournament_edit, name="edit"),
    path("t/<slug:slug>/close/", views.close_view, name="close"),
    path("t/<slug:slug>/staff/", views.staff, name="staff"),
    path("t/<slug:slug>/staff/<int:pk>/remove/", views.staff_remove_view, name="staff_remove"),
    path("t/<slug:slug>/history/", views.history, name="history"),
    path("t/<slug:slug>/tournament.json", views.export_file, name="export"),
]
