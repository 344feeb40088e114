from django.urls import path

from mafiatab.penalties import views

app_name = "penalties"

urlpatterns = [
    path("penalties/", views.penalty_list, name="list"),
    path("penalties/give/", views.give, name="give"),
    path("penalties/<int:pk>/cancel/", views.cancel, name="cancel"),
]
