from django.urls import path

from mafiatab.announcements import views

app_name = "announcements"

urlpatterns = [
    path("messages/", views.messages_page, name="messages"),
]
