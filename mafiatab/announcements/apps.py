from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnnouncementsConfig(AppConfig):
    name = "mafiatab.announcements"
    label = "announcements"
    verbose_name = _("Announcements")
