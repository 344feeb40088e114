from django.urls import path

from mafiatab.registrations import views

app_name = "registrations"

urlpatterns = [
    path("apply/", views.apply, name="apply"),
    path("withdraw/", views.withdraw_own, name="withdraw_own"),
    path("online-links/", views.online_links, name="online_links"),
    path("checkin/", views.checkin_self, name="checkin_self"),
    path("calendar/renew/", views.calendar_renew, name="calendar_renew"),
    path("registrations/", views.manage, name="manage"),
    path("registrations/add/", views.add, name="add"),
    path("registrations/checkin/", views.checkin, name="checkin"),
    path("registrations/checkin/open/", views.checkin_open_view, name="checkin_open"),
    path("registrations/approve/", views.approve_selected, name="approve_selected"),
    path("registrations/checkin-selected/", views.checkin_selected, name="checkin_selected"),
    path("registrations/<int:pk>/approve/", views.approve, name="approve"),
    path("registrations/<int:pk>/reject/", views.reject, name="reject"),
    path("registrations/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
]
