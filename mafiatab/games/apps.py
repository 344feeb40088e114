from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "mafiatab.games"
    label = "games"
    verbose_name = _("Games")
