from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingsConfig(AppConfig):
    name = "mafiatab.standings"
    label = "standings"
    verbose_name = _("Standings")
