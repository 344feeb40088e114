from django.urls import path

from mafiatab.notifications import views

app_name = "notifications"

# Under /accounts/: each belongs to one person (the unsubscribe link names him itself).
urlpatterns = [
    path("accounts/inbox/", views.inbox, name="inbox"),
    path("accounts/inbox/badge/", views.badge, name="badge"),
    path("accounts/inbox/read/", views.mark_all_read, name="mark_all_read"),
    path("accounts/inbox/<int:pk>/", views.open_message, name="open"),
    path("accounts/notifications/", views.preferences, name="preferences"),
    path("accounts/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
