from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PenaltiesConfig(AppConfig):
    name = "mafiatab.penalties"
    label = "penalties"
    verbose_name = _("Penalties")
