from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeatingConfig(AppConfig):
    name = "mafiatab.seating"
    label = "seating"
    verbose_name = _("Seating")
