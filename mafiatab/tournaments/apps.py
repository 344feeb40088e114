from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "mafiatab.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")
